/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_zerocopy.c: --zerocopy. The options (TCP only, not with --discard,
 * a side option), PARAMS' xflags bit 4 and its refusals, and real
 * transfers over loopback TCP with each end lending or mapping its pages:
 * exact bytes and calls, the pattern checked over mapped pages, every
 * byte either mapped or copied, every send's completion read. */
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
	assert_int_equal(cli_parse_line("--zerocopy host", &c, err, sizeof err), 0);
	cli_params(&c, &loc, &rem);
	assert_true(loc.xflags & CTL_XF_ZEROCOPY);
	assert_true(rem.xflags & CTL_XF_ZEROCOPY);
	assert_int_equal(cli_parse_line("host --zerocopy", &c, err, sizeof err), 0);
	cli_params(&c, &loc, &rem);
	assert_false(loc.xflags & CTL_XF_ZEROCOPY);
	assert_true(rem.xflags & CTL_XF_ZEROCOPY);
	assert_int_equal(cli_parse_line("host", &c, err, sizeof err), 0);
	cli_params(&c, &loc, &rem);
	assert_false((loc.xflags | rem.xflags) & CTL_XF_ZEROCOPY);
	assert_int_equal(cli_parse_line("-u --zerocopy host", &c, err, sizeof err), -1);
	assert_string_equal(err, "--zerocopy applies to TCP only");
	assert_int_equal(cli_parse_line("-u host --zerocopy", &c, err, sizeof err), -1);
	assert_string_equal(err, "--zerocopy applies to TCP only");
	assert_int_equal(cli_parse_line("-r --zerocopy --discard host", &c, err,
	                 sizeof err), -1);
	assert_string_equal(err, "--zerocopy and --discard cannot be used "
	                    "together (--discard receives no data to map)");
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
	m.params.xflags = CTL_XF_ZEROCOPY;
	ctl_encode(&m, buf);
	assert_memory_equal(buf + CTL_HDR_LEN + 152, "\x00\x00\x00\x04", 4);
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), 0);
	assert_int_equal(d.params.xflags, CTL_XF_ZEROCOPY);
	m.params.proto = PROTO_UDP;
	ctl_encode(&m, buf);
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), -1);
	assert_string_equal(err, "bad PARAMS message: --zerocopy for UDP");
	m.params.proto = PROTO_TCP;
	m.params.discard = 1;
	ctl_encode(&m, buf);
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), -1);
	assert_string_equal(err, "bad PARAMS message: --zerocopy with --discard");
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
	static const struct { const char *name; uint8_t zs, zr, verify;
	    uint32_t len; uint64_t bytes; } rows[] = {
		{ "both, -c", 1, 1, 1, 131072, 64ull * 131072 },
		{ "both, -x not a whole -l", 1, 1, 0, 65536, 64ull * 65536 + 1234 },
		{ "receiver only, -c", 0, 1, 1, 131072, 32ull * 131072 },
		{ "sender only", 1, 0, 0, 16384, 100ull * 16384 },
		{ "sender only, -c", 1, 0, 1, 16384, 2000ull * 16384 },
		{ "receiver, -l under a page", 0, 1, 1, 1000, 100000 },
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
		if (rows[i].zs)
			snd.s.p.xflags = CTL_XF_ZEROCOPY;
		if (rows[i].zr)
			rcv.s.p.xflags = CTL_XF_ZEROCOPY;
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
		if (rows[i].verify) {
			assert_true(rcv.s.r.flags & RES_VERIFIED);
			assert_int_equal(rcv.s.r.verify_bad, 0);
		}
		/* the sender: every send lent its pages, every completion read */
		assert_int_equal(snd.s.zc.on, rows[i].zs);
		assert_int_equal(snd.s.zc.done, rows[i].zs ? snd.s.r.calls : 0);
		/* the lent buffer was freed only with every page given back */
		assert_null(snd.s.zc.buf);
		assert_true(snd.s.zc.copied_sends <= snd.s.zc.done);
		/* the receiver: each byte mapped or copied, never both */
		if (rows[i].zr && rows[i].len >= 4096) {
			assert_int_equal(rcv.s.zc.mapped + rcv.s.zc.copied, rows[i].bytes);
			assert_true(rcv.s.zc.maps > 0);
		} else {
			assert_int_equal(rcv.s.zc.mapped, 0);
			assert_int_equal(rcv.s.zc.maps, 0);
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
