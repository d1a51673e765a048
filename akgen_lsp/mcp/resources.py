"""The MCP server's resources: the API catalog (an index and one entry), the arch profiles, the static rules."""

from __future__ import annotations

import json

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError

from akgen_lsp.config import load_settings
from akgen_lsp.mcp import knowledge


def register_resources(server: MCPServer) -> None:
    from akgen_lsp.ascendc.arch import ArchError, arch_names, load_arch
    from akgen_lsp.ascendc.catalog import load_catalog
    from akgen_lsp.ascendc.rules import all_rules

    @server.resource("akgen://catalog", mime_type="application/json", title="Ascend C API catalog (index)")
    def catalog_index() -> str:
        """Every API of the catalog: name, kind, pipe (read one with akgen://catalog/{name})."""
        return json.dumps([{"name": e.name, "kind": e.kind, "pipe": e.pipe} for e in load_catalog()])

    @server.resource("akgen://catalog/{name}", mime_type="application/json", title="Ascend C API")
    def catalog_entry(name: str) -> str:
        """One catalog entry (qualified, AscendC::DataCopy, or short, DataCopy): signatures, dtypes, constraints."""
        found = knowledge.explain(name, load_settings(None))
        if found["kind"] != "api":
            raise ResourceNotFoundError(found["text"])
        return json.dumps(found["data"])

    @server.resource("akgen://arch", mime_type="application/json", title="Arch profiles (index)")
    def arch_index() -> str:
        """The hardware profiles akgen knows (read one with akgen://arch/{name})."""
        return json.dumps(arch_names())

    @server.resource("akgen://arch/{name}", mime_type="application/json", title="Arch profile")
    def arch_profile(name: str) -> str:
        """One hardware profile: cores, clock, memories, alignment, limits, bandwidths, cost tables."""
        try:
            return json.dumps(load_arch(name).as_dict())
        except (ArchError, OSError, KeyError) as exc:
            raise ResourceNotFoundError(
                f"no arch profile {name!r} ({exc}); read akgen://arch for the names"
            ) from None

    @server.resource("akgen://rules", mime_type="application/json", title="Static rules")
    def rules() -> str:
        """The static checker's rules: code, name, summary, on by default."""
        return json.dumps(
            [
                {"code": r.code, "name": r.name, "summary": r.summary, "default": r.default_enabled}
                for r in all_rules()
            ]
        )
