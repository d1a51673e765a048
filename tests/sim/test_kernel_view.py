"""What a kernel's compile sees of our headers stays cheap to compile: no <string> (libstdc++'s own inline functions
in it make every kernel compile instantiate about 400 templates again, a tenth of a second: the precompiled header
keeps parsed templates, not their instantiations), and the queues' and tensors' type-independent work is compiled
once in the launcher, not again in each kernel (docs/sim.md, "Writing the headers")."""

from __future__ import annotations

import subprocess

import pytest

from akgen_lsp.sim.compiler import BASE_FLAGS, INCLUDE_DIR, find_cxx

from .conftest import needs_gxx

KERNEL = '#include "kernel_operator.h"\n'


def _included(arch: str) -> list[str]:
    flags = [f for f in BASE_FLAGS if not f.startswith("-fdiagnostics") and f != "-fmax-errors=30"]
    res = subprocess.run([find_cxx(), *flags, "-DASCENDC_CPU_DEBUG", f"-D__NPU_ARCH__={arch}", "-mf16c", "-I",
                          str(INCLUDE_DIR), "-H", "-fsyntax-only", "-x", "c++", "-"], input=KERNEL,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    return [line.lstrip(".").strip() for line in res.stderr.splitlines() if line.startswith(".")]


@needs_gxx
@pytest.mark.parametrize("arch", ["2201", "3002", "2002"])
def test_a_kernel_compile_does_not_include_string(arch: str) -> None:
    headers = _included(arch)
    assert any(h.endswith("/kernel_operator.h") for h in headers)
    assert not [h for h in headers if h.endswith(("/bits/basic_string.h", "/c++/12/string"))], \
        "a header of the kernel view includes <string>: keep std::string in launcher/*.inc (docs/sim.md)"


@needs_gxx
def test_the_queue_work_is_compiled_once_in_the_launcher(tmp_path) -> None:
    # a kernel that allocates, queues and frees emits only the typed wrappers; the work is the launcher's symbol
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL + """
using namespace AscendC;
void f(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    t = q.DeQue<float>();
    q.FreeTensor(t);
}
""")
    obj = tmp_path / "k.o"
    flags = [f for f in BASE_FLAGS if not f.startswith("-fdiagnostics") and f != "-fmax-errors=30"]
    res = subprocess.run([find_cxx(), *flags, "-DASCENDC_CPU_DEBUG", "-D__NPU_ARCH__=2201", "-mf16c", "-I",
                          str(INCLUDE_DIR), "-c", str(src), "-o", str(obj)], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    symbols = subprocess.run(["nm", "-C", str(obj)], capture_output=True, text=True, check=True).stdout
    undefined = {line.split(None, 1)[1] for line in symbols.splitlines() if line.lstrip().startswith("U ")}
    defined = [line for line in symbols.splitlines() if not line.lstrip().startswith("U ")]
    for work in ("TQueCore::alloc_slot", "TQueCore::enque_slot", "TQueCore::deque_slot", "TQueCore::free_slot",
                 "TPipe::init_buffer", "akgen_sim::check_live"):
        assert any(work in u for u in undefined), work
        assert not any(work in d for d in defined), work
