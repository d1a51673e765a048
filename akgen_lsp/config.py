"""One `Settings` value, built in layers: defaults, then the user's configuration file (``config.toml`` in
``$AKGEN_CONFIG_DIR`` or ``~/.config/akgen``), then the project's `akgen.toml`, then environment variables, then the
editor's initialization options. Each value keeps where it came from (`Settings.origin`), and what a layer may set
is decided in one place, `akgen_lsp.trust` (docs/security.md): an untrusted repository or an editor cannot name a
program, switch the sandbox off, raise a limit, or send code elsewhere; such keys are dropped with a notice
(`Settings.notices`) that names them.

Keys are dotted (``model.backend``, ``toolchain.name``, ``arch``). The environment variable for a key is ``AKGEN_`` and
the key upper-cased with dots as underscores (``AKGEN_MODEL_PATH``). In ``akgen.toml`` keys may be written as nested
tables (``[model] path = "..."``) or dotted (``model.path = "..."``); editors may send either a nested object or dotted
keys, with or without a leading ``akgen`` section. An unknown key or a value of the wrong type is a `SettingsError` that
names the key and where it came from.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from akgen_lsp import trust
from akgen_lsp.safety import read_regular

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

CONFIG_FILE = trust.CONFIG_FILE


class SettingsError(ValueError):
    """A setting that cannot be used; the message names the key and where it came from."""

    def __init__(self, message: str, key: str | None = None, origin: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.origin = origin


@dataclass(frozen=True)
class Key:
    name: str
    type: type | tuple[type, ...]
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    # earlier spellings accepted and read as their new value: ((True, "manual"), ...)
    aliases: tuple[tuple[Any, Any], ...] = ()


_KEYS: tuple[Key, ...] = (
    Key(
        "arch",
        str,
        "Ascend910B2",
        "Hardware profile: Ascend910B1..B4, Ascend910_93, Ascend310P, Ascend950PR, "
        "Ascend950DT (also 950, dav-3510). Unset, a file under arch35/ (or including arch35/ headers) is checked "
        "for Ascend950PR.",
    ),
    Key(
        "cann.version",
        str,
        "9.0",
        "CANN version the kernel targets; decides which API names exist (AKG103). "
        "Unset, the project's version.cmake (set_cann_package), version.info, CMake CANN_VERSION or requirements pin "
        "is read first.",
    ),
    Key("files.extensions", list, [".asc"], "Files always treated as AscendC."),
    Key(
        "files.cpp_extensions",
        list,
        [".cpp", ".cc", ".cxx", ".h", ".hpp"],
        "C++ files treated as AscendC when they include kernel_operator.h (or another Ascend C header).",
    ),
    Key("files.exclude", list, [], "Glob patterns of files never checked."),
    Key("lint.enable", bool, True, "Run the static checker."),
    Key("lint.select", list, [], "Rule codes to run (empty: the default set)."),
    Key("lint.ignore", list, [], "Rule codes never reported."),
    Key(
        "lint.extend_select", list, [], "Rule codes added to the default set (rules that are off by default)."
    ),
    Key("lint.debounce_ms", int, 150, "Delay after a change before linting."),
    Key(
        "toolchain.name",
        str,
        "auto",
        "Toolchain for build-on-save: auto, sim or cann.",
        ("auto", "sim", "cann", "none"),
    ),
    Key("toolchain.cxx", str, "g++", "C++ compiler the sim toolchain uses."),
    Key("toolchain.timeout_s", float, 60.0, "Time limit of one compile or run."),
    Key(
        "check_on_save",
        str,
        "manual",
        "Compile and run the kernel on save: manual (saves you make; not the editor's auto-save after a delay or on "
        "focus change), always (every save), or off.",
        ("manual", "always", "off"),
        ((True, "manual"), (False, "off"), ("true", "manual"), ("false", "off")),
    ),
    Key(
        "check.ahead",
        bool,
        True,
        "Start the save check while typing pauses (on the buffer's text), so that the save "
        "that follows shows its result at once; no result is shown before the save.",
    ),
    Key(
        "check.ahead_ms", int, 400, "Pause after typing before the save check starts ahead, in milliseconds."
    ),
    Key(
        "sim.checks",
        str,
        "npu",
        "Which simulator checks end the kernel: npu (the hardware's rules; checks only CANN's CPU-debug library makes "
        "are warnings and the kernel goes on, as on the NPU) or cpu-debug (every CPU-debug check stops it).",
        ("npu", "cpu-debug"),
    ),
    Key(
        "sim.sandbox",
        str,
        "on",
        "Confine untrusted code (the compiler on a kernel's sources, the kernel, its host code) in bubblewrap: on, or "
        "off (it then runs with your rights; the server warns on every check).",
        ("on", "off"),
    ),
    Key("sim.max_timeout_s", float, 600.0, "Upper bound of a run manifest's timeout_s and cpu_s (seconds)."),
    Key(
        "sim.max_memory_mb",
        int,
        16384,
        "Upper bound of a run manifest's memory_mb (the kernel's address space).",
    ),
    Key(
        "ops.include_dirs",
        list,
        [],
        "More include folders for the kernel UT of an operator repository "
        "(ops-math / ops-nn layout) checked on save, relative to akgen.toml's folder.",
    ),
    Key(
        "ops.defines",
        list,
        [],
        "Macros (NAME=VALUE) added to every compile of an operator repository's kernel UT checked on save.",
    ),
    Key(
        "ops.test_command",
        str,
        "",
        "For an operator folder (<op>/op_kernel/) whose layout shows no kernel UT: a "
        "shell command run in the sandbox to test it on save ({op}, {op_dir} replaced; the simulator's toolkit on "
        "PATH, ASCEND_HOME_PATH set); exit status 0 passes, `file:line:col: error:` lines are findings.",
    ),
    Key("bench.suite", str, "", "NPUKernelBench tasks folder (empty: the bundled suite)."),
    Key("bench.mode", str, "static", "static or dynamic shape mode.", ("static", "dynamic")),
    Key("model.backend", str, "none", "Completion backend.", ("llama_cpp", "transformers", "openai", "none")),
    Key("model.path", str, "", "GGUF file (llama_cpp) or HF directory (transformers)."),
    Key("model.endpoint", str, "", "Base URL of an OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1."),
    Key(
        "model.name", str, "", "Model name from the registry (models/registry.toml) or the server's model id."
    ),
    Key(
        "model.api_key_env",
        str,
        "OPENAI_API_KEY",
        "Environment variable holding the API key for model.endpoint.",
    ),
    Key("model.max_tokens", int, 64, "Most tokens one inline completion may generate."),
    Key("model.temperature", float, 0.2, "Sampling temperature for completions."),
    Key("model.top_p", float, 0.95, "Nucleus sampling for completions."),
    Key("model.n_ctx", int, 4096, "Context length for llama_cpp."),
    Key(
        "model.n_threads",
        int,
        0,
        "CPU threads for llama_cpp and torch on the CPU (0: half the cores, for prompt and generation).",
    ),
    Key("model.n_gpu_layers", int, 0, "Layers offloaded to the GPU by llama_cpp."),
    Key("model.device", str, "cpu", "Device for transformers: cpu or cuda."),
    Key("model.timeout_s", float, 30.0, "Time limit of one model request."),
    Key(
        "model.grammar",
        str,
        "",
        "A GBNF grammar the completions must follow (llama_cpp): demos and tests that need "
        "a known answer from a small model.",
    ),
    Key(
        "model.route.models",
        list,
        [],
        "Registry names of the models routing chooses from (empty: every model "
        "of the registry); `akgen model route --show` prints their Pareto front.",
    ),
    Key(
        "model.route.completion",
        str,
        "auto",
        "The model of inline completions: auto (by the budgets) or a name.",
    ),
    Key("model.route.repair", str, "auto", "The model of repairs: auto (by the budgets) or a registry name."),
    Key(
        "model.route.generation",
        str,
        "auto",
        "The model of `akgen generate`: auto (by the budgets) or a name.",
    ),
    Key(
        "model.route.completion_ms",
        float,
        1000.0,
        "Latency budget of one inline completion (32 tokens), ms; 0: none.",
    ),
    Key(
        "model.route.repair_ms",
        float,
        120000.0,
        "Latency budget of one repair answer (1024 tokens), ms; 0: none.",
    ),
    Key(
        "model.route.generation_ms",
        float,
        900000.0,
        "Latency budget of one generation answer (4096 tokens), ms; 0: none.",
    ),
    Key("model.route.completion_j", float, 0.0, "Energy budget of one inline completion, J; 0: none."),
    Key("model.route.repair_j", float, 0.0, "Energy budget of one repair answer, J; 0: none."),
    Key("model.route.generation_j", float, 0.0, "Energy budget of one generation answer, J; 0: none."),
    Key(
        "model.route.bandwidth_gbps",
        float,
        50.0,
        "Memory bandwidth for the estimate of an unmeasured model's "
        "ms/token (decoding reads the weights once per token).",
    ),
    Key("model.route.power_w", float, 30.0, "Power draw for the estimate of an unmeasured model's J/token."),
    Key("completion.enable", bool, True, "Serve inline completions."),
    Key("completion.debounce_ms", int, 200, "Base delay before a completion request reaches the model."),
    Key("completion.prompt_chars", int, 6000, "Character budget of the prompt (prefix and suffix)."),
    Key(
        "completion.prefix_share",
        float,
        0.7,
        "Share of the prompt budget given to the text before the cursor.",
    ),
    Key("completion.cache_size", int, 256, "Entries in the completion cache."),
    Key("completion.cache_ttl_s", float, 300.0, "Lifetime of a completion cache entry."),
    Key(
        "fix.deterministic",
        bool,
        True,
        "After a check that fails, try the certain fixes of its errors (compiler "
        "fix-its, catalog renames, ...) on the simulator and offer those that verify.",
    ),
    Key("fix.samples", int, 4, 'Candidates "Fix with KernelGen-LM" and `akgen fix` ask the model for.'),
    Key("fix.temperature", float, 0.7, "Sampling temperature of the model's repair candidates."),
    Key("fix.max_tokens", int, 4096, "Most tokens one repair answer may generate (it holds the whole file)."),
    Key("fix.jobs", int, 2, "Repair candidates compiled and run on the simulator at once."),
    Key("fix.timeout_s", float, 600.0, "Time limit of one model repair: the answers and their verification."),
    Key(
        "fix.store",
        str,
        "",
        "The SQLite store of accepted repairs (empty: errors/repairs.sqlite in the user cache "
        "folder); diagnostic reports show its similar repairs, `akgen errors synthesize` exports it.",
    ),
    Key(
        "fix.grammar",
        str,
        "",
        "A GBNF grammar the repair answers must follow (llama_cpp, or a llama.cpp server): "
        "demos and tests that need a known answer from a small model.",
    ),
    Key(
        "generate.rounds",
        int,
        3,
        'Correctness rounds of `akgen generate` and "Generate kernel for this task" '
        "(round 0 is the first answer; each failure's diagnostic report is the next round's prompt).",
    ),
    Key(
        "generate.perf_rounds",
        int,
        0,
        'Performance rounds after the kernel passes ("Improve performance": '
        "at least 1); a faster kernel is kept only if every case still passes.",
    ),
    Key("generate.samples", int, 1, "Samples per instance (pass@k needs k or more)."),
    Key("generate.max_tokens", int, 8192, "Most tokens one generation answer may hold (the whole kernel)."),
    Key(
        "generate.temperature",
        float,
        0.7,
        "Sampling temperature of generation answers (NPUKernelBench: 0.7).",
    ),
    Key("generate.timeout_s", float, 900.0, "Time limit of one model answer in a generation round."),
    Key("generate.concurrency", int, 1, "Model requests at once to the one backend (a served model: more)."),
    Key(
        "generate.memory",
        bool,
        True,
        "The experience memory: verified repairs and improvements of earlier rounds "
        "go to the store of repairs (fix.store) and the nearest few into later prompts.",
    ),
    Key(
        "generate.grammar",
        list,
        [],
        "GBNF grammars the answers of round 0, 1, ... must follow (the last one for "
        "later rounds; llama_cpp or a llama.cpp server): demos and tests with known answers.",
    ),
    Key("log.level", str, "info", "Server log level.", ("debug", "info", "warning", "error")),
)

KEYS: dict[str, Key] = {k.name: k for k in _KEYS}


def env_var(key: str) -> str:
    return "AKGEN_" + key.upper().replace(".", "_")


@dataclass(frozen=True)
class Settings:
    """All settings, by dotted key. Read with ``settings["model.path"]`` or ``settings.get("model.path")``."""

    values: Mapping[str, Any]
    origins: Mapping[str, str]
    # sentences about keys a layer was not allowed to set, or settings files that were not read (docs/security.md)
    notices: tuple[str, ...] = ()
    # the workspace these settings were loaded for (the project root, else the folder of its akgen.toml or the folder
    # asked about): where a repository or the editor may point `fix.store` (docs/security.md)
    project: Path | None = None

    def __getitem__(self, key: str) -> Any:
        if key not in KEYS:
            raise KeyError(f"unknown setting {key!r}")
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def origin(self, key: str) -> str:
        return self.origins.get(key, "default")

    def with_overrides(self, overrides: Mapping[str, Any], origin: str) -> Settings:
        values = dict(self.values)
        origins = dict(self.origins)
        for key, value in _flatten(overrides, origin):
            values[key] = _coerce(key, value, origin)
            origins[key] = origin
        return Settings(values, origins, self.notices, self.project)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.values)


def defaults() -> Settings:
    return Settings({k.name: _copy(k.default) for k in _KEYS}, {})


def _copy(v: Any) -> Any:
    return list(v) if isinstance(v, list) else v


def _flatten(obj: Mapping[str, Any], origin: str, prefix: str = "") -> Iterable[tuple[str, Any]]:
    for raw_key, value in obj.items():
        key = f"{prefix}{raw_key}"
        if not prefix and raw_key == "akgen" and isinstance(value, Mapping):
            yield from _flatten(value, origin, "")
            continue
        if key in KEYS:
            yield key, value
        elif isinstance(value, Mapping) and any(k.startswith(key + ".") for k in KEYS):
            yield from _flatten(value, origin, key + ".")
        else:
            close = _closest(key)
            hint = f"; did you mean {close!r}?" if close else ""
            raise SettingsError(f"unknown setting {key!r} in {origin}{hint}", key, origin)


def _closest(key: str) -> str | None:
    import difflib

    match = difflib.get_close_matches(key, KEYS.keys(), n=1, cutoff=0.6)
    return match[0] if match else None


def _type_name(t: type | tuple[type, ...]) -> str:
    if isinstance(t, tuple):
        return " or ".join(x.__name__ for x in t)
    return {
        "str": "a string",
        "int": "an integer",
        "float": "a number",
        "bool": "true or false",
        "list": "a list",
    }[t.__name__]


def _coerce(key: str, value: Any, origin: str, from_env: bool = False) -> Any:
    spec = KEYS[key]
    t = spec.type
    value = next((new for old, new in spec.aliases if type(value) is type(old) and value == old), value)
    try:
        if from_env and isinstance(value, str):
            value = _parse_env(value, t)
        if t is bool:
            if not isinstance(value, bool):
                raise TypeError
        elif t is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError
        elif t is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError
            value = float(value)
        elif t is list:
            if not isinstance(value, list):
                raise TypeError
            value = list(value)
        elif t is str and not isinstance(value, str):
            raise TypeError
    except (TypeError, ValueError):
        raise SettingsError(
            f"setting {key!r} in {origin} must be {_type_name(t)}, got {value!r}", key, origin
        ) from None
    if spec.choices and value not in spec.choices:
        raise SettingsError(
            f"setting {key!r} in {origin} must be one of {', '.join(spec.choices)}; got {value!r}",
            key,
            origin,
        )
    return value


def _parse_env(value: str, t: type | tuple[type, ...]) -> Any:
    if t is bool:
        low = value.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError(value)
    if t is int:
        return int(value)
    if t is float:
        return float(value)
    if t is list:
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


def find_config_file(start: Path, workspace: Path | None = None) -> Path | None:
    """The nearest `akgen.toml` at `start` or above it, up to the project root (`trust.find_repo_config`): never
    above the top-most ``.git`` or the editor's `workspace` folder, never one another user owns or may write."""
    return trust.find_repo_config(start, workspace)[0]


