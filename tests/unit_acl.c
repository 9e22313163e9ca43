/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_acl.c: acl_add/acl_permits/acl_entry_str as tables of examples:
 * prefixes from /0 to /128, IPv4-mapped clients against both families, bad
 * --allow values with their exact messages, and the ACL_MAX limit. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>

#include "partner_acl.h"

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

/* A client address as accept() reports it: AF_INET6 if it has a ':'. */
static struct sockaddr_storage
client(const char *s)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof ss);
	if (strchr(s, ':') != NULL) {
		s6->sin6_family = AF_INET6;
		if (inet_pton(AF_INET6, s, &s6->sin6_addr) != 1)
			fail_msg("bad test address %s", s);
	} else {
		s4->sin_family = AF_INET;
		if (inet_pton(AF_INET, s, &s4->sin_addr) != 1)
			fail_msg("bad test address %s", s);
	}
	return ss;
}

static void
load(struct acl *a, const char *const *entries)
{
	char err[256];

	memset(a, 0, sizeof *a);
	for (; *entries != NULL; entries++)
		if (acl_add(a, *entries, err, sizeof err) != 0)
			fail_msg("acl_add(\"%s\"): %s", *entries, err);
}

/* A list of up to three entries, for a table row and for load(). */
#define ENTRIES 4
#define L(...)  { __VA_ARGS__ }
#define NONE    { NULL }
#define SEVERAL L("10.0.0.0/8", "192.168.0.0/16", "2001:db8::/32")
#define LOAD(a, ...) load(a, (const char *const[ENTRIES])L(__VA_ARGS__))

