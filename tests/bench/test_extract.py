from __future__ import annotations

import pytest

from akgen_lsp.bench.extract import ExtractError, extract_answer

KERNEL = 'extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y) {}'


def test_kernel_impl_tags_with_and_without_fence() -> None:
    assert extract_answer(f"blah <kernel_impl>\n```cpp\n{KERNEL}\n```\n</kernel_impl> tail").kernel == KERNEL
    got = extract_answer(f"<kernel_impl>{KERNEL}</kernel_impl>")
    assert got.kernel == KERNEL and got.how == "kernel_impl"


def test_think_block_is_ignored() -> None:
    text = f"<think>maybe ```cpp\nint wrong;\n```</think>\n```cpp\n{KERNEL}\n```"
    assert extract_answer(text).kernel == KERNEL
    with pytest.raises(ExtractError):
        extract_answer("<think>still thinking ```cpp\nint x;\n```")


def test_dynamic_sections() -> None:
    text = ("================== op_host/add_tiling.h ==================\n```cpp\nTILING\n```\n"
            "================== op_host/add.cpp ==================\n```cpp\nHOST\n```\n"
            f"================== op_kernel/add.cpp ==================\n```cpp\n{KERNEL}\n```\n")
    got = extract_answer(text, op="add")
    assert (got.kernel, got.host, got.tiling_header, got.how) == (KERNEL, "HOST", "TILING", "sections")


def test_fenced_prefers_the_entry_block() -> None:
    text = f"helper:\n```c++\nint helper_function_that_is_long_long_long() {{ return 1; }}\n```\nmain:\n```\n{KERNEL}\n```"
    assert extract_answer(text).kernel == KERNEL
    assert extract_answer("```python\nprint(1)\n```\n```cpp\nint a;\n```").kernel == "int a;"


def test_raw_and_missing() -> None:
    assert extract_answer(KERNEL).how == "raw"
    with pytest.raises(ExtractError):
        extract_answer("I cannot write this kernel.")
    with pytest.raises(ExtractError):
        extract_answer("")
