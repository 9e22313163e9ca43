/* SPDX-License-Identifier: BSD-2-Clause */
/* wire_udp.c: the UDP data path's datagrams (GPUD, GPUE, GPUH, GPUC,
 * GPUK, GPUA), encoded and decoded; pure. */
#include "wire_udp.h"

#include <string.h>

#include "bytes.h"

void
wire_gpud_encode(uint8_t *h, uint64_t seq, uint64_t send_ns)
{
	struct bytes w = bytes_writer(h, WIRE_GPUD_LEN);

	bytes_put(&w, 0, "GPUD\0\0\0\0", WIRE_GPUD_SEQ);
	bytes_put_be64(&w, WIRE_GPUD_SEQ, seq);
	bytes_put_be64(&w, WIRE_GPUD_SEND, send_ns);
}

enum wire_udp_res
wire_gpud_decode(const uint8_t *buf, size_t n, struct wire_gpud *d)
{
	struct bytes r = bytes_reader(buf, n);

	if (n < 4 || memcmp(buf, "GPUD", 4) != 0)
		return WIRE_NONE;
	if (n < WIRE_GPUD_LEN)
		return WIRE_CUT;
	d->stream = bytes_be32(&r, WIRE_GPUD_STREAM);
	d->seq = bytes_be64(&r, WIRE_GPUD_SEQ);
	d->send_ns = bytes_be64(&r, WIRE_GPUD_SEND);
	return WIRE_OK;
}

int
wire_gpud_data(const uint8_t *buf, size_t n, uint64_t *seq, uint64_t *send_ns)
{
	struct wire_gpud d;

	if (wire_gpud_decode(buf, n, &d) != WIRE_OK || d.stream != 0)
		return 0;
	*seq = d.seq;
	*send_ns = d.send_ns;
	return 1;
}

void
wire_gpue_encode(uint8_t *buf, size_t len, uint8_t idx, uint64_t dgrams,
                 uint64_t bytes)
{
	struct bytes w = bytes_writer(buf, len);

	memset(buf, 0, len);
	bytes_put(&w, 0, "GPUE", 4);
	bytes_put_u8(&w, WIRE_GPUE_VERSION, 1);
	bytes_put_u8(&w, WIRE_GPUE_INDEX, idx);
	bytes_put_be64(&w, WIRE_GPUE_DGRAMS, dgrams);
	bytes_put_be64(&w, WIRE_GPUE_BYTES, bytes);
}

enum wire_udp_res
wire_gpue_decode(const uint8_t *buf, size_t n, struct wire_gpue *d)
{
	struct bytes r = bytes_reader(buf, n);
	size_t i;

	if (n < WIRE_GPUE_RSVD || memcmp(buf, "GPUE", 4) != 0 ||
	    buf[WIRE_GPUE_VERSION] != 1 || buf[WIRE_GPUE_INDEX] < 1 ||
	    buf[WIRE_GPUE_INDEX] > MARKER_COUNT)
		return WIRE_NONE;
	memset(d, 0, sizeof *d);
	d->idx = buf[WIRE_GPUE_INDEX];
	d->zero = n < WIRE_GPUE_DGRAMS ||
	    (buf[WIRE_GPUE_RSVD] == 0 && buf[WIRE_GPUE_RSVD + 1] == 0);
	for (i = WIRE_GPUE_PAD; i < n; i++)   /* reserved and padding */
		if (buf[i] != 0)
			d->zero = 0;
	if (n >= WIRE_GPUE_BYTES) {
		d->have_dgrams = 1;
		d->dgrams = bytes_be64(&r, WIRE_GPUE_DGRAMS);
	}
	if (n < WIRE_GPUE_PAD)
		return WIRE_CUT;
	d->bytes = bytes_be64(&r, WIRE_GPUE_BYTES);
	return WIRE_OK;
}

void
wire_gpuh_encode(uint8_t *buf, size_t len,
                 const uint8_t nonce[PROOF_NONCE_LEN], uint16_t stream)
{
	struct bytes w = bytes_writer(buf, len);

	memset(buf, 0, len);
	bytes_put(&w, 0, "GPUH", 4);
	bytes_put_u8(&w, WIRE_GPUH_VERSION, 3);
	bytes_put_be16(&w, WIRE_GPUH_STREAM, stream);
	bytes_put(&w, WIRE_GPUH_NONCE, nonce, PROOF_NONCE_LEN);
}

