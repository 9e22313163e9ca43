/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_mcast.c: multicast (-m): PARAMS bytes 130..151 on the wire, every
 * malformed group refused, the MAC covering them, the group parser, the
 * command line, and the TTL reaching the sender's socket. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "wire_ctl.h"
#include "mcast.h"
#include "partner_mport.h"

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

/* A multicast PARAMS: the partner receives 10 datagrams of 1000 bytes from
 * 239.1.2.3 port 8080, TTL 3. */
static struct ctl_msg
mparams(void)
{
	struct ctl_msg m;

	memset(&m, 0, sizeof m);
	m.type = CTL_PARAMS;
	m.params.proto = PROTO_UDP;
	m.params.role = ROLE_RECV;
	m.params.len = m.params.data_len = 1000;
	m.params.count = 10;
	m.params.data_bytes = 10000;
	m.params.streams = 1;
	m.mcast.family = MCAST_V4;
	m.mcast.ttl = 3;
	m.mcast.port = 8080;
	m.mcast.addr[0] = 239;
	m.mcast.addr[1] = 1;
	m.mcast.addr[2] = 2;
	m.mcast.addr[3] = 3;
	return m;
}

static int
decode(const uint8_t *buf, struct ctl_msg *d, char *err, size_t errlen)
{
	return ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN, d,
	    err, errlen);
}

/* Bytes 130..151 as gput(1) and wire_ctl.h say, and back. */
static void
test_wire(void **state)
{
	static const uint8_t want[22] = { 0x00, 0x01, 4, 3, 0x1f, 0x90,
	    239, 1, 2, 3 };
	static const uint8_t want6[22] = { 0x00, 0x01, 6, 255, 0xff, 0xff,
	    0xff, 0x15, [20] = 0x12, [21] = 0x34 };
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg m = mparams(), d;
	char err[256];

	(void)state;
	assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + CTL_PARAMS_LEN);
	assert_memory_equal(buf + CTL_HDR_LEN + 130, want, sizeof want);
	assert_int_equal(decode(buf, &d, err, sizeof err), 0);
	assert_memory_equal(&d.mcast, &m.mcast, sizeof m.mcast);
	m.mcast = (struct mcast_group){ .family = MCAST_V6, .ttl = 255,
	    .port = 65535, .addr = { 0xff, 0x15, [14] = 0x12, [15] = 0x34 } };
	ctl_encode(&m, buf);
	assert_memory_equal(buf + CTL_HDR_LEN + 130, want6, sizeof want6);
	assert_int_equal(decode(buf, &d, err, sizeof err), 0);
	assert_memory_equal(&d.mcast, &m.mcast, sizeof m.mcast);
	/* unicast: all zero, and decoded as no group */
	memset(&m.mcast, 0, sizeof m.mcast);
	ctl_encode(&m, buf);
	assert_memory_equal(buf + CTL_HDR_LEN + 130, (uint8_t[22]){ 0 }, 22);
	assert_int_equal(decode(buf, &d, err, sizeof err), 0);
	assert_int_equal(d.mcast.family, 0);
}

struct poke { size_t off; uint8_t val; const char *msg; };

/* One byte changed in a valid multicast PARAMS (or in a unicast one,
 * unicast set): each is refused with its reason. */
static void
test_refused(void **state)
{
	static const struct { int unicast; struct poke p; } rows[] = {
		{ 0, { 130, 0x80, "reserved bits set" } },
		{ 0, { 131, 0x03, "reserved bits set" } },
		{ 0, { 131, 0x02, "reserved bits set" } },
		{ 1, { 132, 4, "reserved bits set" } },    /* a group, no flag */
		{ 1, { 151, 1, "reserved bits set" } },
		{ 1, { 133, 1, "reserved bits set" } },
		{ 0, { 132, 0, "multicast group of unknown family" } },
		{ 0, { 132, 5, "multicast group of unknown family" } },
		{ 0, { 136, 10, "not an IPv4 multicast address (224.0.0.0/4)" } },
		{ 0, { 136, 240, "not an IPv4 multicast address (224.0.0.0/4)" } },
		{ 0, { 136, 223, "not an IPv4 multicast address (224.0.0.0/4)" } },
		{ 0, { 140, 1, "an IPv4 group with bytes after its address" } },
		{ 0, { 151, 1, "an IPv4 group with bytes after its address" } },
		{ 0, { 133, 0, "multicast TTL 0" } },
		{ 0, { 134, 0, "multicast data port below 1024" } },  /* 144 */
		{ 0, { 0, PROTO_TCP, "multicast is UDP only" } },
		{ 0, { 1, ROLE_SEND, "multicast: a partner only receives from a "
		      "group" } },
		{ 0, { 129, 2, "multicast is one stream" } },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg d;
	char err[256], want[300];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ctl_msg m = mparams();

		if (rows[i].unicast)
			memset(&m.mcast, 0, sizeof m.mcast);
		ctl_encode(&m, buf);
		buf[CTL_HDR_LEN + rows[i].p.off] = rows[i].p.val;
		snprintf(want, sizeof want, "bad PARAMS message: %s", rows[i].p.msg);
		if (decode(buf, &d, err, sizeof err) != -1)
			MISS("row %zu (offset %zu = 0x%02x): accepted", i,
			     rows[i].p.off, rows[i].p.val);
		else if (strcmp(err, want) != 0)
			MISS("row %zu: '%s', want '%s'", i, err, want);
	}
	MISSED();
}

