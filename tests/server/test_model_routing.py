"""Model routing in the server path: `akgen serve` driven by pytest-lsp, a workspace whose registry knows two models
(route-small: 0.5B, 5 ms/token; route-large: 32B, 100 ms/token), each a real tiny GGUF in its models/ folder, and
akgen.toml budgets that leave only route-small for an inline completion (32 tokens: 180 ms against 3,600 ms within
1,000 ms) and route-large for a repair (1,024 tokens: 102,800 ms within 120,000 ms). The configured model.path is
the small file; the repair's answer is forced by a GBNF grammar through real llama.cpp inference on the large one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

from .lsp_helpers import CONFIG, initialize_params
from .lsp_helpers import until as _until

pytestmark = pytest.mark.asyncio(loop_scope="module")

WS = Path(__file__).resolve().parents[1] / "repair" / "fixtures" / "ws"
ORIGINAL = (WS / "abs.cpp").read_text(encoding="utf-8")
BROKEN = ORIGINAL.replace("Abs(yLocal, xIn, TILE_LENGTH);", "AscendC::Absolute(yLocal, xIn, TILE_LENGTH);")
ANSWER = f"Absolute is not an Ascend C API: the absolute value is Abs.\n\n```cpp\n{ORIGINAL.rstrip()}\n```\n"
COMPLETION = "TILE_LENGTH);"

REGISTRY = '''
[[model]]
name = "route-small"
params = "0.5B"
format = "fim"
context = 16384
stop = ["<|endoftext|>"]
match = ["small-*.gguf"]
ms_per_token = 5.0
first_token_ms = 20.0
measured_on = "test"

[[model]]
name = "route-large"
params = "32B"
format = "fim"
context = 16384
stop = ["<|endoftext|>"]
match = ["large-*.gguf"]
ms_per_token = 100.0
first_token_ms = 400.0
measured_on = "test"
'''

ROUTE = '''
[model.route]
models = ["route-small", "route-large"]
completion_ms = 1000.0
repair_ms = 120000.0
'''


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("route-ws")
    shutil.copytree(WS, root, dirs_exist_ok=True)
    (root / "akgen.toml").write_text((WS / "akgen.toml").read_text(encoding="utf-8") + ROUTE, encoding="utf-8")
    models = root / "models"
    models.mkdir()
    (models / "registry.toml").write_text(REGISTRY, encoding="utf-8")
    tiny = write_tiny_gguf(models / "small-q4.gguf", n_ctx=16384)  # one tiny GGUF, the large one a link to it
    (models / "large-q4.gguf").symlink_to(tiny.name)
    return root


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, workspace: Path):
    options = {"lint": {"debounce_ms": 20},
               "completion": {"debounce_ms": 0},
               "model": {"backend": "llama_cpp", "path": str(workspace / "models" / "small-q4.gguf"),
                         "n_ctx": 16384, "n_threads": 1, "grammar": literal_grammar(COMPLETION),
                         "max_tokens": 16, "timeout_s": 60},
               "fix": {"samples": 1, "max_tokens": 2400, "grammar": literal_grammar(ANSWER),
                       "store": str(workspace / "repairs.sqlite")}}
    await lsp_client.initialize_session(initialize_params("visual-studio-code", options, root=workspace))
    yield
    await lsp_client.shutdown_session()


def _logged(client: LanguageClient, start: str) -> list[str]:
    return [m.message for m in client.log_messages if m.message.startswith(start)]


async def test_inline_completion_goes_to_the_model_its_budget_allows(client: LanguageClient,
                                                                      workspace: Path) -> None:
    path = workspace / "complete.cpp"
    text = ORIGINAL.replace("Abs(yLocal, xIn, TILE_LENGTH);", "Abs(yLocal, xIn, ")
    path.write_text(text, encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines()) if ln.rstrip().endswith("Abs(yLocal, xIn,"))
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text)))
    result = await client.text_document_inline_completion_async(types.InlineCompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line, len(text.splitlines()[line])),
        context=types.InlineCompletionContext(trigger_kind=types.InlineCompletionTriggerKind.Invoked)))
    assert isinstance(result, types.InlineCompletionList)
    assert [i.insert_text for i in result.items] == [COMPLETION]  # the model answered (forced), not the catalog
    (note,) = await _until(lambda: _logged(client, "akgen: inline completion: routing:"), 30)
    assert note.startswith("akgen: inline completion: routing: route-small (the largest within the budget (180 ms")
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))


async def test_a_repair_goes_to_the_large_model_its_budget_allows(client: LanguageClient, workspace: Path) -> None:
    path = workspace / "abs.cpp"
    path.write_text(BROKEN, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=BROKEN)))
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))
    (build,) = await _until(lambda: [d for d in client.diagnostics.get(uri, []) if d.source == "akgen-build"
                                     and d.severity == types.DiagnosticSeverity.Error])
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=build.range,
        context=types.CodeActionContext(diagnostics=[build], only=[types.CodeActionKind.QuickFix])))
    actions = [a for a in found or [] if isinstance(a, types.CodeAction)]
    matching = [a for a in actions if a.title == "Fix with route-large"]
    assert len(matching) == 1, [a.title for a in actions]  # not the configured (small) model's name
    action = matching[0]
    resolved = await client.code_action_resolve_async(action)
    assert resolved.edit is not None, [m.message for m in client.messages]
    assert resolved.title.startswith("Fix with route-large: compiles, 1/1 cases pass")
    (note,) = _logged(client, "akgen: repair: routing:")
    assert note.startswith("akgen: repair: routing: route-large (the largest within the budget (102,800 ms")
    begun = [v.title for vs in client.progress_reports.values() for v in vs
             if isinstance(v, types.WorkDoneProgressBegin)]
    assert "akgen: Fix with route-large" in begun
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))
