"""The compiled engine: the engine's modules built with Cython, loaded in place of their sources.

The engine is plain Python, and runs as such.  ``eighteen native --build`` (``make install``,
``make run`` and ``make test`` run it) compiles the modules of :func:`modules` with Cython,
unchanged, into the package's ``_native/`` folder, each with the SHA-256 of the source it was
made from (``_native/manifest.json``).  Importing ``eighteen`` puts a finder first on
``sys.meta_path`` (:func:`install`): a listed module is loaded from its compiled file when the
hash recorded for it is the hash of its source now, and from its source otherwise.  So a
module edited since the build runs as written, never as it was compiled: a stale build costs
speed, never correctness, and ``--build`` again compiles only what changed.

A compiled module does what its source does (the same code, run by CPython without the
interpreter loop).  A module may have a ``.pxd`` beside it (Cython's pure-Python mode): it
types some of the module's functions for the compiled build only, so the ``.py`` stays the
one source and runs as written; the hash a build records covers the ``.pxd`` too, so that
editing either makes the build stale.  A ``.pxd`` may take types from another module's
``.pxd`` (``cimport``): its hash covers that one too, the build copies it beside the
sources compiled, and the finder loads the module compiled only while the one it takes
types from is loaded compiled as well (:func:`uses`).  A class the ``.pxd`` declares
(``cdef class``) is a native class when compiled: its methods read its declared attributes
as struct fields, an attribute not declared cannot be set (tests/test_native.py checks
the declarations against the source), and its methods cannot be replaced on the class
(tests count through subclasses or counters).  tests/test_native.py replays a corpus game
and plays bot games both ways and compares the state hashes.  It does it in about four
fifths of the time (docs/design.md, eighth pass).  ``EIGHTEEN_NATIVE=0`` turns the
compiled modules off (the finder is not put).
Building needs Cython (the dev extra) and a C compiler with the Python headers; without
them the engine stays pure Python.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from eighteen.locations import PACKAGE

#: Where the compiled modules of this package are kept.
NATIVE_DIR = PACKAGE / "_native"
MANIFEST = "manifest.json"
#: The file suffix of an extension module of this interpreter (its ABI).
SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
#: Turns the compiled modules off when set to one of these.
OFF = ("0", "off", "no", "false")
#: The packages whose modules are compiled (package ``__init__`` files are not), relative
#: to the package folder: the engine, which every game and bot runs, and the 18xx.games
#: importer and exporter (the replay benchmark's path).
COMPILED = ("engine", "io")


class NativeError(Exception):
    """The compiled modules cannot be built (no Cython, no compiler, a compile error)."""


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Each module compiled (dotted name -> source file), sorted by name."""
    out: dict[str, Path] = {}
    for sub in COMPILED:
        for src in sorted((package / sub).rglob("*.py")):
            if src.name == "__init__.py":
                continue
            rel = src.relative_to(package.parent).with_suffix("")
            out[".".join(rel.parts)] = src
    return dict(sorted(out.items()))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def types_of(source: Path) -> Path:
    """The ``.pxd`` beside a module's source: the types of its compiled build (it may not
    exist)."""
    return source.with_suffix(".pxd")


#: A line of a ``.pxd`` taking types from another module's ``.pxd``.
_CIMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+cimport\b|cimport[ \t]+([\w.]+))", re.M)


def cimports(pxd: bytes) -> list[str]:
    """The modules whose ``.pxd`` a ``.pxd`` takes types from (``from a.b cimport C``,
    ``cimport a.b``), sorted; Cython's own (``cython``, ``libc``, ``cpython`` ...) are not
    listed: only a module with a dot in its name is taken for one of the program's."""
    names = {(m.group(1) or m.group(2)).decode() for m in _CIMPORT.finditer(pxd)}
    return sorted(n for n in names if "." in n and n.split(".")[0] not in _CYTHON_OWN)


