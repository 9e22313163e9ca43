/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_stats.c: the statistics of repeated runs: Student-t quantiles
 * against an independent table (tests/data/t_quantiles.txt, df 1 to 200 at
 * 90, 95, 99 and 99.9%) and closed forms, the incomplete beta function,
 * mean, stdev, median, CI and Jain's index on examples worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "stats.h"

#define TABLE "tests/data/t_quantiles.txt"

/* Every row of the table to 4 decimals (the published precision), and
 * in fact far closer. */
static void
test_t_table(void **state)
{
	static const double p[4] = { 0.95, 0.975, 0.995, 0.9995 };
	FILE *f = fopen(TABLE, "r");
	char line[256];
	int rows = 0, df, k, bad = 0;
	double want[4], got, worst = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL) {
		if (line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%d %lf %lf %lf %lf", &df, &want[0],
		    &want[1], &want[2], &want[3]), 5);
		assert_int_equal(df, rows + 1);
		for (k = 0; k < 4; k++) {
			assert_int_equal(stats_t_quantile(p[k], df, &got), 0);
			if (fabs(got - want[k]) >= 0.5e-4) {
				print_error("df %d p %g: %.10f, want %.10f\n", df, p[k],
				            got, want[k]);
				bad++;
			}
			if (fabs(got - want[k]) / want[k] > worst)
				worst = fabs(got - want[k]) / want[k];
			/* and the lower tail by symmetry */
			assert_int_equal(stats_t_quantile(1 - p[k], df, &got), 0);
			if (fabs(got + want[k]) >= 0.5e-4)
				bad++;
		}
		rows++;
	}
	fclose(f);
	assert_int_equal(rows, 200);
	assert_int_equal(bad, 0);
	assert_true(worst < 1e-8);     /* the table's own digits */
}

/* df 1 is Cauchy's: t = tan(pi (p - 1/2)); df 2: t = (2p - 1) /
 * sqrt(2 p (1 - p)). Any level, to 1e-10 relative. */
static void
test_t_closed_forms(void **state)
{
	double p, t, want;

	(void)state;
	for (p = 0.5005; p < 0.9999; p += 0.0011) {
		assert_int_equal(stats_t_quantile(p, 1, &t), 0);
		want = tan(M_PI * (p - 0.5));
		assert_true(fabs(t - want) <= 1e-10 * want);
		assert_int_equal(stats_t_quantile(p, 2, &t), 0);
		want = (2 * p - 1) / sqrt(2 * p * (1 - p));
		assert_true(fabs(t - want) <= 1e-10 * want);
	}
	assert_int_equal(stats_t_quantile(0.5, 7, &t), 0);
	assert_true(t == 0);
	/* large df, towards the normal quantile 1.959963984540054 (scipy's
	 * t.ppf(0.975, 1e6) = 1.959966356814) */
	assert_int_equal(stats_t_quantile(0.975, 1e6, &t), 0);
	assert_true(fabs(t - 1.959966356814) < 1e-8);
	/* a level between the tabled ones and a df beyond the table */
	assert_int_equal(stats_t_quantile((1 + 0.5) / 2, 1, &t), 0);
	assert_true(fabs(t - 1) < 1e-12);             /* tan(pi/4) */
	assert_int_equal(stats_t_quantile(0.975, 1000, &t), 0);
	assert_true(fabs(t - 1.962339) < 1e-6);
}

static void
test_t_bad(void **state)
{
	double t = 42;

	(void)state;
	assert_int_equal(stats_t_quantile(0, 3, &t), -1);
	assert_int_equal(stats_t_quantile(1, 3, &t), -1);
	assert_int_equal(stats_t_quantile(-0.5, 3, &t), -1);
	assert_int_equal(stats_t_quantile(NAN, 3, &t), -1);
	assert_int_equal(stats_t_quantile(0.9, 0, &t), -1);
	assert_int_equal(stats_t_quantile(0.9, -1, &t), -1);
	assert_int_equal(stats_t_quantile(0.9, INFINITY, &t), -1);
	assert_true(t == 42);
	assert_true(isnan(stats_ibeta(1.5, 1, 1)));
	assert_true(isnan(stats_ibeta(0.5, 0, 1)));
}

