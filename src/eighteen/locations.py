"""Where titles, compiled tables and schemas are found.

Three places are searched, in this order, and the first that has a title wins:

1. the *project*: the nearest folder at or above the working directory holding ``titles/``
   (an author's own titles, compiled into its ``generated/``);
2. the *checkout* the package runs from (an editable install of this repository);
3. the *installed package*: a wheel carries ``titles/``, ``generated/`` and ``schema/`` as
   package data under ``eighteen/_data/`` (setup.py copies them at build time).

``./generated/`` also counts, for tables compiled with ``eighteen compile --out generated``
outside a project.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from eighteen.title.problems import did_you_mean

PACKAGE = Path(__file__).resolve().parent
#: The folder of the package data in an installed wheel.
PACKAGE_DATA = PACKAGE / "_data"
#: Folders under titles/ that are libraries, not titles.
LIBRARY_DIRS = {"common"}


def project_root(start: Path | None = None) -> Path | None:
    """The nearest folder at or above ``start`` (default: the cwd) holding ``titles/``."""
    here = (start or Path.cwd()).resolve()
    for p in (here, *here.parents):
        if (p / "titles").is_dir() and p != PACKAGE_DATA:
            return p
    return None


def checkout_root() -> Path | None:
    """The repository this package runs from (editable install), if any."""
    root = PACKAGE.parents[1]
    if (root / "titles").is_dir() and (root / "pyproject.toml").is_file():
        return root
    return None


def roots() -> list[tuple[str, Path]]:
    """(kind, folder) of every place holding titles, in search order, without repeats."""
    found: list[tuple[str, Path]] = []
    for kind, root in (
        ("project", project_root()),
        ("checkout", checkout_root()),
        ("installed", PACKAGE_DATA if (PACKAGE_DATA / "titles").is_dir() else None),
    ):
        if root is not None and all(root != r for _, r in found):
            found.append((kind, root))
    return found


def title_roots() -> list[Path]:
    """Every ``titles/`` folder, in search order."""
    return [root / "titles" for _, root in roots()]


def generated_dirs() -> list[Path]:
    """Every folder of compiled tables, in search order (``./generated`` after the project)."""
    dirs: list[Path] = []
    for i, (_, root) in enumerate(roots()):
        dirs.append(root / "generated")
        if i == 0:
            dirs.append(Path.cwd().resolve() / "generated")
    if not dirs:
        dirs.append(Path.cwd().resolve() / "generated")
    return list(dict.fromkeys(dirs))


def find_title_dir(title_id: str) -> Path | None:
    """The source folder of title ``title_id`` (a folder holding title.toml), if any."""
    if not title_id or "/" in title_id or "\\" in title_id or title_id.startswith("."):
        return None
    for root in title_roots():
        if (root / title_id / "title.toml").is_file():
            return root / title_id
    return None


def title_head(folder: Path) -> dict[str, object]:
    """The top-level keys of a title folder's title.toml, read as they stand ({} when it
    cannot be read: loading the title reports why)."""
    try:
        return tomllib.loads((folder / "title.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def title_ref(target: str) -> str:
    """A title argument as an id: a folder holding title.toml names the title its
    ``id`` declares (its folder's name if that cannot be read; the loading that follows
    reports the file); anything else is an id already."""
    folder = Path(target)
    if not (folder / "title.toml").is_file():
        return target
    declared = title_head(folder).get("id")
    return declared if isinstance(declared, str) and declared else folder.resolve().name


def title_project(folder: Path) -> Path | None:
    """The project a title folder belongs to: the nearest folder above it holding
    ``titles/`` (``eighteen compile`` writes the folder's tables to its ``generated/``);
    None for a folder in no project."""
    return project_root(Path(folder).resolve().parent)


def title_argument(target: str) -> tuple[str, Path | None]:
    """A title argument as (its id, the title folder it names, or None for an id).

    A folder's compiled tables are the ones ``eighteen compile`` writes for it
    (:func:`compiled_path`), not another title of the same id found from the working
    directory."""
    folder = Path(target)
    if not (folder / "title.toml").is_file():
        return target, None
    return title_ref(target), folder


def compiled_path(folder: Path, title_id: str) -> Path | None:
    """Where ``eighteen compile`` writes the tables of a title folder (without
    ``--out``): its project's ``generated/<id>.json``; None for a folder in no project
    (its tables go to the working directory's project, found by id)."""
    project = title_project(folder)
    return None if project is None else project / "generated" / f"{title_id}.json"


def find_library(name: str, near: Path) -> Path | None:
    """The tiles.toml of tile library ``name`` (e.g. ``common``) for a title in ``near``:
    the title's sibling folder first, then every titles/ folder."""
    for root in (near.parent, *title_roots()):
        path = root / name / "tiles.toml"
        if path.is_file():
            return path
    return None


def known_titles() -> list[str]:
    """Ids of every title found (source folders and compiled tables), sorted."""
    ids: set[str] = set()
    for root in title_roots():
        for p in root.iterdir() if root.is_dir() else ():
            if (p / "title.toml").is_file() and p.name not in LIBRARY_DIRS:
                ids.add(p.name)
    for d in generated_dirs():
        ids.update(p.stem for p in d.glob("*.json"))
    return sorted(ids)


def title_hint(name: str) -> str:
    """A "; did you mean ..." suffix naming the known title ``name`` most likely means
    (:func:`eighteen.title.problems.closest`: ``1833ne`` for ``1833NE``); "" when none is
    close, or when it is ``name`` itself (a title found by its own name lacks what was
    looked for).  A path names its last part."""
    return did_you_mean(Path(name).name, known_titles()) if Path(name).name else ""


def schema_dir() -> Path | None:
    """The folder of the title JSON Schemas (``schema/``), if any."""
    for _, root in roots():
        if (root / "schema").is_dir():
            return root / "schema"
    return None
