"""Merging an overlay's data onto its base's, file kind by file kind, keeping where every
part came from (:class:`Prov`): tables merge by key, arrays of entries by ``id`` (hexes by
``at``), and ``[remove]`` drops from the base first.  :mod:`eighteen.title.overlay` reads
the layers and locates problems on what this module merged; docs/variants.md is the
author's guide.

Codes: E182 ``remove`` names something the base does not have, E183 malformed ``remove``
table.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from eighteen.title.load import LoadedFile
from eighteen.title.positions import KeyPath
from eighteen.title.problems import Problem, did_you_mean, path_str

#: The overlay directive table: top-level key -> ids (or table keys) to drop from the base.
REMOVE = "remove"
#: Key naming an entry of a top-level array of tables, by array name; others use ``id``.
ENTRY_KEYS: dict[str, str] = {"hexes": "at"}


# ---------------------------------------------------------------------------------------
# provenance


@dataclass
class Prov:
    """Where a merged value came from: a file and the key path of the value in it.

    ``kids`` holds the children that came from somewhere else than ``path + (key,)`` of
    the same file; any other child is found by extending ``path``.  ``collection`` marks a
    file's root and its arrays of entries: a problem in an entry the overlay did not touch
    is not reported there (it would point at an unrelated entry).
    """

    file: LoadedFile
    path: KeyPath = ()
    kids: dict[str | int, Prov] = field(default_factory=dict)
    collection: bool = False

    def child(self, key: str | int) -> Prov:
        """Provenance of the value at ``key`` below this one."""
        found = self.kids.get(key)
        return found if found is not None else Prov(self.file, (*self.path, key))

    def trail(self, path: KeyPath) -> list[Prov]:
        """Provenance of every prefix of ``path``: this node first, the value itself last."""
        out = [self]
        node = self
        for key in path:
            node = node.child(key)
            out.append(node)
        return out


def position(file: LoadedFile, path: KeyPath, key: bool = False) -> tuple[int, int]:
    """Line and column of the key (or the value) at ``path`` in ``file``."""
    return file.index.key(path) if key else file.index.value(path)


# ---------------------------------------------------------------------------------------
# merging


def _entry_id(entry: Any, id_key: str) -> str | None:
    """The id of an array-of-tables entry, or None when it has no usable one."""
    if isinstance(entry, dict) and isinstance(entry.get(id_key), str):
        return str(entry[id_key])
    return None


def _coords(entry: Any) -> list[str] | None:
    """The coordinates of a ``[[hexes]]`` entry, or None when ``at`` is unusable."""
    at = entry.get("at") if isinstance(entry, dict) else None
    if isinstance(at, str):
        return [at]
    if isinstance(at, list) and at and all(isinstance(x, str) for x in at):
        return list(at)
    return None


def merge_value(base: Any, bp: Prov, over: Any, op: Prov) -> tuple[Any, Prov]:
    """Merge two values: tables merge by key, anything else is replaced by the overlay."""
    if isinstance(base, dict) and isinstance(over, dict):
        return merge_table(base, bp, over, op)
    return copy.deepcopy(over), op


def merge_table(
    base: dict[str, Any], bp: Prov, over: dict[str, Any], op: Prov
) -> tuple[dict[str, Any], Prov]:
    """Merge tables key by key: base keys first (in base order), then new overlay keys."""
    out: dict[str, Any] = {}
    node = Prov(op.file, op.path)
    for k, v in base.items():
        if k in over:
            out[k], node.kids[k] = merge_value(v, bp.child(k), over[k], op.child(k))
        else:
            out[k], node.kids[k] = copy.deepcopy(v), bp.child(k)
    for k, v in over.items():
        if k not in base:
            out[k], node.kids[k] = copy.deepcopy(v), op.child(k)
    return out, node


def merge_entries(
    base: list[Any], bp: Prov, over: list[Any], op: Prov, id_key: str, removed: set[str]
) -> tuple[list[Any], Prov]:
    """Merge arrays of tables by id: merge matching entries in place, append new ones."""
    first: dict[str, int] = {}
    for i, e in enumerate(base):
        eid = _entry_id(e, id_key)
        if eid is not None and eid not in removed:
            first.setdefault(eid, i)
    matched: dict[int, int] = {}  # base index -> overlay index
    for j, e in enumerate(over):
        eid = _entry_id(e, id_key)
        if eid is not None and eid in first and first[eid] not in matched:
            matched[first[eid]] = j
    out: list[Any] = []
    node = Prov(op.file, op.path, collection=True)
    for i, e in enumerate(base):
        if _entry_id(e, id_key) in removed:
            continue
        if i in matched:
            j = matched[i]
            value, prov = merge_value(e, bp.child(i), over[j], op.child(j))
        else:
            value, prov = copy.deepcopy(e), bp.child(i)
        node.kids[len(out)] = prov
        out.append(value)
    used = set(matched.values())
    for j, e in enumerate(over):
        if j not in used:
            node.kids[len(out)] = op.child(j)
            out.append(copy.deepcopy(e))
    return out, node


def _with_coords(
    entry: dict[str, Any], prov: Prov, coords: list[tuple[str, int]], as_list: bool, at_prov: Prov
) -> tuple[dict[str, Any], Prov]:
    """A copy of a hex entry holding only ``coords`` (coordinate, index in ``at_prov``)."""
    out = dict(entry)
    if as_list:
        out["at"] = [c for c, _ in coords]
        prov.kids["at"] = Prov(
            at_prov.file, at_prov.path, {m: at_prov.child(k) for m, (_, k) in enumerate(coords)}
        )
    else:
        out["at"] = coords[0][0]
        prov.kids["at"] = at_prov
    return out, prov


def merge_hexes(
    base: list[Any], bp: Prov, over: list[Any], op: Prov, removed: set[str]
) -> tuple[list[Any], Prov]:
    """Merge ``[[hexes]]`` by coordinate.

    An overlay entry merges into the base entry of each coordinate it names (a base entry
    covering several coordinates is split); coordinates the base lacks form a new entry
    at the end.  Removed coordinates leave their base entries.
    """
    owner: dict[str, int] = {}
    for i, e in enumerate(base):
        for c in _coords(e) or []:
            owner.setdefault(c, i)
    claimed: set[str] = set()
    # base index -> [(overlay index, [(coord, index in the overlay's at)])]
    merged_into: dict[int, list[tuple[int, list[tuple[str, int]]]]] = {}
    fresh: list[tuple[int, list[tuple[str, int]] | None]] = []
    for j, e in enumerate(over):
        coords = _coords(e)
        if coords is None:
            fresh.append((j, None))
            continue
        groups: dict[int | None, list[tuple[str, int]]] = {}
        for k, c in enumerate(coords):
            at = owner.get(c) if c not in claimed and c not in removed else None
            groups.setdefault(at, []).append((c, k))
            if at is not None:
                claimed.add(c)
        for at, group in groups.items():
            if at is None:
                fresh.append((j, group))
            else:
                merged_into.setdefault(at, []).append((j, group))
    out: list[Any] = []
    node = Prov(op.file, op.path, collection=True)
    for i, e in enumerate(base):
        coords = _coords(e)
        bpi = bp.child(i)
        if coords is None:
            node.kids[len(out)] = bpi
            out.append(copy.deepcopy(e))
            continue
        kept = [(c, k) for k, c in enumerate(coords) if c not in removed and c not in claimed]
        if kept:
            if isinstance(e.get("at"), str):
                node.kids[len(out)] = bpi
                out.append(copy.deepcopy(e))
            else:
                value, prov = _with_coords(
                    copy.deepcopy(e),
                    Prov(bpi.file, bpi.path, dict(bpi.kids)),
                    kept,
                    True,
                    bpi.child("at"),
                )
                node.kids[len(out)] = prov
                out.append(value)
        for j, group in merged_into.get(i, []):
            value, prov = merge_value(e, bpi, over[j], op.child(j))
            value, prov = _with_coords(
                value, prov, group, not isinstance(over[j]["at"], str), op.child(j).child("at")
            )
            node.kids[len(out)] = prov
            out.append(value)
    for j, maybe_group in fresh:
        opj = op.child(j)
        if maybe_group is None or len(maybe_group) == len(_coords(over[j]) or []):
            node.kids[len(out)] = opj
            out.append(copy.deepcopy(over[j]))
            continue
        value, prov = _with_coords(
            copy.deepcopy(over[j]), Prov(opj.file, opj.path), maybe_group, True, opj.child("at")
        )
        node.kids[len(out)] = prov
        out.append(value)
    return out, node


def merge_file(
    base: dict[str, Any], bp: Prov, over: dict[str, Any], op: Prov, problems: list[Problem]
) -> tuple[dict[str, Any], Prov]:
    """Merge one overlay file onto its base: apply ``[remove]``, then merge every key."""
    over = dict(over)
    removals = _removals(base, over.pop(REMOVE, None), op.file, problems)
    out: dict[str, Any] = {}
    node = Prov(op.file, op.path, collection=True)

    def take(k: str, b: Any) -> tuple[Any, Prov]:
        gone = removals.get(k, set())
        bk = bp.child(k)
        if isinstance(b, dict) and gone:
            b = {x: y for x, y in b.items() if x not in gone}
        o, ok = (over[k], op.child(k)) if k in over else ([], bk)
        if _is_entries(b) and _is_entries(o) and (k in over or gone):
            if k in ENTRY_KEYS:
                return merge_hexes(b, bk, o, ok, gone)
            return merge_entries(b, bk, o, ok, "id", gone)
        if k not in over:
            return copy.deepcopy(b), bk
        return merge_value(b, bk, over[k], ok)

    for k, b in base.items():
        out[k], node.kids[k] = take(k, b)
    for k, v in over.items():
        if k not in base:
            out[k], node.kids[k] = copy.deepcopy(v), op.child(k)
    return out, node


def _is_entries(value: Any) -> bool:
    """Whether a value is an array of tables (possibly empty)."""
    return isinstance(value, list) and all(isinstance(x, dict) for x in value)


def _removals(
    base: dict[str, Any], table: Any, file: LoadedFile, problems: list[Problem]
) -> dict[str, set[str]]:
    """Read a ``[remove]`` table: top-level key -> names to drop; report what is wrong."""
    if table is None:
        return {}

    def report(path: KeyPath, code: str, message: str, key: bool = False) -> None:
        line, col = position(file, path, key)
        problems.append(Problem(file.display, line, col, code, message, path_str(path)))

    if not isinstance(table, dict):
        report((REMOVE,), "E183", "'remove' must be a table: [remove] <key> = [names...]")
        return {}
    out: dict[str, set[str]] = {}
    for k, names in table.items():
        where = (REMOVE, k)
        target = base.get(k)
        if k not in base:
            hint = did_you_mean(k, [x for x in base if isinstance(base[x], dict | list)])
            report(where, "E182", f"the base has no '{k}' to remove from{hint}", key=True)
            continue
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            report(where, "E183", 'expected an array of names, e.g. ["B&O"]')
            continue
        if isinstance(target, dict):
            have = list(target)
        elif _is_entries(target):
            have = []
            for e in target or []:
                if k in ENTRY_KEYS:
                    have.extend(_coords(e) or [])
                elif _entry_id(e, "id") is not None:
                    have.append(str(e["id"]))
        else:
            report(
                where,
                "E183",
                f"'{k}' is not a table or an array of tables: give its new value instead",
                key=True,
            )
            continue
        for n, name in enumerate(names):
            if name not in have:
                what = "hex" if k == "hexes" else "entry"
                hint = did_you_mean(name, have)
                report((*where, n), "E182", f"the base has no {what} '{name}' in '{k}'{hint}")
        out[k] = set(names)
    return out
