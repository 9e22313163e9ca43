/* meter.c: real time on the monotonic clock, CPU time from getrusage. */
#include "meter.h"

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

uint64_t
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

void
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
