"""`akgen mcp`: the Model Context Protocol server, an adapter beside `server/` (LSP) and `cli/` over the same core.

app.py        the MCPServer: tools (lint, check, fix, explain, report, sim_run, run_program, bench), resources
checking.py   the one way into the check path (the warm check worker, the verified fixes)
knowledge.py  lint, explain and report as plain functions over the core
jobs.py       `akgen sim ...` / `akgen bench run` in a child process group (cancellable)
roots.py      every path confined to the client's roots
schemas.py    the tools' output schemas
transport.py  stdio, and streamable HTTP on loopback with a bearer token
"""
