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
and plays bot games both ways and compares the state hashes.  It does it in about half
the time (four fifths when first compiled, docs/design.md, eighth pass).
``EIGHTEEN_NATIVE=0`` turns the compiled modules off (the finder is not put).
Building needs Cython (the dev extra) and a C compiler with the Python headers; without
them the engine stays pure Python.  With GCC, ``--build`` is guided by a profile
(:func:`eighteen.native_build.build`): the modules are compiled with counters, a training
run plays bot games of every title with them (:mod:`eighteen.native_training`), and they are compiled again with what it measured,
which takes about a sixth off the time of an action (docs/design.md, twenty-second pass);
``--no-profile`` skips that (one compile instead of two, and no training run).  This module
is the finder's half, which every ``import eighteen`` loads; the build is
:mod:`eighteen.native_build`, loaded only by ``eighteen native --build``.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import sys
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

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
class SourceTypes:
    """What a module's compiled build is made of besides its source: the ``.pxd`` beside
    it (None: none), and the ``.pxd`` of every module it takes types from, directly or
    through another (name -> its bytes; None: missing), by name."""

    own: bytes | None
    used: dict[str, bytes | None]


def read_source(source: Path, root: Path | None = None) -> tuple[bytes, SourceTypes]:
    """A module's source and its types (:class:`SourceTypes`; ``root``: the folder holding the
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
    return data, SourceTypes(own, dict(sorted(used.items())))


def digest_of(data: bytes, types: SourceTypes) -> str:
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
    not load), ``root`` as for :func:`read_source` (OSError: the source cannot be read)."""
    return digest_of(*read_source(source, root))


def uses(source: Path, root: Path | None = None) -> list[str]:
    """The modules whose types the build of ``source`` takes (:func:`cimports`, followed
    through their ``.pxd`` files); [] when it cannot be read."""
    try:
        return list(read_source(source, root)[1].used)
    except OSError:
        return []


