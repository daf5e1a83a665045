"""Play many seeded bot games: in this process, in local worker processes, or as Ray tasks.

A game is a :class:`Job` (title, seed, bots); :func:`play_job` plays it and returns a plain
record (JSON-able) of what the summary needs. Records come back in any order and are
sorted by (title, index), so the summary never depends on how the games were spread.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from eighteen.engine import market, views
from eighteen.engine.actions import RunRoutes
from eighteen.engine.bots import GameUnfinished, play
from eighteen.engine.game import Game
from eighteen.engine.tables import Tables, load_title
from eighteen.sim.botspec import BotSpec, seated_bots

#: A game still running after this many actions is recorded as unfinished.
MAX_ACTIONS = 20_000

Record = dict[str, Any]


def player_names(n: int) -> list[str]:
    return [f"Player{i + 1}" for i in range(n)]


class GameFailed(RuntimeError):
    """A game of a run raised (not a game that did not end): the message names its title,
    seed and bots, and the action it failed at."""


@dataclass(frozen=True)
class Job:
    """One game to play. ``seed`` is the game's; seat ``i``'s bot gets ``bot_seed(seed, i)``."""

    title: str
    index: int
    seed: int
    bots: tuple[BotSpec, ...]
    options: tuple[str, ...] = ()
    max_actions: int = MAX_ACTIONS


def make_jobs(
    title: str,
    games: int,
    seats: list[BotSpec],
    *,
    seed: int = 1,
    rotate: bool = False,
    options: Iterable[str] = (),
    max_actions: int = MAX_ACTIONS,
) -> list[Job]:
    """Game ``i`` has seed ``seed + i`` (so two titles get the same seeds); with ``rotate``
    the seats' bots shift by one each game, so each bot plays each seat equally often."""
    jobs = []
    for i in range(games):
        shift = i % len(seats) if rotate else 0
        bots = tuple(seats[shift:] + seats[:shift])
        jobs.append(Job(title, i, seed + i, bots, tuple(options), max_actions))
    return jobs


