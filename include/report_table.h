/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_TABLE_H
#define GPUT_REPORT_TABLE_H

#include <stdio.h>

#include "model.h"

/* What the table takes from the command line besides the model. */
struct table_opts {
	const char *loc_format, *rem_format;  /* -f of each side (never NULL) */
	int   verbose;                        /* -v on either side */
	int   same_clock;                     /* --same-clock */
};

/*
 * One run's table (gput(1)): its lines (a line per side, or per stream
 * and the sums with -P), and the lines under them: a UDP receiver's
 * arrivals, batches, verification, queues, service demand, buffers; an
 * interrupted run's note and nothing after it; else the steady state,
 * fairness, TCP_INFO and ECN with -v, latency, and --link's lines. No
 * title (the caller prints it once). The same for one partner and for
 * several, whose parent renders each partner's model with it.
 */
void report_table(FILE *f, const struct run_model *m, const struct table_opts *o);

#endif
