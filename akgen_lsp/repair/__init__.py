""" "Fix this build error": fixes of a check's findings that are offered only after they verified on the simulator.

The use case below the editor and the command line (the server's `features/repair.py` and `akgen fix` are thin
adapters over it):

- `fixers/`: deterministic fixes of build, run and wrong-numbers findings (the compiler's fix-its, the catalog's
  names, FreeTensor, DataCopyPad, repeat loops, ...), one module per kind;
- `verify`: a candidate text checked like a save (through the caller's `Checker`: the check worker, so it is
  compiled and run in the sandbox and cancellable) and the bars it must pass;
- `deterministic`: the verified fixes of a check, and `akgen fix`'s loop of them;
- `model_repair`: the model's candidates (diagnostic report -> prompt -> samples), screened, verified, ranked;
- `edits`: minimal edits between two versions of a file; `remember`: accepted repairs into the store of repairs;
  `backend`: the configured model and its name.
"""
