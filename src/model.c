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