/* IPv6 groups: ff00::/8 with a scope other than 0 and f. */
static void
test_refused6(void **state)
{
	static const struct { uint8_t b0, b1; const char *msg; } rows[] = {
		{ 0x20, 0x01, "not an IPv6 multicast address (ff00::/8)" },
		{ 0xfe, 0x80, "not an IPv6 multicast address (ff00::/8)" },
		{ 0xff, 0x10, "an IPv6 group of a reserved scope (0 or f, RFC 4291)" },
		{ 0xff, 0x0f, "an IPv6 group of a reserved scope (0 or f, RFC 4291)" },
		{ 0xff, 0x3f, "an IPv6 group of a reserved scope (0 or f, RFC 4291)" },
		{ 0xff, 0x02, "an IPv6 group of scope 1 or 2 (ff01::/16, ff02::/16, "
		  "ff12::/16...) is the link's own, not for tests" },
		{ 0xff, 0x01, "an IPv6 group of scope 1 or 2 (ff01::/16, ff02::/16, "
		  "ff12::/16...) is the link's own, not for tests" },
		{ 0xff, 0x12, "an IPv6 group of scope 1 or 2 (ff01::/16, ff02::/16, "
		  "ff12::/16...) is the link's own, not for tests" },
		{ 0xff, 0x03, NULL },
		{ 0xff, 0x05, NULL },
		{ 0xff, 0x3e, NULL },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg d;
	char err[256], want[300];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ctl_msg m = mparams();
		int rc;

		memset(m.mcast.addr, 0, sizeof m.mcast.addr);
		m.mcast.family = MCAST_V6;
		m.mcast.addr[0] = rows[i].b0;
		m.mcast.addr[1] = rows[i].b1;
		m.mcast.addr[15] = 1;
		ctl_encode(&m, buf);
		rc = decode(buf, &d, err, sizeof err);
		snprintf(want, sizeof want, "bad PARAMS message: %s",
		         rows[i].msg ? rows[i].msg : "");
		if (rows[i].msg == NULL && rc != 0)
			MISS("%02x%02x::1 refused: %s", rows[i].b0, rows[i].b1, err);
		else if (rows[i].msg != NULL && (rc != -1 || strcmp(err, want) != 0))
			MISS("%02x%02x::1: rc %d '%s', want '%s'", rows[i].b0,
			     rows[i].b1, rc, rc ? err : "", want);
	}
	MISSED();
}

/* The MAC covers the group: a different group, TTL or port signs other
 * bytes. */
static void
test_signed(void **state)
{
	uint8_t ch[CTL_CHALLENGE_LEN] = { 1, 2, 3 }, a[CTL_SIGNED_MAX],
	    b[CTL_SIGNED_MAX];
	struct ctl_msg m = mparams(), o;
	size_t na, nb;

	(void)state;
	na = ctl_signed_bytes(ch, &m, NULL, a);
	o = m;
	o.mcast.addr[3] = 4;
	nb = ctl_signed_bytes(ch, &o, NULL, b);
	assert_int_equal(na, nb);
	assert_memory_not_equal(a, b, na);
	o = m;
	o.mcast.ttl = 4;
	ctl_signed_bytes(ch, &o, NULL, b);
	assert_memory_not_equal(a, b, na);
	o = m;
	o.mcast.port = 8081;
	ctl_signed_bytes(ch, &o, NULL, b);
	assert_memory_not_equal(a, b, na);
}

