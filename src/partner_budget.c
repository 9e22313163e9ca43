/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_budget.c: the memory one test takes on the partner, from its PARAMS. */
#include "partner_budget.h"

#include "model.h"
#include "stream.h"
#include "udpacct.h"
#include "watch.h"
#include "xfer_batch.h"

/* A stream's thread stack (stream.c); its table entries, results and
 * what malloc adds to its blocks, taken as one round figure (so that the
 * figures a refusal names stay put while those structures change). */
#define BUDGET_STACK   (256u << 10)
#define BUDGET_STREAM  (16u << 10)

_Static_assert(sizeof(struct stream) + sizeof(struct side) +
    sizeof(struct udp_stats) + 4096 <= BUDGET_STREAM,
    "BUDGET_STREAM holds a stream's tables");

/* The pattern buffer pattern_init takes for writes of at most maxlen. */
static uint64_t
pattern_bytes(const struct xfer_params *p, uint64_t maxlen)
{
	return (p->pattern_spans ? XFER_STREAM_PERIOD : p->data_len) + maxlen;
}

void
budget_need(const struct xfer_params *p, unsigned max_time_s,
            struct budget *b)
{
	uint64_t n = p->streams > 1 ? p->streams : 1;
	uint64_t big = p->len > p->data_len ? p->len : p->data_len;
	uint64_t secs = p->duration_ms ? (p->duration_ms + 999) / 1000 :
	    max_time_s ? max_time_s : 86400;
	int udp = p->proto == PROTO_UDP, send = p->role == ROLE_SEND;
	uint32_t vlen = p->batch > 1 ? p->batch : 1;

	b->stack = n > 1 ? BUDGET_STACK : 0;
	b->batch = 0;
	if (send) {
		b->data = pattern_bytes(p, p->len);
		if (udp && (vlen > 1 || p->gso))        /* the flat layout */
			b->batch = (uint64_t)vlen * xfer_gso_segs(p) * p->len;
	} else if (udp) {
		b->batch = xfer_rx_bytes(p);
		b->data = (p->verify ? pattern_bytes(p, big) : 0) +
		    UDPACCT_WINDOW / 8;
	} else {
		b->data = p->len + (p->verify ? pattern_bytes(p, big) : 0);
	}
	/* the stream's intervals and, with several, their sums */
	b->ivals = p->interval_ms || p->omit_ms ? (secs * 1000 /
	    (p->interval_ms ? p->interval_ms : p->omit_ms) + 2) *
	    sizeof(struct ival) * (n > 1 ? 2 : 1) : 0;
	b->fixed = WATCH_OUT_MAX + BUDGET_STREAM;
	b->total = n * (b->stack + b->data + b->batch + b->ivals + BUDGET_STREAM) +
	    b->fixed;
}
