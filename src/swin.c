/* SPDX-License-Identifier: BSD-2-Clause */
/* swin.c: the sliding window's bookkeeping and RFC 6298's timer; pure. */
#include "swin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
swin_rto_init(struct swin_rto *r, uint64_t fixed_ns)
{
	memset(r, 0, sizeof *r);
	r->fixed = fixed_ns;
	r->rto = fixed_ns != 0 ? fixed_ns : SWIN_RTO_INIT_NS;
}

static uint64_t
clamp_rto(uint64_t v)
{
	return v < SWIN_RTO_MIN_NS ? SWIN_RTO_MIN_NS :
	    v > SWIN_RTO_MAX_NS ? SWIN_RTO_MAX_NS : v;
}

void
swin_rto_sample(struct swin_rto *r, uint64_t rtt)
{
	uint64_t d, k;

	r->samples++;
	if (rtt > SWIN_RTO_MAX_NS)          /* keeps the sums far from 2^64 */
		rtt = SWIN_RTO_MAX_NS;
	if (!r->have) {                     /* 2.2 */
		r->srtt = rtt;
		r->rttvar = rtt / 2;
		r->have = 1;
	} else {                            /* 2.3: beta 1/4, alpha 1/8 */
		d = r->srtt > rtt ? r->srtt - rtt : rtt - r->srtt;
		r->rttvar = (3 * r->rttvar + d) / 4;
		r->srtt = (7 * r->srtt + rtt) / 8;
	}
	k = 4 * r->rttvar;
	if (r->fixed == 0)
		r->rto = clamp_rto(r->srtt + (k > 1 ? k : 1));
}

void
swin_rto_backoff(struct swin_rto *r)
{
	if (r->fixed == 0)
		r->rto = r->rto > SWIN_RTO_MAX_NS / 2 ? SWIN_RTO_MAX_NS : 2 * r->rto;
}

int
swin_init(struct swin *w, uint32_t n, uint64_t total, char *err, size_t errlen)
{
	uint32_t i;

	memset(w, 0, sizeof *w);
	w->n = n > 0 ? n : 1;
	w->total = total;
	w->slot = calloc(w->n, sizeof *w->slot);
	w->heap = calloc(w->n, sizeof *w->heap);
	if (w->slot == NULL || w->heap == NULL) {
		snprintf(err, errlen, "cannot allocate a window of %u datagrams", w->n);
		swin_free(w);
		return -1;
	}
	for (i = 0; i < w->n; i++)
		w->slot[i].pos = UINT32_MAX;
	return 0;
}

void
swin_free(struct swin *w)
{
	free(w->slot);
	free(w->heap);
	w->slot = NULL;
	w->heap = NULL;
}

int
swin_may_send(const struct swin *w)
{
	return w->next < w->total && w->next - w->base < w->n;
}

/* The heap: slot indices by deadline, each slot knowing its place. */
static int
earlier(const struct swin *w, uint32_t a, uint32_t b)
{
	return w->slot[w->heap[a]].deadline < w->slot[w->heap[b]].deadline;
}

static void
heap_swap(struct swin *w, uint32_t a, uint32_t b)
{
	uint32_t t = w->heap[a];

	w->heap[a] = w->heap[b];
	w->heap[b] = t;
	w->slot[w->heap[a]].pos = a;
	w->slot[w->heap[b]].pos = b;
}

static void
heap_up(struct swin *w, uint32_t i)
{
	while (i > 0 && earlier(w, i, (i - 1) / 2)) {
		heap_swap(w, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void
heap_down(struct swin *w, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;

		if (l < w->heap_n && earlier(w, l, m))
			m = l;
		if (l + 1 < w->heap_n && earlier(w, l + 1, m))
			m = l + 1;
		if (m == i)
			return;
		heap_swap(w, i, m);
		i = m;
	}
}

static void
heap_remove(struct swin *w, uint32_t s)
{
	uint32_t i = w->slot[s].pos, moved;

	if (i == UINT32_MAX)
		return;
	w->slot[s].pos = UINT32_MAX;
	if (i == --w->heap_n)
		return;
	moved = w->heap[w->heap_n];
	w->heap[i] = moved;
	w->slot[moved].pos = i;
	heap_up(w, i);
	heap_down(w, w->slot[moved].pos);
}

/* Arm slot s's timer: into the heap, or moved within it. */
static void
arm(struct swin *w, uint32_t s, uint64_t now, uint64_t rto)
{
	struct swin_slot *sl = &w->slot[s];

	sl->stamp = now;
	sl->deadline = now + rto;
	sl->tries++;
	if (sl->pos == UINT32_MAX) {
		sl->pos = w->heap_n;
		w->heap[w->heap_n++] = s;
		heap_up(w, sl->pos);
	} else {                            /* moved: down or up */
		heap_down(w, sl->pos);
		heap_up(w, sl->pos);
	}
}

uint64_t
swin_sent_new(struct swin *w, uint64_t now, uint64_t rto)
{
	uint64_t seq = w->next++;
	uint32_t s = (uint32_t)(seq % w->n);

	w->slot[s].tries = 0;
	w->slot[s].acked = 0;
	arm(w, s, now, rto);
	w->firsts++;
	return seq;
}

void
swin_sent_again(struct swin *w, uint64_t seq, uint64_t now, uint64_t rto)
{
	arm(w, (uint32_t)(seq % w->n), now, rto);
	w->resends++;
}

enum swin_ack
swin_acked(struct swin *w, uint64_t seq, uint64_t stamp, uint64_t now,
           uint64_t *rtt, int *have_rtt)
{
	struct swin_slot *sl;

	*have_rtt = 0;
	if (seq >= w->next) {
		w->acks_bad++;
		return SWIN_ACK_BAD;
	}
	sl = &w->slot[seq % w->n];
	if (seq < w->base || sl->acked) {
		w->acks_old++;
		return SWIN_ACK_OLD;
	}
	if (stamp == sl->stamp && now >= stamp) {
		*rtt = now - stamp;
		*have_rtt = 1;
	}
	sl->acked = 1;
	heap_remove(w, (uint32_t)(seq % w->n));
	w->acks_new++;
	while (w->base < w->next && w->slot[w->base % w->n].acked)
		w->base++;
	return SWIN_ACK_NEW;
}

uint64_t
swin_deadline(const struct swin *w)
{
	return w->heap_n > 0 ? w->slot[w->heap[0]].deadline : UINT64_MAX;
}

uint64_t
swin_first_timer(const struct swin *w, uint32_t *tries)
{
	uint32_t s = w->heap[0];
	/* the one sequence out that sits in slot s: base + its distance */
	uint64_t seq = w->base + ((uint64_t)s + w->n - w->base % w->n) % w->n;

	*tries = w->slot[s].tries;
	return seq;
}

int
swin_done(const struct swin *w)
{
	return w->base >= w->total;
}
