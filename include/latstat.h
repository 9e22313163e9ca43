/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_LATSTAT_H
#define GPUT_LATSTAT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Summaries of round-trip samples (--latency). Pure: no clock, no I/O.
 *
 * Percentiles are nearest-rank: the p-th percentile of n samples sorted
 * ascending is the sample of rank ceil(p * n / 100) (1-based), so it is
 * always one of the samples; p50 of 1, 2, 3, 4 is 2, p99 of 100 samples
 * their 99th smallest.
 *
 * Responsiveness in round trips per minute (RPM) is 60 s over the trimmed
 * mean of the round trips: the mean of the smallest ceil(95 * n / 100)
 * samples (the largest 5% dropped), as the IETF responsiveness draft trims
 * its probes' samples.
 */

/* Sort x[0..n) ascending. */
void     latstat_sort(uint64_t *x, size_t n);
/* Sort x[0..n) ascending (signed: one-way delays may be negative when
 * the two ends' clocks differ). */
void     latstat_sort_signed(int64_t *x, size_t n);
/* The nearest-rank pct-th percentile (1..100) of sorted[0..n); 0 if n is 0. */
uint64_t latstat_pctl(const uint64_t *sorted, size_t n, unsigned pct);
int64_t  latstat_pctl_signed(const int64_t *sorted, size_t n, unsigned pct);
/* The mean of the smallest ceil(keep_pct * n / 100) of sorted[0..n), in ns
 * (rounded down); 0 if n is 0. */
uint64_t latstat_trimmed_mean(const uint64_t *sorted, size_t n,
                              unsigned keep_pct);
/* 60 s / mean_ns: round trips per minute; 0 when mean_ns is 0. */
double   latstat_rpm(uint64_t mean_ns);

/* One phase (idle or loaded) of a run's probes. */
struct lat_phase {
	uint64_t sent, answered, lost;   /* sent = answered + lost */
	uint64_t unsent;                 /* due but not sent (the prober's) */
	uint64_t min_ns, p50_ns, p90_ns, p99_ns, max_ns;   /* round trips */
	uint64_t tmean_ns;               /* trimmed mean (RPM's) */
	int      have_owd;               /* --same-clock: up, down are valid */
	int64_t  up_p50_ns, down_p50_ns; /* one-way delays, p50 each */
};

/* Summarise a phase: sent probes of which n were answered, with round trips
 * rtt[0..n) and (up, down non-NULL: --same-clock) one-way delays; the
 * arrays are sorted in place. */
void     latstat_phase(struct lat_phase *ph, uint64_t sent, uint64_t *rtt,
                       int64_t *up, int64_t *down, size_t n);

/* The partner's echo's counts (partner_echo.c; ECHOSTATS): received is the sum of
 * the other five. */
struct echo_stats {
	uint64_t received;    /* datagrams that arrived */
	uint64_t echoed;      /* echoes sent */
	uint64_t over_rate;   /* well-formed, from the proven sender, over the rate */
	uint64_t strangers;   /* from an address or port that is not the proven */
	uint64_t malformed;   /* not a request with the session's nonce */
	uint64_t failed;      /* echoes the kernel would not send */
};

#endif
