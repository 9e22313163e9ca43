/* SPDX-License-Identifier: BSD-2-Clause */
/* growbuf.c: the one growable buffer (growbuf.h). */
#include "growbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void
growbuf_add(struct growbuf *b, const void *s, size_t n)
{
	if (b->nomem || n == 0)
		return;
	if (n > SIZE_MAX - b->len) {
		b->nomem = 1;
		return;
	}
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n)
			cap = cap > SIZE_MAX / 2 ? b->len + n : cap * 2;
		if ((p = realloc(b->p, cap)) == NULL) {
			b->nomem = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

const char *
growbuf_str(struct growbuf *b)
{
	growbuf_add(b, "", 1);
	if (b->nomem)
		return "";
	b->len--;
	return b->p;
}

void
growbuf_free(struct growbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}
