/* SPDX-License-Identifier: BSD-2-Clause */
/* wire_probe.c: the latency probe's wire format and the echo's rate bound. */
#include "wire_probe.h"

#include <string.h>

#include "bytes.h"

#define OFF_MAGIC   0
#define OFF_VERSION 4
#define OFF_KIND    5
#define OFF_ZERO    6
#define OFF_NONCE   8
#define OFF_SEQ     24
#define OFF_TSEND   32
#define OFF_TECHO   40

size_t
probe_encode(const struct probe *p, uint8_t *buf)
{
	struct bytes w = bytes_writer(buf, PROBE_LEN);

	bytes_put(&w, OFF_MAGIC, PROBE_MAGIC, 4);
	bytes_put_u8(&w, OFF_VERSION, PROBE_VERSION);
	bytes_put_u8(&w, OFF_KIND, p->kind);
	bytes_put_be16(&w, OFF_ZERO, 0);
	bytes_put(&w, OFF_NONCE, p->nonce, PROBE_NONCE_LEN);
	bytes_put_be64(&w, OFF_SEQ, p->seq);
	bytes_put_be64(&w, OFF_TSEND, p->t_send_ns);
	bytes_put_be64(&w, OFF_TECHO, p->t_echo_ns);
	return PROBE_LEN;
}

int
probe_decode(const uint8_t *b, size_t n, struct probe *p)
{
	struct bytes r = bytes_reader(b, n);

	if (n != PROBE_LEN || memcmp(b + OFF_MAGIC, PROBE_MAGIC, 4) != 0 ||
	    bytes_u8(&r, OFF_VERSION) != PROBE_VERSION ||
	    bytes_be16(&r, OFF_ZERO) != 0 ||
	    (bytes_u8(&r, OFF_KIND) != PROBE_REQ &&
	     bytes_u8(&r, OFF_KIND) != PROBE_ECHO))
		return -1;
	p->kind = bytes_u8(&r, OFF_KIND);
	bytes_get(&r, OFF_NONCE, p->nonce, PROBE_NONCE_LEN);
	p->seq = bytes_be64(&r, OFF_SEQ);
	p->t_send_ns = bytes_be64(&r, OFF_TSEND);
	p->t_echo_ns = bytes_be64(&r, OFF_TECHO);
	if (p->kind == PROBE_REQ && p->t_echo_ns != 0)
		return -1;
	return 0;
}

int
probe_make_echo(uint8_t *b, size_t n, const uint8_t *nonce, uint64_t t_echo_ns)
{
	struct bytes w = bytes_writer(b, n);
	struct probe p;

	if (probe_decode(b, n, &p) == -1 || p.kind != PROBE_REQ ||
	    memcmp(p.nonce, nonce, PROBE_NONCE_LEN) != 0)
		return -1;
	bytes_put_u8(&w, OFF_KIND, PROBE_ECHO);
	bytes_put_be64(&w, OFF_TECHO, t_echo_ns);
	return 0;
}

void
probe_bucket_init(struct probe_bucket *b, uint64_t interval_ns, mono_ns now)
{
	b->interval_ns = interval_ns;
	b->credit_ns = interval_ns * PROBE_BURST;
	b->last = now;
}

int
probe_bucket_take(struct probe_bucket *b, mono_ns now)
{
	uint64_t full = b->interval_ns * PROBE_BURST;

	if (now > b->last) {
		uint64_t add = now - b->last;

		b->credit_ns = add >= full - b->credit_ns ? full : b->credit_ns + add;
		b->last = now;
	}
	if (b->credit_ns < b->interval_ns)
		return 0;
	b->credit_ns -= b->interval_ns;
	return 1;
}
