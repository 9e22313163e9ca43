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

static struct sockaddr_storage
addr6(const char *a)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *in = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof ss);
	in->sin6_family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, a, &in->sin6_addr), 1);
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

/* One IPv6 host with addresses across its /64 is one source; another /64
 * is another; an IPv4 client of a dual-stack socket is an IPv4 /32. */
static void
test_prefix(void **state)
{
	struct gate *g = mk(4, 10, 2);
	struct sockaddr_storage a1 = addr6("2001:db8:1:2::1"), a2 = addr6("2001:db8:1:2::2"),
	    a3 = addr6("2001:db8:1:2:ffff::9"), b = addr6("2001:db8:1:3::1"),
	    m1 = addr6("::ffff:192.0.2.1"), m2 = addr6("::ffff:192.0.2.2");
	char why[200] = "";

	(void)state;
	assert_int_not_equal(gate_admit(g, &a1, 99, why, sizeof why), -1);
	assert_int_not_equal(gate_admit(g, &a2, 99, why, sizeof why), -1);
	assert_int_equal(gate_admit(g, &a3, 99, why, sizeof why), -1);
	assert_string_equal(why, "partner busy: 2 tests or handshakes from "
	    "2001:db8:1:2:ffff::9, at most 2 (--max-per-source)");
	assert_int_not_equal(gate_admit(g, &b, 99, why, sizeof why), -1);
	assert_int_not_equal(gate_admit(g, &m1, 99, why, sizeof why), -1);
	assert_int_not_equal(gate_admit(g, &m1, 99, why, sizeof why), -1);
	assert_int_not_equal(gate_admit(g, &m2, 99, why, sizeof why), -1);
	gate_free(g);
	/* --source-prefix 24,128: 192.0.2.0/24 is one source, ::1 and ::2 two */
	{
		struct partner_limits l = { .max_sessions = 4, .max_handshakes = 10,
		    .max_per_source = 2, .src_prefix4 = 24, .src_prefix6 = 128 };
		struct sockaddr_storage c1 = addr4("192.0.2.1"), c2 = addr4("192.0.2.200"),
		    c3 = addr4("192.0.2.77");

		g = gate_new(&l, why, sizeof why);
		assert_non_null(g);
		assert_int_not_equal(gate_admit(g, &c1, 99, why, sizeof why), -1);
		assert_int_not_equal(gate_admit(g, &c2, 99, why, sizeof why), -1);
		assert_int_equal(gate_admit(g, &c3, 99, why, sizeof why), -1);
		assert_int_not_equal(gate_admit(g, &a1, 99, why, sizeof why), -1);
		assert_int_not_equal(gate_admit(g, &a1, 99, why, sizeof why), -1);
		assert_int_not_equal(gate_admit(g, &a2, 99, why, sizeof why), -1);
		gate_free(g);
	}
}

/* Ten handshakes from five addresses (two each) fill --max-handshakes: a
 * client from a sixth takes the oldest place of one of them; the address
 * that lost it cannot take one back from those that hold two. */
static void
test_evict_handshake(void **state)
{
	struct gate *g = mk(4, 10, 2);
	char why[200] = "", a[32];
	int k[10], i, n;
	struct sockaddr_storage real = addr4("198.51.100.1"), sq;

	(void)state;
	for (i = 0; i < 10; i++) {
		snprintf(a, sizeof a, "127.0.0.%d", 2 + i / 2);
		sq = addr4(a);
		assert_int_not_equal(k[i] = gate_admit(g, &sq, 99, why, sizeof why), -1);
		gate_bind(g, k[i], 5000 + i);
	}
	assert_int_equal(gate_admit(g, &real, 0, why, sizeof why), k[0]);
	assert_int_equal(atomic_load(&g->evictions), 1);
	assert_int_equal(atomic_load(&g->last_evicted), 5000);
	gate_bind(g, k[0], 6000);
	/* 127.0.0.2 holds one now: no place from those that hold two */
	sq = addr4("127.0.0.2");
	assert_int_equal(gate_admit(g, &sq, 0, why, sizeof why), -1);
	assert_string_equal(why, "partner busy: 10 clients in the handshake, "
	    "refused early from 5, all at 10 (--max-handshakes)");
	/* the real client's own place is not taken by a squatter */
	for (i = 3; i <= 6; i++) {
		snprintf(a, sizeof a, "127.0.0.%d", i);
		sq = addr4(a);
		assert_int_equal(gate_admit(g, &sq, 0, why, sizeof why), -1);
	}
	assert_int_equal(atomic_load(&g->evictions), 1);
	/* nor by a client from the real client's own address */
	assert_int_equal(gate_admit(g, &real, 0, why, sizeof why), -1);
	/* the real client passes its handshake: a test's place */
	assert_int_equal(gate_run(g, k[0], why, sizeof why), 0);
	assert_int_equal(gate_flowing(g, k[0]), 0);
	for (n = 0, i = 0; i < 10; i++)
		n += atomic_load(&g->slot[k[i]].state) == GATE_HANDSHAKE;
	assert_int_equal(n, 9);
	gate_free(g);
}

/* Two addresses holding all four test places before their data flows
 * (the latency probes' idle phase): a third address's test takes the
 * oldest held place over; a running test is never taken. */
static void
test_evict_held(void **state)
{
	struct gate *g = mk(4, 10, 2);
	struct sockaddr_storage x = addr4("127.0.0.2"), y = addr4("127.0.0.3"),
	    real = addr4("127.0.0.1"), real2 = addr4("127.0.0.9");
	char why[200] = "";
	int k[4], r, r2, i;

	(void)state;
	for (i = 0; i < 4; i++) {
		assert_int_not_equal(k[i] = gate_admit(g, i < 2 ? &x : &y, 99, why,
		    sizeof why), -1);
		gate_bind(g, k[i], 7000 + i);
		assert_int_equal(gate_run(g, k[i], why, sizeof why), 0);
	}
	assert_int_not_equal(r = gate_admit(g, &real, 99, why, sizeof why), -1);
	gate_bind(g, r, 7100);
	assert_int_equal(gate_run(g, r, why, sizeof why), 0);
	assert_int_equal(atomic_load(&g->last_evicted), 7000);
	assert_int_equal(atomic_load(&g->slot[k[0]].state), GATE_EVICTED);
	/* the evicted process cannot move on */
	assert_int_equal(gate_flowing(g, k[0]), -1);
	gate_reaped(g, 7000);
	assert_int_equal(atomic_load(&g->slot[k[0]].state), GATE_FREE);
	/* all four flowing: nothing to take over, refused at once */
	assert_int_equal(gate_flowing(g, r), 0);
	for (i = 1; i < 4; i++)
		assert_int_equal(gate_flowing(g, k[i]), 0);
	assert_int_equal(gate_admit(g, &real2, 99, why, sizeof why), -1);
	assert_string_equal(why, "partner busy: 4 tests running, at most 4 "
	    "(--max-sessions)");
	(void)r2;
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
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_evict_handshake),
		cmocka_unit_test(test_evict_held),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
