/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_wire.c: the UDP data path's datagrams (wire_udp.h), byte for byte,
 * and what each decoder makes of a whole, a cut and a foreign datagram. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "wire_udp.h"

static void
test_gpud(void **state)
{
	static const uint8_t want[WIRE_GPUD_LEN] = {
		'G', 'P', 'U', 'D', 0, 0, 0, 0,
		1, 2, 3, 4, 5, 6, 7, 8,
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18 };
	uint8_t b[WIRE_GPUD_LEN + 4];
	struct wire_gpud d;
	uint64_t seq, send;
	size_t n;

	(void)state;
	memset(b, 0xee, sizeof b);
	wire_gpud_encode(b, 0x0102030405060708ULL, 0x1112131415161718ULL);
	assert_memory_equal(b, want, sizeof want);
	assert_int_equal(b[WIRE_GPUD_LEN], 0xee);       /* nothing past it */
	assert_int_equal(wire_gpud_decode(b, WIRE_GPUD_LEN, &d), WIRE_OK);
	assert_int_equal(d.stream, 0);
	assert_true(d.seq == 0x0102030405060708ULL);
	assert_true(d.send_ns == 0x1112131415161718ULL);
	assert_true(wire_gpud_data(b, WIRE_GPUD_LEN, &seq, &send));
	assert_true(seq == d.seq && send == d.send_ns);
	for (n = 4; n < WIRE_GPUD_LEN; n++) {            /* cut: the magic only */
		assert_int_equal(wire_gpud_decode(b, n, &d), WIRE_CUT);
		assert_false(wire_gpud_data(b, n, &seq, &send));
	}
	for (n = 0; n < 4; n++)
		assert_int_equal(wire_gpud_decode(b, n, &d), WIRE_NONE);
	/* another stream: decoded, but not the receiver's data */
	b[WIRE_GPUD_STREAM + 3] = 9;
	assert_int_equal(wire_gpud_decode(b, WIRE_GPUD_LEN, &d), WIRE_OK);
	assert_int_equal(d.stream, 9);
	assert_false(wire_gpud_data(b, WIRE_GPUD_LEN, &seq, &send));
	b[0] = 'g';
	assert_int_equal(wire_gpud_decode(b, WIRE_GPUD_LEN, &d), WIRE_NONE);
}

static void
test_gpue(void **state)
{
	uint8_t b[MARKER_MAX_LEN], want[MARKER_MAX_LEN] = {
		'G', 'P', 'U', 'E', 1, 2, 0, 0,
		0, 0, 0, 0, 0, 0, 0x30, 0x39,          /* 12345 datagrams */
		0, 0, 0, 0, 0, 0x12, 0xd6, 0x87 };     /* 1234567 bytes */
	struct wire_gpue m;
	size_t n;

	(void)state;
	memset(b, 0xee, sizeof b);
	wire_gpue_encode(b, MARKER_BASE_LEN + 1, 2, 12345, 1234567);
	assert_memory_equal(b, want, MARKER_BASE_LEN + 1);
	assert_int_equal(b[MARKER_BASE_LEN + 1], 0xee);
	assert_int_equal(wire_gpue_decode(b, MARKER_BASE_LEN + 1, &m), WIRE_OK);
	assert_int_equal(m.idx, 2);
	assert_true(m.dgrams == 12345 && m.bytes == 1234567);
	assert_true(m.have_dgrams && m.zero);
	for (n = WIRE_GPUE_BYTES; n < WIRE_GPUE_PAD; n++) {
		assert_int_equal(wire_gpue_decode(b, n, &m), WIRE_CUT);
		assert_true(m.have_dgrams && m.dgrams == 12345);
	}
	for (n = WIRE_GPUE_RSVD; n < WIRE_GPUE_BYTES; n++) {
		assert_int_equal(wire_gpue_decode(b, n, &m), WIRE_CUT);
		assert_false(m.have_dgrams);
	}
	assert_int_equal(wire_gpue_decode(b, WIRE_GPUE_RSVD - 1, &m), WIRE_NONE);
	b[MARKER_BASE_LEN] = 1;                     /* padding not zero */
	assert_int_equal(wire_gpue_decode(b, MARKER_BASE_LEN + 1, &m), WIRE_OK);
	assert_false(m.zero);
	b[MARKER_BASE_LEN] = 0;
	b[WIRE_GPUE_RSVD + 1] = 1;                  /* reserved not zero */
	assert_int_equal(wire_gpue_decode(b, MARKER_BASE_LEN + 1, &m), WIRE_OK);
	assert_false(m.zero);
	b[WIRE_GPUE_INDEX] = MARKER_COUNT + 1;
	assert_int_equal(wire_gpue_decode(b, MARKER_BASE_LEN, &m), WIRE_NONE);
	b[WIRE_GPUE_INDEX] = 0;
	assert_int_equal(wire_gpue_decode(b, MARKER_BASE_LEN, &m), WIRE_NONE);
	b[WIRE_GPUE_INDEX] = 1;
	b[WIRE_GPUE_VERSION] = 2;
	assert_int_equal(wire_gpue_decode(b, MARKER_BASE_LEN, &m), WIRE_NONE);
}

