/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_hostudp.c: the host's UDP counters (hostudp.h): /proc/net/snmp's
 * and snmp6's text parsed, malformed text refused, deltas, the bound. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "hostudp.h"

#define UDPH "Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors " \
	"SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
#define LITE "UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors " \
	"SndbufErrors InCsumErrors IgnoredMulti MemErrors\nUdpLite: 0 0 77 0 " \
	"66 0 0 0 0\n"

static int
parse(const char *t, uint32_t flags, struct hostudp *h)
{
	return hostudp_parse(t, strlen(t), flags, h);
}

static void
test_snmp(void **state)
{
	struct hostudp h;

	(void)state;
	assert_int_equal(parse("Ip: Forwarding\nIp: 1\n" UDPH
	    "Udp: 3288189 186 3933791 7224577 3933790 0 0 0 0\n" LITE, 0, &h), 0);
	assert_int_equal(h.in_errors, 3933791);
	assert_int_equal(h.rcvbuf_errors, 3933790);
	assert_int_equal(h.flags, 0);
	/* the last line without its newline; 2^64 - 1 */
	assert_int_equal(parse(UDPH "Udp: 1 2 18446744073709551615 4 5 6 7 8 9",
	    0, &h), 0);
	assert_true(h.in_errors == UINT64_MAX);
	assert_int_equal(h.rcvbuf_errors, 5);
	/* an older kernel's shorter list, the counters still named */
	assert_int_equal(parse("Udp: InDatagrams NoPorts InErrors OutDatagrams "
	    "RcvbufErrors\nUdp: 1 2 3 4 5\n", 0, &h), 0);
	assert_int_equal(h.in_errors, 3);
	assert_int_equal(h.rcvbuf_errors, 5);
}

static void
test_snmp_bad(void **state)
{
	static const char *const bad[] = {
		"",
		LITE,                                    /* UdpLite is not Udp */
		UDPH,                                    /* no values */
		UDPH "Ip: 1 2 3 4 5 6 7 8 9\n",          /* not the next line */
		UDPH "Udp: 1 2 3 4\n",                   /* RcvbufErrors missing */
		UDPH "Udp: 1 2 x 4 5 6 7 8 9\n",         /* not a number */
		UDPH "Udp: 1 2 -3 4 5 6 7 8 9\n",
		UDPH "Udp: 1 2 3 4 18446744073709551616 6 7 8 9\n", /* 2^64 */
		"Udp: InDatagrams NoPorts\nUdp: 1 2\n",  /* neither counter */
		"Udp: RcvbufErrors\nUdp: 5\n",           /* InErrors missing */
	};
	struct hostudp h;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		h.in_errors = h.rcvbuf_errors = 9;
		if (parse(bad[i], 0, &h) != -1)
			fail_msg("case %zu accepted", i);
		assert_int_equal(h.in_errors, 0);
		assert_int_equal(h.rcvbuf_errors, 0);
	}
}

static void
test_snmp6(void **state)
{
	struct hostudp h;

	(void)state;
	assert_int_equal(parse("Ip6InReceives \t 5\nUdp6InDatagrams 7\n"
	    "Udp6InErrors                    \t12\nUdp6OutDatagrams 1\n"
	    "Udp6RcvbufErrors                \t11\nUdpLite6InErrors 99\n",
	    HOSTUDP_V6, &h), 0);
	assert_int_equal(h.in_errors, 12);
	assert_int_equal(h.rcvbuf_errors, 11);
	assert_int_equal(h.flags, HOSTUDP_V6);
	/* missing, malformed, or a longer name */
	assert_int_equal(parse("Udp6InErrors 12\n", HOSTUDP_V6, &h), -1);
	assert_int_equal(parse("Udp6InErrors 1x\nUdp6RcvbufErrors 3\n",
	    HOSTUDP_V6, &h), -1);
	assert_int_equal(parse("Udp6InErrorsX 1\nUdp6RcvbufErrors 3\n",
	    HOSTUDP_V6, &h), -1);
	assert_int_equal(parse("Udp6InErrors\nUdp6RcvbufErrors 3\n",
	    HOSTUDP_V6, &h), -1);
	/* the IPv4 file's text is not the IPv6 one's */
	assert_int_equal(parse(UDPH "Udp: 1 2 3 4 5 6 7 8 9\n", HOSTUDP_V6, &h),
	    -1);
}

static void
test_delta(void **state)
{
	struct hostudp a = { 10, 20, 0 }, b = { 15, 27, 0 }, d;

	(void)state;
	assert_int_equal(hostudp_delta(&a, &b, &d), 0);
	assert_int_equal(d.rcvbuf_errors, 5);
	assert_int_equal(d.in_errors, 7);
	assert_int_equal(hostudp_delta(&b, &a, &d), -1);    /* went back */
	b.flags = HOSTUDP_V6;                               /* another file */
	assert_int_equal(hostudp_delta(&a, &b, &d), -1);
}

static void
test_bound(void **state)
{
	(void)state;
	/* (ms + 1000) x 150000 a ms, at most 2^32 */
	assert_true(hostudp_bound(0) == 150000000ull);
	assert_true(hostudp_bound(51050000ull) == 1051ull * 150000);
	assert_true(hostudp_bound(27000000000ull) == 28000ull * 150000);
	assert_true(hostudp_bound(28000000000ull) == HOSTUDP_MAX);
	assert_true(hostudp_bound(UINT64_MAX) == HOSTUDP_MAX);
}

static void
test_family(void **state)
{
	struct sockaddr_storage a = { 0 };
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&a;

	(void)state;
	a.ss_family = AF_INET;
	assert_int_equal(hostudp_family(&a), 0);
	a.ss_family = AF_INET6;
	a6->sin6_addr = in6addr_loopback;
	assert_int_equal(hostudp_family(&a), HOSTUDP_V6);
	memset(&a6->sin6_addr, 0, sizeof a6->sin6_addr);    /* ::ffff:127.0.0.1 */
	a6->sin6_addr.s6_addr[10] = a6->sin6_addr.s6_addr[11] = 0xff;
	a6->sin6_addr.s6_addr[12] = 127;
	a6->sin6_addr.s6_addr[15] = 1;
	assert_int_equal(hostudp_family(&a), 0);
}

/* This host's files read (Linux has both while IPv6 is on). */
static void
test_read(void **state)
{
	struct hostudp h;

	(void)state;
	assert_int_equal(hostudp_read(0, &h), 0);
	assert_int_equal(h.flags, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snmp),
		cmocka_unit_test(test_snmp_bad),
		cmocka_unit_test(test_snmp6),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
