/* SPDX-License-Identifier: BSD-2-Clause */
/* udpacct.c: the UDP receiver's exact accounting (rules in udpacct.h). */
#include "udpacct.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a - b of two transits, modulo 2^64 and read back as signed: no
 * overflow whatever a sender put in its send times. */
static int64_t
tdiff(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

#define WORDS (UDPACCT_WINDOW / 64)

/* The window must be a power of two and a whole number of words. */
_Static_assert((UDPACCT_WINDOW & (UDPACCT_WINDOW - 1)) == 0 && UDPACCT_WINDOW >= 64,
               "UDPACCT_WINDOW: a power of two, at least 64");

int
udpacct_init(struct udpacct *a, char *err, size_t errlen)
{
	memset(a, 0, sizeof *a);
	a->bits = calloc(WORDS, sizeof a->bits[0]);
	if (a->bits == NULL) {
		snprintf(err, errlen, "udpacct: calloc %zu bytes: %s",
		         WORDS * sizeof a->bits[0], strerror(errno));
		return -1;
	}
	return 0;
}

void
udpacct_free(struct udpacct *a)
{
	free(a->bits);
	a->bits = NULL;
}

/* Clears the bits of the n (<= UDPACCT_WINDOW) sequence numbers from seq on,
 * a word at a time where it can. */
static void
clear_run(uint64_t *bits, uint64_t seq, uint64_t n)
{
	while (n > 0) {
		unsigned slot = (unsigned)(seq & (UDPACCT_WINDOW - 1));
		unsigned off = slot & 63;
		uint64_t take = 64 - off, mask;

		if (take > n)
			take = n;
		mask = take == 64 ? ~(uint64_t)0 : (((uint64_t)1 << take) - 1) << off;
		bits[slot >> 6] &= ~mask;
		seq += take;
		n -= take;
	}
}

/* Jitter and transit of one first copy. */
static void
time_first_copy(struct udpacct *a, uint64_t send_ns, uint64_t arrive_ns)
{
	int64_t transit = (int64_t)(arrive_ns - send_ns);

	if (a->transit_n == 0) {
		a->transit_min = a->transit_max = a->transit_ref = transit;
	} else {
		/* (Rj - Ri) - (Sj - Si), each difference modulo 2^64 */
		int64_t d = (int64_t)((arrive_ns - a->prev_arrive) - (send_ns - a->prev_send));

		a->jitter_ns += (fabs((double)d) - a->jitter_ns) / 16.0;
		if (transit < a->transit_min)
			a->transit_min = transit;
		if (transit > a->transit_max)
			a->transit_max = transit;
		/* hostile send times can put transits 2^63 apart: differ
		 * modulo 2^64, never by signed overflow */
		a->transit_sum += (double)tdiff(transit, a->transit_ref);
	}
	a->transit_n++;
	a->prev_send = send_ns;
	a->prev_arrive = arrive_ns;
}

void
udpacct_add(struct udpacct *a, uint64_t seq, uint64_t send_ns, uint64_t arrive_ns)
{
	uint64_t *w = &a->bits[(seq & (UDPACCT_WINDOW - 1)) >> 6];
	uint64_t bit = (uint64_t)1 << (seq & 63);

	a->n.received++;
	if (a->marked)
		a->n.late++;
	if (seq == UINT64_MAX) {
		a->n.too_old++;          /* next = seq + 1 would read as "none yet" */
		return;
	}
	if (seq >= a->next) {
		uint64_t span = seq - a->next + 1;   /* next .. seq */

		if (span >= UDPACCT_WINDOW)
			memset(a->bits, 0, WORDS * sizeof a->bits[0]);
		else
			clear_run(a->bits, a->next, span);
		a->next = seq + 1;
	} else {
		uint64_t d = a->next - 1 - seq;

		if (d >= UDPACCT_WINDOW) {
			a->n.too_old++;
			return;
		}
		if (*w & bit) {
			a->n.duplicates++;
			return;
		}
		a->n.reordered++;
		if (d > a->n.max_displacement)
			a->n.max_displacement = d;
	}
	*w |= bit;
	a->n.unique++;
	time_first_copy(a, send_ns, arrive_ns);
}

void
udpacct_marker(struct udpacct *a)
{
	a->marked = 1;
}

uint64_t
udpacct_lost_of(uint64_t sent, uint64_t unique)
{
	return unique >= sent ? 0 : sent - unique;
}

uint64_t
udpacct_lost(const struct udpacct *a, uint64_t sent)
{
	return udpacct_lost_of(sent, a->n.unique);
}

double
udpacct_delay_var_mean_ns(const struct udpacct *a)
{
	if (a->transit_n == 0)
		return 0;
	return (double)tdiff(a->transit_ref, a->transit_min) +
	    a->transit_sum / (double)a->transit_n;
}

double
udpacct_delay_var_max_ns(const struct udpacct *a)
{
	if (a->transit_n == 0)
		return 0;
	return (double)(uint64_t)((uint64_t)a->transit_max - (uint64_t)a->transit_min);
}

uint64_t
udpacct_ns(double v)
{
	return v <= 0 ? 0 : v >= 18446744073709551615.0 ? UINT64_MAX :
	    (uint64_t)(v + 0.5);
}

void
udpacct_figures(const struct udpacct *a, int timed, struct udp_stats *out)
{
	*out = a->n;
	out->flags |= UDPS_SEQ;
	if (!timed || a->transit_n == 0)
		return;
	out->flags |= UDPS_TIMED;
	out->jitter_ns = udpacct_ns(a->jitter_ns);
	out->delay_var_ns = udpacct_ns(udpacct_delay_var_mean_ns(a));
	out->delay_var_max_ns = udpacct_ns(udpacct_delay_var_max_ns(a));
	out->owd_min_ns = a->transit_min;
	out->owd_mean_ns = (int64_t)(out->delay_var_ns + (uint64_t)a->transit_min);
}
