"""The statistics helpers on fixed inputs, checked against hand-computed numbers."""

from __future__ import annotations

import math

from eighteen.sim.stats import Z95, difference, mean_ci, sd, wilson


def test_z_is_the_normal_quantile() -> None:
    # erf(z / sqrt 2) = 0.95 for the two-sided 95% quantile
    assert math.isclose(math.erf(Z95 / math.sqrt(2)), 0.95, rel_tol=1e-12)


def test_sample_standard_deviation() -> None:
    assert sd([2, 4, 4, 4, 5, 5, 7, 9]) == math.sqrt(32 / 7)
    assert sd([3]) == 0.0


def test_mean_with_interval() -> None:
    # sd = sqrt(5/3), half width = 1.959964 * 1.290994 / 2 = 1.265151
    assert mean_ci([1, 2, 3, 4]) == {"n": 4, "mean": 2.5, "ci": [1.234849, 3.765151]}
    assert mean_ci([5]) == {"n": 1, "mean": 5.0, "ci": None}
    assert mean_ci([]) == {"n": 0, "mean": None, "ci": None}
    assert mean_ci([7, 7, 7]) == {"n": 3, "mean": 7.0, "ci": [7.0, 7.0]}


def test_wilson_interval() -> None:
    assert wilson(5, 10) == {"n": 10, "rate": 0.5, "ci": [0.236593, 0.763407]}
    # no success: the upper end is z^2 / (n + z^2)
    assert wilson(0, 4) == {"n": 4, "rate": 0.0, "ci": [0.0, 0.489891]}
    assert wilson(4, 4) == {"n": 4, "rate": 1.0, "ci": [0.510109, 1.0]}
    # a shared first place counts a fraction of a win
    assert wilson(1.5, 3) == {"n": 3, "rate": 0.5, "ci": [0.125334, 0.874666]}
    assert wilson(0, 0) == {"n": 0, "rate": None, "ci": None}


def test_paired_difference_skips_missing_pairs() -> None:
    # differences 1, 2, 1 (the pair with a None is left out)
    assert difference([1, 2, None, 4], [2, 4, 5, 5]) == {
        "paired": True,
        "n": 3,
        "difference": 1.333333,
        "ci": [0.680012, 1.986655],
        "significant": True,
    }


def test_no_difference_is_not_significant() -> None:
    d = difference([1, 2, 3], [1, 2, 3])
    assert (d["difference"], d["ci"], d["significant"]) == (0.0, [0.0, 0.0], False)
    d = difference([1, 5, 2], [2, 3, 4])  # differences 1, -2, 2: the interval spans 0
    assert d["difference"] == 0.333333 and d["significant"] is False
    assert d["ci"][0] < 0 < d["ci"][1]


def test_unpaired_difference_is_welch() -> None:
    # means 2 and 11.5; half width 1.959964 * sqrt(1/3 + (5/3)/4) = 1.697379
    assert difference([1, 2, 3], [10, 11, 12, 13], paired=False) == {
        "paired": False,
        "n": 3,
        "difference": 9.5,
        "ci": [7.802621, 11.197379],
        "significant": True,
    }
    assert difference([None], [1.0], paired=False)["difference"] is None
