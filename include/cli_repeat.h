/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_REPEAT_H
#define GPUT_CLI_REPEAT_H

#include <stddef.h>
#include <stdint.h>

/* The options of --repeat, --pause, --ci (gput(1), REPEATED RUNS): what
 * cli_parse fills for client_repeat.c to run. */

struct repeat_opts {
	uint32_t min, max;    /* --repeat: at least min, at most max runs (0: one
	                         run, no statistics) */
	uint32_t pause_ms;    /* --pause: between runs */
	double   level;       /* --ci LEVEL: percent, 50 to 99.9 */
	double   width_pct;   /* --ci ,WIDTH: the target whole width of the
	                         receiver's Real-MBit/s CI, percent of its mean
	                         (0: no target) */
	int      pause_set, ci_set, width_set;
};

#define REPEAT_MAX        10000  /* runs at most */
#define REPEAT_PAUSE_MS   1000   /* --pause's default */
#define REPEAT_LEVEL      95.0   /* --ci's default level, percent */
#define REPEAT_WIDTH      5.0    /* --repeat MIN,MAX: the default target width */
#define REPEAT_WIDTH_MAX  1000.0 /* --ci ,WIDTH at most, percent */

/* No repeat, a pause of REPEAT_PAUSE_MS, level REPEAT_LEVEL. */
void repeat_defaults(struct repeat_opts *o);
/* --repeat N (2 <= N) or MIN,MAX (2 <= MIN <= MAX), at most REPEAT_MAX.
 * Returns 0, or -1 with why filled. */
int  repeat_parse_count(const char *arg, struct repeat_opts *o, char *why,
                        size_t whylen);
/* --ci LEVEL[,WIDTH]: LEVEL in percent from 50 to 99.9, WIDTH above 0 and
 * at most REPEAT_WIDTH_MAX. Returns 0, or -1 with why filled. */
int  repeat_parse_ci(const char *arg, struct repeat_opts *o, char *why,
                     size_t whylen);

#endif
