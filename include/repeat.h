#ifndef GPUT_REPEAT_H
#define GPUT_REPEAT_H

#include <stddef.h>

#include "cli.h"

/*
 * --repeat, --pause, --ci: the same test run several times, each with its
 * own handshake, and the statistics of its runs (gput(1), REPEATED RUNS).
 */

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
/* The options together with the rest of c (--pause and --ci need
 * --repeat; one partner; no --log). Sets the default target width for
 * MIN,MAX. Returns 0, or -1 with err filled (a usage error). */
int  repeat_check(struct config *c, char *err, size_t errlen);

/* Run c's test c->rep.min to c->rep.max times and print each run and the
 * statistics. Returns the exit status: 0; 1 when a run failed (the runs
 * before it and their statistics are printed); 130 after ^C (the runs so
 * far, the statistics of the complete ones). */
int  run_repeat(const struct config *c);

#endif
