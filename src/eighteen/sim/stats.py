"""Small statistics for simulation summaries: means, proportions and differences with 95%
confidence intervals, the p-value of each difference, and the false-discovery control of
many differences at once.

- a mean: Student's t interval, mean ± t(0.975, n - 1) · s / √n;
- a proportion: Wilson's score interval;
- a paired difference (the same seeds on both sides): the t interval of the per-game
  differences, and the paired t-test's two-sided p; when every difference is the same the
  t statistic divides by zero, so there is no interval and p is the exact two-sided sign
  test's (2 · 0.5^n, at most 1), or 1 when they are all 0;
- an unpaired difference: Welch's t interval and test (Welch–Satterthwaite degrees of
  freedom); when both sides are constant, the exact permutation test's p;
- many differences: Benjamini–Hochberg adjusted q-values.

A difference is ``significant`` when p < ``ALPHA``; a ``discovery`` when its q < ``ALPHA``.
Distributions come from scipy (imported on first use: a command that only reads the bot
syntax of this package should not pay for it). Every function is pure and returns plain
numbers rounded to ``DIGITS`` decimals (p and q to ``DIGITS`` significant digits), so a
summary is the same on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

#: The 97.5% quantile of the standard normal distribution (Wilson's 95% intervals).
Z95 = 1.959963984540054
#: Two-sided level of every interval (95%) and the threshold of p and q.
ALPHA = 0.05
DIGITS = 6


def _r(x: float) -> float:
    return round(x, DIGITS) + 0.0  # + 0.0 turns -0.0 into 0.0


def _sig(p: float) -> float:
    """A probability to DIGITS significant digits (a tiny p stays readable, not 0.0)."""
    return float(f"{p:.{DIGITS}g}")


def mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs)


def sd(xs: Sequence[float]) -> float:
    """Sample standard deviation (n - 1); 0 for fewer than two values."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def t_quantile(df: float) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom."""
    from scipy.stats import t

    return float(t.ppf(1 - ALPHA / 2, df))


def t_p_value(statistic: float, df: float) -> float:
    """Two-sided p of a t statistic with ``df`` degrees of freedom."""
    from scipy.stats import t

    return min(1.0, 2 * float(t.sf(abs(statistic), df)))


def sign_test(n: int) -> float:
    """Exact two-sided sign test of ``n`` non-zero differences all of one sign:
    2 · 0.5^n, at most 1 (1 for no difference at all)."""
    if n == 0:
        return 1.0
    from scipy.stats import binomtest

    return float(binomtest(n, n, 0.5).pvalue)


def mean_ci(xs: Sequence[float]) -> dict[str, Any]:
    """Mean with a 95% t interval (mean ± t·sd/√n); the interval is None below two values."""
    n = len(xs)
    if n == 0:
        return {"n": 0, "mean": None, "ci": None}
    m = mean(xs)
    if n < 2:
        return {"n": 1, "mean": _r(m), "ci": None}
    half = t_quantile(n - 1) * sd(xs) / math.sqrt(n)
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


#: Values closer than this (relative to their size, at least 1) are one value: a difference
#: of floats equal in exact arithmetic often differs in its last bit (10.000000000000004).
SAME = 1e-9


def _constant(xs: Sequence[float]) -> bool:
    """Are the values one value, floating-point noise apart?"""
    return max(xs) - min(xs) <= SAME * max(1.0, max(abs(x) for x in xs))


def _paired(xs: list[float], ys: list[float]) -> tuple[float, list[float] | None, float, str]:
    """(difference, interval, p, test) of ys - xs, pair by pair (at least one pair)."""
    diffs = [y - x for x, y in zip(xs, ys, strict=True)]
    n = len(diffs)
    d = mean(diffs)
    if _constant(diffs):  # (not sd == 0: the t statistic would divide noise by noise)
        zero = abs(d) <= SAME * max(1.0, max(abs(x) for x in [*xs, *ys]))
        return (0.0 if zero else d), None, sign_test(0 if zero else n), "sign"
    se = sd(diffs) / math.sqrt(n)
    half = t_quantile(n - 1) * se
    return d, [d - half, d + half], t_p_value(d / se, n - 1), "paired t"


