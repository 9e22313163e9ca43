/* SPDX-License-Identifier: BSD-2-Clause */
/* capture.h: what a renderer wrote to a FILE, as a string, for the unit
 * tests of the renderers (include after cmocka.h). */
#ifndef GPUT_TESTS_CAPTURE_H
#define GPUT_TESTS_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>

struct cap {
	FILE  *f;
	char  *buf;
	size_t len;
};

/* A FILE in memory into c->f. */
static inline void
cap_open(struct cap *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

/* What c captured, NUL-terminated (free it). */
static inline char *
cap_close(struct cap *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->buf;
}

/* Assert that what c captured is want; frees it. */
static inline void
cap_expect(struct cap *c, const char *want)
{
	char *got = cap_close(c);

	assert_string_equal(got, want);
	free(got);
}

#endif
