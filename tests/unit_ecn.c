/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_ecn.c: the ECN codepoint of a received control message, what the
 * kernel's tcp_info says of ECN at every length it may have, the line when
 * TCP did not negotiate ECN, and --ecn's -v lines. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecn.h"
#include "report_ival.h"

/* A control message of level, type and n data bytes d, in buf. */
static struct cmsghdr *
cmsg(uint8_t *buf, int level, int type, const void *d, size_t n)
{
	struct cmsghdr *c = (struct cmsghdr *)buf;

	memset(buf, 0, CMSG_SPACE(n));
	c->cmsg_level = level;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(n);
	memcpy(CMSG_DATA(c), d, n);
	return c;
}

static void
test_codepoint(void **state)
{
	union { struct cmsghdr h; uint8_t b[64]; } u;
	uint8_t tos;
	int tc, i;

	(void)state;
	for (i = 0; i < 256; i++) {     /* IPv4: the TOS byte's two low bits */
		tos = (uint8_t)i;
		assert_int_equal(ecn_cmsg_codepoint(cmsg(u.b, IPPROTO_IP, IP_TOS,
		                 &tos, 1)), i & 3);
	}
	tc = 0xb9;                      /* IPv6: DSCP 46 (EF), ECT(1) */
	assert_int_equal(ecn_cmsg_codepoint(cmsg(u.b, IPPROTO_IPV6, IPV6_TCLASS,
	                 &tc, sizeof tc)), ECN_ECT1);
	tc = 0x03;
	assert_int_equal(ecn_cmsg_codepoint(cmsg(u.b, IPPROTO_IPV6, IPV6_TCLASS,
	                 &tc, sizeof tc)), ECN_CE);
	/* others, and ones too short to hold the byte */
	tc = 3;
	assert_int_equal(ecn_cmsg_codepoint(cmsg(u.b, SOL_SOCKET, SO_TIMESTAMPNS,
	                 &tc, sizeof tc)), -1);
	assert_int_equal(ecn_cmsg_codepoint(cmsg(u.b, IPPROTO_IP, IP_TTL, &tc,
	                 sizeof tc)), -1);
	assert_int_equal(ecn_cmsg_codepoint(cmsg(u.b, IPPROTO_IPV6, IP_TOS, &tc,
	                 sizeof tc)), -1);
	cmsg(u.b, IPPROTO_IP, IP_TOS, &tc, 1)->cmsg_len = CMSG_LEN(0);
	assert_int_equal(ecn_cmsg_codepoint(&u.h), -1);
	cmsg(u.b, IPPROTO_IPV6, IPV6_TCLASS, &tc, sizeof tc)->cmsg_len = CMSG_LEN(2);
	assert_int_equal(ecn_cmsg_codepoint(&u.h), -1);
	assert_string_equal(ecn_name(ECN_NOT_ECT), "not-ECT");
	assert_string_equal(ecn_name(ECN_ECT1), "ECT(1)");
	assert_string_equal(ecn_name(ECN_ECT0), "ECT(0)");
	assert_string_equal(ecn_name(ECN_CE), "CE");
}

/* A raw tcp_info of Linux 6.18 (280 bytes) with options opt, delivered_ce
 * 93, received_ce 33 and received_ce_bytes 1859556, read as if the kernel
 * had returned len bytes. */
static void
from_info(uint8_t opt, size_t len, struct tcp_stats *t)
{
	uint8_t raw[ECN_TCP_INFO_MAX];
	uint32_t v;

	memset(raw, 0, sizeof raw);
	raw[offsetof(struct tcp_info, tcpi_options)] = opt;
	v = 93;
	memcpy(raw + offsetof(struct tcp_info, tcpi_delivered_ce), &v, 4);
	v = 33;
	memcpy(raw + 248, &v, 4);
	v = 1859556;
	memcpy(raw + 272, &v, 4);
	memset(t, 0xaa, sizeof *t);
	ecn_tcp_from_info(raw, len, t);
}

