/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_REPEAT_H
#define GPUT_CLIENT_REPEAT_H

#include <stddef.h>

#include "config.h"

/*
 * --repeat, --pause, --ci: the same test run several times, each with its
 * own handshake, and the statistics of its runs (gput(1), REPEATED RUNS).
 */

/* Run c's test c->rep.min to c->rep.max times and print each run and the
 * statistics. Returns the exit status: 0; 1 when a run failed (the runs
 * before it and their statistics are printed); 130 after ^C (the runs so
 * far, the statistics of the complete ones). */
int  run_repeat(const struct config *c);

#endif
