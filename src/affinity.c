/* SPDX-License-Identifier: BSD-2-Clause */
/* affinity.c: --affinity, the CPUs a side's data threads run on. */
#include "affinity.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

/* One CPU number of a list, from *s on; advances *s past it. */
static int
cpu_number(const char **s, unsigned *cpu, char *why, size_t whylen)
{
	const char *p = *s;
	unsigned v = 0;
	int big = 0;

	if (*p < '0' || *p > '9') {
		snprintf(why, whylen, "'%s' is not a CPU number", p);
		return -1;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned)(*p - '0');
		big |= v > AFFINITY_MAX_CPU;
		if (big)
			v = AFFINITY_MAX_CPU + 1;       /* no overflow, however long */
	}
	if (big) {
		snprintf(why, whylen, "CPU %.*s is out of range (0 to %u)",
		         (int)(p - *s > 20 ? 20 : p - *s), *s, AFFINITY_MAX_CPU);
		return -1;
	}
	*cpu = v;
	*s = p;
	return 0;
}

int
affinity_parse(const char *s, uint64_t *set, char *why, size_t whylen)
{
	uint64_t out = 0;
	unsigned lo, hi, c;

	if (*s == '\0') {
		snprintf(why, whylen, "an empty list of CPUs");
		return -1;
	}
	for (;;) {
		if (cpu_number(&s, &lo, why, whylen) == -1)
			return -1;
		hi = lo;
		if (*s == '-') {
			s++;
			if (cpu_number(&s, &hi, why, whylen) == -1)
				return -1;
			if (hi < lo) {
				snprintf(why, whylen, "the range %u-%u runs backwards", lo, hi);
				return -1;
			}
		}
		for (c = lo; c <= hi; c++)
			out |= 1ULL << c;
		if (*s == '\0')
			break;
		if (*s != ',' || s[1] == '\0') {
			snprintf(why, whylen, "'%s': CPUs are numbers and ranges "
			         "separated by commas", s);
			return -1;
		}
		s++;
	}
	*set = out;
	return 0;
}

int
affinity_cpu(uint64_t set, uint32_t k)
{
	unsigned n = (unsigned)__builtin_popcountll(set), i, c;

	if (n == 0)
		return -1;
	k %= n;
	for (c = 0, i = 0; c <= AFFINITY_MAX_CPU; c++)
		if ((set >> c & 1) && i++ == k)
			return (int)c;
	return -1;                              /* not reached */
}

uint64_t
affinity_allowed(void)
{
	cpu_set_t cs;
	uint64_t out = 0;
	unsigned c;

	CPU_ZERO(&cs);
	if (sched_getaffinity(0, sizeof cs, &cs) == -1)
		return 0;
	for (c = 0; c <= AFFINITY_MAX_CPU; c++)
		if (CPU_ISSET(c, &cs))
			out |= 1ULL << c;
	return out;
}

int
affinity_missing(uint64_t set, uint64_t allowed)
{
	uint64_t miss = set & ~allowed;

	return miss == 0 ? -1 : __builtin_ctzll(miss);
}

int
affinity_unavailable(uint64_t set, char *have, size_t len)
{
	uint64_t allowed = affinity_allowed();
	int miss = affinity_missing(set, allowed);

	if (miss != -1)
		affinity_text(allowed, have, len);
	return miss;
}

void
affinity_text(uint64_t set, char *buf, size_t len)
{
	size_t n = 0;
	unsigned c = 0, e;

	snprintf(buf, len, "none");
	while (c <= AFFINITY_MAX_CPU && n < len) {
		if (!(set >> c & 1)) {
			c++;
			continue;
		}
		for (e = c; e < AFFINITY_MAX_CPU && (set >> (e + 1) & 1); e++)
			;
		n += (size_t)snprintf(buf + n, len - n, e > c ? "%s%u-%u" : "%s%u",
		                      n ? "," : "", c, e);
		c = e + 1;
	}
}

int
affinity_pin(int cpu, char *err, size_t errlen)
{
	cpu_set_t cs;
	int e;

	CPU_ZERO(&cs);
	CPU_SET(cpu, &cs);
	if ((e = pthread_setaffinity_np(pthread_self(), sizeof cs, &cs)) != 0) {
		snprintf(err, errlen, "--affinity: cannot run on CPU %d: %s", cpu,
		         strerror(e));
		return -1;
	}
	return 0;
}
