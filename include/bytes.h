/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_BYTES_H
#define GPUT_BYTES_H

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

	if (c->w == NULL) {
		c->bad = 1;
		return;
	}
	if (!bytes_fits(c, off, n))
		return;
	for (i = n; i-- > 0; v >>= 8)
		c->w[off + i] = (uint8_t)v;
}

static inline void
bytes_put_le(struct bytes *c, size_t off, size_t n, uint64_t v)
{
	size_t i;

	if (c->w == NULL) {
		c->bad = 1;
		return;
	}
	if (!bytes_fits(c, off, n))
		return;
	for (i = 0; i < n; i++, v >>= 8)
		c->w[off + i] = (uint8_t)v;
}

static inline uint8_t  bytes_u8(struct bytes *c, size_t off)
{ return (uint8_t)bytes_get_be(c, off, 1); }
static inline uint16_t bytes_be16(struct bytes *c, size_t off)
{ return (uint16_t)bytes_get_be(c, off, 2); }
static inline uint32_t bytes_be32(struct bytes *c, size_t off)
{ return (uint32_t)bytes_get_be(c, off, 4); }
static inline uint64_t bytes_be64(struct bytes *c, size_t off)
{ return bytes_get_be(c, off, 8); }
static inline uint16_t bytes_le16(struct bytes *c, size_t off)
{ return (uint16_t)bytes_get_le(c, off, 2); }
static inline uint32_t bytes_le32(struct bytes *c, size_t off)
{ return (uint32_t)bytes_get_le(c, off, 4); }
static inline uint64_t bytes_le64(struct bytes *c, size_t off)
{ return bytes_get_le(c, off, 8); }

static inline void bytes_put_u8(struct bytes *c, size_t off, uint8_t v)
{ bytes_put_be(c, off, 1, v); }
static inline void bytes_put_be16(struct bytes *c, size_t off, uint16_t v)
{ bytes_put_be(c, off, 2, v); }
static inline void bytes_put_be32(struct bytes *c, size_t off, uint32_t v)
{ bytes_put_be(c, off, 4, v); }
static inline void bytes_put_be64(struct bytes *c, size_t off, uint64_t v)
{ bytes_put_be(c, off, 8, v); }
static inline void bytes_put_le16(struct bytes *c, size_t off, uint16_t v)
{ bytes_put_le(c, off, 2, v); }
static inline void bytes_put_le32(struct bytes *c, size_t off, uint32_t v)
{ bytes_put_le(c, off, 4, v); }
static inline void bytes_put_le64(struct bytes *c, size_t off, uint64_t v)
{ bytes_put_le(c, off, 8, v); }

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
	if (c->w == NULL) {
		c->bad = 1;
		return;
	}
	if (bytes_fits(c, off, n))
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
