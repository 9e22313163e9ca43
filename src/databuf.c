/* SPDX-License-Identifier: BSD-2-Clause */
/* databuf.c: page-aligned data buffers (see databuf.h for why). */
#include "databuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

static size_t
round_up(size_t n, size_t to)
{
	if (n > SIZE_MAX - (to - 1))
		return 0;
	return (n + to - 1) / to * to;
}

size_t
databuf_size(size_t n)
{
	return round_up(n, DATABUF_ALIGN);
}

size_t
databuf_stride(size_t n)
{
	return round_up(n, DATABUF_SLOT);
}

void *
databuf_alloc(size_t n)
{
	size_t size = databuf_size(n);

	if (n == 0 || size == 0) {
		errno = ENOMEM;
		return NULL;
	}
	/* C11: the size a multiple of the alignment, which round_up keeps */
	return aligned_alloc(DATABUF_ALIGN, size);
}
