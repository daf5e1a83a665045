"""Building the compiled engine (``eighteen native --build``): the modules of
:func:`eighteen.native.modules` through Cython and the C compiler into the native folder,
guided by a profile where the compiler is GCC (:func:`build`).  A module of its own, so
that ``import eighteen``, which puts the finder of :mod:`eighteen.native`, loads none of it
(nor the subprocesses and thread pool it works with); the training run
(:mod:`eighteen.native_training`) plays the engine in a process of its own.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from eighteen.locations import PACKAGE
from eighteen.native import (
    MANIFEST,
    SUFFIX,
    NativeError,
    built_file,
    digest_of,
    file_state,
    manifest_data,
    modules,
    modules_in,
    native_dir_now,
    profiled_in,
    read_source,
    types_of,
)


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
    manifest = manifest_data(native_dir)  # (read once: the modules and those a profile guided)
    recorded = modules_in(manifest)
    todo = {
        name: src
        for name, src in sources.items()
        if force or file_state(src, native_dir / f"{name}{SUFFIX}", recorded.get(name)) != "native"
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
    profiled = {n for n in profiled_in(manifest) if n in kept}
    _write_manifest(native_dir, entries, profiled | (set(made) if guided else set()))
    keep = {MANIFEST, *(f"{name}{SUFFIX}" for name in entries)}
    for f in native_dir.iterdir():  # a module no longer compiled, a build for another ABI
        if f.is_file() and built_file(f) and f.name not in keep:
            f.unlink(missing_ok=True)
    return sorted(made)


#: The training run of the engine's profile-guided build (:func:`build`, :func:`eighteen.native_training.train`).
TRAINING = (sys.executable, "-c", "from eighteen.native_training import train; print(train())")


def _translate(todo: Mapping[str, Path], jobs: int, scratch: Path) -> dict[str, tuple[Path, str]]:
    """Copy the sources into the folder ``scratch`` (each in its package's folders, so
    that it knows its full name) and write each one's C file beside it with Cython:
    name -> (the file its compile makes, hash of the source compiled)."""
    if importlib.util.find_spec("Cython") is None:
        raise NativeError("Cython is not installed (pip install -e '.[dev]' installs it)")
    copies: dict[str, tuple[Path, str]] = {}
    for name, src in todo.items():
        data, types = read_source(src)
        copy = _place(scratch, name).with_suffix(".py")
        copy.write_bytes(data)
        if types.own is not None:  # (Cython reads the .pxd beside the copy)
            types_of(copy).write_bytes(types.own)
        for dep, pxd in types.used.items():  # (and those it cimports, in their packages)
            if pxd is not None:
                _place(scratch, dep).with_suffix(".pxd").write_bytes(pxd)
        copies[name] = (copy, digest_of(data, types))
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
