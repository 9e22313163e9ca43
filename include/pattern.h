/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PATTERN_H
#define GPUT_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "xfer_params.h"

/* A data pattern: period bytes repeated, laid out so that any stretch of up to
 * maxlen bytes starting at any phase is contiguous in buf. */
struct pattern {
	uint8_t *buf;
	size_t   period;
	size_t   size;
};

/* Fill a pattern for p's stream. Returns 0, or -1 with err filled (no memory). */
int      pattern_init(struct pattern *pt, const struct xfer_params *p,
                      size_t maxlen, char *err, size_t errlen);
void     pattern_free(struct pattern *pt);
/* Compare n received bytes that start at stream offset off; return how many
 * differ and, if any do and *first is UINT64_MAX, set *first to the offset of the first. */
uint64_t pattern_check(const struct pattern *pt, uint64_t off,
                       const uint8_t *data, size_t n, uint64_t *first);
/* 32-bit seed for a -S string (FNV-1a). */
uint32_t pattern_seed(const char *s);

#endif