#: Cython's own packages of declarations, never a module of the program.
_CYTHON_OWN = frozenset({"cython", "libc", "libcpp", "cpython", "posix", "numpy"})


def root_of(source: Path) -> Path:
    """The folder holding the top package of ``source`` (the first folder above it with
    no ``__init__.py``)."""
    folder = source.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        folder = folder.parent
    return folder


@dataclass(frozen=True)
class _Types:
    """What a module's compiled build is made of besides its source: the ``.pxd`` beside
    it (None: none), and the ``.pxd`` of every module it takes types from, directly or
    through another (name -> its bytes; None: missing), by name."""

    own: bytes | None
    used: dict[str, bytes | None]


def _read(source: Path, root: Path | None = None) -> tuple[bytes, _Types]:
    """A module's source and its types (:class:`_Types`; ``root``: the folder holding the
    top package, found from ``source`` when not given); OSError: the source cannot be
    read."""
    data = source.read_bytes()
    pxd = types_of(source)
    own = pxd.read_bytes() if pxd.is_file() else None
    used: dict[str, bytes | None] = {}
    todo = cimports(own) if own is not None else []
    top = root if root is not None else root_of(source)
    while todo:
        name = todo.pop()
        if name in used:
            continue
        dep = types_of(_source(top, name))
        used[name] = dep.read_bytes() if dep.is_file() else None
        todo += cimports(used[name] or b"")
    return data, _Types(own, dict(sorted(used.items())))


def _digest_of(data: bytes, types: _Types) -> str:
    if types.own is None:
        return digest(data)
    parts = [data, b"\0pxd\0", types.own]
    for name, pxd in types.used.items():  # (a module's layout is in its .pxd only)
        parts += [b"\0cimport ", name.encode(), b"\0", pxd if pxd is not None else b"\0none"]
    return digest(b"".join(parts))


def source_digest(source: Path, root: Path | None = None) -> str:
    """The hash a build of ``source`` is recorded under: its bytes, those of the ``.pxd``
    beside it when there is one, and those of the ``.pxd`` of each module that one takes
    types from (a native class's layout: a module compiled against another layout would
    not load), ``root`` as for :func:`_read` (OSError: the source cannot be read)."""
    return _digest_of(*_read(source, root))


def uses(source: Path, root: Path | None = None) -> list[str]:
    """The modules whose types the build of ``source`` takes (:func:`cimports`, followed
    through their ``.pxd`` files); [] when it cannot be read."""
    try:
        return list(_read(source, root)[1].used)
    except OSError:
        return []


