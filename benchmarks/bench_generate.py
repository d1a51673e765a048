"""The closed loop's figures with the forced-output model (real llama.cpp inference of the tiny GGUF, each answer
fixed by a GBNF grammar), which proves the bookkeeping, not a model:

1. the loop's own overhead (prompt building, context bound, extraction, diagnostic report, feedback, results file)
   as a share of each round's wall time (model + simulator + loop), in all, per round (median and max) and by stage;
   the target is <= 5 % of every round;
2. the table "pass@1 / pass@10 at round 0, 1, 3" per level: for every task, 10 samples whose answers pass at round
   0, 1, 2, 3 or never (two samples each), so pass@1 after round r is c/10 with c = 2, 4, 6, 8 and pass@10 is 1.

Level 1 runs in static shape (AbsMath case 0, our kernel-only answer), level 2 in dynamic shape (the task's reference
answer as the three file sections; --cases N of its cases). A failing round answers a sentence with no kernel. No
real model can be downloaded here: docs/generate.md has the commands that make the same table with one.

    python benchmarks/bench_generate.py [--samples 10] [--levels 1,2] [--cases 2] [--out DIR]
    python benchmarks/bench_generate.py --plan nonsense [--samples 10] [--levels 1,2]   # no-kernel rounds only
    python benchmarks/bench_generate.py --memory [--out DIR]

``--memory`` measures the experience memory with and without: a first run (does not compile, wrong numbers,
correct) fills a store of repairs; then the same task again with that store and without one. With forced answers the
rounds to pass cannot change (the grammar decides them), so what it shows is what the memory puts into the prompt
(the similar repair retrieved, its tokens) and what it costs; what it gains needs a real model (docs/generate.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from akgen_lsp.bench.executor import SerialExecutor  # noqa: E402
from akgen_lsp.bench.runner import default_suite  # noqa: E402
from akgen_lsp.bench.tasks import load_task  # noqa: E402
from akgen_lsp.config import defaults  # noqa: E402
from akgen_lsp.generate.attempt import Attempt, LoopConfig  # noqa: E402
from akgen_lsp.generate.bench import GenerateOptions, generation  # noqa: E402
from akgen_lsp.generate.summary import pass_table, summarise_rounds  # noqa: E402
from akgen_lsp.model.backends.llama_cpp import LlamaCppBackend  # noqa: E402
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf  # noqa: E402

L1 = REPO / "tests" / "generate" / "fixtures" / "abs_case0.cpp"
L2_TASK = "SiluActivation"
N_CTX = 32768
NONSENSE = "I am not sure how to write this kernel; the Ascend C API is new to me."


def passes_at(sample: int) -> int | None:
    """Sample s passes at round s % 5 (4: never within the four rounds)."""
    r = sample % 5
    return None if r == 4 else r


def dynamic_answer(task_root: Path, op: str) -> str:
    a = task_root / "answer" / "0"
    parts = []
    for name in (f"op_host/{op}_tiling.h", f"op_host/{op}.cpp", f"op_kernel/{op}.cpp"):
        parts.append(f"================== {name} ==================\n```cpp\n"
                     f"{(a / name).read_text(encoding='utf-8').rstrip()}\n```")
    return "\n\n".join(parts) + "\n"


async def run_level(gguf: Path, out: Path, task: str, mode: str, correct: str, samples: int, cases: int | None,
                    plan: str = "mixed") -> dict:
    b = LlamaCppBackend(str(gguf), n_ctx=N_CTX, n_threads=1)
    await b.load()

    def grammar(r: int, a: Attempt) -> str:
        at = passes_at(a.sample) if plan == "mixed" else None
        return literal_grammar(correct if at is not None and r >= at else NONSENSE)

    cfg = LoopConfig(rounds=4, mode=mode, max_tokens=min(12000, len(correct) + 200), temperature=0.7,
                     context=N_CTX, grammar=grammar, timeout_s=1800)
    opts = GenerateOptions(tasks=[task], out=out, samples=samples, model="forced", eval_max_cases=cases)
    return await generation(opts, cfg, b, defaults(), executor=SerialExecutor())


def memory_check(gguf: Path, out: Path) -> None:
    code = L1.read_text(encoding="utf-8")
    broken = code.replace("Abs(y, x, TILE);", "AscendC::Absolute(y, x, TILE);")
    wrong = code.replace("Abs(y, x, TILE);", "Muls(y, x, (half)-1.0, TILE);")

    def ans(c: str) -> str:
        return f"<kernel_impl>\n```cpp\n{c.rstrip()}\n```\n</kernel_impl>\n"

    plan = [ans(broken), ans(wrong), ans(code)]

    async def one(folder: Path, store: Path | None) -> dict:
        b = LlamaCppBackend(str(gguf), n_ctx=N_CTX, n_threads=1)
        await b.load()
        cfg = LoopConfig(rounds=3, mode="static", max_tokens=2000, context=N_CTX, timeout_s=1800,
                         grammar=lambda r, _a: literal_grammar(plan[min(r, 2)]))
        opts = GenerateOptions(tasks=["AbsMath"], out=folder, model="forced", memory=store)
        return await generation(opts, cfg, b, defaults(), executor=SerialExecutor())

    store = out / "memory" / "repairs.sqlite"
    asyncio.run(one(out / "memory" / "fill", store))
    for name, st in (("with memory", store), ("without memory", None)):
        folder = out / "memory" / name.replace(" ", "-")
        s = asyncio.run(one(folder, st))
        lines = [json.loads(x) for x in (folder / "results.jsonl").read_text().splitlines()]
        similar = sum("### Similar errors already fixed" in (ln["feedback"] or "") for ln in lines)
        print(f"{name:15s}: passed at round {s['attempts'][0]['passed_at']}, prompt tokens per round "
              f"{[ln['prompt_tokens'] for ln in lines]}, feedback turns with a similar repair {similar}/{len(lines)}, "
              f"loop {sum(ln['loop_s'] for ln in lines):.3f} s of {sum(ln['model_s'] + ln['eval_s'] + ln['loop_s'] for ln in lines):.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--levels", default="1,2")
    ap.add_argument("--cases", type=int, default=2, help="dynamic shape: cases run per answer")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--memory", action="store_true", help="measure the experience memory with and without")
    ap.add_argument("--plan", choices=("mixed", "nonsense"), default="mixed",
                    help="nonsense: every answer is the sentence with no kernel (the rounds the loop's own time "
                         "weighs most in, without the simulator: a quick check of the overhead)")
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-generate-"))
    out.mkdir(parents=True, exist_ok=True)
    gguf = write_tiny_gguf(out / "forced.gguf", n_ctx=N_CTX)
    if args.memory:
        memory_check(gguf, out)
        return
    levels = [int(x) for x in args.levels.split(",") if x]
    t0 = time.perf_counter()
    lines: list[dict] = []
    sync_s = 0.0
    for level in levels:
        if level == 1:
            code = L1.read_text(encoding="utf-8")
            correct = f"<kernel_impl>\n```cpp\n{code.rstrip()}\n```\n</kernel_impl>\n"
            run = asyncio.run(run_level(gguf, out / "l1", "AbsMath", "static", correct, args.samples, None, args.plan))
            folder = out / "l1"
        else:
            root = next((default_suite() / "tasks" / f"level{level}").glob(f"*/{L2_TASK}"))
            task = load_task(root)
            run = asyncio.run(run_level(gguf, out / f"l{level}", L2_TASK, "dynamic", dynamic_answer(root, task.op),
                                        args.samples, args.cases, args.plan))
            folder = out / f"l{level}"
        lines += with_write_times([json.loads(x) for x in (folder / "results.jsonl").read_text().splitlines()], run)
        sync_s += run["results_file"]["sync_s"]
    summary = summarise_rounds(lines, {"rounds": 4})
    wall = time.perf_counter() - t0
    print(f"rounds {len(lines)}, samples per task {args.samples}, levels {levels}, wall {wall:.0f} s")
    print_overhead(lines, sync_s)
    print("\n".join(pass_table(summary)))
    print(f"results: {out}")


def with_write_times(lines: list[dict], run: dict) -> list[dict]:
    """Each round's line with the seconds its own writing cost (``write_s``, from the run's summary: a round's line
    cannot hold the time it took to write it)."""
    written = run["results_file"]["write_s"]
    assert len(written) == len(lines), "a fresh output folder: every line was written by this run"
    return [{**ln, "write_s": w} for ln, w in zip(lines, written, strict=True)]


def print_overhead(lines: list[dict], sync_s: float) -> None:
    """The loop's own share of each round's wall time (model + simulator + loop + writing its line), the median and
    the worst round, by kind of round, and where the loop's time goes."""

    def own(ln: dict) -> float:
        return ln["loop_s"] + ln["write_s"]

    def share(ln: dict) -> float:
        return own(ln) / (ln["model_s"] + ln["eval_s"] + own(ln))

    total = sum(ln["model_s"] + ln["eval_s"] + own(ln) for ln in lines) + sync_s
    shares = [share(ln) for ln in lines]
    print(f"loop overhead (outside the model and the simulator, with the results file): "
          f"{(sum(own(ln) for ln in lines) + sync_s) / total:.3%} of the wall time in all; per round median "
          f"{statistics.median(shares):.3%}, max {max(shares):.3%} (target <= 5% of every round)")
    for label, pick in (("rounds with a kernel (simulator)", lambda ln: ln["eval_s"] > 0),
                        ("rounds without a kernel", lambda ln: ln["eval_s"] == 0)):
        sel = [ln for ln in lines if pick(ln)]
        if sel:
            worst = max(sel, key=share)
            print(f"  {label}: {len(sel)}, median {statistics.median(share(ln) for ln in sel):.3%}, max "
                  f"{share(worst):.3%} ({own(worst) * 1000:.1f} ms of {(worst['model_s'] + worst['eval_s'] + own(worst)) * 1000:.0f} ms; "
                  f"model {worst['model_s'] * 1000:.0f} ms)")
    parts: dict[str, float] = {}
    for ln in lines:
        for k, v in (ln.get("loop_parts") or {}).items():
            parts[k] = parts.get(k, 0.0) + v
    parts["results file (per line)"] = sum(ln["write_s"] for ln in lines)
    parts["results file (fsync at the end)"] = sync_s
    print("  the loop's time: " + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in parts.items()))
    for name in ("model_s", "eval_s", "loop_s", "write_s"):
        print(f"  {name}: {sum(ln[name] for ln in lines):.2f} s")


if __name__ == "__main__":
    main()
