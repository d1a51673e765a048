// Packs the built extension into a .vsix, with Node's own zlib and no other package (`npm run package` runs it after
// the production bundle and the wheel). A .vsix is a zip in the Open Packaging Conventions layout, as @vscode/vsce
// writes it: `extension.vsixmanifest` (the Marketplace's XML manifest), `[Content_Types].xml` (a content type per
// file extension) and the extension's files under `extension/`. What goes in, besides generated files:
//   package.json, README.md (as readme.md), CHANGELOG.md (as changelog.md), LICENSE (as LICENSE.txt), the icon named
//   by package.json, every file under dist/ but source maps, and server/ (the one akgen-lsp wheel the extension
//   installs on first use).
// Nothing from node_modules: dist/extension.js bundles vscode-languageclient.
// Usage: node scripts/vsix.mjs [-o OUT.vsix]   (run in editors/vscode; default OUT: <name>-<version>.vsix)
// Publishing to the Marketplace can still use vsce on this file: `npx @vscode/vsce publish --packagePath OUT.vsix`.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as zlib from "node:zlib";

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data) {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function dosTime(date) {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * A zip archive of `entries` ({ name, data: Buffer, mode, mtime: Date }), in order: deflated, UTF-8 names, Unix
 * permissions, no zip64 (a .vsix over 4 GiB or 65535 files is refused).
 */
export function zip(entries) {
  if (entries.length > 0xffff) throw new Error(`a .vsix holds at most 65535 files, not ${entries.length}`);
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const packed = zlib.deflateRawSync(entry.data, { level: 9 });
    const crc = crc32(entry.data);
    const { time, date } = dosTime(entry.mtime);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // the name is UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, zip 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.mode & 0xffff) << 16) >>> 0, 38); // Unix mode in the high half
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
    if (offset > 0xffffffff) throw new Error("the .vsix would pass 4 GiB, more than a zip without zip64 holds");
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES = {
  ".js": "application/javascript",
  ".json": "application/json",
  ".md": "text/markdown",
  ".txt": "text/plain",
  ".vsixmanifest": "text/xml",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".xml": "text/xml",
};

/** `[Content_Types].xml`: one Default per file extension of `names` (unknown ones as octet streams). */
export function contentTypes(names) {
  const extensions = [...new Set(names.map((n) => path.posix.extname(n).toLowerCase()).filter((e) => e))].sort();
  const defaults = extensions.map(
    (e) => `<Default Extension="${xml(e)}" ContentType="${xml(CONTENT_TYPES[e] ?? "application/octet-stream")}"/>`,
  );
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${defaults.join("")}</Types>`
  );
}

function xml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]);
}

/** The Marketplace's tags: keywords, contributed languages (id, aliases, `__ext_` file extensions), activation languages. */
export function tags(pkg) {
  const out = [...(pkg.keywords ?? [])];
  for (const language of pkg.contributes?.languages ?? []) {
    out.push(language.id, ...(language.aliases ?? []).map((a) => a.replace(/\s+/g, "")));
    out.push(...(language.extensions ?? []).map((e) => `__ext_${e.replace(/^\./, "")}`));
  }
  for (const event of pkg.activationEvents ?? []) {
    if (event.startsWith("onLanguage:")) out.push(event.slice("onLanguage:".length));
  }
  return [...new Set(out.filter((t) => t))];
}

function repositoryUrl(pkg) {
  const repo = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  if (!repo) return undefined;
  const github = /^(?:https?:\/\/github\.com\/|git@github\.com:|github:)?([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(repo);
  return github ? `https://github.com/${github[1]}` : repo;
}

/** `extension.vsixmanifest` for package.json `pkg`; `assets` maps an asset type to its path in the .vsix. */
export function vsixManifest(pkg, assets) {
  const repo = repositoryUrl(pkg);
  const github = repo?.startsWith("https://github.com/") ? repo : undefined;
  const kind = pkg.extensionKind ?? [...(pkg.main ? ["workspace"] : []), ...(pkg.browser ? ["web"] : [])];
  const properties = [
    ["Microsoft.VisualStudio.Code.Engine", pkg.engines.vscode],
    ["Microsoft.VisualStudio.Code.ExtensionDependencies", (pkg.extensionDependencies ?? []).join(",")],
    ["Microsoft.VisualStudio.Code.ExtensionPack", (pkg.extensionPack ?? []).join(",")],
    ["Microsoft.VisualStudio.Code.ExtensionKind", [].concat(kind).join(",")],
    ["Microsoft.VisualStudio.Code.LocalizedLanguages", ""],
    ["Microsoft.VisualStudio.Code.EnabledApiProposals", (pkg.enabledApiProposals ?? []).join(",")],
    ["Microsoft.VisualStudio.Code.ExecutesCode", String(Boolean(pkg.main || pkg.browser))],
  ];
  if (repo) {
    const source = github ? `${github}.git` : repo;
    properties.push(["Microsoft.VisualStudio.Services.Links.Source", source]);
    properties.push(["Microsoft.VisualStudio.Services.Links.Getstarted", source]);
    if (github) properties.push(["Microsoft.VisualStudio.Services.Links.GitHub", source]);
  }
  const bugs = typeof pkg.bugs === "string" ? pkg.bugs : pkg.bugs?.url ?? (github ? `${github}/issues` : undefined);
  if (bugs) properties.push(["Microsoft.VisualStudio.Services.Links.Support", bugs]);
  const learn = pkg.homepage ?? (github ? `${github}#readme` : undefined);
  if (learn) properties.push(["Microsoft.VisualStudio.Services.Links.Learn", learn]);
  properties.push(["Microsoft.VisualStudio.Services.GitHubFlavoredMarkdown", "true"]);
  properties.push(["Microsoft.VisualStudio.Services.Content.Pricing", pkg.pricing ?? "Free"]);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011" ' +
      'xmlns:d="http://schemas.microsoft.com/developer/vsx-schema-design/2011">',
    "  <Metadata>",
    `    <Identity Language="en-US" Id="${xml(pkg.name)}" Version="${xml(pkg.version)}" Publisher="${xml(pkg.publisher)}" />`,
    `    <DisplayName>${xml(pkg.displayName ?? pkg.name)}</DisplayName>`,
    `    <Description xml:space="preserve">${xml(pkg.description ?? "")}</Description>`,
    `    <Tags>${xml(tags(pkg).join(","))}</Tags>`,
    `    <Categories>${xml((pkg.categories ?? []).join(","))}</Categories>`,
    `    <GalleryFlags>${pkg.preview ? "Public Preview" : "Public"}</GalleryFlags>`,
    "    <Properties>",
    ...properties.map(([id, value]) => `      <Property Id="${id}" Value="${xml(value)}" />`),
    "    </Properties>",
    ...(assets["Microsoft.VisualStudio.Services.Content.License"]
      ? [`    <License>${xml(assets["Microsoft.VisualStudio.Services.Content.License"])}</License>`]
      : []),
    ...(assets["Microsoft.VisualStudio.Services.Icons.Default"]
      ? [`    <Icon>${xml(assets["Microsoft.VisualStudio.Services.Icons.Default"])}</Icon>`]
      : []),
    "  </Metadata>",
    "  <Installation>",
    '    <InstallationTarget Id="Microsoft.VisualStudio.Code"/>',
    "  </Installation>",
    "  <Dependencies/>",
    "  <Assets>",
    ...Object.entries(assets).map(([type, p]) => `    <Asset Type="${type}" Path="${xml(p)}" Addressable="true" />`),
    "  </Assets>",
    "</PackageManifest>",
  ];
  return lines.join("\n") + "\n";
}

function walk(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : d.isFile() ? [path.join(dir, d.name)] : []));
}