def read_manifest(native_dir: Path | None = None) -> dict[str, str]:
    """The compiled modules of ``native_dir`` for this interpreter: dotted name -> hash of
    the source each was made from ({} when there is none, or it was made for another
    interpreter, or it cannot be read)."""
    try:
        data = json.loads((native_dir or NATIVE_DIR).joinpath(MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("suffix") != SUFFIX:
        return {}
    mods = data.get("modules")
    if not isinstance(mods, dict):
        return {}
    return {k: v for k, v in mods.items() if isinstance(k, str) and isinstance(v, str)}


def _source(root: Path, name: str) -> Path:
    return root.joinpath(*name.split(".")).with_suffix(".py")


def _state(source: Path, built: Path, recorded: str | None, root: Path | None = None) -> str:
    """``native`` when the compiled file ``built`` exists and was made from ``source`` as
    it is now (its hash ``recorded``), ``stale`` when it was made from another version,
    ``missing`` when there is none (or the source cannot be read)."""
    return _read_state(source, built, recorded, root)[0]


def _read_state(
    source: Path, built: Path, recorded: str | None, root: Path | None
) -> tuple[str, _Types | None]:
    """:func:`_state`, and the types of ``source`` read on the way (None: not read)."""
    if recorded is None or not built.is_file():
        return "missing", None
    try:
        data, types = _read(source, root)
    except OSError:
        return "missing", None
    return ("native" if _digest_of(data, types) == recorded else "stale"), types


def _loaded_state(root: Path, native_dir: Path, entries: Mapping[str, str], name: str) -> str:
    """:func:`_state` of a module, as it loads: ``stale`` also when a module whose types
    it takes (:func:`uses`) is not ``native`` (compiled against that module's native
    class, it would refuse to load beside its source).  Each file is read once."""
    built = native_dir / f"{name}{SUFFIX}"
    state, types = _read_state(_source(root, name), built, entries.get(name), root)
    if state != "native" or types is None:
        return state
    for dep in types.used:
        built = native_dir / f"{dep}{SUFFIX}"
        if _state(_source(root, dep), built, entries.get(dep), root) != "native":
            return "stale"
    return state


class NativeFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled file of a module listed in ``native_dir``'s manifest whose
    source (under ``root``, the folder holding the top package) is the one it was compiled
    from; every other module is left to the usual finders."""

    def __init__(self, root: Path, native_dir: Path) -> None:
        self.root = root
        self.native_dir = native_dir
        self.entries = read_manifest(native_dir)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        recorded = self.entries.get(fullname)
        if recorded is None:
            return None  # (not a compiled module: asked of every import, answered at once)
        built = self.native_dir / f"{fullname}{SUFFIX}"
        if _loaded_state(self.root, self.native_dir, self.entries, fullname) != "native":
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(built))
        return importlib.util.spec_from_file_location(fullname, built, loader=loader)


def enabled() -> bool:
    """Are compiled modules used (``EIGHTEEN_NATIVE`` is not set to turn them off)?"""
    return os.environ.get("EIGHTEEN_NATIVE", "").strip().lower() not in OFF


def install() -> None:
    """Put the finder of this package's compiled modules first on ``sys.meta_path`` (once;
    not when they are turned off, or none was built)."""
    if not enabled() or not (NATIVE_DIR / MANIFEST).is_file():
        return
    if any(isinstance(f, NativeFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, NativeFinder(PACKAGE.parent, NATIVE_DIR))


@dataclass(frozen=True)
class ModuleState:
    """A compiled module's state: ``native`` (built from its source as it is now),
    ``stale`` (built from another version of it) or ``missing`` (never built); ``loaded``:
    imported in this process from its compiled file."""

    name: str
    state: str
    loaded: bool


def status(package: Path = PACKAGE, native_dir: Path | None = None) -> list[ModuleState]:
    """The state of every module of :func:`modules`."""
    native_dir = native_dir or NATIVE_DIR
    recorded = read_manifest(native_dir)
    out = []
    for name in modules(package):
        state = _loaded_state(package.parent, native_dir, recorded, name)
        mod = sys.modules.get(name)
        loaded = mod is not None and str(getattr(mod, "__file__", "")).endswith(SUFFIX)
        out.append(ModuleState(name, state, loaded))
    return out


def describe() -> str:
    """One line for benchmark headers: how the engine runs in this process."""
    states = status()
    imported = [s for s in states if s.name in sys.modules]
    loaded = sum(s.loaded for s in imported)
    if not loaded:
        why = "" if enabled() else " (EIGHTEEN_NATIVE=0)"
        return f"engine: pure Python{why}"
    return f"engine: compiled, {loaded} of the {len(imported)} modules imported"


def build(
    sources: Mapping[str, Path] | None = None,
    native_dir: Path | None = None,
    *,
    jobs: int = 2,
    force: bool = False,
) -> list[str]:
    """Compile the modules of ``sources`` (dotted name -> source; default :func:`modules`)
    not compiled from their present source (all of them with ``force``) into
    ``native_dir``; returns their names.  The manifest lists the modules of ``sources``
    only, and the folder keeps their files only (a module no longer compiled is dropped,
    and the files of a build for another interpreter).  Each file and the manifest
    are replaced whole, so a failed build leaves the last one as it was; NativeError
    says why it failed."""
    sources = dict(modules() if sources is None else sources)
    native_dir = native_dir or NATIVE_DIR
    recorded = read_manifest(native_dir)
    todo = {
        name: src
        for name, src in sources.items()
        if force or _state(src, native_dir / f"{name}{SUFFIX}", recorded.get(name)) != "native"
    }
    kept = {k: v for k, v in recorded.items() if k in sources and k not in todo}
    if not todo and kept == recorded:
        return []
    native_dir.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="eighteen-native-"))
    try:
        made = _compile(todo, jobs, scratch) if todo else {}
        for name, (built, _) in made.items():
            part = native_dir / f".{name}{SUFFIX}.{os.getpid()}.part"  # (one per build)
            shutil.copyfile(built, part)
            os.replace(part, native_dir / f"{name}{SUFFIX}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    entries = {**kept, **{name: source_hash for name, (_, source_hash) in made.items()}}
    _write_manifest(native_dir, entries)
    keep = {MANIFEST, *(f"{name}{SUFFIX}" for name in entries)}
    for f in native_dir.iterdir():  # a module no longer compiled, a build for another ABI
        if f.is_file() and not f.name.startswith(".") and f.name not in keep:
            f.unlink(missing_ok=True)
    return sorted(made)


def _compile(todo: Mapping[str, Path], jobs: int, scratch: Path) -> dict[str, tuple[Path, str]]:
    """Cythonize and compile copies of the sources in the folder ``scratch`` (each in its
    package's folders, so that it knows its full name): name -> (built file, hash of the
    source compiled)."""
    if importlib.util.find_spec("Cython") is None:
        raise NativeError("Cython is not installed (pip install -e '.[dev]' installs it)")
    copies: dict[str, tuple[Path, str]] = {}
    for name, src in todo.items():
        data, types = _read(src)
        copy = _place(scratch, name).with_suffix(".py")
        copy.write_bytes(data)
        if types.own is not None:  # (Cython reads the .pxd beside the copy)
            types_of(copy).write_bytes(types.own)
        for dep, pxd in types.used.items():  # (and those it cimports, in their packages)
            if pxd is not None:
                _place(scratch, dep).with_suffix(".pxd").write_bytes(pxd)
        copies[name] = (copy, _digest_of(data, types))
    cmd = [sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-q"]
    cmd += ["-j", str(max(1, jobs)), "-X", "annotation_typing=False"]
    cmd += [str(c.relative_to(scratch)) for c, _ in copies.values()]
    done = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise NativeError("the compile failed: " + " | ".join(lines[-4:]))
    out: dict[str, tuple[Path, str]] = {}
    for name, (copy, source_hash) in copies.items():
        built = copy.with_name(copy.stem + SUFFIX)
        if not built.is_file():
            raise NativeError(f"the compile made no {built.name} for {name}")
        out[name] = (built, source_hash)
    return out


def _place(scratch: Path, name: str) -> Path:
    """Where the module ``name`` goes under ``scratch`` (its suffix left to the caller),
    its package folders made, each with an ``__init__.py`` (so that it knows its full
    name, and another module's cimport finds its ``.pxd``)."""
    parts = name.split(".")
    scratch.joinpath(*parts[:-1]).mkdir(parents=True, exist_ok=True)
    for i in range(1, len(parts)):
        scratch.joinpath(*parts[:i], "__init__.py").touch()
    return scratch.joinpath(*parts)


def _write_manifest(native_dir: Path, entries: Mapping[str, str]) -> None:
    data = {"suffix": SUFFIX, "modules": dict(sorted(entries.items()))}
    part = native_dir / f".{MANIFEST}.{os.getpid()}.part"
    part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(part, native_dir / MANIFEST)


def clean(native_dir: Path | None = None) -> bool:
    """Remove the compiled modules (the engine runs from its sources); False: none."""
    native_dir = native_dir or NATIVE_DIR
    if not native_dir.exists():
        return False
    shutil.rmtree(native_dir)
    return True
