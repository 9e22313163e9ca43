/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_DATABUF_H
#define GPUT_DATABUF_H

#include <stddef.h>

/*
 * The data path's buffers. The kernel copies payload to and from them on
 * every call (copy_to_user, copy_from_user), and those routines run
 * fastest from a page boundary: a 128 KiB receive buffer that malloc()
 * placed 16 bytes past a page cost the TCP receiver about three times the
 * CPU per byte. Every buffer a data path reads into or writes from comes
 * from here.
 */
#define DATABUF_ALIGN 4096u     /* a page */
#define DATABUF_SLOT  64u       /* a slot inside a buffer: a cache line */

/* The bytes databuf_alloc(n) reserves: n rounded up to whole pages, or 0
 * when that overflows. */
size_t databuf_size(size_t n);
/* A buffer of at least n bytes (n > 0) that starts on a page boundary,
 * uninitialised; release it with free(). Returns NULL (errno ENOMEM) when
 * n is 0, too large, or there is no memory. */
void  *databuf_alloc(size_t n);
/* The stride of slots of n bytes laid one after another in a buffer, so
 * that each starts on a cache line: n rounded up to DATABUF_SLOT (0 when
 * that overflows). */
size_t databuf_stride(size_t n);

#endif
