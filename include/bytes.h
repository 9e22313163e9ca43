/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_BYTES_H
#define GPUT_BYTES_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The one byte codec, in the manner of tcpdump's extract.h: unsigned
 * fields of 8 to 64 bits, big-endian (network order, every protocol gput
 * speaks) and little-endian (capture headers of the other byte order),
 * read and written at an offset of a bounds-checked cursor. A field that
 * does not fit the cursor's bytes is neither read nor written: it reads
 * as 0 and sets the cursor's sticky error, so a decoder reads a whole
 * header and checks bytes_bad() once. bytes_next() hands out the fields
 * of a sequential record in turn. Pure: no allocation, no I/O; every
 * function is inline (a datagram header per call on the data path).
 */
struct bytes {
	const uint8_t *p;            /* the bytes */
	uint8_t       *w;            /* the same, writable (NULL: a reader) */
	size_t         len;          /* how many */
	size_t         pos;          /* bytes_next's offset */
	int            bad;          /* sticky: a field did not fit */
};

static inline struct bytes
bytes_reader(const void *p, size_t len)
{
	struct bytes c = { (const uint8_t *)p, NULL, len, 0, 0 };

	return c;
}

static inline struct bytes
bytes_writer(void *p, size_t len)
{
	struct bytes c = { (const uint8_t *)p, (uint8_t *)p, len, 0, 0 };

	return c;
}

/* Do n bytes at off fit? 1, or 0 with the sticky error set. */
static inline int
bytes_fits(struct bytes *c, size_t off, size_t n)
{
	if (off > c->len || n > c->len - off) {
		c->bad = 1;
		return 0;
	}
	return 1;
}

static inline int
bytes_bad(const struct bytes *c)
{
	return c->bad;
}

/* Is c a writer with n bytes at off? 1, or 0 with the sticky error. */
static inline int
bytes_wfits(struct bytes *c, size_t off, size_t n)
{
	if (c->w == NULL) {
		c->bad = 1;
		return 0;
	}
	return bytes_fits(c, off, n);
}

/* The offset of the next n bytes of a sequential record, and past them.
 * A record cut short (or a cursor already in error): the sticky error,
 * and an offset where nothing fits, so every later field reads 0. */
static inline size_t
bytes_next(struct bytes *c, size_t n)
{
	size_t off = c->pos;

	if (c->bad || !bytes_fits(c, off, n))
		return c->len;          /* every later field fails too */
	c->pos += n;
	return off;
}

/* n (1..8) bytes at off, big- or little-endian; 0 when they do not fit. */
static inline uint64_t
bytes_get_be(struct bytes *c, size_t off, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (!bytes_fits(c, off, n))
		return 0;
	for (i = 0; i < n; i++)
		v = v << 8 | c->p[off + i];
	return v;
}

static inline uint64_t
bytes_get_le(struct bytes *c, size_t off, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (!bytes_fits(c, off, n))
		return 0;
	for (i = n; i-- > 0;)
		v = v << 8 | c->p[off + i];
	return v;
}

static inline void
bytes_put_be(struct bytes *c, size_t off, size_t n, uint64_t v)
{
	size_t i;

	if (!bytes_wfits(c, off, n))
		return;
	for (i = n; i-- > 0; v >>= 8)
		c->w[off + i] = (uint8_t)v;
}

static inline void
bytes_put_le(struct bytes *c, size_t off, size_t n, uint64_t v)
{
	size_t i;

	if (!bytes_wfits(c, off, n))
		return;
	for (i = 0; i < n; i++, v >>= 8)
		c->w[off + i] = (uint8_t)v;
}

/* The fixed widths: one load or store and a byte swap where the host's
 * order differs. */
#define BYTES_FIELD(order, bits)                                             \
static inline uint##bits##_t                                                 \
bytes_##order##bits(struct bytes *c, size_t off)                             \
{                                                                            \
	uint##bits##_t v = 0;                                                \
                                                                             \
	if (bytes_fits(c, off, bits / 8))                                    \
		memcpy(&v, c->p + off, bits / 8);                            \
	return order##bits##toh(v);                                          \
}                                                                            \
static inline void                                                           \
bytes_put_##order##bits(struct bytes *c, size_t off, uint##bits##_t v)       \
{                                                                            \
	v = hto##order##bits(v);                                             \
	if (bytes_wfits(c, off, bits / 8))                                   \
		memcpy(c->w + off, &v, bits / 8);                            \
}
BYTES_FIELD(be, 16)
BYTES_FIELD(be, 32)
BYTES_FIELD(be, 64)
BYTES_FIELD(le, 16)
BYTES_FIELD(le, 32)
BYTES_FIELD(le, 64)
#undef BYTES_FIELD

static inline uint8_t
bytes_u8(struct bytes *c, size_t off)
{
	return bytes_fits(c, off, 1) ? c->p[off] : 0;
}

static inline void
bytes_put_u8(struct bytes *c, size_t off, uint8_t v)
{
	if (bytes_wfits(c, off, 1))
		c->w[off] = v;
}

/* n bytes at off into dst (zeroed when they do not fit), or from src. */
static inline void
bytes_get(struct bytes *c, size_t off, void *dst, size_t n)
{
	if (bytes_fits(c, off, n))
		memcpy(dst, c->p + off, n);
	else
		memset(dst, 0, n);
}

static inline void
bytes_put(struct bytes *c, size_t off, const void *src, size_t n)
{
	if (bytes_wfits(c, off, n))
		memcpy(c->w + off, src, n);
}

/* A pointer to n bytes at off, or NULL (the sticky error) when they do
 * not fit: for fields a decoder compares or copies as they are. */
static inline const uint8_t *
bytes_at(struct bytes *c, size_t off, size_t n)
{
	return bytes_fits(c, off, n) ? c->p + off : NULL;
}

#endif
