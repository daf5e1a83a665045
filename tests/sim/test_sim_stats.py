"""The statistics helpers on fixed inputs, checked against numbers worked out by hand.

The constants come from outside the code under test: Student's t quantiles as published
(t(0.975, df), e.g. R's qt(0.975, df)), and two-sided p-values from the closed forms of the
t distribution's CDF at small degrees of freedom:

    df 1 (Cauchy): p = 1 - (2/π)·atan|t|
    df 2:          p = 1 - |t| / √(2 + t²)
    df 3:          p = 1 - (2/π)·(x / (1 + x²) + atan x),  x = |t| / √3
    df 4:          p = 1 - √u · (3 - u) / 2,                u = t² / (t² + 4)
"""

from __future__ import annotations

import math

import pytest

from eighteen.sim.stats import (
    Z95,
    difference,
    equal_shares,
    fdr,
    mean_ci,
    sd,
    sign_test,
    t_p_value,
    t_quantile,
    wilson,
)

#: t(0.975, df), published (6 decimals).
T975 = {1: 12.706205, 2: 4.302653, 3: 3.182446, 4: 2.776445, 9: 2.262157, 29: 2.045230}


def p_df1(t: float) -> float:
    return 1 - 2 / math.pi * math.atan(abs(t))


def p_df2(t: float) -> float:
    return 1 - abs(t) / math.sqrt(2 + t * t)


def p_df3(t: float) -> float:
    x = abs(t) / math.sqrt(3)
    return 1 - 2 / math.pi * (x / (1 + x * x) + math.atan(x))


def p_df4(t: float) -> float:
    u = t * t / (t * t + 4)
    return 1 - math.sqrt(u) * (3 - u) / 2


def six(p: float) -> float:
    """To six significant digits, as the summary writes p and q."""
    return float(f"{p:.6g}")


def test_z_is_the_normal_quantile() -> None:
    # erf(z / sqrt 2) = 0.95 for the two-sided 95% quantile
    assert math.isclose(math.erf(Z95 / math.sqrt(2)), 0.95, rel_tol=1e-12)


@pytest.mark.parametrize(("df", "quantile"), sorted(T975.items()))
def test_t_quantiles_are_the_published_ones(df: int, quantile: float) -> None:
    assert t_quantile(df) == pytest.approx(quantile, abs=5e-7)


def test_t_quantile_tends_to_the_normal_one() -> None:
    assert t_quantile(1e9) == pytest.approx(Z95, abs=1e-6)


@pytest.mark.parametrize(
    ("t", "df", "p"),
    [
        (2.0, 1, p_df1(2.0)),
        (4.0, 2, p_df2(4.0)),
        (-2.0, 3, p_df3(2.0)),
        (4.898979, 4, p_df4(4.898979)),
    ],
)
def test_two_sided_p_of_a_t_statistic(t: float, df: int, p: float) -> None:
    assert t_p_value(t, df) == pytest.approx(p, rel=1e-9)


def test_sign_test_is_two_halves_to_the_n() -> None:
    assert [sign_test(n) for n in range(7)] == [1.0, 1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125]


def test_sample_standard_deviation() -> None:
    assert sd([2, 4, 4, 4, 5, 5, 7, 9]) == math.sqrt(32 / 7)
    assert sd([3]) == 0.0


def test_mean_with_a_t_interval() -> None:
    # sd = sqrt(5/3), se = 0.645497; half width = t(0.975, 3) 3.182446 * 0.645497 = 2.054260
    assert mean_ci([1, 2, 3, 4]) == {"n": 4, "mean": 2.5, "ci": [0.44574, 4.55426]}
    # two values: t(0.975, 1) = 12.706205, sd = sqrt(1/2), se = 1/2: 1.5 ± 6.353102
    assert mean_ci([1, 2]) == {"n": 2, "mean": 1.5, "ci": [-4.853102, 7.853102]}
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


