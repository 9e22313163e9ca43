/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_gate.c: the partner's admission (partner_gate.c): handshakes apart from
 * tests, --max-per-source, the early random refusal's chances at each
 * count, a test's place taken under the lock and freed when its process
 * is reaped, with the exact messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "partner_gate.h"

static struct sockaddr_storage
addr4(const char *a)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;

	memset(&ss, 0, sizeof ss);
	in->sin_family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, a, &in->sin_addr), 1);
	return ss;
}

static struct gate *
mk(unsigned sessions, unsigned hand, unsigned per)
{
	struct partner_limits l = { .max_sessions = sessions,
	    .max_handshakes = hand, .max_per_source = per };
	char err[128];
	struct gate *g = gate_new(&l, err, sizeof err);

	assert_non_null(g);
	return g;
}

/* One address: at most --max-per-source places, handshakes or tests. */
static void
test_per_source(void **state)
{
	struct gate *g = mk(4, 10, 2);
	struct sockaddr_storage a = addr4("192.0.2.1"), b = addr4("192.0.2.2");
	char why[200] = "";
	int k1, k2;

	(void)state;
	assert_int_not_equal(k1 = gate_admit(g, &a, 99, why, sizeof why), -1);
	assert_int_not_equal(k2 = gate_admit(g, &a, 99, why, sizeof why), -1);
	assert_int_equal(gate_admit(g, &a, 99, why, sizeof why), -1);
	assert_string_equal(why, "partner busy: 2 tests or handshakes from "
	    "192.0.2.1, at most 2 (--max-per-source)");
	assert_int_not_equal(gate_admit(g, &b, 99, why, sizeof why), -1);
	gate_bind(g, k1, 1234);
	assert_int_equal(gate_run(g, k1, why, sizeof why), 0);     /* a test now */
	assert_int_equal(gate_admit(g, &a, 99, why, sizeof why), -1);
	gate_reaped(g, 1234);                   /* its process ended */
	assert_int_not_equal(gate_admit(g, &a, 99, why, sizeof why), -1);
	(void)k2;
	gate_free(g);
}

/* Handshakes do not take tests' places, nor tests handshakes'. */
static void
test_stages(void **state)
{
	struct gate *g = mk(2, 4, 100);
	struct sockaddr_storage a = addr4("198.51.100.7");
	char why[200] = "";
	int k[6], i;

	(void)state;
	for (i = 0; i < 2; i++) {               /* two tests run */
		assert_int_not_equal(k[i] = gate_admit(g, &a, 99, why, sizeof why), -1);
		gate_bind(g, k[i], 100 + i);
		assert_int_equal(gate_run(g, k[i], why, sizeof why), 0);
	}
	assert_int_equal(gate_admit(g, &a, 99, why, sizeof why), -1);
	assert_string_equal(why, "partner busy: 2 tests running, at most 2 "
	    "(--max-sessions)");
	gate_reaped(g, 100);
	/* four handshakes, however many tests run */
	for (i = 2; i < 6; i++)
		assert_int_not_equal(k[i] = gate_admit(g, &a, 99, why, sizeof why),
		    -1);
	/* rnd 99: never refused early; at 4 of 4 always */
	assert_int_equal(gate_admit(g, &a, 99, why, sizeof why), -1);
	assert_string_equal(why, "partner busy: 4 clients in the handshake, "
	    "refused early from 2, all at 4 (--max-handshakes)");
	/* one passes: a test's place is free (one of two) */
	assert_int_equal(gate_run(g, k[2], why, sizeof why), 0);
	assert_int_equal(gate_run(g, k[3], why, sizeof why), -1);
	assert_string_equal(why, "partner busy: 2 tests running, at most 2 "
	    "(--max-sessions)");
	gate_free(g);
}

/* The early refusal: from half the handshakes, 30% at first, rising to
 * 100% at the limit (rnd % 100 below the chance: refused). */
static void
test_early(void **state)
{
	static const struct { unsigned held; uint32_t rnd; int refused; } rows[] = {
		{ 4, 0, 0 },            /* below half of 10: never */
		{ 5, 29, 1 }, { 5, 30, 0 },             /* 30% */
		{ 7, 57, 1 }, { 7, 58, 0 },             /* 30 + 70 * 2/5 = 58% */
		{ 9, 85, 1 }, { 9, 86, 0 },             /* 86% */
		{ 10, 99, 1 },                          /* all */
	};
	struct sockaddr_storage a = addr4("203.0.113.9");
	char why[200];
	size_t r;
	unsigned i;

	(void)state;
	for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		struct gate *g = mk(4, 10, 100);

		for (i = 0; i < rows[r].held; i++)
			assert_int_not_equal(gate_admit(g, &a, 99, why, sizeof why), -1);
		if ((gate_admit(g, &a, rows[r].rnd, why, sizeof why) == -1) !=
		    rows[r].refused)
			fail_msg("%u held, rnd %u: want %s", rows[r].held,
			         (unsigned)rows[r].rnd, rows[r].refused ? "refused" :
			         "admitted");
		gate_free(g);
	}
}

/* A session that died holding the lock leaves it to no one once reaped. */
static void
test_lock_broken(void **state)
{
	struct gate *g = mk(2, 2, 2);
	struct sockaddr_storage a = addr4("192.0.2.1");
	char why[200];
	int k1 = gate_admit(g, &a, 99, why, sizeof why);
	int k2 = gate_admit(g, &a, 99, why, sizeof why);

	(void)state;
	gate_bind(g, k1, 4242);
	atomic_store(&g->lock, 4242);           /* died in gate_run */
	gate_reaped(g, 4242);
	assert_int_equal(atomic_load(&g->lock), 0);
	assert_int_equal(gate_run(g, k2, why, sizeof why), 0);
	gate_free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_source),
		cmocka_unit_test(test_stages),
		cmocka_unit_test(test_early),
		cmocka_unit_test(test_lock_broken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
