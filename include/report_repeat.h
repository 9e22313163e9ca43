/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_REPEAT_H
#define GPUT_REPORT_REPEAT_H

#include <stddef.h>
#include <stdio.h>

#include "client_runset.h"
#include "report_out.h"

/*
 * Renderers of a run set (--repeat): the summary lines under the runs'
 * tables, one JSON document, the JSON lines and CSV. They read the run set
 * as runset_compute() left it and compute nothing (gput(1), REPEATED RUNS,
 * for the keys and columns).
 */

/* What the report says of the options, and its format. */
struct report_repeat_opts {
	enum gput_out out;    /* --json, --json-lines, --csv, or the table */
	uint32_t min, max;    /* --repeat MIN,MAX (N: both N) */
	uint32_t pause_ms;    /* --pause */
};

/* The line before run k's table: "run k:". */
void report_repeat_run_title(FILE *f, size_t k);
/* Run k as one JSON line: {"type":"run","run":k, ...its document...}. */
void report_repeat_run_line(FILE *f, const struct run_model *m, size_t k);
/* The run set in o->out's format; rc, the repeat's exit status so far (1:
 * a run failed, 130: interrupted). The table: the summary lines (the runs'
 * own lines are printed as each ends). JSON: the whole document with every
 * run. JSON lines: the summary line ("type":"repeat"). CSV: a row per run
 * and side, then the summary rows. */
void report_repeat(FILE *f, const struct report_repeat_opts *o,
                   const struct runset *rs, int rc);
/* The one line saying the runs ended (at --repeat's MAX) with the CI still
 * wider than --ci's WIDTH (rs->target_pct). */
void report_repeat_unmet(FILE *f, const struct runset *rs);

#endif
