/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_affinity.c: --affinity: the CPU list parser, the CPU each stream
 * takes, the text of a set, the options before and after the partner's
 * name, and PARAMS bytes 168..175 on the wire and back. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "affinity.h"
#include "cli.h"
#include "wire_ctl.h"
#include "clihelp.h"

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

static void
test_parse(void **state)
{
	static const struct { const char *in; uint64_t set; const char *why; } rows[] = {
		{ "0", 0x1, NULL },
		{ "1", 0x2, NULL },
		{ "0,1", 0x3, NULL },
		{ "1,0", 0x3, NULL },
		{ "1-3,6", 0x4e, NULL },
		{ "0-63", UINT64_MAX, NULL },
		{ "63", 1ULL << 63, NULL },
		{ "2,2", 0x4, NULL },
		{ "007", 0x80, NULL },
		{ "", 0, "an empty list of CPUs" },
		{ "64", 0, "CPU 64 is out of range (0 to 63)" },
		{ "99999999999999999999999", 0,
		  "CPU 99999999999999999999 is out of range (0 to 63)" },
		{ "0-64", 0, "CPU 64 is out of range (0 to 63)" },
		{ "3-1", 0, "the range 3-1 runs backwards" },
		{ "a", 0, "'a' is not a CPU number" },
		{ "-1", 0, "'-1' is not a CPU number" },
		{ "1,", 0, "',': CPUs are numbers and ranges separated by commas" },
		{ "1,,2", 0, "',2' is not a CPU number" },
		{ "1 2", 0, "' 2': CPUs are numbers and ranges separated by commas" },
		{ "1-", 0, "'' is not a CPU number" },
		{ "1;2", 0, "';2': CPUs are numbers and ranges separated by commas" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		uint64_t set = 0xdead;
		char why[128] = "";
		int rc = affinity_parse(rows[i].in, &set, why, sizeof why);

		if (rows[i].why == NULL && (rc != 0 || set != rows[i].set))
			MISS("'%s': rc %d set %llx (%s)", rows[i].in, rc,
			     (unsigned long long)set, why);
		if (rows[i].why != NULL && (rc != -1 || strcmp(why, rows[i].why) != 0 ||
		    set != 0xdead))
			MISS("'%s': rc %d '%s', want '%s'", rows[i].in, rc, why, rows[i].why);
	}
	MISSED();
}

static void
test_cpu_text(void **state)
{
	static const struct { uint64_t set; const char *text; int cpu[5]; } rows[] = {
		{ 0, "none", { -1, -1, -1, -1, -1 } },
		{ 0x1, "0", { 0, 0, 0, 0, 0 } },
		{ 0x3, "0-1", { 0, 1, 0, 1, 0 } },
		{ 0x4e, "1-3,6", { 1, 2, 3, 6, 1 } },
		{ 0x5, "0,2", { 0, 2, 0, 2, 0 } },
		{ 1ULL << 63, "63", { 63, 63, 63, 63, 63 } },
		{ UINT64_MAX, "0-63", { 0, 1, 2, 3, 4 } },
		{ 0x8000000000000001ULL, "0,63", { 0, 63, 0, 63, 0 } },
	};
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char buf[192];

		affinity_text(rows[i].set, buf, sizeof buf);
		if (strcmp(buf, rows[i].text) != 0)
			MISS("%llx: '%s', want '%s'", (unsigned long long)rows[i].set, buf,
			     rows[i].text);
		for (k = 0; k < 5; k++)
			if (affinity_cpu(rows[i].set, (uint32_t)k) != rows[i].cpu[k])
				MISS("%llx stream %zu: CPU %d, want %d",
				     (unsigned long long)rows[i].set, k,
				     affinity_cpu(rows[i].set, (uint32_t)k), rows[i].cpu[k]);
	}
	/* stream 127, the last, over 0-63: wraps to 63 */
	assert_int_equal(affinity_cpu(UINT64_MAX, 127), 63);
	assert_int_equal(affinity_missing(0x3, 0x3), -1);
	assert_int_equal(affinity_missing(0, 0), -1);
	assert_int_equal(affinity_missing(0x6, 0x3), 2);
	assert_int_equal(affinity_missing(1ULL << 40, 0x3), 40);
	/* this process may run somewhere */
	assert_true(affinity_allowed() != 0);
	MISSED();
}

