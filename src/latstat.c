/* SPDX-License-Identifier: BSD-2-Clause */
/* latstat.c: percentiles, trimmed means and RPM of round-trip samples. */
#include "latstat.h"

#include <stdlib.h>
#include <string.h>

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

void
latstat_sort(uint64_t *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof *x, cmp_u64);
}

void
latstat_sort_signed(int64_t *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof *x, cmp_i64);
}

/* The nearest rank, 1..n, of the pct-th percentile of n samples. */
static size_t
rank(size_t n, unsigned pct)
{
	size_t r;

	if (pct > 100)
		pct = 100;
	/* ceil(pct * n / 100) without overflow for any practical n */
	r = n / 100 * pct + ((n % 100) * pct + 99) / 100;
	return r == 0 ? 1 : r;
}

uint64_t
latstat_pctl(const uint64_t *sorted, size_t n, unsigned pct)
{
	return n == 0 ? 0 : sorted[rank(n, pct) - 1];
}

int64_t
latstat_pctl_signed(const int64_t *sorted, size_t n, unsigned pct)
{
	return n == 0 ? 0 : sorted[rank(n, pct) - 1];
}

uint64_t
latstat_trimmed_mean(const uint64_t *sorted, size_t n, unsigned keep_pct)
{
	size_t k, i;
	unsigned __int128 sum = 0;

	if (n == 0)
		return 0;
	k = rank(n, keep_pct);
	for (i = 0; i < k; i++)
		sum += sorted[i];
	return (uint64_t)(sum / k);
}

double
latstat_rpm(uint64_t mean_ns)
{
	return mean_ns == 0 ? 0 : 60e9 / (double)mean_ns;
}

void
latstat_phase(struct lat_phase *ph, uint64_t sent, uint64_t *rtt, int64_t *up,
              int64_t *down, size_t n)
{
	memset(ph, 0, sizeof *ph);
	ph->sent = sent;
	ph->answered = n;
	ph->lost = sent >= n ? sent - n : 0;
	if (n == 0)
		return;
	latstat_sort(rtt, n);
	ph->min_ns = rtt[0];
	ph->p50_ns = latstat_pctl(rtt, n, 50);
	ph->p90_ns = latstat_pctl(rtt, n, 90);
	ph->p99_ns = latstat_pctl(rtt, n, 99);
	ph->max_ns = rtt[n - 1];
	ph->tmean_ns = latstat_trimmed_mean(rtt, n, 95);
	if (up != NULL && down != NULL) {
		latstat_sort_signed(up, n);
		latstat_sort_signed(down, n);
		ph->up_p50_ns = latstat_pctl_signed(up, n, 50);
		ph->down_p50_ns = latstat_pctl_signed(down, n, 50);
		ph->have_owd = 1;
	}
}