static void
test_parse(void **state)
{
	static const struct { const char *in, *err; uint8_t fam; } rows[] = {
		{ "239.1.2.3", NULL, MCAST_V4 },
		{ "224.0.1.1", NULL, MCAST_V4 },
		{ "ff15::1234", NULL, MCAST_V6 },
		{ "ff05::1", NULL, MCAST_V6 },
		{ "ff02::1", "ff02::1: an IPv6 group of scope 1 or 2 (ff01::/16, "
		  "ff02::/16, ff12::/16...) is the link's own, not for tests", 0 },
		{ "10.1.2.3", "10.1.2.3: not an IPv4 multicast address (224.0.0.0/4)", 0 },
		{ "224.0.0.251", "224.0.0.251: 224.0.0.0/24 is the Local Network "
		  "Control Block (RFC 5771), not for tests", 0 },
		{ "::1", "::1: not an IPv6 multicast address (ff00::/8)", 0 },
		{ "ff0f::1", "ff0f::1: an IPv6 group of a reserved scope (0 or f, "
		  "RFC 4291)", 0 },
		{ "group.example", "'group.example' is not a numeric IPv4 or IPv6 "
		  "group address", 0 },
		{ "", "'' is not a numeric IPv4 or IPv6 group address", 0 },
	};
	char why[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct mcast_group g = { 0 };
		int rc = mcast_parse(rows[i].in, &g, why, sizeof why);

		if (rows[i].err == NULL && (rc != 0 || g.family != rows[i].fam))
			MISS("'%s': rc %d family %u", rows[i].in, rc, g.family);
		if (rows[i].err != NULL && (rc != -1 || strcmp(why, rows[i].err) != 0))
			MISS("'%s': rc %d '%s', want '%s'", rows[i].in, rc,
			     rc ? why : "", rows[i].err);
	}
	MISSED();
}

/* The command line: -m, --ttl, --mport and what they cannot go with. */
static void
test_cli(void **state)
{
	static const struct { const char *args, *err; } rows[] = {
		{ "-m 239.1.2.3 --ttl 4 --mport 5000 host", NULL },
		{ "-m ff15::1 host1 host2 -l 777", NULL },
		{ "-m 10.0.0.1 host", "-m: 10.0.0.1: not an IPv4 multicast address "
		  "(224.0.0.0/4)" },
		{ "-r -m 239.1.2.3 host", "-m: only the local side sends to a group, "
		  "so it cannot be used with -r" },
		{ "--ttl 4 host", "--ttl and --mport need -m" },
		{ "--mport 5000 host", "--ttl and --mport need -m" },
		{ "-m 239.1.2.3 --ttl 0 host", "--ttl: '0' is out of range (1 to 255)" },
		{ "-m 239.1.2.3 --ttl 256 host", "--ttl: '256' is out of range (1 to "
		  "255)" },
		{ "-m 239.1.2.3 --mport 80 host", "--mport: '80' is out of range (1024 "
		  "to 65535)" },
		{ "-4 -m ff15::1 host", "-m: the group's address family disagrees "
		  "with -4/-6" },
		{ "-6 -m 239.1.2.3 host", "-m: the group's address family disagrees "
		  "with -4/-6" },
		{ "-m 239.1.2.3 -P 2 host", "-m sends one stream: it cannot be used "
		  "with -P" },
		{ "-m 239.1.2.3 --time 2 host", "-m: --time, --interval and --omit are "
		  "not supported with multicast" },
		{ "-m 239.1.2.3 --json host", "-m prints the table: --csv, --json, "
		  "--json-lines and --prometheus are not supported with multicast" },
		{ "-m 239.1.2.3 --prometheus host", "-m prints the table: --csv, "
		  "--json, --json-lines and --prometheus are not supported with "
		  "multicast" },
		{ "-m 239.1.2.3 --link 10M host", "-m: --link predicts one connection, "
		  "not a group" },
		{ "-m 239.1.2.3 --cc reno host", "--cc applies to TCP only" },
		{ "host -m 239.1.2.3", "-m must come before the partner name (it "
		  "applies to both sides)" },
		{ "-i -m 239.1.2.3", "-m has no meaning with -i" },
		{ "--no-multicast host", "--no-multicast only applies to the partner "
		  "(-i)" },
		{ "-i --no-multicast", NULL },
	};
	char err[300], buf[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char *argv[16], *tok, *save = NULL;
		struct config c;
		int argc = 0, rc;

		snprintf(buf, sizeof buf, "%s", rows[i].args);
		argv[argc++] = "gput";
		for (tok = strtok_r(buf, " ", &save); tok != NULL && argc < 15;
		    tok = strtok_r(NULL, " ", &save))
			argv[argc++] = tok;
		argv[argc] = NULL;
		rc = cli_parse(argc, argv, NULL, NULL, &c, err, sizeof err);
		if (rows[i].err == NULL && rc != 0)
			MISS("'%s': %s", rows[i].args, err);
		else if (rows[i].err != NULL && (rc != -1 ||
		    strcmp(err, rows[i].err) != 0))
			MISS("'%s': rc %d '%s', want '%s'", rows[i].args, rc,
			     rc ? err : "", rows[i].err);
		if (i == 0 && rc == 0 && (c.mcast.family != MCAST_V4 ||
		    c.mcast.ttl != 4 || c.mcast.port != 5000 ||
		    c.proto != PROTO_UDP || c.mcast.addr[0] != 239))
			MISS("'%s': group %u ttl %u port %u proto %u", rows[i].args,
			     c.mcast.family, c.mcast.ttl, c.mcast.port, c.proto);
		if (i == 1 && rc == 0 && (c.npartners != 2 ||
		    c.partners[1].rem.len != 777 || c.mcast.ttl != 0))
			MISS("'%s': %u partners", rows[i].args, c.npartners);
		if (i == 19 && rc == 0 && !c.no_multicast)
			MISS("'%s': no_multicast not set", rows[i].args);
		cli_free(&c);
	}
	MISSED();
}

