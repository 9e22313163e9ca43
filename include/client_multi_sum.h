/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_MULTI_SUM_H
#define GPUT_CLIENT_MULTI_SUM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "meter.h"
#include "model.h"

/*
 * Several partners (gput(1), SEVERAL PARTNERS): each partner's process
 * sends the parent one record of its two sides' totals; the parent sums
 * them per role (every sending side, every receiving side) and takes
 * Jain's index of the receivers' goodputs.
 */
struct msum_side {
	uint8_t  have, role;
	uint32_t len;
	uint64_t count;
	uint64_t start_ns;      /* its window opened, on this host's monotonic
	                           clock (a partner's: START's time here plus
	                           its own start after START reached it) */
	struct gput_result r;
};

struct msum_rec {
	uint32_t magic;
	uint8_t  proto, interrupted;
	struct msum_side side[2];   /* [0] local, [1] the partner's */
};

/* One role's sum over the partners' tests. */
struct msum_role {
	unsigned n;                 /* lines added */
	struct gput_result r;       /* bytes, calls, dgrams, CPU: sums; real_ns:
	                               the first start to the last end */
	uint64_t first, last;
	uint32_t len;               /* %l: the first line's */
	uint64_t count;             /* %n: the sum */
	char     tag[GPUT_MAX_PARTNERS];       /* each line's partner */
	double   goodput[GPUT_MAX_PARTNERS];   /* each line's Real-MBit/s */
};

struct msum {
	unsigned partners;          /* with results */
	struct msum_role role[2];   /* [0] senders, [1] receivers */
	double   jain;              /* of the receivers' goodputs */
	double   share[GPUT_MAX_PARTNERS];     /* each receiver's of their sum */
};

/* In a partner's process: its run's record to fd. t0: START on this
 * host's monotonic clock. Returns 0 or -1. */
int  msum_put(int fd, const struct run_model *m, uint64_t t0);
/* In the parent: the record in buf[0..len), checked. Returns 0 or -1. */
int  msum_take(struct msum_rec *rec, const void *buf, size_t len);
/* The sums over the records k with have[k]. */
void msum_compute(struct msum *out, const struct msum_rec *recs,
                  const int *have, unsigned n);
/* The table's sum lines (a role with two lines or more) and the
 * receivers' fairness line, prefixed "+ ":
 *   + t  2896000 ...  sum of 2 senders
 *   + r  2896000 ...  sum of 2 receivers
 *   + r: fairness of 2 receivers: Jain's index 0.9990, shares 1 50.1% 2 49.9% */
void msum_table(FILE *f, const struct msum *s, const char *fmt);
/* CSV rows "sum,t,send,..." and "sum,r,recv,...", padded to columns. */
void msum_csv(FILE *f, const struct msum *s, unsigned columns);
/* JSON: {"partners": n, "send": {...}, "recv": {...}, "jain": x,
 * "shares": [...]} (lines: one line, with "type":"partners_sum"). */
void msum_json(FILE *f, const struct msum *s, int lines);

#endif
