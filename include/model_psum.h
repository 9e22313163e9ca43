/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_MODEL_PSUM_H
#define GPUT_MODEL_PSUM_H

#include <stdint.h>

#include "model.h"

/*
 * Several partners (gput(1), SEVERAL PARTNERS): the sums over the
 * partners' runs, computed from their models (the records each partner's
 * process hands the parent) per role: every sending side, every receiving
 * side; and Jain's index of the receivers' goodputs. Pure: the renderers
 * (report_psum.h) format what this computes.
 */
#define PSUM_MAX 9                  /* partners (GPUT_MAX_PARTNERS) */

/* One role's sum over the partners' runs. */
struct psum_role {
	unsigned n;                 /* sides added */
	struct gput_result r;       /* bytes, calls, dgrams, CPU: sums; real_ns:
	                               the first start to the last end */
	uint64_t first, last;       /* on this host's monotonic clock */
	uint32_t len;               /* %l: the first side's */
	uint64_t count;             /* %n: the sum */
	char     tag[PSUM_MAX];     /* each side's partner ('1' + k) */
	double   goodput[PSUM_MAX]; /* each side's Real-MBit/s */
	struct figures fig;         /* r's rates (model_rates) */
};

struct psum {
	unsigned partners;          /* with results */
	struct psum_role role[2];   /* [0] senders, [1] receivers */
	double   jain;              /* of the receivers' goodputs */
	double   share[PSUM_MAX];   /* each receiver's of their sum */
};

/* The sums over m[0..n) (n at most PSUM_MAX): partner k's run m[k], or
 * NULL when it has none. A run counts when it has no error; each of its
 * sides with a result is added to its role's sum, its window placed on
 * this host's clock by the run's start_mono_ns. */
void model_psum(struct psum *out, const struct run_model *const *m,
                unsigned n);

#endif
