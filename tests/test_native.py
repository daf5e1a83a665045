"""The compiled engine (eighteen.native): a module runs compiled only while its source is the
one compiled, a build compiles only what changed, and the compiled engine gives the results
of its sources."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from eighteen import native, native_build, native_training
from eighteen.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "tests" / "fixtures" / "18xx-games" / "1830" / "29133.json"

#: Run in a fresh process: the state hash of an imported 18xx.games game and of two bot
#: games, and how the engine ran.
RESULTS = """
import json, sys
from eighteen import native
from eighteen.engine import tables
from eighteen.engine.bots import make_bots, play
from eighteen.engine.game import Game
from eighteen.io import games18xx
data = games18xx.read_export(sys.argv[1])
res = games18xx.import_game(data, tables.load_title("1830"))
out = {"import": [res.game.state_hash(), len(res.mismatches())]}
for tid, kind, seed in (("1830", "greedy", 3), ("1833ne", "random", 4)):
    names = ["A", "B", "C", "D"]
    g = Game(tables.load_title(tid), names, seed=seed)
    for _ in play(g, make_bots(kind, names, seed), max_actions=20000):
        pass
    out[tid] = [g.state_hash(), len(g.log), g.is_over]
out["engine"] = native.describe()
print(json.dumps(out))
"""


def _results(**env: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", RESULTS, str(GAME)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert isinstance(out, dict)
    return out


def test_the_compiled_engine_gives_the_results_of_its_sources() -> None:
    pure = _results(EIGHTEEN_NATIVE="0")
    built = _results(EIGHTEEN_NATIVE="1")  # (whatever the suite runs with)
    assert pure["engine"] == "engine: pure Python (EIGHTEEN_NATIVE=0)"
    # `make test` builds it first; on CI (as for the browser tests) it must have been built
    if os.environ.get("CI") or all(s.state == "native" for s in native.status()):
        assert str(built["engine"]).startswith("engine: compiled, ")
    assert {k: v for k, v in built.items() if k != "engine"} == {
        k: v for k, v in pure.items() if k != "engine"
    }
    assert pure["import"][1] == 0  # type: ignore[index]
    assert pure["1830"][2] is True and pure["1833ne"][2] is True  # type: ignore[index]


def _package(tmp_path: Path, body: str) -> Path:
    pkg = tmp_path / "src" / "nativecheck"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    mod = pkg / "answer.py"
    mod.write_text(body)
    return mod


def test_a_module_runs_compiled_only_while_its_source_is_the_one_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mod = _package(tmp_path, "def value() -> int:\n    return 6 * 7\n")
    out = tmp_path / "native"
    assert native_build.build({"nativecheck.answer": mod}, out, jobs=1) == ["nativecheck.answer"]
    so = out / f"nativecheck.answer{native.SUFFIX}"
    assert sorted(p.name for p in out.iterdir()) == [native.MANIFEST, so.name]
    assert native_build.build({"nativecheck.answer": mod}, out, jobs=1) == []  # up to date

    finder = native.NativeFinder(tmp_path / "src", out)
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    try:
        import nativecheck.answer as compiled  # type: ignore[import-not-found]

        assert compiled.__file__ == str(so)
        assert compiled.value() == 42
        assert type(compiled.value).__name__ == "cython_function_or_method"
    finally:
        for name in [n for n in sys.modules if n.startswith("nativecheck")]:
            del sys.modules[name]

    recorded = native.read_manifest(out)["nativecheck.answer"]
    assert native.file_state(mod, so, recorded) == "native"
    mod.write_text("def value() -> int:\n    return 7\n")  # edited: it runs as written
    assert native.file_state(mod, so, recorded) == "stale"
    assert native.file_state(mod, out / "gone.so", recorded) == "missing"
    assert finder.find_spec("nativecheck.answer") is None
    assert native_build.build({"nativecheck.answer": mod}, out, jobs=1) == ["nativecheck.answer"]
    spec = native.NativeFinder(tmp_path / "src", out).find_spec("nativecheck.answer")
    assert spec is not None and spec.origin == str(so)
    assert native.NativeFinder(tmp_path / "src", out).find_spec("nativecheck.other") is None

    (out / "nativecheck.answer.cpython-39-other.so").write_bytes(b"")  # another ABI's
    assert native_build.build({}, out) == []  # no module compiled now: the files go too
    assert sorted(p.name for p in out.iterdir()) == [native.MANIFEST]
    assert native.read_manifest(out) == {}


def test_a_pxd_beside_a_module_types_its_build_and_is_part_of_its_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The .pxd beside a module is compiled with it (a function it declares cdef is no
    attribute of the compiled module, as it is of the source) and is hashed with it:
    editing it makes the build stale, and the next build compiles the module again."""
    mod = _package(
        tmp_path,
        "def _six() -> int:\n    return 6\n\n\ndef value() -> int:\n    return _six() * 7\n",
    )
    pxd = mod.with_suffix(".pxd")
    pxd.write_text("cdef long _six()\n")
    out = tmp_path / "native"
    assert native_build.build({"nativecheck.answer": mod}, out, jobs=1) == ["nativecheck.answer"]
    so = out / f"nativecheck.answer{native.SUFFIX}"
    recorded = native.read_manifest(out)["nativecheck.answer"]
    assert recorded == native.source_digest(mod) != native.digest(mod.read_bytes())
    assert native.file_state(mod, so, recorded) == "native"

    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setattr(
        sys, "meta_path", [native.NativeFinder(tmp_path / "src", out), *sys.meta_path]
    )
    try:
        import nativecheck.answer as compiled

        assert (compiled.__file__, compiled.value(), hasattr(compiled, "_six")) == (
            str(so),
            42,
            False,
        )
    finally:
        for name in [n for n in sys.modules if n.startswith("nativecheck")]:
            del sys.modules[name]

    pxd.write_text("cdef int _six()\n")
    assert native.file_state(mod, so, recorded) == "stale"
    assert native_build.build({"nativecheck.answer": mod}, out, jobs=1) == ["nativecheck.answer"]
    pxd.unlink()  # without it the module is built untyped, under the hash of its source
    assert native.file_state(mod, so, native.read_manifest(out)["nativecheck.answer"]) == "stale"
    assert native_build.build({"nativecheck.answer": mod}, out, jobs=1) == ["nativecheck.answer"]
    assert native.read_manifest(out)["nativecheck.answer"] == native.digest(mod.read_bytes())