/* --ttl reaches the socket: IP_MULTICAST_TTL / IPV6_MULTICAST_HOPS, and
 * IP_MULTICAST_LOOP is on (the loopback tests need it). */
static void
test_ttl_socket(void **state)
{
	struct mcast_group g = { .family = MCAST_V4, .ttl = 7 };
	unsigned lo = if_nametoindex("lo");
	unsigned char t = 0, l = 0;
	socklen_t n = sizeof t;
	int fd = socket(AF_INET, SOCK_DGRAM, 0), h = 0, hl = 0;
	char err[200];

	(void)state;
	assert_true(fd >= 0 && lo > 0);
	assert_int_equal(mcast_sender_setup(fd, &g, lo, err, sizeof err), 0);
	assert_int_equal(getsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &t, &n), 0);
	assert_int_equal(t, 7);
	n = sizeof l;
	assert_int_equal(getsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &l, &n), 0);
	assert_int_equal(l, 1);
	close(fd);
	fd = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd == -1)
		return;                         /* a host without IPv6 */
	g.family = MCAST_V6;
	g.ttl = 200;
	assert_int_equal(mcast_sender_setup(fd, &g, lo, err, sizeof err), 0);
	n = sizeof h;
	assert_int_equal(getsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &h,
	    &n), 0);
	assert_int_equal(h, 200);
	n = sizeof hl;
	assert_int_equal(getsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &hl,
	    &n), 0);
	assert_int_equal(hl, 1);
	close(fd);
}

/* An IPv4-mapped address is IPv4 to the group's family checks. */
static void
test_unmap(void **state)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)&ss;

	(void)state;
	s6->sin6_family = AF_INET6;
	s6->sin6_port = htons(5037);
	s6->sin6_addr.s6_addr[10] = s6->sin6_addr.s6_addr[11] = 0xff;
	s6->sin6_addr.s6_addr[12] = 127;
	s6->sin6_addr.s6_addr[15] = 1;
	mcast_unmap(&ss);
	assert_int_equal(ss.ss_family, AF_INET);
	assert_int_equal(ntohs(s4->sin_port), 5037);
	assert_int_equal(ntohl(s4->sin_addr.s_addr), 0x7f000001);
}

/* The group's port a partner may hold: in its ephemeral range, not
 * reserved (partner_mport.h). */
static void
test_mport(void **state)
{
	char err[256];

	(void)state;
	assert_null(mport_check(32768, "32768\t60999\n", "", err, sizeof err));
	assert_null(mport_check(60999, "32768 60999", "\n", err, sizeof err));
	assert_non_null(mport_check(5353, "32768\t60999\n", "", err, sizeof err));
	assert_string_equal(err, "the group's port 5353 is outside this partner's "
	    "ephemeral ports 32768-60999 (net.ipv4.ip_local_port_range): a client "
	    "may not make it hold another");
	assert_non_null(mport_check(32767, "32768 60999", "", err, sizeof err));
	assert_non_null(mport_check(61000, "32768 60999", "", err, sizeof err));
	assert_non_null(mport_check(40001, "32768 60999", "8080,40000-40005\n",
	    err, sizeof err));
	assert_string_equal(err, "the group's port 40001 is reserved on this "
	    "partner (net.ipv4.ip_local_reserved_ports)");
	assert_null(mport_check(40006, "32768 60999", "8080,40000-40005", err,
	    sizeof err));
	assert_non_null(mport_check(40001, "", "", err, sizeof err));
	assert_string_equal(err, "the group's port 40001: this partner cannot "
	    "read its ephemeral port range");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mport),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_refused6),
		cmocka_unit_test(test_signed),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_ttl_socket),
		cmocka_unit_test(test_unmap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
