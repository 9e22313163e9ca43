/* SPDX-License-Identifier: BSD-2-Clause */
/* startat.c: --start-at, an absolute start time several clients share. */
#include "startat.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>

int64_t
startat_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int
startat_parse(const char *s, int64_t now, int64_t *at, char *why,
              size_t whylen)
{
	int64_t sec = 0, frac = 0, scale = 100000000;
	const char *p = s;

	if (*p < '0' || *p > '9')
		goto bad;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > 9000000000LL) {       /* past the year 2255 */
			snprintf(why, whylen, "'%s' is too far ahead (at most %d s "
			         "from now)", s, STARTAT_MAX_AHEAD_S);
			return -1;
		}
		sec = sec * 10 + (*p - '0');
	}
	if (*p == '.') {
		if (p[1] == '\0')
			goto bad;
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10) {
			if (scale == 0) {
				snprintf(why, whylen, "'%s': at most nine decimals "
				         "(nanoseconds)", s);
				return -1;
			}
			frac += (*p - '0') * scale;
		}
	}
	if (*p != '\0')
		goto bad;
	*at = sec * 1000000000 + frac;
	if (*at <= now) {
		snprintf(why, whylen, "'%s' is in the past (now %lld.%03lld)", s,
		         (long long)(now / 1000000000),
		         (long long)(now % 1000000000 / 1000000));
		return -1;
	}
	if (*at - now > (int64_t)STARTAT_MAX_AHEAD_S * 1000000000) {
		snprintf(why, whylen, "'%s' is %.3f s ahead: at most %d s from now",
		         s, (double)(*at - now) / 1e9, STARTAT_MAX_AHEAD_S);
		return -1;
	}
	return 0;
bad:
	snprintf(why, whylen, "'%s' is not a time (seconds since 1970, e.g. "
	         "1700000000.25)", s);
	return -1;
}

int
startat_wait(int64_t at, const struct stopreq *stop)
{
	struct timespec ts = { .tv_sec = at / 1000000000,
	                       .tv_nsec = at % 1000000000 };
	struct pollfd pf = { .fd = stop_fd(stop), .events = POLLIN };
	int e;

	for (;;) {
		int64_t left = at - startat_now();

		if (stop_requested(stop))
			return -1;
		if (left <= 0)
			return 0;
		if (left > 2000000) {           /* poll to 1 ms before, awake to ^C */
			(void)poll(&pf, pf.fd >= 0 ? 1 : 0,
			    (int)((left - 1000000) / 1000000));
			continue;
		}
		/* the last millisecond exact; a signal ends it early (EINTR)
		 * and the loop looks again */
		e = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
		if (e != 0 && e != EINTR)
			return stop_requested(stop) ? -1 : 0;
	}
}