def test_paired_difference_skips_missing_pairs_and_means_the_same_pairs() -> None:
    # pairs (1, 2), (2, 4), (4, 5): differences 1, 2, 1; sd = sqrt(1/3), se = 1/3, t = 4
    # half width = t(0.975, 2) 4.302653 / 3 = 1.434218; p = 1 - 4 / sqrt 18 = 0.0571910
    assert difference([1, 2, None, 4], [2, 4, 5, 5]) == {
        "paired": True,
        "n": 3,
        "a": 2.333333,  # (1 + 2 + 4) / 3: not 5, the pair without an a is left out of b too
        "b": 3.666667,
        "difference": 1.333333,
        "ci": [-0.100884, 2.767551],
        "p": six(p_df2(4.0)),
        "test": "paired t",
        "significant": False,
    }
    assert six(p_df2(4.0)) == 0.057191


def test_a_clear_paired_difference_is_significant() -> None:
    # differences 2, 3, 4, 3: mean 3, sd = sqrt(2/3), se = 0.408248, t = 7.348469 (df 3)
    # half width = 3.182446 * 0.408248 = 1.299228
    d = difference([0, 0, 0, 0], [2, 3, 4, 3])
    assert (d["difference"], d["ci"]) == (3.0, [1.700772, 4.299228])
    assert d["p"] == six(p_df3(3 / math.sqrt(2 / 3) * 2)) == 0.00520786
    assert (d["test"], d["significant"]) == ("paired t", True)


def test_equal_differences_take_the_sign_test_not_a_zero_width_interval() -> None:
    """The audit's case: three games, every one -1 (a seat that won in a and lost in b).
    The t statistic divides by zero: no interval, and the exact sign test, p = 2 * 0.5^3."""
    d = difference([1.0, 1.0, 1.0], [0.0, 0.0, 0.0], bounds=(-1.0, 1.0))
    assert (d["difference"], d["ci"], d["p"], d["test"]) == (-1.0, None, 0.25, "sign")
    assert d["significant"] is False
    six_games = difference([0.0] * 6, [1.0] * 6)
    assert (six_games["p"], six_games["significant"]) == (0.03125, True)
    one = difference([100.0], [200.0])
    assert (one["difference"], one["ci"], one["p"], one["significant"]) == (100.0, None, 1.0, False)


def test_no_difference_is_not_significant() -> None:
    d = difference([1, 2, 3], [1, 2, 3])
    assert (d["difference"], d["ci"], d["p"], d["test"], d["significant"]) == (
        0.0,
        None,
        1.0,
        "sign",
        False,
    )
    d = difference([1, 5, 2], [2, 3, 4])  # differences 1, -2, 2: the interval spans 0
    assert d["difference"] == 0.333333 and d["significant"] is False
    assert d["ci"][0] < 0 < d["ci"][1]


def test_equal_float_differences_are_seen_as_equal() -> None:
    """A float mean of equal values may differ from them in the last bit (0.1 three times
    sums to 0.30000000000000004): that must not make a tiny sd and a huge t."""
    d = difference([0.0, 0.0, 0.0], [0.1, 0.1, 0.1])
    assert (d["ci"], d["p"], d["test"]) == (None, 0.25, "sign")


def test_a_difference_of_rates_stays_within_minus_one_and_one() -> None:
    # differences -1, -1, 0: mean -2/3, se = 1/3, t = -2; half width 1.434218
    # unclamped [-2.100884, 0.767551]; p = 1 - 2 / sqrt 6
    d = difference([1.0, 1.0, 0.0], [0.0, 0.0, 0.0], bounds=(-1.0, 1.0))
    assert (d["difference"], d["ci"], d["p"]) == (-0.666667, [-1.0, 0.767551], six(p_df2(2.0)))
    assert difference([1.0, 1.0, 0.0], [0.0, 0.0, 0.0])["ci"] == [-2.100884, 0.767551]


def test_no_pair_is_no_difference() -> None:
    assert difference([None, 1.0], [2.0, None]) == {
        "paired": True,
        "n": 0,
        "a": None,
        "b": None,
        "difference": None,
        "ci": None,
        "p": None,
        "test": None,
        "significant": False,
    }