def _welch(xs: list[float], ys: list[float]) -> tuple[float, list[float] | None, float | None, str]:
    """(difference, interval, p, test) of mean(ys) - mean(xs), two independent samples
    (no p with fewer than two values on a side: nothing is tested)."""
    d = mean(ys) - mean(xs)
    n1, n2 = len(xs), len(ys)
    if n1 < 2 or n2 < 2:
        return d, None, None, "too few"
    if _constant(xs) and _constant(ys):
        if _constant([mean(xs), mean(ys)]):
            return 0.0, None, 1.0, "permutation"
        # the observed split is the most extreme of the C(n1 + n2, n1) relabellings; with
        # equal sizes, so is its mirror image
        return d, None, min(1.0, (1 + (n1 == n2)) / math.comb(n1 + n2, n1)), "permutation"
    v1, v2 = sd(xs) ** 2 / n1, sd(ys) ** 2 / n2
    se = math.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / (v1**2 / (n1 - 1) + v2**2 / (n2 - 1))
    half = t_quantile(df) * se
    return d, [d - half, d + half], t_p_value(d / se, df), "Welch t"


def difference(
    a: Sequence[float | None],
    b: Sequence[float | None],
    *,
    paired: bool = True,
    bounds: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """b minus a: both means, the difference, its 95% interval, p and whether p < ALPHA.

    Paired (the same seeds on both sides): over the games where both values exist, so
    ``a``, ``b`` and ``difference`` are over the same pairs. Unpaired: each side's values.
    ``bounds`` clamps the interval (a difference of rates lies in [-1, 1]).
    """
    if paired:
        pairs = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
        xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
        n = len(pairs)
    else:
        xs, ys = [x for x in a if x is not None], [y for y in b if y is not None]
        n = min(len(xs), len(ys))
    out: dict[str, Any] = {"paired": paired, "n": n}
    if not xs or not ys:
        out.update(a=None, b=None, difference=None, ci=None, p=None, test=None)
        out["significant"] = False
        return out
    d, ci, p, test = _paired(xs, ys) if paired else _welch(xs, ys)
    if ci is not None and bounds is not None:
        ci = [max(bounds[0], ci[0]), min(bounds[1], ci[1])]
    out.update(
        a=_r(mean(xs)),
        b=_r(mean(ys)),
        difference=_r(d),
        ci=None if ci is None else [_r(ci[0]), _r(ci[1])],
        p=None if p is None else _sig(p),
        test=test,
    )
    out["significant"] = out["p"] is not None and out["p"] < ALPHA
    return out


def fdr(ps: Sequence[float | None]) -> list[float | None]:
    """Benjamini–Hochberg adjusted q of each p (None stays None and is not counted)."""
    have = [p for p in ps if p is not None]
    if not have:
        return [None for _ in ps]
    from scipy.stats import false_discovery_control

    qs = iter(float(q) for q in false_discovery_control(have, method="bh"))
    return [None if p is None else _sig(next(qs)) for p in ps]


#: The fewest expected wins per seat the chi-square approximation is read with (the
#: usual rule: below it the test overstates the evidence, about twofold at 4 games).
MIN_EXPECTED = 5


def equal_shares(wins: Sequence[float]) -> dict[str, Any]:
    """Whether each of k seats wins equally often: Pearson's chi-square test of the wins
    per seat (a shared first place counts 1/k to each) against n/k each, k - 1 degrees of
    freedom.  ``{"n", "chi2", "df", "p"}``; p is None with fewer than two seats, and chi2
    too with no game; p is None also while n/k is below :data:`MIN_EXPECTED` (too few
    games to judge)."""
    n, k = math.fsum(wins), len(wins)
    if k < 2 or n <= 0:
        return {"n": _r(n), "chi2": None, "df": max(k - 1, 0), "p": None}
    from scipy.stats import chi2

    expected = n / k
    statistic = math.fsum((w - expected) ** 2 / expected for w in wins)
    p = None if expected < MIN_EXPECTED else _sig(float(chi2.sf(statistic, k - 1)))
    return {"n": _r(n), "chi2": _r(statistic), "df": k - 1, "p": p}