def read_config_file(path: Path) -> dict[str, Any]:
    try:
        raw = read_regular(path, trust.MAX_CONFIG_BYTES)
    except OSError as exc:
        raise SettingsError(
            f"{path} cannot be read: {exc}; fix the file or remove it", origin=str(path)
        ) from None
    return _parse_config(path, raw)


def _parse_config(path: Path, raw: bytes) -> dict[str, Any]:
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SettingsError(
            f"{path} is not valid TOML: {exc}; fix the file or remove it", origin=str(path)
        ) from None
    # Sections that belong to other parts of the project ([tasks], [[task]]) are not settings.
    return {k: v for k, v in data.items() if k not in ("tasks", "task")}


_notice_sink: Callable[[str], None] | None = None
_told: set[str] = set()


def set_notice_sink(sink: Callable[[str], None] | None) -> None:
    """Where `load_settings` tells its notices, once each per process (the command line prints them to stderr)."""
    global _notice_sink
    _notice_sink = sink
    _told.clear()


def _layer(
    settings: Settings, data: Mapping[str, Any], origin: str, layer: str, trusted: bool, folder: Path | None
) -> Settings:
    flat = dict(_flatten(data, origin))
    kept, notices = trust.filter_layer(flat, layer, origin, trusted, folder)
    out = settings.with_overrides(kept, origin)
    return Settings(out.values, out.origins, (*out.notices, *notices), out.project)


