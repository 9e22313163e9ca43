/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_repeat.c: the values of --repeat and --ci. */
#include "cli_repeat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

void
repeat_defaults(struct repeat_opts *o)
{
	memset(o, 0, sizeof *o);
	o->pause_ms = REPEAT_PAUSE_MS;
	o->level = REPEAT_LEVEL;
}

/* A whole number of runs from s up to its end or a comma. Returns the
 * character after it, or NULL. */
static const char *
parse_runs(const char *s, uint32_t *v)
{
	uint64_t n = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((n = n * 10 + (uint64_t)(*s - '0')) > REPEAT_MAX)
			return NULL;
	*v = (uint32_t)n;
	return s;
}

int
repeat_parse_count(const char *arg, struct repeat_opts *o, char *why,
                   size_t whylen)
{
	uint32_t lo, hi;
	const char *p = parse_runs(arg, &lo);

	if (p != NULL && *p == '\0')
		hi = lo;
	else if (p == NULL || *p != ',' || (p = parse_runs(p + 1, &hi)) == NULL ||
	    *p != '\0') {
		snprintf(why, whylen, "'%s' is not N or MIN,MAX (runs, 2 to %d)",
		         arg, REPEAT_MAX);
		return -1;
	}
	if (lo < 2 || hi < lo) {
		snprintf(why, whylen, "'%s': at least 2 runs%s", arg, hi < lo ?
		         ", and MIN no more than MAX" : "");
		return -1;
	}
	o->min = lo;
	o->max = hi;
	return 0;
}

/* A number from s up to its end or a comma, in [min, max]. Returns the
 * character after it, or NULL. */
static const char *
parse_pct(const char *s, double min, double max, double *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	*v = strtod(s, &end);
	if (errno != 0 || !isfinite(*v) || *v < min || *v > max ||
	    (*end != '\0' && *end != ','))
		return NULL;
	return end;
}

int
repeat_parse_ci(const char *arg, struct repeat_opts *o, char *why,
                size_t whylen)
{
	const char *p = parse_pct(arg, STATS_LEVEL_MIN, STATS_LEVEL_MAX, &o->level);

	if (p == NULL) {
		snprintf(why, whylen, "'%s': the level is a percentage from %g to %g",
		         arg, STATS_LEVEL_MIN, STATS_LEVEL_MAX);
		return -1;
	}
	o->ci_set = 1;
	if (*p == '\0')
		return 0;
	p = parse_pct(p + 1, 0, REPEAT_WIDTH_MAX, &o->width_pct);
	if (p == NULL || *p != '\0' || o->width_pct <= 0) {
		snprintf(why, whylen, "'%s': the width is a percentage of the mean, "
		         "above 0 and at most %g", arg, REPEAT_WIDTH_MAX);
		return -1;
	}
	o->width_set = 1;
	return 0;
}
