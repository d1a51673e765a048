"""The generated 9.x entries (akgen_lsp/ascendc/catalog_generated.py): their overloads are parsed on first use, the
same overloads as parsing every declaration at load, one object per declaration, and pickled as the declarations."""

from __future__ import annotations

import contextlib
import pickle

from akgen_lsp.ascendc.catalog import CATALOG_DIR, CatalogError, load_catalog_dir, parse_signature
from akgen_lsp.ascendc.catalog_generated import LazyOverloads


def _parsed_at_once(declarations: tuple[tuple[str, str], ...]) -> list[str]:
    out = []
    for template, declaration in declarations:
        with contextlib.suppress(CatalogError):  # a declaration that does not parse is left out
            out.append(parse_signature(declaration, template=template).label())
    return out


def test_generated_overloads_are_parsed_on_first_use_and_match_a_full_parse():
    catalog = load_catalog_dir(CATALOG_DIR)
    generated = [e for e in catalog if e.extra.get("generated") and e.kind == "function"]
    assert len(generated) > 1000
    lazy = [e.overloads for e in generated]
    assert all(isinstance(o, LazyOverloads) for o in lazy)
    assert all(o._parsed is None for o in lazy)  # nothing parsed by loading the catalog
    add = catalog.get("AscendC::MicroAPI::Add")
    assert add is not None and isinstance(add.overloads, LazyOverloads)
    assert [ov.label() for ov in add.overloads] == _parsed_at_once(add.overloads.declarations)
    assert (
        len(add.overloads) == len(list(add.overloads)) > 0
        and add.overloads[0] is add.overloads[-len(add.overloads)]
    )
    assert sum(o._parsed is not None for o in lazy) == 1  # only the entry that was used
    for entry in generated[::50]:  # the rest, sampled: what a full parse at load gave
        assert [ov.label() for ov in entry.overloads] == _parsed_at_once(entry.overloads.declarations)


def test_the_same_declaration_is_one_overload_object():
    catalog = load_catalog_dir(CATALOG_DIR)
    reg, micro = catalog.get("AscendC::Reg::Add"), catalog.get("AscendC::MicroAPI::Add")
    assert reg is not None and micro is not None
    assert reg.overloads.declarations == micro.overloads.declarations
    assert all(a is b for a, b in zip(reg.overloads, micro.overloads, strict=True))


def test_a_pickled_catalog_keeps_the_declarations_not_the_parsed_overloads():
    catalog = load_catalog_dir(CATALOG_DIR)
    add = catalog.get("AscendC::MicroAPI::Add")
    assert add is not None
    labels = [ov.label() for ov in add.overloads]  # parsed before pickling
    again = pickle.loads(pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL)).get(add.name)
    assert again is not None and isinstance(again.overloads, LazyOverloads)
    assert again.overloads._parsed is None
    assert [ov.label() for ov in again.overloads] == labels
    assert again.overloads == add.overloads and again.overloads == tuple(add.overloads)
