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
(:func:`build`): the modules are compiled with counters, a training run plays bot games of
every title with them (:func:`train`), and they are compiled again with what it measured,
which takes about a sixth off the time of an action (docs/design.md, twenty-second pass);
``--no-profile`` skips that (one compile instead of two, and no training run).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
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


def _manifest(native_dir: Path | None) -> dict[str, Any]:
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
    return _modules_in(_manifest(native_dir))


def read_profiled(native_dir: Path | None = None) -> set[str]:
    """The modules of ``native_dir``'s manifest whose build a profile guided
    (:func:`build`); an empty set when there is none (or none was)."""
    return _profiled_in(_manifest(native_dir))


def _modules_in(data: dict[str, Any]) -> dict[str, str]:
    """:func:`read_manifest` of a manifest read (:func:`_manifest`)."""
    mods = data.get("modules")
    if not isinstance(mods, dict):
        return {}
    return {k: v for k, v in mods.items() if isinstance(k, str) and isinstance(v, str)}


def _profiled_in(data: dict[str, Any]) -> set[str]:
    """:func:`read_profiled` of a manifest read (:func:`_manifest`)."""
    names, mods = data.get("profiled"), data.get("modules")
    if not isinstance(names, list) or not isinstance(mods, dict):
        return set()
    return {n for n in names if isinstance(n, str) and n in mods}


def guided_note(n: int) -> str:
    """How the reports name ``n`` modules a profile guided (nothing when none)."""
    return f", {n} of them guided by a profile" if n else ""


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
    #: its build was guided by a profile (:func:`build`)
    profiled: bool = False


def status(package: Path = PACKAGE, native_dir: Path | None = None) -> list[ModuleState]:
    """The state of every module of :func:`modules` (``native_dir``: default
    :func:`native_dir_now`)."""
    native_dir = native_dir or native_dir_now()
    data = _manifest(native_dir)  # (read once: the modules and those a profile guided)
    recorded, profiled = _modules_in(data), _profiled_in(data)
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


