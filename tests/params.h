/* SPDX-License-Identifier: BSD-2-Clause */
/* params.h: the PARAMS fixture of the unit tests: one stream of proto's
 * data in data_len-byte writes, data_bytes in all (the last write may be
 * shorter), as role; everything else zero. */
#ifndef GPUT_TESTS_PARAMS_H
#define GPUT_TESTS_PARAMS_H

#include <string.h>

#include "xfer_params.h"

static inline struct xfer_params
test_params(uint8_t proto, uint8_t role, uint32_t data_len, uint64_t data_bytes)
{
	struct xfer_params p;

	memset(&p, 0, sizeof p);
	p.proto = proto;
	p.role = role;
	p.len = p.data_len = data_len;
	p.count = (data_bytes + data_len - 1) / data_len;
	p.data_bytes = data_bytes;
	p.streams = 1;
	return p;
}

#endif