def test_a_module_taking_another_modules_types_is_built_and_loaded_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``.pxd`` may take a native class from another module's ``.pxd`` (``cimport``):
    the build compiles against that one, the hash covers it (a changed layout makes the
    user stale), and the user loads compiled only while that module does too (beside its
    source, the user would refuse to load: the class's size differs)."""
    counter = _package(tmp_path, "")
    counter.unlink()
    pkg = counter.parent
    box = pkg / "box.py"
    box.write_text("class Box:\n    def __init__(self) -> None:\n        self.items = [1, 2, 3]\n")
    box.with_suffix(".pxd").write_text("cdef class Box:\n    cdef public list items\n")
    use = pkg / "use.py"
    use.write_text(
        "def total(b: object) -> int:\n    t = 0\n    for x in b.items:\n"
        "        t += x\n    return t\n"
    )
    use.with_suffix(".pxd").write_text(
        "import cython\nfrom nativecheck.box cimport Box\n\n"
        "@cython.locals(t=cython.long)\ncpdef long total(Box b)\n"
    )
    assert native.cimports(use.with_suffix(".pxd").read_bytes()) == ["nativecheck.box"]
    assert native.cimports(b"from libc.math cimport sqrt\ncimport cython\n") == []
    assert native.uses(use) == ["nativecheck.box"] and native.uses(box) == []
    sources = {"nativecheck.box": box, "nativecheck.use": use}
    out = tmp_path / "native"
    assert native_build.build(sources, out, jobs=1) == ["nativecheck.box", "nativecheck.use"]
    entries = native.read_manifest(out)
    assert entries["nativecheck.use"] == native.source_digest(use)
    root = tmp_path / "src"
    assert native._loaded_state(root, out, entries, "nativecheck.use") == "native"

    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setattr(sys, "meta_path", [native.NativeFinder(root, out), *sys.meta_path])
    try:
        import nativecheck.box as compiled_box  # type: ignore[import-not-found]
        import nativecheck.use as compiled_use  # type: ignore[import-not-found]

        assert compiled_use.__file__.endswith(native.SUFFIX)
        assert compiled_use.total(compiled_box.Box()) == 6
        with pytest.raises(TypeError):
            compiled_use.total(object())  # (typed: a Box or None)
    finally:
        for name in [n for n in sys.modules if n.startswith("nativecheck")]:
            del sys.modules[name]

    # the module it takes types from edited (not its .pxd): that one loads from its
    # source, and so does the user, whose own build is still current
    box.write_text(box.read_text() + "\n\nEDITED = True\n")
    assert native.file_state(
        use, out / f"nativecheck.use{native.SUFFIX}", entries["nativecheck.use"]
    ) == ("native")
    assert native._loaded_state(root, out, entries, "nativecheck.use") == "stale"
    assert native.NativeFinder(root, out).find_spec("nativecheck.use") is None
    try:
        import nativecheck.use as from_source

        assert from_source.__file__ == str(use) and from_source.total(compiled_box.Box()) == 6
    finally:
        for name in [n for n in sys.modules if n.startswith("nativecheck")]:
            del sys.modules[name]
    assert native_build.build(sources, out, jobs=1) == ["nativecheck.box"]  # the user's is current
    assert native._loaded_state(root, out, native.read_manifest(out), "nativecheck.use") == (
        "native"
    )

    # the layout changed: the user's hash with it, and both are built again
    box.with_suffix(".pxd").write_text(
        "cdef class Box:\n    cdef public list items\n    cdef public long n\n"
    )
    assert native.source_digest(use) != native.read_manifest(out)["nativecheck.use"]
    assert native_build.build(sources, out, jobs=1) == ["nativecheck.box", "nativecheck.use"]

    # the user alone built again: the build finds the .pxd it cimports without compiling
    # that module (a compile of the user alone would fail without it)
    use.write_text(use.read_text() + "\n\nEDITED = True\n")
    assert native_build.build(sources, out, jobs=1) == ["nativecheck.use"]
    assert native._loaded_state(root, out, native.read_manifest(out), "nativecheck.use") == (
        "native"
    )


def test_a_failed_build_says_why_and_keeps_the_last_one(tmp_path: Path) -> None:
    mod = _package(tmp_path, "def value() -> int:\n    return 1\n")
    out = tmp_path / "native"
    native_build.build({"nativecheck.answer": mod}, out, jobs=1)
    before = native.read_manifest(out)
    mod.write_text("def value(:\n")
    with pytest.raises(native.NativeError, match="the compile failed: "):
        native_build.build({"nativecheck.answer": mod}, out, jobs=1)
    assert native.read_manifest(out) == before
    assert native.NativeFinder(tmp_path / "src", out).find_spec("nativecheck.answer") is None


def test_a_manifest_for_another_interpreter_or_unreadable_lists_nothing(tmp_path: Path) -> None:
    (tmp_path / native.MANIFEST).write_text("{not json")
    assert native.read_manifest(tmp_path) == {}
    (tmp_path / native.MANIFEST).write_text(
        json.dumps({"suffix": ".other-abi.so", "modules": {"eighteen.engine.map": "0" * 64}})
    )
    assert native.read_manifest(tmp_path) == {}
    assert native.NativeFinder(ROOT / "src", tmp_path).find_spec("eighteen.engine.map") is None
    # the modules a profile guided: listed ones of this interpreter's manifest only
    mods = {"eighteen.engine.map": "0" * 64, "eighteen.engine.game": "1" * 64}
    for suffix, profiled, expected in (
        (".other-abi.so", ["eighteen.engine.map"], set()),
        (native.SUFFIX, "eighteen.engine.map", set()),
        (
            native.SUFFIX,
            ["eighteen.engine.map", "eighteen.engine.gone", 7],
            {"eighteen.engine.map"},
        ),
    ):
        doc = {"suffix": suffix, "modules": mods, "profiled": profiled}
        (tmp_path / native.MANIFEST).write_text(json.dumps(doc))
        assert native.read_profiled(tmp_path) == expected
    assert native.read_manifest(tmp_path) == mods


def test_the_engine_and_the_importer_are_compiled_and_nothing_else() -> None:
    names = list(native.modules())
    assert names == sorted(names)
    assert "eighteen.engine.map" in names and "eighteen.engine.rounds.operating" in names
    assert "eighteen.io.games18xx_import" in names
    assert {n.split(".")[1] for n in names} == {"engine", "io"}
    assert not [n for n in names if n.endswith("__init__")]
    assert len(names) == len(list((ROOT / "src" / "eighteen" / "engine").rglob("*.py"))) - 2 + 7


def test_importing_eighteen_loads_the_finder_and_not_the_builder() -> None:
    """Every ``import eighteen`` puts the finder (eighteen.native); the build, its tools
    (subprocesses, a thread pool) and its training run load only for ``eighteen native
    --build``, and the training run's module only in the process that trains."""
    probe = (
        "import sys, eighteen\n"
        "names = ('eighteen.native', 'subprocess', 'concurrent')\n"
        "print(sorted(m for m in sys.modules if m.startswith(names)))\n"
        "import eighteen.native_build\n"
        "print(sorted(m for m in sys.modules if m.startswith(names[0])))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.splitlines() == [
        "['eighteen.native']",
        "['eighteen.native', 'eighteen.native_build']",
    ]


def test_the_command_reports_each_module_and_a_failed_build_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EIGHTEEN_NATIVE", raising=False)  # (the suite may run without)
    assert main(["native", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [m["name"] for m in doc["modules"]] == list(native.modules())
    assert sum(doc["counts"].values()) == len(native.modules())
    assert doc["enabled"] is True and doc["built"] == []

    def broken(**_: object) -> list[str]:
        raise native.NativeError("Cython is not installed")

    assert main(["native", "--build", "--clean"]) == 2  # one thing at a time
    assert "not allowed with argument" in capsys.readouterr().err

    monkeypatch.setattr(native_build, "build", broken)
    assert main(["native", "--build"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == (
        "eighteen native: error: Cython is not installed; the engine runs from its sources"
    )


#: Run from the sources (EIGHTEEN_NATIVE=0): each named class's attributes as its source
#: makes them (a dataclass's fields, a class's slots, else an instance's own attributes).
SOURCE_ATTRIBUTES = """
import dataclasses, importlib, json, sys
from eighteen.engine import network, tables
title = tables.load_title("1830")
made = {
    "eighteen.engine.map.Board": lambda: network.board_of(title),
    "eighteen.engine.tables.Tables": lambda: tables.Tables(title.data, title.path),
}
out = {}
for name in sys.argv[1:]:
    module, _, cls_name = name.rpartition(".")
    cls = getattr(importlib.import_module(module), cls_name)
    if dataclasses.is_dataclass(cls):
        got = [f.name for f in dataclasses.fields(cls)]
    elif "__slots__" in vars(cls):
        got = list(cls.__slots__)
    else:
        got = list(vars(made[name]()))
    out[name] = sorted(got)
print(json.dumps(out))
"""


def _declared_classes() -> dict[str, list[str]]:
    """Each class a ``.pxd`` of the compiled modules declares (``cdef class``), as
    module.Class -> the attributes it declares, sorted (an instance dict left out)."""
    out: dict[str, list[str]] = {}
    for name, src in native.modules().items():
        pxd = native.types_of(src)
        if not pxd.is_file():
            continue
        current: list[str] | None = None
        for line in pxd.read_text().splitlines():
            if line.startswith("cdef class "):
                cls = line[11:].split(":")[0].split("(")[0].strip()  # (its base left out)
                current = out.setdefault(f"{name}.{cls}", [])
            elif current is not None and line.startswith("    cdef ") and "(" not in line:
                attr = line.split()[-1]  # (a line with a call's parentheses: a method)
                if attr != "__dict__":
                    current.append(attr)
            elif line and not line.startswith(" "):
                current = None
    return {k: sorted(v) for k, v in out.items()}


def test_a_native_class_declares_every_attribute_its_source_makes() -> None:
    """A class a ``.pxd`` declares has, compiled, only the attributes declared there (an
    undeclared one cannot be set, unless it keeps an instance dict): the declarations are
    the attributes its source makes, no more, no fewer."""
    declared = _declared_classes()
    assert sorted(declared) == [
        "eighteen.engine.context.GameData",
        "eighteen.engine.face.TileLay",
        "eighteen.engine.game.Game",
        "eighteen.engine.graph.TrackGraph",
        "eighteen.engine.graph._Tables",
        "eighteen.engine.graph._Version",
        "eighteen.engine.map.Board",
        "eighteen.engine.position.MapState",
        "eighteen.engine.reach.Reach",
        "eighteen.engine.reach.Walk",
        "eighteen.engine.routes.Route",
        "eighteen.engine.routes.Stop",
        "eighteen.engine.state.AuctionRound",
        "eighteen.engine.state.CorporationState",
        "eighteen.engine.state.OperatingRound",
        "eighteen.engine.state.PlayerState",
        "eighteen.engine.state.PrivateState",
        "eighteen.engine.state.State",
        "eighteen.engine.state.StockRound",
        "eighteen.engine.tables.Tables",
        "eighteen.engine.trains.Offer",
    ]
    done = subprocess.run(
        [sys.executable, "-c", SOURCE_ATTRIBUTES, *declared],
        capture_output=True,
        text=True,
        env={**os.environ, "EIGHTEEN_NATIVE": "0"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == declared


#: A training run for the package of :func:`_package`: loads its module from the folder
#: the build names (``EIGHTEEN_NATIVE_DIR``), says whether it counts (GCC's counters are
#: in it) and what it answers.
TOY_TRAINING = """
import os, sys
from pathlib import Path
from eighteen import native
sys.path.insert(0, sys.argv[1])
sys.meta_path.insert(0, native.NativeFinder(Path(sys.argv[1]), Path(os.environ["EIGHTEEN_NATIVE_DIR"])))
import nativecheck.answer as a
counting = b"__gcov_" in Path(a.__file__).read_bytes()
print(f"{'counting' if counting else 'plain'} module, value {a.value(10)}")
"""


def _loaded_value(tmp_path: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """(file, value(10)) of the module compiled in ``out``, imported through its finder."""
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setattr(
        sys, "meta_path", [native.NativeFinder(tmp_path / "src", out), *sys.meta_path]
    )
    try:
        import nativecheck.answer as compiled

        return str(compiled.__file__), int(compiled.value(10))
    finally:
        for name in [n for n in sys.modules if n.startswith("nativecheck")]:
            del sys.modules[name]


def test_a_build_guided_by_a_profile_trains_with_counting_modules_then_compiles_them_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mod = _package(
        tmp_path, "def value(n: int) -> int:\n    return sum(i * i for i in range(n) if i % 3)\n"
    )
    out = tmp_path / "native"
    train = [sys.executable, "-c", TOY_TRAINING, str(tmp_path / "src")]
    notes: list[str] = []
    assert native_build.build(
        {"nativecheck.answer": mod}, out, jobs=1, train=train, notes=notes
    ) == ["nativecheck.answer"]
    so = out / f"nativecheck.answer{native.SUFFIX}"
    gcc = native_build._is_gcc(native_build._toolchain()[0][0])
    if gcc:
        # the training ran the module with its counters; the module kept has none
        assert notes == ["guided by a profile (counting module, value 159)"]
    else:
        assert notes == ["without a profile: the C compiler is not GCC"]
    assert b"__gcov_" not in so.read_bytes()
    assert _loaded_value(tmp_path, out, monkeypatch) == (str(so), 159)
    assert sorted(p.name for p in out.iterdir()) == [native.MANIFEST, so.name]
    # the manifest says which modules a profile guided
    assert native.read_profiled(out) == ({"nativecheck.answer"} if gcc else set())
    # a module kept from the build keeps its mark; one compiled again without loses it
    other = mod.with_name("other.py")
    other.write_text("X = 1\n")
    sources = {"nativecheck.answer": mod, "nativecheck.other": other}
    assert native_build.build(sources, out, jobs=1) == ["nativecheck.other"]
    assert native.read_profiled(out) == ({"nativecheck.answer"} if gcc else set())
    assert native_build.build(sources, out, jobs=1, force=True) == sorted(sources)
    assert native.read_profiled(out) == set()


def test_a_failed_training_run_leaves_the_modules_compiled_without_a_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (with another compiler no training runs: the build says so, and compiles without)
    other = (
        None
        if native_build._is_gcc(native_build._toolchain()[0][0])
        else "the C compiler is not GCC"
    )
    mod = _package(tmp_path, "def value(n: int) -> int:\n    return n + 1\n")
    out = tmp_path / "native"
    notes: list[str] = []
    train = [sys.executable, "-c", "raise SystemExit('no training today')"]
    assert native_build.build(
        {"nativecheck.answer": mod}, out, jobs=1, train=train, notes=notes
    ) == ["nativecheck.answer"]
    assert notes == [f"without a profile: {other or 'the training run failed: no training today'}"]
    assert native.read_profiled(out) == set()
    so = out / f"nativecheck.answer{native.SUFFIX}"
    assert b"__gcov_" not in so.read_bytes()
    assert _loaded_value(tmp_path, out, monkeypatch) == (str(so), 11)
    # a run that never loads the modules compiled with counters measures nothing
    notes.clear()
    train = [sys.executable, "-c", "pass"]
    assert native_build.build(
        {"nativecheck.answer": mod}, out, jobs=1, force=True, train=train, notes=notes
    ) == ["nativecheck.answer"]
    assert notes == [f"without a profile: {other or 'the training run left no profile'}"]
    assert _loaded_value(tmp_path, out, monkeypatch) == (str(so), 11)


def test_the_engines_training_run_plays_every_title_and_imports_what_the_importer_reads() -> None:
    from eighteen.locations import known_titles

    assert known_titles() == ["1830", "1830-example", "1833ne", "1833ne-takeover"]
    # two bot games of each title, each imported again (the importer reads every action
    # the engine has: tests/io/test_export_18xx.py)
    played = native_training.train()
    assert played == f"trained on 8 bot games, each imported again; {native.describe()}"


def test_the_command_builds_guided_by_a_profile_unless_told_not_to(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[object] = []

    def build(**kw: object) -> list[str]:
        asked.append(kw["train"])
        notes = kw["notes"]
        assert isinstance(notes, list)
        notes.append("guided by a profile (trained)")
        return ["eighteen.engine.map"]

    monkeypatch.setattr(native_build, "build", build)
    assert main(["native", "--build"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "compiled 1 module, guided by a profile (trained)"
    )
    assert main(["native", "--build", "--no-profile", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["built"] == ["eighteen.engine.map"]
    assert doc["notes"] == ["guided by a profile (trained)"]
    assert asked == [native_build.TRAINING, None]
    monkeypatch.setattr(
        native_build, "build", lambda **kw: ["eighteen.engine.map", "eighteen.engine.bank"]
    )
    assert main(["native", "--build", "--no-profile"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "compiled 2 modules"


def test_the_engine_line_counts_the_modules_a_profile_guided(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import eighteen.engine.game
    import eighteen.engine.map  # noqa: F401 (imported: the line counts imported modules)

    states = [
        native.ModuleState("eighteen.engine.game", "native", True, False),
        native.ModuleState("eighteen.engine.map", "native", True, True),
        native.ModuleState("eighteen.not.imported", "native", False, True),
    ]
    monkeypatch.setattr(native, "status", lambda: states)
    assert native.describe() == (
        "engine: compiled, 2 of the 2 modules imported, 1 of them guided by a profile"
    )
    states[1] = native.ModuleState("eighteen.engine.map", "native", True, False)
    assert native.describe() == "engine: compiled, 2 of the 2 modules imported"


def test_eighteen_native_dir_names_the_folder_of_the_compiled_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    mod = _package(tmp_path, "def value(n: int) -> int:\n    return n * 2\n")
    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv("EIGHTEEN_NATIVE_DIR", str(elsewhere))
    assert native.native_dir_now() == elsewhere
    assert native.read_manifest() == {} and native.read_profiled() == set()
    assert {s.state for s in native.status()} == {"missing"}  # (nothing built there)
    assert native_build.build({"nativecheck.answer": mod}, jobs=1) == ["nativecheck.answer"]
    assert sorted(native.read_manifest()) == ["nativecheck.answer"]
    assert (elsewhere / f"nativecheck.answer{native.SUFFIX}").is_file()
    assert native.clean() is True and not elsewhere.exists()
    # a build and a clean remove only what a build writes there: other files stay, and
    # so does the folder that holds them
    elsewhere.mkdir()
    (elsewhere / "mine.txt").write_text("keep")
    (elsewhere / "libfoo.so").write_text("a library of the user's")
    (elsewhere / "notes").mkdir()
    assert native_build.build({"nativecheck.answer": mod}, jobs=1) == ["nativecheck.answer"]
    assert sorted(p.name for p in elsewhere.iterdir()) == sorted(
        [native.MANIFEST, f"nativecheck.answer{native.SUFFIX}", "libfoo.so", "mine.txt", "notes"]
    )
    assert native.clean() is True
    assert sorted(p.name for p in elsewhere.iterdir()) == ["libfoo.so", "mine.txt", "notes"]
    assert native.clean() is False  # (nothing of a build left)
    monkeypatch.setenv("EIGHTEEN_NATIVE_DIR", str(elsewhere / "mine.txt"))
    assert main(["native", "--clean"]) == 1
    assert capsys.readouterr().err == (
        f"eighteen native: error: {elsewhere / 'mine.txt'} is not a folder\n"
    )
    assert (elsewhere / "mine.txt").read_text() == "keep"
    monkeypatch.delenv("EIGHTEEN_NATIVE_DIR")
    assert native.native_dir_now() == native.NATIVE_DIR


def test_gcc_is_told_from_other_compilers_by_its_version_line(tmp_path: Path) -> None:
    def compiler(name: str, first_line: str) -> str:
        path = tmp_path / name
        path.write_text(f"#!/bin/sh\necho '{first_line}'\n")
        path.chmod(0o755)
        return str(path)

    assert native_build._is_gcc(compiler("cc1", "gcc (Debian 12.2.0-14) 12.2.0")) is True
    assert native_build._is_gcc(compiler("cc2", "Debian clang version 14.0.6")) is False
    assert native_build._is_gcc(compiler("cc3", "tcc version 0.9.27")) is False
    assert native_build._is_gcc(str(tmp_path / "no-such-compiler")) is False


def test_the_state_copy_keeps_its_contract_run_from_the_sources() -> None:
    """The suite runs compiled (`make test` builds first); the state's copy has a second
    form for its classes run from their sources (a plain dataclass, copied by its dict),
    which an engine without a C compiler runs.  Its tests pass in that form too."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist"]
        + [str(Path(__file__).parent / "engine" / "test_state_copy.py")],
        capture_output=True,
        text=True,
        env={**os.environ, "EIGHTEEN_NATIVE": "0"},
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert done.stdout.strip().splitlines()[-1].startswith("8 passed")


def test_a_module_counts_as_guided_by_a_profile_only_while_its_compiled_file_is_current(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The manifest lists the modules a profile guided; one edited since (stale) or never
    listed is not counted, whatever the list says."""
    names = ["eighteen.engine.bank", "eighteen.engine.game", "eighteen.engine.map"]
    monkeypatch.setattr(native, "modules", lambda package=None: dict.fromkeys(names))
    listed = {
        "suffix": native.SUFFIX,
        "modules": dict.fromkeys(names, "h"),
        "profiled": ["eighteen.engine.game", "eighteen.engine.map"],
    }
    monkeypatch.setattr(native, "manifest_data", lambda native_dir=None: listed)
    states = {"eighteen.engine.bank": "native", "eighteen.engine.game": "stale"}
    monkeypatch.setattr(
        native, "_loaded_state", lambda root, d, entries, name: states.get(name, "native")
    )
    got = [(s.name, s.state, s.profiled) for s in native.status()]
    assert got == [
        ("eighteen.engine.bank", "native", False),
        ("eighteen.engine.game", "stale", False),
        ("eighteen.engine.map", "native", True),
    ]