class _Observer:
    """Follows a game action by action and notes the figures the summary needs."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.tables = game.tables
        self.operating_rounds = 0
        self.phase = game.state.phase
        self.phases: dict[str, dict[str, int]] = {
            str(self.tables.phases[self.phase].id): {"or": 0, "set": 0, "action": 0}
        }
        self.round_key = self._round_key()
        self.private_owners: dict[str, str | None] | None = None
        corp_ids = [c.id for c in self.tables.corporations]
        self.revenue = dict.fromkeys(corp_ids, 0)
        self.ors_run = dict.fromkeys(corp_ids, 0)
        self.prices: dict[str, list[int | None]] = {c: [] for c in corp_ids}
        self.floated_at: dict[str, int] = {}
        if game.state.round.kind != "auction":
            self._note_private_owners()
        if game.state.round.kind == "operating":
            self._start_or()

    def _round_key(self) -> tuple[Any, ...]:
        r = self.game.state.round
        return (r.kind, self.game.state.stock_rounds, getattr(r, "number", 0))

    def _note_private_owners(self) -> None:
        self.private_owners = {pid: ps.owner for pid, ps in self.game.state.privates.items()}

    def _start_or(self) -> None:
        self.operating_rounds += 1
        for corp in self.game.state.round.order:
            self.ors_run[corp] += 1

    def _end_or(self) -> None:
        for corp in self.prices:
            cs = self.game.state.corporations[corp]
            self.prices[corp].append(market.price(self.game, corp) if cs.cell else None)

    def step(self, action: Any, n: int) -> None:
        state = self.game.state
        if isinstance(action, RunRoutes) and action.actor in self.revenue:
            self.revenue[action.actor] += sum(r.revenue for r in action.routes)
        for cid, cs in state.corporations.items():
            if cs.floated and cid not in self.floated_at:
                self.floated_at[cid] = self.operating_rounds
        key = self._round_key()
        if key != self.round_key:
            if self.round_key[0] == "operating":
                self._end_or()
            if self.private_owners is None and key[0] != "auction":
                self._note_private_owners()
            if key[0] == "operating" and not state.game_over:
                self._start_or()
            self.round_key = key
        if state.phase != self.phase:
            for index in range(self.phase + 1, state.phase + 1):
                pid = str(self.tables.phases[index].id)
                self.phases.setdefault(
                    pid, {"or": self.operating_rounds, "set": state.stock_rounds, "action": n}
                )
            self.phase = state.phase

    def finish(self) -> None:
        if self.round_key[0] == "operating":
            self._end_or()


def play_job(job: Job, tables: Tables | None = None) -> Record:
    """Play one game to the end (or ``job.max_actions``) and return its record."""
    tables = tables if tables is not None else _tables(job.title)
    names = player_names(len(job.bots))
    game = Game.new(tables, players=names, seed=job.seed, options=list(job.options))
    bots = seated_bots(list(job.bots), names, job.seed)
    observer = _Observer(game)
    record: Record = {
        "title": job.title,
        "index": job.index,
        "seed": job.seed,
        "bots": [b.label for b in job.bots],
    }
    n = 0
    observing = False
    try:
        for action in play(game, bots, max_actions=job.max_actions):
            n += 1
            observing = True
            observer.step(action, n)
            observing = False
    except GameUnfinished:
        record["finished"] = False
    except Exception as exc:  # an engine or bot fault: named so that it can be replayed
        replay = f"eighteen play {tables.id} --players {len(names)} --seed {job.seed} --bots "
        replay += ",".join(b.label for b in job.bots)
        replay += "".join(f" --option {o}" for o in job.options)
        at = f"noting action {n}" if observing else f"action {n + 1}"
        said = " ".join(str(exc).split())[:300]  # (one line)
        raise GameFailed(
            f"game {job.index + 1} of {job.title} failed at {at}: {type(exc).__name__}: "
            f"{said} (replay: {replay})"
        ) from exc
    else:
        record["finished"] = True
    observer.finish()
    state = game.state
    values = [views.player_value(game, p) for p in names]
    top = max(values)
    winners = [i for i, v in enumerate(values) if v == top]
    record.update(
        {
            # stuck: no one can act and the title has no end for it (rules.stall_ends_game)
            "end_reason": state.end_reason
            if record["finished"]
            else "stuck"
            if game.stuck
            else "unfinished",
            "actions": n,
            "sets": state.stock_rounds,
            "operating_rounds": observer.operating_rounds,
            "values": values,
            "ranks": [1 + sum(1 for w in values if w > v) for v in values],
            "wins": [1.0 / len(winners) if i in winners else 0.0 for i in range(len(names))],
            "bankrupt": sorted(
                names.index(p) for p in {*state.eliminated, state.bankrupt} if p in names
            ),
            "phases": observer.phases,
            "private_owners": {
                pid: (names.index(o) if o in names else None)
                for pid, o in (observer.private_owners or {}).items()
            },
            "corporations": {
                cid: {
                    "floated": cid in observer.floated_at,
                    # the price of a corporation floated and not closed at the end
                    "final_price": market.price(game, cid)
                    if cs.floated and cs.cell and not cs.closed
                    else None,
                    "revenue": observer.revenue[cid],
                    "operating_rounds": observer.ors_run[cid],
                    "prices": observer.prices[cid],
                    # takeovers (rules.takeovers): who absorbed it, how many it absorbed
                    "taken_over_by": state.absorbed.get(cid),
                    "took_over": sum(1 for a in state.absorbed.values() if a == cid),
                }
                for cid, cs in state.corporations.items()
            },
            "takeovers": len(state.absorbed),
            "takeovers_held": game.rules.takeovers is not None,
        }
    )
    return record


_TABLES: dict[str, Tables] = {}


def _tables(title: str) -> Tables:
    if title not in _TABLES:
        _TABLES[title] = load_title(title)
    return _TABLES[title]


def _load_tables(data: dict[str, dict[str, Any]]) -> None:
    """Make compiled tables (by title id) known to this worker process."""
    for tid, d in data.items():
        if tid not in _TABLES:
            _TABLES[tid] = Tables(d)


def play_batch(jobs: list[Job], data: dict[str, dict[str, Any]] | None = None) -> list[Record]:
    """Play several games in one worker (``data``: compiled tables by title id, for
    workers that cannot read generated/ themselves)."""
    if data:
        _load_tables(data)
    return [play_job(j) for j in jobs]


def batches(jobs: list[Job], size: int) -> list[list[Job]]:
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


Progress = Callable[[int], None]


@dataclass
class Backend:
    """Where games run: ``workers`` local processes (1: this process), or Ray."""

    workers: int = 1
    ray: str | None = None  # "auto", "local" or a cluster address
    ray_cpus: int | None = None  # CPUs of a Ray instance started here
    batch: int = 0  # games per task (0: chosen from the number of games)
    shutdown: bool = True  # stop a Ray instance this run started, once done
    tables: dict[str, Tables] = field(default_factory=dict)

    def describe(self) -> str:
        if self.ray:
            return f"ray ({self.ray})"
        return f"{self.workers} worker{'s' if self.workers != 1 else ''}"


def _batch_size(backend: Backend, jobs: int, slots: int) -> int:
    if backend.batch > 0:
        return backend.batch
    # a few tasks per slot, so progress moves and slow games balance out
    return max(1, min(8, jobs // (slots * 4) or 1))


def run_jobs(jobs: list[Job], backend: Backend, progress: Progress | None = None) -> list[Record]:
    """Play every job; records sorted by (title, index) whatever the backend."""
    tick = progress or (lambda _n: None)
    records: list[Record] = []
    for chunk in _run(jobs, backend):
        records.extend(chunk)
        tick(len(chunk))
    return sorted(records, key=lambda r: (r["title"], r["index"]))


def _run(jobs: list[Job], backend: Backend) -> Iterator[list[Record]]:
    for title, t in backend.tables.items():
        _TABLES.setdefault(title, t)
    if backend.ray:
        yield from _run_ray(jobs, backend)
    elif backend.workers <= 1:
        for job in jobs:
            yield [play_job(job)]
    else:
        yield from _run_processes(jobs, backend)


def _run_processes(jobs: list[Job], backend: Backend) -> Iterator[list[Record]]:
    size = _batch_size(backend, len(jobs), backend.workers)
    data = {tid: t.data for tid, t in backend.tables.items()}
    # each worker receives the compiled tables once, when it starts
    with ProcessPoolExecutor(
        max_workers=backend.workers, initializer=_load_tables, initargs=(data,)
    ) as pool:
        pending = {pool.submit(play_batch, b) for b in batches(jobs, size)}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        except BaseException:  # (a failed game, or the run stopped: the queue is dropped)
            pool.shutdown(wait=False, cancel_futures=True)
            raise


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


def ray_init(address: str, cpus: int | None = None) -> Any:
    """Join or start Ray: ``local`` starts a private instance (``cpus`` CPUs), ``auto``
    joins the instance running on this machine or starts one, anything else is a
    cluster address (``ray://host:10001`` or ``host:6379``)."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("ray is not installed: pip install 'eighteen[ray]'") from None
    if ray.is_initialized():
        return ray
    kwargs: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.WARNING,
    }
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        if address == "local":
            ray.init(num_cpus=cpus, **kwargs)
        elif address == "auto":
            try:
                ray.init(address="auto", **kwargs)
            except ConnectionError:
                ray.init(num_cpus=cpus, **kwargs)
        else:
            _reachable(address)
            ray.init(address=address, **kwargs)
    except RayUnavailable:
        raise
    except Exception as exc:  # Ray raises many kinds; all mean "no cluster here"
        raise RayUnavailable(f"cannot start or join Ray at {address!r}: {exc}") from None
    return ray