def manifest_data(native_dir: Path | None) -> dict[str, Any]:
    """The manifest of ``native_dir`` (default :func:`native_dir_now`) as read, when it is
    one for this interpreter ({} when there is none, it was made for another interpreter,
    or it cannot be read)."""
    try:
        data = json.loads((native_dir or native_dir_now()).joinpath(MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("suffix") == SUFFIX else {}


def read_manifest(native_dir: Path | None = None) -> dict[str, str]:
    """The compiled modules of ``native_dir`` for this interpreter: dotted name -> hash of
    the source each was made from ({} when there is none, or it was made for another
    interpreter, or it cannot be read)."""
    return modules_in(manifest_data(native_dir))


def read_profiled(native_dir: Path | None = None) -> set[str]:
    """The modules of ``native_dir``'s manifest whose build a profile guided
    (:func:`eighteen.native_build.build`); an empty set when there is none (or none was)."""
    return profiled_in(manifest_data(native_dir))


def modules_in(data: dict[str, Any]) -> dict[str, str]:
    """:func:`read_manifest` of a manifest read (:func:`manifest_data`)."""
    mods = data.get("modules")
    if not isinstance(mods, dict):
        return {}
    return {k: v for k, v in mods.items() if isinstance(k, str) and isinstance(v, str)}


def profiled_in(data: dict[str, Any]) -> set[str]:
    """:func:`read_profiled` of a manifest read (:func:`manifest_data`)."""
    names, mods = data.get("profiled"), data.get("modules")
    if not isinstance(names, list) or not isinstance(mods, dict):
        return set()
    return {n for n in names if isinstance(n, str) and n in mods}


def guided_note(n: int) -> str:
    """How the reports name ``n`` modules a profile guided (nothing when none)."""
    return f", {n} of them guided by a profile" if n else ""


def _source(root: Path, name: str) -> Path:
    return root.joinpath(*name.split(".")).with_suffix(".py")


def file_state(source: Path, built: Path, recorded: str | None, root: Path | None = None) -> str:
    """``native`` when the compiled file ``built`` exists and was made from ``source`` as
    it is now (its hash ``recorded``), ``stale`` when it was made from another version,
    ``missing`` when there is none (or the source cannot be read)."""
    return _read_state(source, built, recorded, root)[0]


def _read_state(
    source: Path, built: Path, recorded: str | None, root: Path | None
) -> tuple[str, SourceTypes | None]:
    """:func:`file_state`, and the types of ``source`` read on the way (None: not read)."""
    if recorded is None or not built.is_file():
        return "missing", None
    try:
        data, types = read_source(source, root)
    except OSError:
        return "missing", None
    return ("native" if digest_of(data, types) == recorded else "stale"), types


def _loaded_state(root: Path, native_dir: Path, entries: Mapping[str, str], name: str) -> str:
    """:func:`file_state` of a module, as it loads: ``stale`` also when a module whose types
    it takes (:func:`uses`) is not ``native`` (compiled against that module's native
    class, it would refuse to load beside its source).  Each file is read once."""
    built = native_dir / f"{name}{SUFFIX}"
    state, types = _read_state(_source(root, name), built, entries.get(name), root)
    if state != "native" or types is None:
        return state
    for dep in types.used:
        built = native_dir / f"{dep}{SUFFIX}"
        if file_state(_source(root, dep), built, entries.get(dep), root) != "native":
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


def native_dir_now() -> Path:
    """The folder of the compiled modules, which the finder loads, the status reads and a
    build or a clean changes when given none: ``EIGHTEEN_NATIVE_DIR`` when it is set (a
    profile-guided build's training run sets it), else the package's :data:`NATIVE_DIR`."""
    return Path(os.environ.get("EIGHTEEN_NATIVE_DIR") or NATIVE_DIR)


def install() -> None:
    """Put the finder of this package's compiled modules first on ``sys.meta_path`` (once;
    not when they are turned off, or none was built)."""
    native_dir = native_dir_now()
    if not enabled() or not (native_dir / MANIFEST).is_file():
        return
    if any(isinstance(f, NativeFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, NativeFinder(PACKAGE.parent, native_dir))


@dataclass(frozen=True)
class ModuleState:
    """A compiled module's state: ``native`` (built from its source as it is now),
    ``stale`` (built from another version of it) or ``missing`` (never built); ``loaded``:
    imported in this process from its compiled file."""

    name: str
    state: str
    loaded: bool
    #: its build was guided by a profile (:func:`eighteen.native_build.build`)
    profiled: bool = False


def status(package: Path = PACKAGE, native_dir: Path | None = None) -> list[ModuleState]:
    """The state of every module of :func:`modules` (``native_dir``: default
    :func:`native_dir_now`)."""
    native_dir = native_dir or native_dir_now()
    data = manifest_data(native_dir)  # (read once: the modules and those a profile guided)
    recorded, profiled = modules_in(data), profiled_in(data)
    out = []
    for name in modules(package):
        state = _loaded_state(package.parent, native_dir, recorded, name)
        mod = sys.modules.get(name)
        loaded = mod is not None and str(getattr(mod, "__file__", "")).endswith(SUFFIX)
        out.append(ModuleState(name, state, loaded, state == "native" and name in profiled))
    return out


def describe() -> str:
    """One line for benchmark headers: how the engine runs in this process."""
    states = status()
    imported = [s for s in states if s.name in sys.modules]
    loaded = sum(s.loaded for s in imported)
    if not loaded:
        why = "" if enabled() else " (EIGHTEEN_NATIVE=0)"
        return f"engine: pure Python{why}"
    guided = guided_note(sum(s.loaded and s.profiled for s in imported))
    return f"engine: compiled, {loaded} of the {len(imported)} modules imported{guided}"


def built_file(path: Path) -> bool:
    """Is ``path`` a file a build writes in the native folder: the manifest, or a compiled
    module (an extension module of any interpreter: a build for another ABI is one)?  A
    build and a clean remove only these: the folder ``EIGHTEEN_NATIVE_DIR`` names may
    hold other files: a library of a user's (``libfoo.so``) is none of a build's, whose
    files are named by their dotted module (``eighteen.engine.map.cpython-311-....so``)."""
    return path.name == MANIFEST or _BUILT.fullmatch(path.name) is not None


#: A compiled module's file: its dotted module name, then an extension module's suffix.
_BUILT = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\.[\w-]+)?\.(?:so|pyd)")


def clean(native_dir: Path | None = None) -> bool:
    """Remove the compiled modules and their manifest (the engine runs from its sources),
    then the folder if nothing else is left in it; False: none.  NativeError when the
    folder is a file."""
    native_dir = native_dir or native_dir_now()
    if not native_dir.exists():
        return False
    if not native_dir.is_dir():
        raise NativeError(f"{native_dir} is not a folder")
    found = [f for f in native_dir.iterdir() if f.is_file() and built_file(f)]
    for f in found:
        f.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # (not empty: what else it holds stays)
        native_dir.rmdir()
    return bool(found)
