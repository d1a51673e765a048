"""What compilers and build tools print, read: compiler output and build logs -> findings or error blocks.

The one layer of log and compiler-output parsing (below the sim, the bench, `check/`, the server and `errors/`):
- `gcc`: g++ diagnostics of a sim build -> findings at the user's line (`parse_gcc_output`; the sim passes the
  prefixes of its own generated files, `sim.build_cache.generated_roots`);
- `cann`: a CANN custom-op build log (bisheng, CMake, the linker, msopgen, make) -> findings (`parse_build_log`:
  the cann toolchain's build, the editor's build logs), read by `text`'s line parsers as `mine` reads it;
- `fixits`: clang's ``-fdiagnostics-parseable-fixits`` lines -> a `Fix` on the finding;
- `mine`: any log -> error blocks (`mine_log`, `akgen errors mine`), over the line parsers `compiler` (g++,
  clang, bisheng), `build_system` (CMake, make, ninja, msopgen, the linker), `npu` (NPU runtime errors), `text`
  (one pass over a text log with all of them), `records` and `findings` (JSON results: sim runs, bench records,
  lint output); `blocks` (`ErrorBlock`, grouping), `paths` (`PathMapper`: the user's files against library
  files), `signature` (an error's signature, its message with the names and numbers taken out).
It imports only `findings` and `error_classes`.
"""
