/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_STATS_H
#define GPUT_STATS_H

#include <stddef.h>

/*
 * Statistics over repeated runs (--repeat): pure arithmetic on arrays of
 * doubles, no I/O. The Student-t quantile is computed, not looked up: any
 * degrees of freedom, any probability.
 */

/* The confidence levels --ci accepts, in percent. */
#define STATS_LEVEL_MIN 50.0
#define STATS_LEVEL_MAX 99.9

/* A figure over n runs. ci_low/ci_high: mean -+ t((1+L)/2, n-1) s/sqrt(n)
 * at level L; have_ci = 0 (and ci_low = ci_high = mean) when n < 2. */
struct stats_sum {
	size_t n;
	double mean, stdev;          /* stdev: the sample's (n - 1) */
	double min, median, max;
	double half;                 /* the CI's half-width */
	double ci_low, ci_high;
	int    have_ci;
};

/* Student's t distribution with df degrees of freedom (df > 0, not
 * necessarily whole): P(T > t), exactly from the regularized incomplete
 * beta function (|t| any finite value). */
double stats_t_tail(double t, double df);

/* The p-quantile of Student's t with df degrees of freedom: the t with
 * P(T <= t) = p, for 0 < p < 1 and df > 0. Returns 0 with *t set, or -1
 * (p or df out of range, or not finite). Accurate to about 1e-12 relative. */
int    stats_t_quantile(double p, double df, double *t);

/* I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1 and
 * a, b > 0 (a continued fraction, with lgamma). NaN out of range. */
double stats_ibeta(double x, double a, double b);

/* The figures of x[0..n) at confidence level (percent, 50 to 99.9) into s.
 * mean is the sum in index order over n; median the middle of the sorted
 * values (the mean of the two middle ones for even n). Returns 0, or -1
 * (n is 0, level out of range, no memory for the sort). */
int    stats_summarize(const double *x, size_t n, double level,
                       struct stats_sum *s);

/* The CI's whole width as a percentage of the mean (netperf's width): 0
 * when n < 2 is not possible (-1 returned then), and when the mean is 0 and
 * the width not, infinite. */
double stats_width_pct(const struct stats_sum *s);

/* Jain's fairness index of x[0..n) (each >= 0): (sum x)^2 / (n sum x^2),
 * in [1/n, 1]; 0 when n is 0 or every x is 0. */
double stats_jain(const double *x, size_t n);

#endif
