"""Many bot games at once: `eighteen simulate` (runner, statistics, report).

``run_simulation`` plays N seeded games of one or two titles (locally, in processes, or as
Ray tasks), ``summarize`` turns the per-game records into the summary written to
summary.json, and ``write_report`` draws report.html.
"""

from eighteen.sim.botspec import BotSpec, BotSpecError, parse_bots, seat_bots
from eighteen.sim.runner import Job, play_job, run_simulation
from eighteen.sim.summary import summarize

__all__ = [
    "BotSpec",
    "BotSpecError",
    "Job",
    "parse_bots",
    "play_job",
    "run_simulation",
    "seat_bots",
    "summarize",
]
