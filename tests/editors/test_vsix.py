"""editors/vscode/scripts/vsix.mjs, our .vsix packer (no @vscode/vsce), read back with Python's zipfile and
ElementTree: an independent reader of the zip (CRCs, sizes, Unix modes), the OPC parts a .vsix needs and what goes
in and stays out. tests/editors/test_vscode*.py install what it packs into a real code-server."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from .tools import REPO, program

PACKER = REPO / "editors" / "vscode" / "scripts" / "vsix.mjs"
VSX = "{http://schemas.microsoft.com/developer/vsx-schema/2011}"
OPC = "{http://schemas.openxmlformats.org/package/2006/content-types}"

PACKAGE = {
    "name": "demo-ext",
    "displayName": "Demo & <friends>",
    "description": "Checks \"kernels\" — ünïcode too.",
    "version": "1.2.3",
    "publisher": "akgen",
    "engines": {"vscode": "^1.91.0"},
    "main": "./dist/extension.js",
    "keywords": ["ascend", "npu"],
    "categories": ["Linters"],
    "repository": {"type": "git", "url": "https://github.com/akgen-lsp/akgen-lsp"},
    "activationEvents": ["onLanguage:cpp", "workspaceContains:**/akgen.toml"],
    "contributes": {"languages": [{"id": "ascendc", "aliases": ["Ascend C"], "extensions": [".asc"]}]},
}


def extension(root: Path, package: dict[str, object] | None = None, wheels: tuple[str, ...] = ("a-0.1-py3-none-any.whl",)
              ) -> Path:
    """A built extension folder as `npm run vscode:prepublish` leaves it, plus what must stay out of the .vsix."""
    files = {
        "package.json": json.dumps(package or PACKAGE, indent=2).encode(),
        "README.md": b"# Demo\n\nSee [the docs](https://example.org).\n",
        "LICENSE": b"Apache License 2.0\n",
        "dist/extension.js": b"module.exports = {activate() {}};\n" * 50,
        "dist/extension.js.map": b"{}",
        "dist/chunks/part.js": os.urandom(200_000),  # incompressible: deflate's stored blocks, a large CRC
        "src/extension.ts": b"export function activate() {}\n",
        "node_modules/esbuild/package.json": b"{}",
        "tsconfig.json": b"{}",
        **{f"server/{w}": os.urandom(5000) for w in wheels},
    }
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    (root / "dist" / "extension.js").chmod(0o755)
    return root


def pack(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    node = program("node", "install Node.js 20 (apt-get install nodejs)")
    return subprocess.run([node, str(PACKER), *args], cwd=root, capture_output=True, text=True, timeout=120)


def test_the_vsix_holds_the_built_extension_in_the_opc_layout(tmp_path: Path) -> None:
    root = extension(tmp_path / "ext")
    run = pack(root, "-o", str(tmp_path / "out.vsix"))
    assert run.returncode == 0, run.stderr
    assert "8 files" in run.stdout
    with zipfile.ZipFile(tmp_path / "out.vsix") as vsix:
        assert vsix.testzip() is None  # every CRC and size checks out
        names = vsix.namelist()
        assert names == ["extension.vsixmanifest", "[Content_Types].xml", "extension/package.json",
                         "extension/readme.md", "extension/LICENSE.txt", "extension/dist/chunks/part.js",
                         "extension/dist/extension.js", "extension/server/a-0.1-py3-none-any.whl"]
        for name in names[2:]:
            on_disk = {"readme.md": "README.md", "LICENSE.txt": "LICENSE"}.get(Path(name).name,
                                                                                 name.removeprefix("extension/"))
            assert vsix.read(name) == (root / on_disk).read_bytes(), name
        modes = {i.filename: i.external_attr >> 16 for i in vsix.infolist()}
        assert stat.S_ISREG(modes["extension/package.json"])
        assert stat.S_IMODE(modes["extension/dist/extension.js"]) == 0o755
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in vsix.infolist())

        types = ET.fromstring(vsix.read("[Content_Types].xml"))
        declared = {d.get("Extension"): d.get("ContentType") for d in types.iter(f"{OPC}Default")}
        assert declared == {".js": "application/javascript", ".json": "application/json", ".md": "text/markdown",
                            ".txt": "text/plain", ".vsixmanifest": "text/xml", ".whl": "application/octet-stream"}

        manifest = ET.fromstring(vsix.read("extension.vsixmanifest"))
    meta = manifest.find(f"{VSX}Metadata")
    assert meta is not None
    identity = meta.find(f"{VSX}Identity")
    assert identity is not None
    assert (identity.get("Id"), identity.get("Version"), identity.get("Publisher")) == ("demo-ext", "1.2.3", "akgen")
    assert meta.findtext(f"{VSX}DisplayName") == "Demo & <friends>"
    assert meta.findtext(f"{VSX}Description") == "Checks \"kernels\" — ünïcode too."
    assert meta.findtext(f"{VSX}Tags") == "ascend,npu,ascendc,AscendC,__ext_asc,cpp"
    assert meta.findtext(f"{VSX}License") == "extension/LICENSE.txt"
    props = {p.get("Id"): p.get("Value") for p in meta.iter(f"{VSX}Property")}
    assert props["Microsoft.VisualStudio.Code.Engine"] == "^1.91.0"
    assert props["Microsoft.VisualStudio.Code.ExtensionKind"] == "workspace"
    assert props["Microsoft.VisualStudio.Services.Links.Source"] == "https://github.com/akgen-lsp/akgen-lsp.git"
    assert props["Microsoft.VisualStudio.Services.Links.Support"] == "https://github.com/akgen-lsp/akgen-lsp/issues"
    assets = {a.get("Type"): a.get("Path") for a in manifest.iter(f"{VSX}Asset")}
    assert assets == {"Microsoft.VisualStudio.Code.Manifest": "extension/package.json",
                      "Microsoft.VisualStudio.Services.Content.Details": "extension/readme.md",
                      "Microsoft.VisualStudio.Services.Content.License": "extension/LICENSE.txt"}


def test_the_default_name_is_name_dash_version(tmp_path: Path) -> None:
    root = extension(tmp_path)
    assert pack(root).returncode == 0
    assert zipfile.ZipFile(root / "demo-ext-1.2.3.vsix").testzip() is None


def test_a_missing_or_ambiguous_part_is_refused_with_what_to_do(tmp_path: Path) -> None:
    no_wheel = extension(tmp_path / "a", wheels=())
    run = pack(no_wheel)
    assert run.returncode == 1 and "npm run wheel" in run.stderr and "no wheel" in run.stderr
    two = extension(tmp_path / "b", wheels=("a-0.1-py3-none-any.whl", "a-0.2-py3-none-any.whl"))
    run = pack(two)
    assert run.returncode == 1 and "a-0.1-py3-none-any.whl, a-0.2-py3-none-any.whl" in run.stderr
    unbuilt = extension(tmp_path / "c")
    (unbuilt / "dist" / "extension.js").unlink()
    run = pack(unbuilt)
    assert run.returncode == 1 and "bundle the extension first" in run.stderr
    nameless = extension(tmp_path / "d", {k: v for k, v in PACKAGE.items() if k != "publisher"})
    run = pack(nameless)
    assert run.returncode == 1 and '"publisher"' in run.stderr
    for folder in ("a", "b", "c", "d"):
        assert not list((tmp_path / folder).glob("*.vsix"))


def test_the_extension_builds_without_vsce() -> None:
    """The README's build (`npm ci --omit=dev && npm run package`) installs only the bundler and the client."""
    package = json.loads((REPO / "editors" / "vscode" / "package.json").read_text())
    assert set(package["dependencies"]) == {"esbuild", "vscode-languageclient"}
    assert "vsce" not in json.dumps(package["devDependencies"])
    assert "scripts/vsix.mjs" in package["scripts"]["package"]
    lock = json.loads((REPO / "editors" / "vscode" / "package-lock.json").read_text())
    assert not [p for p in lock["packages"] if "vsce" in p]