static void
test_gpuh(void **state)
{
	uint8_t nonce[PROOF_NONCE_LEN], b[PROOF_MAX_LEN], want[PROOF_MAX_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < PROOF_NONCE_LEN; i++)
		nonce[i] = (uint8_t)(0xa0 + i);
	memset(want, 0, sizeof want);
	memcpy(want, "GPUH\3\0\1\2", 8);
	memcpy(want + WIRE_GPUH_NONCE, nonce, PROOF_NONCE_LEN);
	memset(b, 0xee, sizeof b);
	wire_gpuh_encode(b, PROOF_BASE_LEN, nonce, 0x0102);
	assert_memory_equal(b, want, PROOF_BASE_LEN);
	assert_int_equal(b[PROOF_BASE_LEN], 0xee);
	assert_true(wire_gpuh_is(b, PROOF_BASE_LEN));
	assert_true(wire_gpuh_is(b, WIRE_GPUH_NONCE));    /* its first 8 bytes */
	assert_false(wire_gpuh_is(b, WIRE_GPUH_NONCE - 1));
	b[WIRE_GPUH_STREAM] = b[WIRE_GPUH_STREAM + 1] = 0;  /* v3 needs a stream */
	assert_false(wire_gpuh_is(b, PROOF_BASE_LEN));
	b[WIRE_GPUH_VERSION] = 2;                          /* v2 has none */
	assert_true(wire_gpuh_is(b, PROOF_BASE_LEN));
	b[WIRE_GPUH_STREAM + 1] = 1;
	assert_false(wire_gpuh_is(b, PROOF_BASE_LEN));
}

/* GPUC and GPUK: the layout, each kind only in its own lengths, a cut
 * datagram, and nothing that is not exactly one. */
