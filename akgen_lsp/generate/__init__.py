"""The closed loop: generate -> execute -> feedback (`akgen generate`, model candidates in the bench, the editor's
"Generate kernel for this task" and "Improve performance").

One round: the conversation so far (bounded to the model's context) -> the model -> answer extraction -> the bench
pipeline on the simulator (through an `Executor`, or the server's check worker) -> on failure the diagnostic report
of the first error becomes the next round's prompt; once the kernel passes, optional performance rounds with
feedback from the estimate, each of which must stay correct; the best correct kernel is kept.

Modules, bottom up: `task_prompt` (the task's prompt in NPUKernelBench's format and answer layout), `feedback` (a
round's outcome as the next user turn: the diagnostic report, or the estimate's advice), `conversation` (the turns
bounded to the context), `attempt` (one instance's rounds, a state machine with no I/O), `memory` (the experience
memory: verified repairs and improvements in the repair store), `loop` (the driver: model calls with a concurrency
limit, timeouts and a batch evaluation per round), `evaluators` (the bench executor's and the check worker's
evaluation), `summary` (pass@k per round, fast_p, score, error classes, tokens and time), `training` (SFT / preference
data of the rounds), `bench` (`akgen bench run --candidates model`: resumable rounds over a suite).
"""