class PackError extends Error {}

/** The files of the extension in `root` as [path in the .vsix, path on disk], and the manifest's assets. */
export function extensionFiles(root, pkg) {
  for (const field of ["name", "version", "publisher"]) {
    if (!pkg[field]) throw new PackError(`package.json has no "${field}": add it (the .vsix's identity needs it)`);
  }
  if (!pkg.engines?.vscode) {
    throw new PackError('package.json has no "engines": {"vscode": ...}: add the oldest VS Code it supports');
  }
  const files = [["extension/package.json", path.join(root, "package.json")]];
  const assets = { "Microsoft.VisualStudio.Code.Manifest": "extension/package.json" };
  const renamed = [
    ["README.md", "extension/readme.md", "Microsoft.VisualStudio.Services.Content.Details"],
    ["CHANGELOG.md", "extension/changelog.md", "Microsoft.VisualStudio.Services.Content.Changelog"],
    ["LICENSE", "extension/LICENSE.txt", "Microsoft.VisualStudio.Services.Content.License"],
  ];
  for (const [name, inVsix, asset] of renamed) {
    if (fs.existsSync(path.join(root, name))) {
      files.push([inVsix, path.join(root, name)]);
      assets[asset] = inVsix;
    }
  }
  if (pkg.icon) {
    if (!fs.existsSync(path.join(root, pkg.icon))) throw new PackError(`the icon ${pkg.icon} named in package.json is missing`);
    files.push([`extension/${pkg.icon}`, path.join(root, pkg.icon)]);
    assets["Microsoft.VisualStudio.Services.Icons.Default"] = `extension/${pkg.icon}`;
  }
  const dist = path.join(root, "dist");
  const main = pkg.main && path.resolve(root, pkg.main);
  if (!main || !fs.existsSync(main)) {
    throw new PackError(`${pkg.main ?? "package.json's main"} is missing: bundle the extension first (npm run package does)`);
  }
  for (const file of fs.existsSync(dist) ? walk(dist) : []) {
    if (!file.endsWith(".map")) files.push([`extension/${path.relative(root, file).split(path.sep).join("/")}`, file]);
  }
  if (!files.some(([, p]) => p === main)) throw new PackError(`${pkg.main} is not under dist/, which is all the .vsix carries`);
  const server = path.join(root, "server");
  const wheels = fs.existsSync(server) ? fs.readdirSync(server).filter((f) => f.endsWith(".whl")).sort() : [];
  if (wheels.length !== 1) {
    throw new PackError(
      `server/ holds ${wheels.length ? wheels.join(", ") : "no wheel"}; the .vsix carries exactly one akgen-lsp wheel: ` +
        "build it with `npm run wheel`",
    );
  }
  files.push([`extension/server/${wheels[0]}`, path.join(server, wheels[0])]);
  return { files, assets };
}

