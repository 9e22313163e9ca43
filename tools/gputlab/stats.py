# SPDX-License-Identifier: BSD-2-Clause
"""Statistics over repeats: mean, sample standard deviation, Student-t
confidence interval (the quantile computed, no table), Jain's index."""

import math


def _betacf(a, b, x):
    """The continued fraction of the regularized incomplete beta function
    (Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _ibeta(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1 - math.exp(lbt) * _betacf(b, a, 1 - x) / b


def t_cdf(t, df):
    x = df / (df + t * t)
    p = 0.5 * _ibeta(df / 2, 0.5, x)
    return 1 - p if t > 0 else p


def t_quantile(p, df):
    """The Student-t quantile: t with P(T <= t) = p (bisection)."""
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def summary(xs, level):
    """n, mean, stdev (sample), min, max, ci_low, ci_high (Student t at
    level %), width_pct (the CI's whole width in % of the mean). With one
    value, stdev and the CI are None."""
    xs = [x for x in xs if x is not None]
    n = len(xs)
    if n == 0:
        return {"n": 0, "mean": None, "stdev": None, "min": None,
                "max": None, "ci_low": None, "ci_high": None,
                "width_pct": None}
    mean = sum(xs) / n
    s = {"n": n, "mean": mean, "min": min(xs), "max": max(xs),
         "stdev": None, "ci_low": None, "ci_high": None, "width_pct": None}
    if n >= 2:
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
        h = t_quantile(1 - (1 - level / 100) / 2, n - 1) * sd / math.sqrt(n)
        s.update(stdev=sd, ci_low=mean - h, ci_high=mean + h)
        if mean != 0:
            s["width_pct"] = 2 * h / abs(mean) * 100
    return s


def jain(xs):
    """Jain's fairness index (sum x)^2 / (n sum x^2); None for no values."""
    xs = [x for x in xs if x is not None]
    if not xs or sum(x * x for x in xs) == 0:
        return None
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))