int
wire_gpuh_is(const uint8_t *buf, size_t n)
{
	const uint8_t *s = buf + WIRE_GPUH_STREAM;

	if (n < WIRE_GPUH_NONCE || memcmp(buf, "GPUH", 4) != 0 ||
	    buf[WIRE_GPUH_VERSION + 1] != 0)
		return 0;
	return (buf[WIRE_GPUH_VERSION] == 2 && s[0] == 0 && s[1] == 0) ||
	    (buf[WIRE_GPUH_VERSION] == 3 && (s[0] != 0 || s[1] != 0));
}

static void
cookie_encode(uint8_t *buf, size_t len, const char *magic,
              const struct wire_cookie *c)
{
	struct bytes w = bytes_writer(buf, len);

	memset(buf, 0, len);
	bytes_put(&w, 0, magic, 4);
	bytes_put_u8(&w, WIRE_GPUC_VERSION, 1);
	bytes_put_be16(&w, WIRE_GPUC_STREAM, c->stream);
	bytes_put(&w, WIRE_GPUC_COOKIE, c->cookie, WIRE_COOKIE_LEN);
}

void
wire_gpuc_encode(uint8_t *buf, size_t len, const struct wire_cookie *c)
{
	cookie_encode(buf, len, "GPUC", c);
}

void
wire_gpuk_encode(uint8_t *buf, size_t len, const struct wire_cookie *c)
{
	cookie_encode(buf, len, "GPUK", c);
}

/* A cookie or an echo (magic) of lengths base to base + 2. */
static enum wire_udp_res
cookie_decode(const uint8_t *buf, size_t n, size_t len, const char *magic,
              uint32_t base, struct wire_cookie *c)
{
	const uint8_t *s = buf + WIRE_GPUC_STREAM;
	struct bytes r = bytes_reader(buf, n);
	size_t i;

	if (len < base || len > base + 2 || n < WIRE_GPUC_COOKIE ||
	    memcmp(buf, magic, 4) != 0 || buf[WIRE_GPUC_VERSION] != 1 ||
	    buf[WIRE_GPUC_VERSION + 1] != 0 || (s[0] == 0 && s[1] == 0))
		return WIRE_NONE;
	if (n < len)
		return WIRE_CUT;
	for (i = WIRE_GPUC_PAD; i < len; i++)
		if (buf[i] != 0)
			return WIRE_NONE;
	c->stream = bytes_be16(&r, WIRE_GPUC_STREAM);
	bytes_get(&r, WIRE_GPUC_COOKIE, c->cookie, WIRE_COOKIE_LEN);
	return WIRE_OK;
}

enum wire_udp_res
wire_gpuc_decode(const uint8_t *buf, size_t n, size_t len,
                 struct wire_cookie *c)
{
	return cookie_decode(buf, n, len, "GPUC", COOKIE_BASE_LEN, c);
}

enum wire_udp_res
wire_gpuk_decode(const uint8_t *buf, size_t n, size_t len,
                 struct wire_cookie *c)
{
	return cookie_decode(buf, n, len, "GPUK", CECHO_BASE_LEN, c);
}

void
wire_gpua_encode(uint8_t *buf, const struct wire_gpua *a)
{
	struct bytes w = bytes_writer(buf, WIRE_GPUA_LEN);

	bytes_put(&w, 0, "GPUA", 4);
	bytes_put_u8(&w, WIRE_GPUA_VERSION, 1);
	bytes_put_u8(&w, WIRE_GPUA_VERSION + 1, 0);
	bytes_put_be16(&w, WIRE_GPUA_STREAM, a->stream);
	bytes_put_be64(&w, WIRE_GPUA_SEQ, a->seq);
	bytes_put_be64(&w, WIRE_GPUA_SEND, a->send_ns);
}

enum wire_udp_res
wire_gpua_decode(const uint8_t *buf, size_t n, size_t len, struct wire_gpua *a)
{
	const uint8_t *s = buf + WIRE_GPUA_STREAM;
	struct bytes r = bytes_reader(buf, n);

	if (len != WIRE_GPUA_LEN || n < WIRE_GPUA_SEQ || n > len ||
	    memcmp(buf, "GPUA", 4) != 0 || buf[WIRE_GPUA_VERSION] != 1 ||
	    buf[WIRE_GPUA_VERSION + 1] != 0 || (s[0] == 0 && s[1] == 0))
		return WIRE_NONE;
	if (n < len)
		return WIRE_CUT;
	a->stream = bytes_be16(&r, WIRE_GPUA_STREAM);
	a->seq = bytes_be64(&r, WIRE_GPUA_SEQ);
	a->send_ns = bytes_be64(&r, WIRE_GPUA_SEND);
	return WIRE_OK;
}

uint32_t
wire_len_apart(uint32_t base, uint32_t data_len, uint32_t last_len)
{
	uint32_t m = base;

	while (m == data_len || m == last_len)
		m++;
	return m;
}