static void
test_permits(void **state)
{
	static const struct {
		const char *entries[ENTRIES];   /* NULL-terminated */
		const char *addr;
		int want;
	} rows[] = {
		/* An empty list permits everyone. */
		{ NONE, "10.0.0.1", 1 },
		{ NONE, "2001:db8::1", 1 },
		/* /0 of each family; an IPv4 client matches ::/0 as ::ffff:a.b.c.d. */
		{ L("0.0.0.0/0"), "1.2.3.4", 1 },
		{ L("0.0.0.0/0"), "255.255.255.255", 1 },
		{ L("0.0.0.0/0"), "::ffff:1.2.3.4", 1 },
		{ L("0.0.0.0/0"), "::1", 0 },
		{ L("0.0.0.0/0"), "2001:db8::1", 0 },
		{ L("::/0"), "2001:db8::1", 1 },
		{ L("::/0"), "::ffff:1.2.3.4", 1 },
		{ L("::/0"), "1.2.3.4", 1 },
		/* Hosts: /32 and /128, written with or without the prefix. */
		{ L("10.1.2.3"), "10.1.2.3", 1 },
		{ L("10.1.2.3"), "10.1.2.4", 0 },
		{ L("10.1.2.3"), "::ffff:10.1.2.3", 1 },
		{ L("10.1.2.3"), "::ffff:10.1.2.4", 0 },
		{ L("10.1.2.3/32"), "10.1.2.3", 1 },
		{ L("10.1.2.3/32"), "11.1.2.3", 0 },
		{ L("::1"), "::1", 1 },
		{ L("::1"), "::2", 0 },
		{ L("::1"), "127.0.0.1", 0 },
		{ L("2001:db8::1/128"), "2001:db8::1", 1 },
		{ L("2001:db8::1/128"), "2001:db8::", 0 },
		{ L("2001:db8::1/128"), "3001:db8::1", 0 },
		/* /1: the top bit alone decides. */
		{ L("128.0.0.0/1"), "128.0.0.0", 1 },
		{ L("128.0.0.0/1"), "255.255.255.255", 1 },
		{ L("128.0.0.0/1"), "127.255.255.255", 0 },
		{ L("0.0.0.0/1"), "127.255.255.255", 1 },
		{ L("0.0.0.0/1"), "128.0.0.0", 0 },
		{ L("8000::/1"), "ffff::1", 1 },
		{ L("8000::/1"), "7fff:ffff::", 0 },
		/* /31: two addresses. */
		{ L("192.168.1.0/31"), "192.168.1.0", 1 },
		{ L("192.168.1.0/31"), "192.168.1.1", 1 },
		{ L("192.168.1.0/31"), "192.168.1.2", 0 },
		{ L("192.168.1.0/31"), "192.168.0.255", 0 },
		/* /13 ends inside the second byte: 10.8.0.0 to 10.15.255.255. */
		{ L("10.8.0.0/13"), "10.8.0.0", 1 },
		{ L("10.8.0.0/13"), "10.15.255.255", 1 },
		{ L("10.8.0.0/13"), "10.16.0.0", 0 },
		{ L("10.8.0.0/13"), "10.7.255.255", 0 },
		{ L("10.8.0.0/13"), "::ffff:10.12.0.1", 1 },
		/* /67: 64 bits and the top three of the ninth byte. */
		{ L("2001:db8::e000:0:0:0/67"), "2001:db8::e000:0:0:0", 1 },
		{ L("2001:db8::e000:0:0:0/67"), "2001:db8::ffff:ffff:ffff:ffff", 1 },
		{ L("2001:db8::e000:0:0:0/67"), "2001:db8::dfff:ffff:ffff:ffff", 0 },
		{ L("2001:db8::e000:0:0:0/67"), "2001:db8:0:1:e000::", 0 },
		/* IPv6 entries covering the IPv4-mapped range. */
		{ L("::ffff:10.0.0.0/104"), "10.1.2.3", 1 },
		{ L("::ffff:10.0.0.0/104"), "::ffff:10.1.2.3", 1 },
		{ L("::ffff:10.0.0.0/104"), "::ffff:11.0.0.1", 0 },
		{ L("::ffff:0.0.0.0/96"), "203.0.113.9", 1 },
		{ L("::ffff:0.0.0.0/96"), "2001:db8::1", 0 },
		/* Only ::ffff:0:0/96 is IPv4: not the old IPv4-compatible or NAT64. */
		{ L("10.0.0.0/8"), "::10.0.0.1", 0 },
		{ L("10.0.0.0/8"), "64:ff9b::10.0.0.1", 0 },
		{ L("10.0.0.0/8"), "::ffff:10.0.0.1", 1 },
		/* Several entries: any one permits. */
		{ SEVERAL, "10.255.0.1", 1 },
		{ SEVERAL, "192.168.44.1", 1 },
		{ SEVERAL, "::ffff:192.168.0.1", 1 },
		{ SEVERAL, "2001:db8:ffff::1", 1 },
		{ SEVERAL, "172.16.0.1", 0 },
		{ SEVERAL, "::ffff:172.16.0.1", 0 },
		{ SEVERAL, "2001:db9::", 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct acl a;
		struct sockaddr_storage ss = client(rows[i].addr);
		int got;

		load(&a, rows[i].entries);
		got = acl_permits(&a, &ss);
		if (got != rows[i].want)
			MISS("%s against %s%s: %d, want %d", rows[i].addr,
			     rows[i].entries[0] ? rows[i].entries[0] : "(empty)",
			     rows[i].entries[0] && rows[i].entries[1] ? ",..." : "",
			     got, rows[i].want);
	}
	MISSED();
}

/* A family that is neither: refused by a list, permitted by an empty one. */
static void
test_other_family(void **state)
{
	struct sockaddr_storage ss;
	struct acl a;

	(void)state;
	memset(&ss, 0, sizeof ss);
	ss.ss_family = AF_UNIX;
	load(&a, (const char *const[ENTRIES])NONE);
	assert_int_equal(acl_permits(&a, &ss), 1);
	LOAD(&a, "0.0.0.0/0", "::/0");
	assert_int_equal(acl_permits(&a, &ss), 0);
}

static void
test_bad(void **state)
{
	static const struct {
		const char *in, *msg;
	} rows[] = {
		{ "", "'': not an IPv4 or IPv6 address" },
		{ "localhost", "'localhost': not an IPv4 or IPv6 address" },
		{ "10.0.0", "'10.0.0': not an IPv4 or IPv6 address" },
		{ "10.0.0.256", "'10.0.0.256': not an IPv4 or IPv6 address" },
		{ "/8", "'/8': not an IPv4 or IPv6 address" },
		{ "fe80::1%eth0", "'fe80::1%eth0': not an IPv4 or IPv6 address" },
		{ "2001:db8:::1", "'2001:db8:::1': not an IPv4 or IPv6 address" },
		{ "1111:2222:3333:4444:5555:6666:777.888.999.000/8",
		  "'1111:2222:3333:4444:5555:6666:777.888.999.000/8': not an IPv4 or "
		  "IPv6 address" },
		{ "10.0.0.0/", "'10.0.0.0/': prefix '' is not a number" },
		{ "10.0.0.0/x", "'10.0.0.0/x': prefix 'x' is not a number" },
		{ "10.0.0.0/-1", "'10.0.0.0/-1': prefix '-1' is not a number" },
		{ "10.0.0.0/+8", "'10.0.0.0/+8': prefix '+8' is not a number" },
		{ "10.0.0.0/ 8", "'10.0.0.0/ 8': prefix ' 8' is not a number" },
		{ "10.0.0.0/8x", "'10.0.0.0/8x': prefix '8x' is not a whole number" },
		{ "10.0.0.0/8 ", "'10.0.0.0/8 ': prefix '8 ' is not a whole number" },
		{ "10.0.0.0/8/8", "'10.0.0.0/8/8': prefix '8/8' is not a whole number" },
		{ "10.0.0.0/33", "'10.0.0.0/33': prefix '33' is out of range (0 to 32)" },
		{ "::/129", "'::/129': prefix '129' is out of range (0 to 128)" },
		{ "::ffff:10.0.0.0/129",
		  "'::ffff:10.0.0.0/129': prefix '129' is out of range (0 to 128)" },
		{ "10.0.0.0/99999999999999999999",
		  "'10.0.0.0/99999999999999999999': prefix '99999999999999999999' is "
		  "too large" },
		{ "10.1.2.3/8", "'10.1.2.3/8': host bits set (did you mean 10.0.0.0/8?)" },
		{ "10.0.0.1/0", "'10.0.0.1/0': host bits set (did you mean 0.0.0.0/0?)" },
		{ "192.168.1.1/31",
		  "'192.168.1.1/31': host bits set (did you mean 192.168.1.0/31?)" },
		{ "10.15.0.0/13",
		  "'10.15.0.0/13': host bits set (did you mean 10.8.0.0/13?)" },
		{ "2001:db8::1/32",
		  "'2001:db8::1/32': host bits set (did you mean 2001:db8::/32?)" },
		{ "2001:db8::f000:0:0:0/67", "'2001:db8::f000:0:0:0/67': host bits "
		  "set (did you mean 2001:db8:0:0:e000::/67?)" },
		{ "::1/0", "'::1/0': host bits set (did you mean ::/0?)" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct acl a, before;
		char err[256] = "untouched";

		LOAD(&a, "10.0.0.0/8");
		before = a;
		if (acl_add(&a, rows[i].in, err, sizeof err) != -1)
			MISS("acl_add(\"%s\") accepted", rows[i].in);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("acl_add(\"%s\"): '%s', want '%s'", rows[i].in, err,
			     rows[i].msg);
		if (memcmp(&a, &before, sizeof a) != 0)
			MISS("acl_add(\"%s\") failed but changed the list", rows[i].in);
	}
	MISSED();
}

static void
test_max(void **state)
{
	struct acl a;
	char in[32], err[256] = "", buf[64];
	unsigned i;

	(void)state;
	memset(&a, 0, sizeof a);
	for (i = 0; i < ACL_MAX; i++) {
		snprintf(in, sizeof in, "10.0.%u.0/24", i);
		if (acl_add(&a, in, err, sizeof err) != 0)
			fail_msg("entry %u refused: %s", i, err);
	}
	assert_int_equal(a.n, ACL_MAX);
	assert_int_equal(acl_add(&a, "10.0.64.0/24", err, sizeof err), -1);
	assert_string_equal(err, "'10.0.64.0/24': too many networks (at most 64)");
	assert_int_equal(a.n, ACL_MAX);
	assert_string_equal(acl_entry_str(&a, ACL_MAX - 1, buf, sizeof buf),
	                    "10.0.63.0/24");
}

static void
test_entry_str(void **state)
{
	static const struct {
		const char *in, *out;
	} rows[] = {
		{ "10.0.0.0/8", "10.0.0.0/8" },
		{ "10.1.2.3", "10.1.2.3/32" },
		{ "0.0.0.0/0", "0.0.0.0/0" },
		{ "::1", "::1/128" },
		{ "::/0", "::/0" },
		{ "2001:DB8:0::/32", "2001:db8::/32" },
		{ "::ffff:10.0.0.0/104", "::ffff:10.0.0.0/104" },
		{ "10.8.0.0/013", "10.8.0.0/13" },
	};
	struct acl a;
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		LOAD(&a, rows[i].in);
		if (strcmp(acl_entry_str(&a, 0, buf, sizeof buf), rows[i].out) != 0)
			MISS("\"%s\" prints as '%s', want '%s'", rows[i].in, buf,
			     rows[i].out);
	}
	MISSED();

	/* Past the last entry: ""; a short buffer: truncated, terminated. */
	LOAD(&a, "10.0.0.0/8");
	memset(buf, 'X', sizeof buf);
	assert_ptr_equal(acl_entry_str(&a, 1, buf, sizeof buf), buf);
	assert_string_equal(buf, "");
	assert_string_equal(acl_entry_str(&a, 0, buf, 5), "10.0");
	assert_int_equal(buf[5], 'X');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_permits),
		cmocka_unit_test(test_other_family),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_max),
		cmocka_unit_test(test_entry_str),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
