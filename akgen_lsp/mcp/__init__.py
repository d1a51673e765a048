"""`akgen mcp`: the Model Context Protocol server, an adapter beside `server/` (LSP) and `cli/` over the same core.

app.py        the MCPServer and its tools lint, check, fix, explain, report
run_tools.py  the tools that run `akgen` in a child process: sim_run, run_program, bench
op_tool.py    the op_test tool (an operator's own kernel UT)
resources.py  the resources: catalog, arch profiles, rules
state.py      one server's state: its roots, the warm check worker, the lint thread, settings per folder
tooling.py    what the tools share: argument types, annotations, results, progress, waiting on a job
checking.py   the one way into the check path (the warm check worker, the verified fixes)
knowledge.py  lint, explain and report as plain functions over the core
jobs.py       `akgen sim ...` / `akgen bench run` in a child process group (cancellable)
roots.py      every path confined to the client's roots
schemas.py    the tools' output schemas
transport.py  stdio, and streamable HTTP on loopback with a bearer token
"""