static void
test_cookie(void **state)
{
	struct wire_cookie c = { .stream = 0x0102 }, d;
	uint8_t b[CECHO_MAX_LEN + 4], want[CECHO_MAX_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < WIRE_COOKIE_LEN; i++)
		c.cookie[i] = (uint8_t)(0x30 + i);
	memset(want, 0, sizeof want);
	memcpy(want, "GPUC\1\0\1\2", 8);
	memcpy(want + WIRE_GPUC_COOKIE, c.cookie, WIRE_COOKIE_LEN);
	memset(b, 0xee, sizeof b);
	wire_gpuc_encode(b, COOKIE_BASE_LEN, &c);
	assert_memory_equal(b, want, COOKIE_BASE_LEN);
	assert_int_equal(b[COOKIE_BASE_LEN], 0xee);
	memset(&d, 0, sizeof d);
	assert_int_equal(wire_gpuc_decode(b, COOKIE_BASE_LEN, COOKIE_BASE_LEN, &d),
	    WIRE_OK);
	assert_int_equal(d.stream, 0x0102);
	assert_memory_equal(d.cookie, c.cookie, WIRE_COOKIE_LEN);
	/* a cookie is not an echo, nor a cookie of an echo's length */
	assert_int_equal(wire_gpuk_decode(b, COOKIE_BASE_LEN, COOKIE_BASE_LEN, &d),
	    WIRE_NONE);
	/* its first 8 bytes in a capture: cut; fewer: nothing said */
	assert_int_equal(wire_gpuc_decode(b, 8, COOKIE_BASE_LEN, &d), WIRE_CUT);
	assert_int_equal(wire_gpuc_decode(b, 7, COOKIE_BASE_LEN, &d), WIRE_NONE);
	/* lengths: base to base + 2 */
	wire_gpuc_encode(b, COOKIE_MAX_LEN, &c);
	assert_int_equal(wire_gpuc_decode(b, COOKIE_MAX_LEN, COOKIE_MAX_LEN, &d),
	    WIRE_OK);
	wire_gpuc_encode(b, COOKIE_MAX_LEN + 1, &c);
	assert_int_equal(wire_gpuc_decode(b, COOKIE_MAX_LEN + 1,
	    COOKIE_MAX_LEN + 1, &d), WIRE_NONE);
	assert_int_equal(wire_gpuc_decode(b, COOKIE_BASE_LEN - 1,
	    COOKIE_BASE_LEN - 1, &d), WIRE_NONE);
	/* the echo: another magic, its own lengths */
	memcpy(want, "GPUK", 4);
	wire_gpuk_encode(b, CECHO_BASE_LEN, &c);
	assert_memory_equal(b, want, CECHO_BASE_LEN);
	memset(&d, 0, sizeof d);
	assert_int_equal(wire_gpuk_decode(b, CECHO_BASE_LEN, CECHO_BASE_LEN, &d),
	    WIRE_OK);
	assert_int_equal(d.stream, 0x0102);
	assert_memory_equal(d.cookie, c.cookie, WIRE_COOKIE_LEN);
	assert_int_equal(wire_gpuc_decode(b, CECHO_BASE_LEN, CECHO_BASE_LEN, &d),
	    WIRE_NONE);
	wire_gpuk_encode(b, CECHO_MAX_LEN, &c);
	assert_int_equal(wire_gpuk_decode(b, CECHO_MAX_LEN, CECHO_MAX_LEN, &d),
	    WIRE_OK);
	/* padding not zero, another version, no stream: not one */
	b[CECHO_BASE_LEN - 1] = 1;
	assert_int_equal(wire_gpuk_decode(b, CECHO_BASE_LEN, CECHO_BASE_LEN, &d),
	    WIRE_NONE);
	wire_gpuk_encode(b, CECHO_BASE_LEN, &c);
	b[WIRE_GPUC_VERSION] = 2;
	assert_int_equal(wire_gpuk_decode(b, CECHO_BASE_LEN, CECHO_BASE_LEN, &d),
	    WIRE_NONE);
	b[WIRE_GPUC_VERSION] = 1;
	b[WIRE_GPUC_STREAM] = b[WIRE_GPUC_STREAM + 1] = 0;
	assert_int_equal(wire_gpuk_decode(b, CECHO_BASE_LEN, CECHO_BASE_LEN, &d),
	    WIRE_NONE);
	/* the lengths apart from a proof's and a marker's */
	assert_true(COOKIE_BASE_LEN > PROOF_MAX_LEN);
	assert_true(CECHO_BASE_LEN > COOKIE_MAX_LEN);
}

