/* SPDX-License-Identifier: BSD-2-Clause */
/* model_psum.c: several partners' sums per role and Jain's index over
 * their receivers, from the partners' models. */
#include "model_psum.h"

#include <string.h>

/* Add side s of partner k (its run began at t0 here) to sum u. */
static void
add_side(struct psum_role *u, const struct side *s, uint64_t t0, unsigned k)
{
	uint64_t start = t0 + s->start_ns, end = start + s->r.real_ns;

	if (u->n == 0 || start < u->first)
		u->first = start;
	if (u->n == 0 || end > u->last)
		u->last = end;
	u->r.bytes += s->r.bytes;
	u->r.calls += s->r.calls;
	u->r.cpu_ns += s->r.cpu_ns;
	u->r.dgrams += s->r.dgrams;
	u->count += s->count;
	if (u->n == 0)
		u->len = s->len;
	u->tag[u->n] = (char)('1' + k);
	u->goodput[u->n] = s->fig.real_mbit.v;
	u->n++;
}

void
model_psum(struct psum *out, const struct run_model *const *m, unsigned n)
{
	unsigned k, i, r;
	double sum = 0;

	memset(out, 0, sizeof *out);
	for (k = 0; k < n && k < PSUM_MAX; k++) {
		if (m[k] == NULL || m[k]->error != NULL)
			continue;
		out->partners++;
		for (i = 0; i < 2; i++) {
			const struct side *s = &m[k]->side[i];

			if (s->have_result && s->role <= ROLE_RECV)
				add_side(&out->role[s->role == ROLE_RECV], s,
				    m[k]->start_mono_ns, k);
		}
	}
	for (r = 0; r < 2; r++) {
		out->role[r].r.real_ns = out->role[r].n ?
		    out->role[r].last - out->role[r].first : 0;
		model_rates(&out->role[r].r, &out->role[r].fig);
	}
	for (i = 0; i < out->role[1].n; i++)
		sum += out->role[1].goodput[i];
	for (i = 0; i < out->role[1].n; i++)
		out->share[i] = sum > 0 ? out->role[1].goodput[i] / sum : 0;
	out->jain = model_jain(out->role[1].goodput, out->role[1].n);
}
