"""Small statistics for simulation summaries: means, proportions, differences, with 95%
confidence intervals from the normal approximation (Wilson's interval for proportions).

Every function is pure and returns plain numbers rounded to ``DIGITS`` decimals, so a
summary is the same on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

#: The 97.5% quantile of the standard normal distribution (two-sided 95% intervals).
Z95 = 1.959963984540054
DIGITS = 6


def _r(x: float) -> float:
    return round(x, DIGITS) + 0.0  # + 0.0 turns -0.0 into 0.0


def mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs)


def sd(xs: Sequence[float]) -> float:
    """Sample standard deviation (n - 1); 0 for fewer than two values."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def mean_ci(xs: Sequence[float]) -> dict[str, Any]:
    """Mean with a 95% interval (mean ± z·sd/√n); the interval is None below two values."""
    n = len(xs)
    if n == 0:
        return {"n": 0, "mean": None, "ci": None}
    m = mean(xs)
    if n < 2:
        return {"n": 1, "mean": _r(m), "ci": None}
    half = Z95 * sd(xs) / math.sqrt(n)
    return {"n": n, "mean": _r(m), "ci": [_r(m - half), _r(m + half)]}


def wilson(successes: float, n: int) -> dict[str, Any]:
    """A proportion with Wilson's 95% score interval (``successes`` may be fractional,
    e.g. a tie for first place counts 1/k to each of k players)."""
    if n == 0:
        return {"n": 0, "rate": None, "ci": None}
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {
        "n": n,
        "rate": _r(p),
        "ci": [_r(max(0.0, centre - half)), _r(min(1.0, centre + half))],
    }


def difference(
    a: Sequence[float | None], b: Sequence[float | None], *, paired: bool = True
) -> dict[str, Any]:
    """Mean of b minus mean of a with a 95% interval and whether it excludes 0.

    Paired (the same seeds on both sides): the mean of the per-game differences over the
    games where both values exist. Unpaired: Welch's normal interval on two means.
    """
    if paired:
        diffs = [y - x for x, y in zip(a, b, strict=True) if x is not None and y is not None]
        est = mean_ci(diffs)
        n = len(diffs)
        out = {"paired": True, "n": n, "difference": est["mean"], "ci": est["ci"]}
    else:
        xs = [x for x in a if x is not None]
        ys = [y for y in b if y is not None]
        n = min(len(xs), len(ys))
        if not xs or not ys:
            out = {"paired": False, "n": n, "difference": None, "ci": None}
        else:
            d = mean(ys) - mean(xs)
            ci = None
            if len(xs) >= 2 and len(ys) >= 2:
                half = Z95 * math.sqrt(sd(xs) ** 2 / len(xs) + sd(ys) ** 2 / len(ys))
                ci = [_r(d - half), _r(d + half)]
            out = {"paired": False, "n": n, "difference": _r(d), "ci": ci}
    ci = out["ci"]
    out["significant"] = bool(ci is not None and (ci[0] > 0 or ci[1] < 0))
    return out
