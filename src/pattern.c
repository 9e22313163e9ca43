/* SPDX-License-Identifier: BSD-2-Clause */
/* pattern.c: the data pattern a sender writes and a -c receiver checks. */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "databuf.h"

uint32_t
pattern_seed(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

int
pattern_init(struct pattern *pt, const struct xfer_params *p, size_t maxlen,
             char *err, size_t errlen)
{
	uint32_t x = p->seed ? p->seed : 0x9e3779b9u;   /* xorshift32 state */
	size_t i;

	pt->period = p->pattern_spans ? XFER_STREAM_PERIOD : p->data_len;
	pt->size = pt->period + maxlen;
	pt->buf = databuf_alloc(pt->size);
	if (pt->buf == NULL) {
		snprintf(err, errlen, "cannot allocate %zu bytes for the data buffer",
		         pt->size);
		return -1;
	}
	for (i = 0; i < pt->period; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		pt->buf[i] = (uint8_t)(x >> 24);
	}
	/* Repeat the period so any maxlen bytes from any phase are contiguous. */
	for (; i < pt->size; i++)
		pt->buf[i] = pt->buf[i - pt->period];
	return 0;
}

void
pattern_free(struct pattern *pt)
{
	free(pt->buf);
	pt->buf = NULL;
}

uint64_t
pattern_check(const struct pattern *pt, uint64_t off, const uint8_t *data,
              size_t n, uint64_t *first)
{
	const uint8_t *want = pt->buf + off % pt->period;
	uint64_t bad = 0;
	size_t i;

	if (n > pt->size - pt->period)         /* never read past the pattern */
		n = pt->size - pt->period;
	if (memcmp(want, data, n) == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (want[i] != data[i]) {
			if (bad == 0 && *first == UINT64_MAX)
				*first = off + i;
			bad++;
		}
	}
	return bad;
}