def load_settings(
    workspace: Path | None = None,
    env: Mapping[str, str] | None = None,
    editor_options: Mapping[str, Any] | None = None,
    *,
    root: Path | None = None,
    editor_trust: bool | None = None,
) -> Settings:
    """Defaults, the user's config file, `akgen.toml` (found from the folder `workspace` up to the project root:
    `root`, the editor's workspace folder, or the top-most ``.git``), the environment, then editor options.

    A repository's file sets the keys of `trust.RESTRICTED` only when its folder is trusted (the user's trust list,
    or `editor_trust`: the editor says the workspace is trusted); editor options never set program paths or switch
    the sandbox off."""
    settings = defaults()
    user = trust.read_user_config()
    if user is not None:
        settings = _layer(settings, _parse_config(*user), str(user[0]), trust.USER, True, None)
    trusted_here = bool(editor_trust)
    if workspace is not None:
        cfg, skipped = trust.find_repo_config(workspace, root)
        project = (
            Path(root) if root is not None else trust.project_root(workspace) or (cfg.parent if cfg else None)
        )
        settings = Settings(
            settings.values,
            settings.origins,
            (*settings.notices, *skipped),
            (project or Path(workspace)).resolve(),
        )
        if cfg is not None:
            trusted_here = trusted_here or trust.is_trusted(cfg.parent)
            settings = _layer(
                settings, read_config_file(cfg), str(cfg), trust.REPOSITORY, trusted_here, cfg.parent
            )
        else:
            trusted_here = trusted_here or trust.is_trusted(root or workspace)
    env = os.environ if env is None else env
    values = dict(settings.values)
    origins = dict(settings.origins)
    for key in KEYS:
        name = env_var(key)
        if name in env:
            values[key] = _coerce(key, env[name], f"environment variable {name}", from_env=True)
            origins[key] = f"environment variable {name}"
    project = settings.project or (Path(root).resolve() if root is not None else None)
    settings = Settings(values, origins, settings.notices, project)
    if editor_options:
        settings = _layer(
            settings, editor_options, "the editor's initialization options", trust.EDITOR, trusted_here, None
        )
    if _notice_sink is not None:
        for notice in settings.notices:
            if notice not in _told:
                _told.add(notice)
                _notice_sink(notice)
    return settings


def describe() -> list[Key]:
    """Every key with its default and documentation (for `akgen config` and the README)."""
    return list(_KEYS)