/* I_x(a, 1) = x^a, I_x(1, b) = 1 - (1 - x)^b, I_x(a, b) = 1 - I_(1-x)(b, a). */
static void
test_ibeta(void **state)
{
	double x;

	(void)state;
	for (x = 0.01; x < 1; x += 0.07) {
		assert_true(fabs(stats_ibeta(x, 3.5, 1) - pow(x, 3.5)) < 1e-13);
		assert_true(fabs(stats_ibeta(x, 1, 2.5) - (1 - pow(1 - x, 2.5))) <
		            1e-13);
		assert_true(fabs(stats_ibeta(x, 4, 0.5) + stats_ibeta(1 - x, 0.5, 4) -
		            1) < 1e-13);
	}
	assert_true(stats_ibeta(0, 2, 3) == 0);
	assert_true(stats_ibeta(1, 2, 3) == 1);
	assert_true(fabs(stats_t_tail(0, 5) - 0.5) < 1e-15);
}

/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sum of squares 32, s = sqrt(32/7);
 * t(0.975, 7) = 2.364624251592785. */
static void
test_summarize(void **state)
{
	const double x[8] = { 9, 4, 2, 4, 5, 4, 7, 5 };
	struct stats_sum s;
	double half = 2.364624251592785 * sqrt(32.0 / 7) / sqrt(8);

	(void)state;
	assert_int_equal(stats_summarize(x, 8, 95, &s), 0);
	assert_int_equal(s.n, 8);
	assert_true(s.mean == 5);
	assert_true(fabs(s.stdev - sqrt(32.0 / 7)) < 1e-15);
	assert_true(s.min == 2 && s.max == 9);
	assert_true(s.median == 4.5);                 /* (4 + 5) / 2 */
	assert_true(s.have_ci);
	assert_true(fabs(s.half - half) < 1e-12);
	assert_true(fabs(s.ci_low - (5 - half)) < 1e-12);
	assert_true(fabs(s.ci_high - (5 + half)) < 1e-12);
	assert_true(fabs(stats_width_pct(&s) - 2 * half / 5 * 100) < 1e-10);
	/* odd n: the middle one */
	assert_int_equal(stats_summarize(x, 7, 99.9, &s), 0);
	assert_true(s.median == 4);
	/* one value: no stdev, no CI */
	assert_int_equal(stats_summarize(x, 1, 95, &s), 0);
	assert_true(s.mean == 9 && s.stdev == 0 && !s.have_ci);
	assert_true(s.ci_low == 9 && s.ci_high == 9);
	assert_true(stats_width_pct(&s) == -1);
	/* equal values: a CI of width 0 */
	{
		const double e[3] = { 9.4, 9.4, 9.4 };

		assert_int_equal(stats_summarize(e, 3, 95, &s), 0);
		assert_true(s.stdev == 0 && s.ci_low == s.ci_high);
		assert_true(stats_width_pct(&s) == 0);
	}
	/* refused */
	assert_int_equal(stats_summarize(x, 0, 95, &s), -1);
	assert_int_equal(stats_summarize(x, 3, 49.9, &s), -1);
	assert_int_equal(stats_summarize(x, 3, 99.95, &s), -1);
}

static void
test_jain(void **state)
{
	const double eq[4] = { 3, 3, 3, 3 }, one[4] = { 5, 0, 0, 0 };
	const double two[2] = { 1, 3 }, zero[2] = { 0, 0 };

	(void)state;
	assert_true(stats_jain(eq, 4) == 1);
	assert_true(fabs(stats_jain(one, 4) - 0.25) < 1e-15);
	assert_true(fabs(stats_jain(two, 2) - 16.0 / 20) < 1e-15);
	assert_true(stats_jain(zero, 2) == 0);
	assert_true(stats_jain(eq, 0) == 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_table),
		cmocka_unit_test(test_t_closed_forms),
		cmocka_unit_test(test_t_bad),
		cmocka_unit_test(test_ibeta),
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_jain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