static void
test_gpua(void **state)
{
	static const uint8_t want[WIRE_GPUA_LEN] = {
		'G', 'P', 'U', 'A', 1, 0, 0x01, 0x02,
		1, 2, 3, 4, 5, 6, 7, 8,
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18 };
	const struct wire_gpua a = { 0x0102, 0x0102030405060708ULL,
	    0x1112131415161718ULL };
	uint8_t b[WIRE_GPUA_LEN + 4];
	struct wire_gpua d;
	size_t n, i;

	(void)state;
	memset(b, 0xee, sizeof b);
	wire_gpua_encode(b, &a);
	assert_memory_equal(b, want, sizeof want);
	assert_int_equal(b[WIRE_GPUA_LEN], 0xee);       /* nothing past it */
	memset(&d, 0, sizeof d);
	assert_int_equal(wire_gpua_decode(b, WIRE_GPUA_LEN, WIRE_GPUA_LEN, &d),
	    WIRE_OK);
	assert_int_equal(d.stream, 0x0102);
	assert_true(d.seq == a.seq && d.send_ns == a.send_ns);
	/* cut by a capture: its first 8 bytes say what it is */
	for (n = WIRE_GPUA_SEQ; n < WIRE_GPUA_LEN; n++)
		assert_int_equal(wire_gpua_decode(b, n, WIRE_GPUA_LEN, &d), WIRE_CUT);
	for (n = 0; n < WIRE_GPUA_SEQ; n++)
		assert_int_equal(wire_gpua_decode(b, n, WIRE_GPUA_LEN, &d), WIRE_NONE);
	/* any other length: not an acknowledgement, whatever it starts with */
	for (n = 0; n < sizeof b; n++)
		if (n != WIRE_GPUA_LEN)
			assert_int_equal(wire_gpua_decode(b, n < WIRE_GPUA_LEN ? n :
			    WIRE_GPUA_LEN, n, &d), WIRE_NONE);
	/* more bytes given than the datagram had */
	assert_int_equal(wire_gpua_decode(b, WIRE_GPUA_LEN + 1, WIRE_GPUA_LEN, &d),
	    WIRE_NONE);
	/* each of the first 8 bytes wrong: the magic, the version, the zero
	 * byte; a zero stream */
	for (i = 0; i < 6; i++) {
		wire_gpua_encode(b, &a);
		b[i] ^= 0x20;
		assert_int_equal(wire_gpua_decode(b, WIRE_GPUA_LEN, WIRE_GPUA_LEN,
		    &d), WIRE_NONE);
	}
	wire_gpua_encode(b, &a);
	b[WIRE_GPUA_VERSION] = 2;
	assert_int_equal(wire_gpua_decode(b, WIRE_GPUA_LEN, WIRE_GPUA_LEN, &d),
	    WIRE_NONE);
	wire_gpua_encode(b, &(struct wire_gpua){ 0, 1, 2 });
	assert_int_equal(wire_gpua_decode(b, WIRE_GPUA_LEN, WIRE_GPUA_LEN, &d),
	    WIRE_NONE);
	/* one stream byte is enough; the extremes round-trip */
	wire_gpua_encode(b, &(struct wire_gpua){ 0xffff, UINT64_MAX, 0 });
	assert_int_equal(wire_gpua_decode(b, WIRE_GPUA_LEN, WIRE_GPUA_LEN, &d),
	    WIRE_OK);
	assert_int_equal(d.stream, 0xffff);
	assert_true(d.seq == UINT64_MAX && d.send_ns == 0);
	/* a data header of the same length is not one */
	wire_gpud_encode(b, 1, 2);
	assert_int_equal(wire_gpua_decode(b, WIRE_GPUA_LEN, WIRE_GPUA_LEN, &d),
	    WIRE_NONE);
	/* never larger than the datagram it answers */
	assert_true(WIRE_GPUA_LEN <= WIRE_GPUD_LEN);
}

static void
test_len_apart(void **state)
{
	(void)state;
	assert_int_equal(wire_len_apart(MARKER_BASE_LEN, 1024, 1024), 32);
	assert_int_equal(wire_len_apart(MARKER_BASE_LEN, 32, 7), 33);
	assert_int_equal(wire_len_apart(MARKER_BASE_LEN, 32, 33), MARKER_MAX_LEN);
	assert_int_equal(wire_len_apart(PROOF_BASE_LEN, 41, 40), PROOF_MAX_LEN);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpud),
		cmocka_unit_test(test_gpue),
		cmocka_unit_test(test_gpuh),
		cmocka_unit_test(test_cookie),
		cmocka_unit_test(test_gpua),
		cmocka_unit_test(test_len_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