/* Before the partner's name: this side; after it: the partner's, carried
 * in its PARAMS; each partner its own. */
static void
test_cli(void **state)
{
	struct config c;
	struct xfer_params loc, rem;
	char err[256];

	(void)state;
	assert_int_equal(cli_parse_line("--affinity 0 host --affinity 1", &c, err,
	                 sizeof err), 0);
	cli_params(&c, &loc, &rem);
	assert_int_equal(loc.cpus, 0x1);
	assert_int_equal(rem.cpus, 0x2);
	assert_int_equal(cli_parse_line("--affinity 0-1 host", &c, err, sizeof err), 0);
	cli_params(&c, &loc, &rem);
	assert_int_equal(loc.cpus, 0x3);
	assert_int_equal(rem.cpus, 0x3);        /* inherited, like -l */
	assert_int_equal(cli_parse_line("a --affinity 1 b", &c, err, sizeof err), 0);
	assert_int_equal(c.npartners, 2);
	assert_int_equal(c.partners[0].rem.cpus, 0x2);
	assert_int_equal(c.partners[1].rem.cpus, 0);
	assert_int_equal(cli_parse_line("host", &c, err, sizeof err), 0);
	cli_params(&c, &loc, &rem);
	assert_int_equal(loc.cpus, 0);
	assert_int_equal(rem.cpus, 0);
	assert_int_equal(cli_parse_line("--affinity 64 host", &c, err, sizeof err), -1);
	assert_string_equal(err, "--affinity: CPU 64 is out of range (0 to 63)");
	assert_int_equal(cli_parse_line("host --affinity x", &c, err, sizeof err), -1);
	assert_string_equal(err, "--affinity: 'x' is not a CPU number");
	assert_int_equal(cli_parse_line("--affinity 63 host", &c, err, sizeof err), -1);
	if ((affinity_allowed() >> 63 & 1) == 0)
		assert_true(strncmp(err, "--affinity: CPU 63 is not available here "
		            "(this process may run on ", 66) == 0);
}

/* PARAMS bytes 168..175: the set, big-endian, covered by the MAC; zero
 * when not asked (the golden PARAMS of unit_ctl stays as it was). */
static void
test_wire(void **state)
{
	struct ctl_msg m, d;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD], sig[CTL_SIGNED_MAX],
	    chal[CTL_CHALLENGE_LEN] = { 0 };
	char err[256];
	size_t i;

	(void)state;
	memset(&m, 0, sizeof m);
	m.type = CTL_PARAMS;
	m.params.proto = PROTO_TCP;
	m.params.role = ROLE_RECV;
	m.params.len = m.params.data_len = 1000;
	m.params.count = 10;
	m.params.data_bytes = 10000;
	m.params.streams = 2;
	m.params.cpus = 0x8000000000000402ULL;
	assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + CTL_PARAMS_LEN);
	assert_memory_equal(buf + CTL_HDR_LEN + 168,
	                    "\x80\x00\x00\x00\x00\x00\x04\x02", 8);
	for (i = 152; i < 168; i++)
		assert_int_equal(buf[CTL_HDR_LEN + i], 0);
	for (i = 176; i < 184; i++)
		assert_int_equal(buf[CTL_HDR_LEN + i], 0);
	memset(&d, 0x55, sizeof d);
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), 0);
	assert_int_equal(d.params.cpus, m.params.cpus);
	/* the MAC covers it */
	assert_int_equal(ctl_signed_bytes(chal, &m, NULL, sig),
	                 CTL_CHALLENGE_LEN + CTL_PARAMS_SIGNED);
	assert_memory_equal(sig + CTL_CHALLENGE_LEN + 168,
	                    "\x80\x00\x00\x00\x00\x00\x04\x02", 8);
	/* without --affinity: zero */
	m.params.cpus = 0;
	ctl_encode(&m, buf);
	for (i = 168; i < 176; i++)
		assert_int_equal(buf[CTL_HDR_LEN + i], 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_cpu_text),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_wire),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