def test_unpaired_difference_is_welch() -> None:
    # means 2 and 6, each variance 1: se = sqrt(2/3) = 0.816497, Welch df = 4, t = 4.898979
    # half width = t(0.975, 4) 2.776445 * 0.816497 = 2.266958
    assert difference([1, 2, 3], [5, 6, 7], paired=False) == {
        "paired": False,
        "n": 3,
        "a": 2.0,
        "b": 6.0,
        "difference": 4.0,
        "ci": [1.733042, 6.266958],
        "p": six(p_df4(4 / math.sqrt(2 / 3))),
        "test": "Welch t",
        "significant": True,
    }
    assert difference([None], [1.0], paired=False)["difference"] is None
    few = difference([1.0], [3.0, 4.0], paired=False)
    assert (few["difference"], few["ci"], few["p"], few["test"]) == (2.5, None, None, "too few")
    assert few["significant"] is False


def test_unpaired_constant_samples_take_the_exact_permutation_test() -> None:
    # 3 + 3 values all apart: the split and its mirror of C(6, 3) = 20 relabellings
    same_size = difference([2, 2, 2], [5, 5, 5], paired=False)
    assert (same_size["ci"], same_size["p"], same_size["test"]) == (None, 0.1, "permutation")
    # 2 + 3: the split alone of C(5, 2) = 10
    assert difference([2, 2], [5, 5, 5], paired=False)["p"] == 0.1
    assert difference([2, 2], [2, 2, 2], paired=False)["p"] == 1.0


def test_benjamini_hochberg() -> None:
    # sorted p 0.01, 0.03, 0.04, 0.5 of m = 4: p(i) * m / i = 0.04, 0.06, 0.053333, 0.5,
    # then each the least of itself and those after it
    assert fdr([0.01, None, 0.04, 0.03, 0.5]) == [0.04, None, 0.0533333, 0.0533333, 0.5]
    assert fdr([None, None]) == [None, None]
    assert fdr([0.2]) == [0.2]


def test_equal_shares_is_pearsons_chi_square_of_the_wins_per_seat() -> None:
    """Two seats: 30 and 10 wins against 20 each, chi-square (100 + 100) / 20 = 10 with 1
    df, p 0.0015654 (tables); three seats, 20, 5 and 5 against 10: 15 with 2 df, whose
    survival is exp(-15 / 2) = 0.000553084; a tie counts its shares."""
    assert equal_shares([30, 10]) == {"n": 40.0, "chi2": 10.0, "df": 1, "p": 0.00156540}
    assert equal_shares([20, 5, 5]) == {"n": 30.0, "chi2": 15.0, "df": 2, "p": 0.000553084}
    assert equal_shares([5, 5, 5, 5]) == {"n": 20.0, "chi2": 0.0, "df": 3, "p": 1.0}
    # below 5 expected wins per seat the approximation is not read: 4 of 4 games in one
    # seat, chi-square (9 + 1 + 1 + 1) / 1 = 12, would say p 0.0074 where the exact
    # multinomial p is 4 / 4^4 = 0.0156
    assert equal_shares([4, 0, 0, 0]) == {"n": 4.0, "chi2": 12.0, "df": 3, "p": None}
    assert equal_shares([2.5, 2.5, 2.5, 2.5])["p"] is None
    assert equal_shares([7]) == {"n": 7.0, "chi2": None, "df": 0, "p": None}
    assert equal_shares([0, 0]) == {"n": 0.0, "chi2": None, "df": 1, "p": None}


def test_differences_equal_but_for_float_noise_are_constant() -> None:
    """Differences equal in exact arithmetic but not in floats (10.000000000000004) take
    the sign test, not a t-test of the noise (which gave p 2.4e-48); equal means of
    constant samples are one value too."""
    d = difference([100 / 3, 200 / 3, 70 / 3, 50 / 7], [130 / 3, 230 / 3, 100 / 3, 50 / 7 + 10])
    assert (d["difference"], d["ci"], d["p"], d["test"], d["significant"]) == (
        10.0,
        None,
        0.125,
        "sign",
        False,
    )
    d = difference([0.1, 0.2, 0.7], [0.2, 0.3, 0.8])
    assert (d["difference"], d["ci"], d["p"], d["test"]) == (0.1, None, 0.25, "sign")
    d = difference([0.1, 0.2], [0.1 + 1e-17, 0.2], paired=True)
    assert (d["difference"], d["p"], d["test"]) == (0.0, 1.0, "sign")
    d = difference([0.3, 0.1 + 0.2], [0.3, 0.3], paired=False)
    assert (d["difference"], d["p"], d["test"]) == (0.0, 1.0, "permutation")