def build(
    sources: Mapping[str, Path] | None = None,
    native_dir: Path | None = None,
    *,
    jobs: int = 2,
    force: bool = False,
    train: Sequence[str] | None = None,
    notes: list[str] | None = None,
) -> list[str]:
    """Compile the modules of ``sources`` (dotted name -> source; default :func:`modules`)
    not compiled from their present source (all of them with ``force``) into
    ``native_dir``; returns their names.  The manifest lists the modules of ``sources``
    only, and the folder keeps their files only (a module no longer compiled is dropped,
    and the files of a build for another interpreter).  Each file and the manifest
    are replaced whole, so a failed build leaves the last one as it was; NativeError
    says why it failed.

    With ``train`` (a command: :data:`TRAINING` runs the engine's), the build is guided by
    a profile when the C compiler is GCC: the modules are compiled with counters, the
    command runs with them loaded (``EIGHTEEN_NATIVE_DIR`` names their folder), and they
    are compiled again with what the counters measured (the hot paths laid out together
    and their branches ordered; about a sixth off an action's time, docs/design.md).
    When that cannot be done (another compiler, the training run failed or left no
    profile) they are compiled without; what happened is added to ``notes``, and the
    manifest lists the modules a profile guided (:func:`read_profiled`)."""
    sources = dict(modules() if sources is None else sources)
    native_dir = native_dir or native_dir_now()
    manifest = _manifest(native_dir)  # (read once: the modules and those a profile guided)
    recorded = _modules_in(manifest)
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
        made = _translate(todo, jobs, scratch) if todo else {}
        guided = False
        if made and train is not None:
            how, guided = _profiled(made, jobs, scratch, train, native_dir, kept)
            if notes is not None:
                notes.append(how)
        if made and not guided:
            _cc(made, jobs, scratch, ())
        for name, (built, _) in made.items():
            part = native_dir / f".{name}{SUFFIX}.{os.getpid()}.part"  # (one per build)
            shutil.copyfile(built, part)
            os.replace(part, native_dir / f"{name}{SUFFIX}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    entries = {**kept, **{name: source_hash for name, (_, source_hash) in made.items()}}
    profiled = {n for n in _profiled_in(manifest) if n in kept}
    _write_manifest(native_dir, entries, profiled | (set(made) if guided else set()))
    keep = {MANIFEST, *(f"{name}{SUFFIX}" for name in entries)}
    for f in native_dir.iterdir():  # a module no longer compiled, a build for another ABI
        if f.is_file() and not f.name.startswith(".") and f.name not in keep:
            f.unlink(missing_ok=True)
    return sorted(made)


#: The training run of the engine's profile-guided build (:func:`build`, :func:`train`).
TRAINING = (sys.executable, "-c", "from eighteen.native import train; print(train())")


def _translate(todo: Mapping[str, Path], jobs: int, scratch: Path) -> dict[str, tuple[Path, str]]:
    """Copy the sources into the folder ``scratch`` (each in its package's folders, so
    that it knows its full name) and write each one's C file beside it with Cython:
    name -> (the file its compile makes, hash of the source compiled)."""
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
    cmd = [sys.executable, "-m", "Cython.Build.Cythonize", "-3", "-q"]
    cmd += ["-j", str(max(1, jobs)), "-X", "annotation_typing=False"]
    cmd += [str(c.relative_to(scratch)) for c, _ in copies.values()]
    done = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not all(c.with_suffix(".c").is_file() for c, _ in copies.values()):
        raise NativeError("the compile failed: " + _tail(done, 4))
    return {name: (copy.with_name(copy.stem + SUFFIX), h) for name, (copy, h) in copies.items()}


def _toolchain() -> tuple[list[str], list[str]]:
    """How this interpreter's extension modules are compiled and linked (its build's
    ``CC``, ``CFLAGS``, ``CCSHARED`` and ``LDSHARED``, with the environment's ``CC``,
    ``CFLAGS``, ``CPPFLAGS``, ``LDSHARED`` and ``LDFLAGS`` as setuptools takes them),
    without debug information, and with GCC calling the interpreter's functions without
    a stub (``-fno-plt``: 2-4% faster): (the compile command, the link command), each
    without its files."""
    var = sysconfig.get_config_var

    def words(name: str) -> list[str]:
        return shlex.split(str(var(name) or ""))

    env = os.environ
    cc = shlex.split(env["CC"]) if env.get("CC") else words("CC")
    flags = [*words("CFLAGS"), *shlex.split(env.get("CFLAGS", ""))]
    flags += shlex.split(env.get("CPPFLAGS", ""))
    # (no debug information: it makes a compile half as long again and the files eight
    # times larger, and the modules are debugged from their sources, EIGHTEEN_NATIVE=0)
    flags.append("-g0")
    if _is_gcc(cc[0]):  # (the interpreter's functions called through its table, not a stub)
        flags.append("-fno-plt")
    include = [f"-I{sysconfig.get_paths()['include']}"]
    link = shlex.split(env["LDSHARED"]) if env.get("LDSHARED") else words("LDSHARED")
    link += [*shlex.split(env.get("LDFLAGS", "")), *shlex.split(env.get("CFLAGS", ""))]
    return [*cc, *flags, *words("CCSHARED"), *include], link


def _cc(
    made: Mapping[str, tuple[Path, str]], jobs: int, scratch: Path, extra: Sequence[str]
) -> None:
    """Compile and link the C file of each module of ``made`` (beside the file it makes)
    with the flags ``extra`` added, ``jobs`` at once; each object file has one name in
    ``scratch`` whatever the flags (a profile is found by it)."""
    compile_cmd, link_cmd = _toolchain()
    objects = scratch / "objects"
    objects.mkdir(exist_ok=True)

    def one(name: str, built: Path) -> str | None:
        source = built.with_name(name.rsplit(".", 1)[-1] + ".c")
        obj = objects / f"{name}.o"
        compile_it = [*compile_cmd, *extra, "-c", str(source), "-o", str(obj)]
        for cmd in (compile_it, [*link_cmd, *extra, str(obj), "-o", str(built)]):
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                return f"{name}: " + _tail(done, 4)
        return None

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        failed = [e for e in pool.map(one, made, [b for b, _ in made.values()]) if e]
    if failed:
        raise NativeError("the compile failed: " + failed[0])


def _tail(done: subprocess.CompletedProcess[str], n: int) -> str:
    """The last ``n`` lines a failed command printed (its errors, else its output), on one
    line."""
    return " | ".join((done.stderr or done.stdout).strip().splitlines()[-n:])


@functools.cache
def _is_gcc(compiler: str) -> bool:
    """Is the C compiler (a command's first word) GCC, whose profiles :func:`_profiled`
    knows?  Asked once a process (each compile of a build asks)."""
    try:
        done = subprocess.run([compiler, "--version"], capture_output=True, text=True, check=False)
    except OSError:
        return False
    first = (done.stdout or "").splitlines()[:1]
    return (
        done.returncode == 0
        and bool(first)
        and "clang" not in first[0].lower()
        and ("gcc" in first[0].lower() or "Free Software Foundation" in done.stdout)
    )


def _profiled(
    made: Mapping[str, tuple[Path, str]],
    jobs: int,
    scratch: Path,
    train: Sequence[str],
    native_dir: Path,
    kept: Mapping[str, str],
) -> tuple[str, bool]:
    """Compile the modules of ``made`` (their C files written) guided by the profile of
    the training command ``train`` (:func:`build`), the modules kept from the last build
    loaded beside them in the training run.  Returns what was done, and whether a profile
    guided it; when it did not (another compiler, a failed training run), the caller
    compiles them without one."""
    if not _is_gcc(_toolchain()[0][0]):
        return "without a profile: the C compiler is not GCC", False
    profile = scratch / "profile"
    counting = ["-fprofile-generate", "-fprofile-update=single", f"-fprofile-dir={profile}"]
    guided = [
        "-fprofile-use",
        f"-fprofile-dir={profile}",
        "-fprofile-partial-training",  # (code the training never ran stays optimised)
        "-Wno-missing-profile",
        "-Wno-coverage-mismatch",
    ]
    try:
        _cc(made, jobs, scratch, counting)
        run_dir = scratch / "training"
        run_dir.mkdir()
        for name, (built, _) in made.items():
            shutil.copyfile(built, run_dir / f"{name}{SUFFIX}")
        for name in kept:
            shutil.copyfile(native_dir / f"{name}{SUFFIX}", run_dir / f"{name}{SUFFIX}")
        _write_manifest(run_dir, {**kept, **{n: h for n, (_, h) in made.items()}})
        env = {**os.environ, "EIGHTEEN_NATIVE": "1", "EIGHTEEN_NATIVE_DIR": str(run_dir)}
        env["PYTHONPATH"] = os.pathsep.join(
            [str(PACKAGE.parent), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        done = subprocess.run(
            list(train), env=env, capture_output=True, text=True, check=False, timeout=900
        )
        if done.returncode != 0:
            raise NativeError("the training run failed: " + _tail(done, 3))
        if not any(profile.rglob("*.gcda")):  # (it ran none of them compiled)
            raise NativeError("the training run left no profile")
        _cc(made, jobs, scratch, guided)
    except (NativeError, OSError, subprocess.TimeoutExpired) as exc:
        return f"without a profile: {exc}", False
    return f"guided by a profile ({done.stdout.strip() or 'trained'})", True


def train() -> str:
    """The training run of the engine's profile-guided build (:data:`TRAINING`): two
    greedy four-player bot games of every title found, each written as an 18xx.games
    export and imported again: the engine's whole path (the rounds, the track, the routes,
    the importer).  Returns what it played, and how the engine ran (:func:`describe`)."""
    from eighteen.engine.bots import make_bots, play
    from eighteen.engine.game import Game
    from eighteen.engine.tables import load_title
    from eighteen.io.games18xx import import_game
    from eighteen.io.games18xx_export import export_game
    from eighteen.locations import known_titles

    games = 0
    for title_id in known_titles():
        tables = load_title(title_id)
        for seed in range(2):
            names = [f"Player{i + 1}" for i in range(4)]
            game = Game.new(tables, players=names, seed=seed)
            try:
                for _ in play(game, make_bots("greedy", names, seed)):
                    pass
            except RuntimeError:
                if not game.stuck:  # (a game no rule ends is played up to where it stuck)
                    raise
            games += 1
            import_game(export_game(game), tables)  # (it reads every action the engine has)
    return f"trained on {games} bot games, each imported again; {describe()}"


def _place(scratch: Path, name: str) -> Path:
    """Where the module ``name`` goes under ``scratch`` (its suffix left to the caller),
    its package folders made, each with an ``__init__.py`` (so that it knows its full
    name, and another module's cimport finds its ``.pxd``)."""
    parts = name.split(".")
    scratch.joinpath(*parts[:-1]).mkdir(parents=True, exist_ok=True)
    for i in range(1, len(parts)):
        scratch.joinpath(*parts[:i], "__init__.py").touch()
    return scratch.joinpath(*parts)


def _write_manifest(
    native_dir: Path, entries: Mapping[str, str], profiled: Collection[str] = ()
) -> None:
    data = {
        "suffix": SUFFIX,
        "modules": dict(sorted(entries.items())),
        "profiled": sorted(profiled),
    }
    part = native_dir / f".{MANIFEST}.{os.getpid()}.part"
    part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(part, native_dir / MANIFEST)


def clean(native_dir: Path | None = None) -> bool:
    """Remove the compiled modules (the engine runs from its sources); False: none."""
    native_dir = native_dir or native_dir_now()
    if not native_dir.exists():
        return False
    shutil.rmtree(native_dir)
    return True
