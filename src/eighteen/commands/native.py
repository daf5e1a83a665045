"""`eighteen native`: the compiled engine's state; ``--build`` compiles it, ``--clean`` drops it."""

from __future__ import annotations

from eighteen import native, native_build
from eighteen.commands.output import emit_json, fail, say


def cmd_native(
    *, build: bool, force: bool, clean: bool, jobs: int, fmt: str, profile: bool = True
) -> int:
    """Build (``build``, every module with ``force``; guided by the profile of a training
    run with ``profile``, :func:`eighteen.native_build.build`) or remove (``clean``) the
    compiled modules, then report each module's state."""
    built: list[str] = []
    notes: list[str] = []
    if clean:
        try:
            removed = native.clean()
        except (native.NativeError, OSError) as exc:
            return fail("native", str(exc))
        if fmt == "text":
            say("removed the compiled modules" if removed else "no compiled modules")
    elif build or force:
        try:
            train = native_build.TRAINING if profile else None
            built = native_build.build(jobs=jobs, force=force, train=train, notes=notes)
        except (native.NativeError, OSError) as exc:
            return fail("native", f"{exc}; the engine runs from its sources")
        if fmt == "text":
            how = "".join(f", {n}" for n in notes)
            n = len(built)
            say(f"compiled {n} module{'' if n == 1 else 's'}{how}" if built else "up to date")
    states = native.status()
    counts = {k: sum(s.state == k for s in states) for k in ("native", "stale", "missing")}
    if fmt == "json":
        emit_json(
            {
                "enabled": native.enabled(),
                "built": built,
                "notes": notes,
                "counts": counts,
                "modules": [
                    {"name": s.name, "state": s.state, "profiled": s.profiled} for s in states
                ],
            }
        )
        return 0
    off = "" if native.enabled() else " (turned off: EIGHTEEN_NATIVE=0)"
    guided = native.guided_note(sum(s.profiled for s in states))
    say(
        f"{counts['native']} of {len(states)} modules compiled from their present source"
        f"{guided}{off}"
    )
    if counts["missing"] == len(states):
        say("  none built: eighteen native --build compiles them")
        return 0
    for s in states:
        if s.state != "native":
            say(f"  {s.name}: {s.state} (runs from its source; eighteen native --build)")
    return 0