#: Seconds to wait for a cluster address to answer before Ray is asked to join it (Ray
#: itself keeps retrying an address that refuses for minutes).
CONNECT_TIMEOUT = 10.0


def _reachable(address: str) -> None:
    """RayUnavailable at once when nothing answers at a cluster address's host and port
    (``ray://host:port`` or ``host:port``); an address of another form is left to Ray."""
    rest = address.split("://", 1)[-1]
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__  # (a timeout: "timed out")
        raise RayUnavailable(f"cannot reach Ray at {address!r}: {why}") from None


def _run_ray(jobs: list[Job], backend: Backend) -> Iterator[list[Record]]:
    assert backend.ray is not None
    import ray as _ray

    started = not _ray.is_initialized()
    ray = ray_init(backend.ray, backend.ray_cpus)
    try:
        yield from _ray_batches(ray, jobs, backend)
    finally:
        if started and backend.shutdown:
            ray.shutdown()


def _ray_batches(ray: Any, jobs: list[Job], backend: Backend) -> Iterator[list[Record]]:
    """Games as Ray tasks in batches; at most two tasks per CPU in flight, each batch's
    records yielded as soon as it finishes."""
    slots = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = _batch_size(backend, len(jobs), slots)
    remote = ray.remote(num_cpus=1)(play_batch)
    # the compiled tables travel once through the object store: nodes need only the package
    data = ray.put({tid: t.data for tid, t in backend.tables.items()})
    queue = batches(jobs, size)
    in_flight: list[Any] = []
    while queue or in_flight:
        while queue and len(in_flight) < 2 * slots:
            in_flight.append(remote.remote(queue.pop(0), data))
        done, in_flight = ray.wait(in_flight, num_returns=1)
        for ref in done:
            try:
                records = ray.get(ref)
            except Exception as exc:  # a task's fault arrives wrapped (RayTaskError)
                cause = getattr(exc, "cause", None)
                for left in in_flight:
                    ray.cancel(left)
                if isinstance(cause, GameFailed):
                    raise GameFailed(str(cause)) from None
                raise
            yield records


def run_simulation(
    titles: list[str],
    games: int,
    seats: list[BotSpec],
    backend: Backend,
    *,
    seed: int = 1,
    rotate: bool = False,
    options: Iterable[str] = (),
    side_options: Mapping[str, Sequence[str]] | None = None,
    max_actions: int = MAX_ACTIONS,
    progress: Progress | None = None,
) -> dict[str, list[Record]]:
    """Play ``games`` games of each title with the same seeds; records by title.

    A title may be a side's name (``1830+optional_6_train``) whose tables
    ``backend.tables`` holds and whose options ``side_options`` gives (a title it does
    not name plays ``options``)."""
    for tid in titles:
        if tid not in backend.tables:
            backend.tables[tid] = _tables(tid)
    chosen = side_options or {}
    jobs = [
        job
        for tid in titles
        for job in make_jobs(
            tid,
            games,
            seats,
            seed=seed,
            rotate=rotate,
            options=chosen.get(tid, tuple(options)),
            max_actions=max_actions,
        )
    ]
    records = run_jobs(jobs, backend, progress)
    return {tid: [r for r in records if r["title"] == tid] for tid in titles}
