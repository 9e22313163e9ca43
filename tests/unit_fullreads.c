/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_fullreads.c: --full-reads. The option (TCP only, a side option, not
 * with --zerocopy), PARAMS' xflags bit 0x10 and its refusals, and real
 * transfers over loopback TCP: with it, every receive call but a last short one brings a
 * whole -l, so the receiver's calls are exactly the sender's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "wire_ctl.h"
#include "model.h"
#include "xfer.h"
#include "streamrun.h"
#include "clihelp.h"
#include "sockhelp.h"

static void
test_cli(void **state)
{
	struct config c;
	struct xfer_params loc, rem;
	char err[256];

	(void)state;
	assert_int_equal(cli_parse_line("--full-reads host", &c, err, sizeof err), 0);
	cli_params(&c, &loc, &rem);
	assert_true(loc.xflags & CTL_XF_FULLREADS);
	assert_true(rem.xflags & CTL_XF_FULLREADS);
	assert_int_equal(cli_parse_line("host --full-reads", &c, err, sizeof err), 0);
	cli_params(&c, &loc, &rem);
	assert_false(loc.xflags & CTL_XF_FULLREADS);
	assert_true(rem.xflags & CTL_XF_FULLREADS);
	assert_int_equal(cli_parse_line("host", &c, err, sizeof err), 0);
	cli_params(&c, &loc, &rem);
	assert_false((loc.xflags | rem.xflags) & CTL_XF_FULLREADS);
	assert_int_equal(cli_parse_line("-u --full-reads host", &c, err, sizeof err), -1);
	assert_string_equal(err, "--full-reads applies to TCP only (a UDP read "
	                    "is one datagram)");
	assert_int_equal(cli_parse_line("-u host --full-reads", &c, err, sizeof err), -1);
	assert_string_equal(err, "--full-reads applies to TCP only (a UDP read "
	                    "is one datagram)");
	/* with the others that change how a receiver reads */
	assert_int_equal(cli_parse_line("--full-reads --discard host", &c, err,
	                 sizeof err), 0);
	assert_int_equal(cli_parse_line("--full-reads --zerocopy host", &c, err,
	                 sizeof err), -1);
	assert_string_equal(err, "--full-reads and --zerocopy cannot be used "
	                    "together (a zero-copy receive maps what is queued, "
	                    "it does not wait)");
	assert_int_equal(cli_parse_line("--zerocopy host --full-reads", &c, err,
	                 sizeof err), -1);
}

static void
test_wire(void **state)
{
	struct ctl_msg m, d;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];

	(void)state;
	memset(&m, 0, sizeof m);
	m.type = CTL_PARAMS;
	m.params.proto = PROTO_TCP;
	m.params.role = ROLE_RECV;
	m.params.len = m.params.data_len = 4096;
	m.params.count = 10;
	m.params.data_bytes = 40960;
	m.params.streams = 1;
	m.params.xflags = CTL_XF_FULLREADS;
	ctl_encode(&m, buf);
	assert_memory_equal(buf + CTL_HDR_LEN + 152, "\x00\x00\x00\x10", 4);
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), 0);
	assert_int_equal(d.params.xflags, CTL_XF_FULLREADS);
	m.params.proto = PROTO_UDP;
	ctl_encode(&m, buf);
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), -1);
	assert_string_equal(err, "bad PARAMS message: --full-reads for UDP");
	m.params.proto = PROTO_TCP;
	m.params.xflags = CTL_XF_FULLREADS | CTL_XF_ZEROCOPY;
	ctl_encode(&m, buf);
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), -1);
	assert_string_equal(err, "bad PARAMS message: --full-reads with --zerocopy");
}

struct end {
	struct stream s;
	int rc;
};

static void *
send_thread(void *arg)
{
	struct end *e = arg;

	e->rc = xfer_tcp_send(&e->s);
	return NULL;
}

static void
test_transfer(void **state)
{
	static const struct { const char *name; uint32_t xf; uint8_t verify,
	    discard; uint32_t len; uint64_t bytes; } rows[] = {
		{ "128 KiB, -c", CTL_XF_FULLREADS, 1, 0, 131072, 256ull * 131072 },
		{ "64 KiB, -x not a whole -l", CTL_XF_FULLREADS, 0, 0, 65536,
		  300ull * 65536 + 1234 },
		{ "1448, -c", CTL_XF_FULLREADS, 1, 0, 1448, 20000ull * 1448 },
		{ "128 KiB, --discard", CTL_XF_FULLREADS, 0, 1, 131072, 256ull * 131072 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct end snd, rcv;
		pthread_t th;
		int sv[2];

		sock_tcp_pair(sv);
		memset(&snd, 0, sizeof snd);
		snd.s.id = 1;
		snd.s.stop = stop_process();
		snd.s.log_fd = -1;
		snd.s.p.proto = PROTO_TCP;
		snd.s.p.len = snd.s.p.data_len = rows[i].len;
		snd.s.p.data_bytes = rows[i].bytes;
		snd.s.p.count = (rows[i].bytes + rows[i].len - 1) / rows[i].len;
		snd.s.p.streams = 1;
		rcv = snd;
		snd.s.fd = sv[0];
		rcv.s.fd = sv[1];
		rcv.s.p.role = ROLE_RECV;
		rcv.s.p.verify = rows[i].verify;
		rcv.s.p.discard = rows[i].discard;
		rcv.s.p.xflags = rows[i].xf;
		assert_int_equal(pthread_create(&th, NULL, send_thread, &snd), 0);
		rcv.rc = xfer_tcp_recv(&rcv.s);
		pthread_join(th, NULL);
		close(sv[0]);
		close(sv[1]);
		if (snd.rc != 0 || rcv.rc != 0)
			fail_msg("%s: send '%s', receive '%s'", rows[i].name, snd.s.err,
			         rcv.s.err);
		assert_int_equal(snd.s.r.bytes, rows[i].bytes);
		assert_int_equal(rcv.s.r.bytes, rows[i].bytes);
		assert_int_equal(snd.s.r.calls, snd.s.p.count);
		/* every read a whole -l (the last: what was left) */
		if (rcv.s.r.calls != snd.s.p.count)
			fail_msg("%s: %llu receive calls for %llu sends", rows[i].name,
			         (unsigned long long)rcv.s.r.calls,
			         (unsigned long long)snd.s.p.count);
		if (rows[i].verify) {
			assert_true(rcv.s.r.flags & RES_VERIFIED);
			assert_int_equal(rcv.s.r.verify_bad, 0);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_transfer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
