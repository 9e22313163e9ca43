/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_ccpolicy.c: a partner's congestion controls: the list matching, and
 * the probe (the host's default is settable by any process; a name the
 * kernel lacks by none). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "partner_ccpolicy.h"
#include "tcpinfo.h"

static void
test_allows(void **state)
{
	(void)state;
	assert_true(ccpolicy_allows("reno cubic bbr", "reno"));
	assert_true(ccpolicy_allows("reno cubic bbr", "cubic"));
	assert_true(ccpolicy_allows("reno cubic bbr", "bbr"));
	assert_false(ccpolicy_allows("reno cubic bbr", "bb"));
	assert_false(ccpolicy_allows("reno cubic bbr", "ubic"));
	assert_false(ccpolicy_allows("reno cubic bbr", "bbr2"));
	assert_false(ccpolicy_allows("reno cubic bbr", ""));
	assert_false(ccpolicy_allows("", "reno"));
	assert_true(ccpolicy_allows("bbr2 bbr", "bbr"));
}

/* The host's default is settable by any process: probing it alone allows
 * it; a name twice counts once; a name the kernel lacks is refused. */
static void
test_probe(void **state)
{
	char dflt[64], allowed[CCPOLICY_MAX], refused[CCPOLICY_MAX], err[256];
	char list[160];

	(void)state;
	if (tcpinfo_cc_default(dflt, sizeof dflt) == -1)
		skip();
	snprintf(list, sizeof list, "%s,%s", dflt, dflt);
	assert_int_equal(ccpolicy_probe(list, allowed, sizeof allowed, refused,
	    sizeof refused, err, sizeof err), 0);
	assert_string_equal(allowed, dflt);
	assert_string_equal(refused, "");
	snprintf(list, sizeof list, "%s,nosuchcc", dflt);
	assert_int_equal(ccpolicy_probe(list, allowed, sizeof allowed, refused,
	    sizeof refused, err, sizeof err), 0);
	assert_string_equal(allowed, dflt);
	assert_string_equal(refused, "nosuchcc");
	assert_int_equal(ccpolicy_probe("nosuchcc", allowed, sizeof allowed,
	    refused, sizeof refused, err, sizeof err), -1);
	assert_string_equal(err, "this partner can set none of its congestion "
	    "controls (nosuchcc)");
	/* every one the host offers: the default among those allowed */
	assert_int_equal(ccpolicy_probe(NULL, allowed, sizeof allowed, refused,
	    sizeof refused, err, sizeof err), 0);
	assert_true(ccpolicy_allows(allowed, dflt));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_allows),
		cmocka_unit_test(test_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
