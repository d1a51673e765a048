"""The check: one kernel compiled and run on the simulator against its task's cases, in the sandbox.

- `kernel`: `check_kernel(path, settings)`, the one call every caller makes (in-process for the bench and tests);
- `process`: the persistent check worker (`python -m akgen_lsp.check.process`: imports the check once, one forked
  process tree per job);
- `worker`: the caller's side of that worker (start it, send jobs, kill what is cancelled), used by the server,
  `akgen fix` and the generate command;
- `result`: what a check says (`CheckResult`: a `Status`, findings, `Figures`, seconds), the timeout policy
  (`check_timeout`) and the shape of a checker (`Checker`);
- `settings`: the settings a check reads (`settings_of`: one `config.Settings` from whatever the caller holds).
"""
