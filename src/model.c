/* model.c: the result model's bookkeeping. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

int
model_add_ival(struct side *s, const struct ival *iv)
{
	if (s->niv == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct ival *p = realloc(s->iv, cap * sizeof *p);

		if (p == NULL)
			return -1;
		s->iv = p;
		s->cap = cap;
	}
	s->iv[s->niv++] = *iv;
	return 0;
}

void
model_free(struct run_model *m)
{
	size_t i;

	for (i = 0; i < 2; i++) {
		free(m->side[i].iv);
		m->side[i].iv = NULL;
		m->side[i].niv = m->side[i].cap = 0;
	}
}

double
model_mbit(uint64_t bytes, uint64_t ns, int *ok)
{
	*ok = ns != 0;
	return ns == 0 ? 0 : (double)bytes * 8.0 * 1000.0 / (double)ns;
}

void
model_steady(struct side *s)
{
	uint64_t bytes = 0, from = UINT64_MAX, to = 0;
	size_t i;

	for (i = 0; i < s->niv; i++) {
		if (s->iv[i].flags & IVAL_OMITTED)
			continue;
		bytes += s->iv[i].bytes;
		from = s->iv[i].start_ns < from ? s->iv[i].start_ns : from;
		to = s->iv[i].end_ns;
	}
	s->have_steady = from != UINT64_MAX;
	s->steady_bytes = s->have_steady ? bytes : 0;
	s->steady_ns = s->have_steady && to > from ? to - from : 0;
}

const char *
model_ivals_invalid(const struct side *s)
{
	uint64_t b = 0, c = 0;
	size_t i;

	if (s->niv == 0)
		return NULL;
	for (i = 0; i < s->niv; i++) {
		if (i > 0 && s->iv[i].start_ns != s->iv[i - 1].end_ns)
			return "intervals with gaps or overlaps";
		if ((s->iv[i].flags & IVAL_LAST) && i != s->niv - 1)
			return "a last interval before others";
		b += s->iv[i].bytes;
		c += s->iv[i].calls;
	}
	if (b != s->r.bytes || c != s->r.calls)
		return "intervals that do not add up to its totals";
	if (!(s->iv[s->niv - 1].flags & IVAL_LAST))
		return "no last interval";
	return NULL;
}