/** Writes the .vsix of the extension in `root` to `out`; returns the names it holds. */
export function pack(root, out) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const { files, assets } = extensionFiles(root, pkg);
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const now = epoch ? new Date(Number(epoch) * 1000) : new Date();
  const entry = (name, data, mtime, mode = 0o100644) => ({ name, data, mtime: epoch ? now : mtime, mode });
  const names = ["extension.vsixmanifest", ...files.map(([n]) => n)];
  const entries = [
    entry("extension.vsixmanifest", Buffer.from(vsixManifest(pkg, assets), "utf8"), now),
    entry("[Content_Types].xml", Buffer.from(contentTypes(names), "utf8"), now),
    ...files.map(([name, file]) => {
      const stat = fs.statSync(file);
      return entry(name, fs.readFileSync(file), stat.mtime, 0o100000 | (stat.mode & 0o777));
    }),
  ];
  fs.writeFileSync(out, zip(entries));
  return entries.map((e) => e.name);
}

function main(argv) {
  const root = process.cwd();
  let out;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "-o" || argv[i] === "--out") out = argv[++i];
    else {
      console.error(`vsix.mjs: unknown argument ${argv[i]}; usage: node scripts/vsix.mjs [-o OUT.vsix]`);
      return 2;
    }
  }
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    out = path.resolve(root, out ?? `${pkg.name}-${pkg.version}.vsix`);
    const names = pack(root, out);
    console.log(`vsix.mjs: ${out} (${names.length} files, ${(fs.statSync(out).size / 1e6).toFixed(2)} MB)`);
    return 0;
  } catch (error) {
    if (error instanceof PackError || error.code === "ENOENT") {
      console.error(`vsix.mjs: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
