/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_ctl.c: libFuzzer target for what gput decodes off the network. The
 * input is one control message as it comes off the wire (header, then
 * payload of the length the header gives), optionally followed by a UDP
 * datagram that is decoded as an end marker, a cookie, its echo and an
 * acknowledgement (GPUA). The bytes after the first go
 * to ctl_decode_payload() with the first as the type as well, whatever the
 * header says. Each decoder gets a heap copy of exactly its bytes, so that
 * AddressSanitizer sees any read past them. Aborts when a decoder breaks
 * its promise: an error is one non-empty line, an ERROR's text is
 * printable, a marker's index is 1 to MARKER_COUNT and its fields are
 * within the bytes given. Links only the pure codecs (Makefile:
 * FUZZ_CTL_OBJS): wire_ctl, wire_udp, mcast_group and xfer_params. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire_ctl.h"
#include "wire_udp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_err(const char *err)
{
	if (err[0] == '\0' || strchr(err, '\n') != NULL)
		abort();
}

/* ctl_decode_payload() on a heap copy of p[0..n); 0 or -1 as it returns. */
static int
payload(uint8_t type, const uint8_t *p, size_t n, struct ctl_msg *m)
{
	uint8_t *copy = malloc(n ? n : 1);
	char err[256] = "";
	size_t i;
	int rc;

	if (copy == NULL)
		abort();
	memcpy(copy, p, n);
	memset(m, 0, sizeof(*m));
	rc = ctl_decode_payload(type, copy, n, m, err, sizeof(err));
	free(copy);
	if (rc != 0) {
		check_err(err);
		return -1;
	}
	if (m->type != type)
		abort();
	if (type == CTL_ERROR) {
		for (i = 0; m->text[i] != '\0'; i++)
			if (i >= CTL_MAX_TEXT || m->text[i] < 0x20 ||
			    m->text[i] > 0x7e)
				abort();
		if (i == 0)
			abort();
	}
	return 0;
}

static void
marker(const uint8_t *b, size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);
	struct wire_gpue d;
	enum wire_udp_res res;

	if (copy == NULL)
		abort();
	memcpy(copy, b, n);
	memset(&d, 0, sizeof d);
	res = wire_gpue_decode(copy, n, &d);
	if (res != WIRE_NONE && (d.idx < 1 || d.idx > MARKER_COUNT))
		abort();
	if ((res == WIRE_OK && n < WIRE_GPUE_PAD) ||
	    (d.have_dgrams && n < WIRE_GPUE_BYTES))
		abort();
	free(copy);
}

/* A cookie or an echo (GPUC, GPUK) from the same bytes: never read past
 * n, and what is whole has a stream and the kind's length. */
static void
cookie(const uint8_t *b, size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);
	struct wire_cookie c;
	size_t len = n;

	if (copy == NULL)
		abort();
	memcpy(copy, b, n);
	if (wire_gpuc_decode(copy, n, len, &c) == WIRE_OK &&
	    (c.stream == 0 || len < COOKIE_BASE_LEN || len > COOKIE_MAX_LEN))
		abort();
	if (wire_gpuk_decode(copy, n, len, &c) == WIRE_OK &&
	    (c.stream == 0 || len < CECHO_BASE_LEN || len > CECHO_MAX_LEN))
		abort();
	/* the datagram longer than what was captured: cut at most */
	if (n >= 8 && wire_gpuc_decode(copy, 8, n, &c) == WIRE_OK && n > 8)
		abort();
	free(copy);
}

/* An acknowledgement (GPUA) from the same bytes: whole only at its one
 * length with a stream; a capture's cut never decodes whole. */
static void
ack(const uint8_t *b, size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);
	struct wire_gpua a, e;
	uint8_t again[WIRE_GPUA_LEN];

	if (copy == NULL)
		abort();
	memcpy(copy, b, n);
	if (wire_gpua_decode(copy, n, n, &a) == WIRE_OK) {
		if (n != WIRE_GPUA_LEN || a.stream == 0)
			abort();
		wire_gpua_encode(again, &a);    /* round trip: the same bytes */
		if (memcmp(again, copy, WIRE_GPUA_LEN) != 0 ||
		    wire_gpua_decode(again, sizeof again, sizeof again, &e) !=
		    WIRE_OK || e.seq != a.seq || e.send_ns != a.send_ns)
			abort();
	}
	if (n > 8 && wire_gpua_decode(copy, 8, n, &a) == WIRE_OK)
		abort();
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t hdr[CTL_HDR_LEN], type = 0;
	uint16_t plen = 0;
	char err[256] = "";
	struct ctl_msg m;
	size_t rest = 0;

	if (size > 0)
		(void)payload(data[0], data + 1, size - 1, &m);
	if (size < CTL_HDR_LEN)
		return 0;
	memcpy(hdr, data, sizeof(hdr));
	if (ctl_decode_header(hdr, &type, &plen, err, sizeof(err)) != 0) {
		check_err(err);
		return 0;
	}
	if (!ctl_type_known(type) || plen > CTL_MAX_PAYLOAD)
		abort();
	if (size - CTL_HDR_LEN < plen)
		return 0;  /* ctl_recv() would wait for the rest */
	rest = CTL_HDR_LEN + plen;
	(void)payload(type, data + CTL_HDR_LEN, plen, &m);
	marker(data + rest, size - rest);
	cookie(data + rest, size - rest);
	ack(data + rest, size - rest);
	return 0;
}
