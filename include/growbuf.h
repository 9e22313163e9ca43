/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_GROWBUF_H
#define GPUT_GROWBUF_H

#include <stddef.h>

/*
 * The one growable buffer: bytes appended, the buffer doubled as it fills
 * (never on a data path), its size guarded against overflow. A failed
 * append (no memory, or more than fits a size_t) sets nomem, and every
 * later one is dropped: what is there stays whole up to the failure.
 */
struct growbuf {
	char  *p;
	size_t len, cap;
	int    nomem;
};

/* Append s[0..n). */
void growbuf_add(struct growbuf *b, const void *s, size_t n);
/* The text in b, NUL-terminated (the NUL not counted in len); "" when an
 * append failed. */
const char *growbuf_str(struct growbuf *b);
/* Free b's bytes; b is empty again. */
void growbuf_free(struct growbuf *b);

#endif