static void
test_tcp_info(void **state)
{
	struct tcp_stats t;

	(void)state;
	assert_int_equal(offsetof(struct tcp_info, tcpi_delivered_ce), 196);
	from_info(TCPI_OPT_ECN | TCPI_OPT_ECN_SEEN | TCPI_OPT_TIMESTAMPS, 280, &t);
	assert_int_equal(t.ecn, TCPS_ECN | TCPS_ECN_SEEN | TCPS_ECN_RECEIVED);
	assert_int_equal(t.delivered_ce, 93);
	assert_int_equal(t.received_ce, 33);
	assert_int_equal(t.received_ce_bytes, 1859556);
	/* Debian 12's 6.1: 232 bytes, no received counts */
	from_info(TCPI_OPT_ECN, 232, &t);
	assert_int_equal(t.ecn, TCPS_ECN);
	assert_int_equal(t.delivered_ce, 93);
	assert_int_equal(t.received_ce, 0);
	assert_int_equal(t.received_ce_bytes, 0);
	/* one byte short of received_ce_bytes */
	from_info(TCPI_OPT_ECN, 275, &t);
	assert_int_equal(t.ecn, TCPS_ECN);
	/* before 4.18: no delivered_ce */
	from_info(TCPI_OPT_ECN, 196, &t);
	assert_int_equal(t.ecn, TCPS_ECN);
	assert_int_equal(t.delivered_ce, 0);
	/* not negotiated: no counts, whatever the kernel's struct says */
	from_info(TCPI_OPT_ECN_SEEN, 280, &t);
	assert_int_equal(t.ecn, TCPS_ECN_SEEN);
	assert_int_equal(t.delivered_ce + t.received_ce + t.received_ce_bytes, 0);
	from_info(0, 0, &t);
	assert_int_equal(t.ecn, 0);
}

static void
test_refused(void **state)
{
	char b[320];

	(void)state;
	ecn_tcp_refused(2, b, sizeof b);
	assert_string_equal(b, "--ecn: the TCP data connection did not negotiate "
	    "ECN (net.ipv4.tcp_ecn is 2 here: 1 asks for it on connections this "
	    "host opens, as does a route with 'features ecn'; the partner's must "
	    "be 1 or 2): measuring without");
	ecn_tcp_refused(-1, b, sizeof b);
	assert_non_null(strstr(b, "(net.ipv4.tcp_ecn unreadable here: "));
	assert_int_equal(ecn_tcp_sysctl() >= 0, 1);     /* Linux has it */
}

/* A sysctl's text: digits and one newline, nothing else, or -1. */
static void
test_sysctl_parse(void **state)
{
	static const struct { const char *text; int v; } cases[] = {
		{ "2\n", 2 }, { "0\n", 0 }, { "1", 1 }, { "2147483647\n", 2147483647 },
		{ "", -1 }, { "\n", -1 }, { "1x\n", -1 }, { "1 2\n", -1 },
		{ " 1\n", -1 }, { "+1\n", -1 }, { "-1\n", -1 }, { "1\n\n", -1 },
		{ "1\nx", -1 }, { "2147483648\n", -1 },
		{ "99999999999999999999\n", -1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		print_message("case %zu\n", i);
		assert_int_equal(ecn_sysctl_parse(cases[i].text), cases[i].v);
	}
}

static char *
lines_tcp(const struct tcp_stats *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_ecn_tcp(f, 'l', t);
	fclose(f);
	return buf;
}

static void
test_lines(void **state)
{
	struct tcp_stats t = { .valid = 1, .ecn = TCPS_ECN | TCPS_ECN_RECEIVED,
	    .delivered_ce = 93, .received_ce = 1, .received_ce_bytes = 1448 };
	struct udp_stats u = { .received = 2000, .ecn = { 1, 2, 1711, 286 },
	    .flags = UDPS_ECN };
	char *s, *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	s = lines_tcp(&t);
	assert_string_equal(s, "l: ecn negotiated, 93 segments acknowledged with "
	    "ECE, 1 CE-marked segment received (1448 bytes)\n");
	free(s);
	t.ecn = TCPS_ECN;
	t.delivered_ce = 1;
	s = lines_tcp(&t);
	assert_string_equal(s, "l: ecn negotiated, 1 segment acknowledged with "
	    "ECE, received CE not counted by this kernel\n");
	free(s);
	t.ecn = 0;
	s = lines_tcp(&t);
	assert_string_equal(s, "l: ecn not negotiated\n");
	free(s);
	t.valid = 0;
	s = lines_tcp(&t);
	assert_string_equal(s, "");
	free(s);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_ecn_udp(f, '1', &u);
	u.flags = 0;
	report_ecn_udp(f, '1', &u);             /* not counted: nothing */
	fclose(f);
	assert_string_equal(buf, "1: ecn: 1711 data datagrams ECT(0), 286 CE, "
	    "2 ECT(1), 1 not-ECT\n");
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codepoint),
		cmocka_unit_test(test_tcp_info),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_sysctl_parse),
		cmocka_unit_test(test_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
