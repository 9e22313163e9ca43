/* SPDX-License-Identifier: BSD-2-Clause */
/* stats.c: statistics over repeated runs: mean, stdev, median, Student-t
 * confidence intervals, Jain's index. */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The continued fraction of I_x(a, b) (the form that converges for
 * x < (a + 1) / (a + b + 2)), evaluated by the modified Lentz method:
 * 1 / (1 + d1 / (1 + d2 / (1 + ...))), with d(2m+1) = -(a+m)(a+b+m)x /
 * ((a+2m)(a+2m+1)) and d(2m) = m(b-m)x / ((a+2m-1)(a+2m)). */
static double
beta_cf(double x, double a, double b)
{
	const double tiny = 1e-300, eps = 1e-16;
	double c = 1, d, f, num, delta;
	int m;

	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	f = d;
	for (m = 1; m <= 10000; m++) {
		/* the even step */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		f *= d * c;
		/* the odd step */
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		delta = d * c;
		f *= delta;
		if (fabs(delta - 1) < eps)
			break;
	}
	return f;
}

double
stats_ibeta(double x, double a, double b)
{
	double lfront;

	if (!(x >= 0 && x <= 1) || !(a > 0) || !(b > 0))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / (a B(a, b)) times the fraction; the symmetry
	 * I_x(a, b) = 1 - I_(1-x)(b, a) where the fraction converges slowly */
	lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lfront) * beta_cf(x, a, b) / a;
	return 1 - exp(lfront) * beta_cf(1 - x, b, a) / b;
}

double
stats_t_tail(double t, double df)
{
	double half;

	if (isnan(t) || !(df > 0))
		return NAN;
	/* P(|T| > |t|) = I_(df / (df + t^2))(df / 2, 1 / 2) */
	half = 0.5 * stats_ibeta(df / (df + t * t), df / 2, 0.5);
	return t >= 0 ? half : 1 - half;
}

/* The density of Student's t at t. */
static double
t_pdf(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI) -
	    (df + 1) / 2 * log1p(t * t / df));
}

int
stats_t_quantile(double p, double df, double *t)
{
	double q, lo = 0, hi = 1, x, g;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0) || !isfinite(df))
		return -1;
	if (p == 0.5) {
		*t = 0;
		return 0;
	}
	q = p > 0.5 ? 1 - p : p;             /* the upper tail to find */
	while (stats_t_tail(hi, df) > q) {  /* a bracket: tail(lo) > q >= tail(hi) */
		lo = hi;
		hi *= 2;
		if (hi > 1e300)
			return -1;
	}
	/* Newton from the bracket's middle, falling back to bisection when
	 * a step leaves the bracket; the tail falls with t, so each value
	 * narrows the bracket */
	x = (lo + hi) / 2;
	for (i = 0; i < 500 && hi - lo > 1e-14 * hi; i++) {
		g = stats_t_tail(x, df) - q;
		if (g == 0)
			break;
		if (g > 0)
			lo = x;
		else
			hi = x;
		x += g / t_pdf(x, df);          /* tail' = -pdf */
		if (!(x > lo && x < hi))
			x = (lo + hi) / 2;
	}
	*t = p > 0.5 ? x : -x;
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
stats_summarize(const double *x, size_t n, double level, struct stats_sum *s)
{
	double sum = 0, sq = 0, tq, *v;
	size_t i;

	memset(s, 0, sizeof *s);
	if (n == 0 || !(level >= STATS_LEVEL_MIN && level <= STATS_LEVEL_MAX))
		return -1;
	if ((v = malloc(n * sizeof *v)) == NULL)
		return -1;
	memcpy(v, x, n * sizeof *v);
	qsort(v, n, sizeof *v, cmp_double);
	for (i = 0; i < n; i++)
		sum += x[i];
	s->n = n;
	s->mean = sum / (double)n;
	s->min = v[0];
	s->max = v[n - 1];
	s->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	s->ci_low = s->ci_high = s->mean;
	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)             /* two passes: no cancellation */
		sq += (x[i] - s->mean) * (x[i] - s->mean);
	s->stdev = sqrt(sq / (double)(n - 1));
	if (stats_t_quantile((1 + level / 100) / 2, (double)(n - 1), &tq) == -1)
		return -1;
	s->half = tq * s->stdev / sqrt((double)n);
	s->ci_low = s->mean - s->half;
	s->ci_high = s->mean + s->half;
	s->have_ci = 1;
	return 0;
}

double
stats_width_pct(const struct stats_sum *s)
{
	double w = s->ci_high - s->ci_low;

	if (!s->have_ci)
		return -1;
	if (s->mean == 0)
		return w == 0 ? 0 : INFINITY;
	return w / fabs(s->mean) * 100;
}

double
stats_jain(const double *x, size_t n)
{
	double max = 0, sum = 0, sq = 0, v;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] > max)
			max = x[i];
	if (n == 0 || max <= 0)
		return 0;
	/* relative to the largest: no overflow of the squares, and equal
	 * values give exactly 1 */
	for (i = 0; i < n; i++) {
		v = x[i] / max;
		sum += v;
		sq += v * v;
	}
	v = sum * sum / ((double)n * sq);
	return v > 1 ? 1 : v;
}
