/* SPDX-License-Identifier: BSD-2-Clause */
/* meter.c: real time on the monotonic clock, CPU time from getrusage. */
#include "meter.h"

#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

mono_ns
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (mono_ns)ts.tv_sec * 1000000000u + (mono_ns)ts.tv_nsec;
}

static uint64_t
tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/* User + system CPU time of this process so far, in ns (getrusage). */
static uint64_t
meter_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) == -1)
		return 0;
	return tv_ns(&ru.ru_utime) + tv_ns(&ru.ru_stime);
}

void
meter_start_at(struct meter *m, mono_ns t0)
{
	m->t0 = t0;
	m->cpu0 = meter_cpu_ns();
}

void
meter_start(struct meter *m)
{
	meter_start_at(m, mono_now());
}

/* Close the window at time t1 and store real and CPU time in r. */
static void
meter_stop_at(const struct meter *m, mono_ns t1, struct gput_result *r)
{
	uint64_t cpu1 = meter_cpu_ns();

	r->real_ns = t1 > m->t0 ? t1 - m->t0 : 0;
	r->cpu_ns = cpu1 > m->cpu0 ? cpu1 - m->cpu0 : 0;
}

void
meter_stop(const struct meter *m, struct gput_result *r)
{
	meter_stop_at(m, mono_now(), r);
}

int64_t
meter_real_offset(void)
{
	struct timespec m0, rt, m1;
	int64_t best = 0, gap = INT64_MAX;
	int i;

	/* real between two monotonic reads; of three tries keep the tightest,
	 * so that being preempted in between does not look like a step */
	for (i = 0; i < 3; i++) {
		int64_t a, b;

		clock_gettime(CLOCK_MONOTONIC, &m0);
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &m1);
		a = (int64_t)m0.tv_sec * 1000000000 + m0.tv_nsec;
		b = (int64_t)m1.tv_sec * 1000000000 + m1.tv_nsec;
		if (b - a < gap) {
			gap = b - a;
			best = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec - (a + (b - a) / 2);
		}
	}
	return best;
}

uint64_t
meter_stamp_span(uint64_t first, uint64_t last, int64_t off0, int64_t off1,
                 uint64_t fallback, int *stepped)
{
	uint64_t d = off1 > off0 ? (uint64_t)off1 - (uint64_t)off0
	    : (uint64_t)off0 - (uint64_t)off1;

	*stepped = d > METER_STEP_TOL_NS;
	if (*stepped)
		return fallback;
	return last > first ? last - first : 0;
}
