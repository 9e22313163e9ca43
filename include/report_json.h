/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_JSON_H
#define GPUT_REPORT_JSON_H

#include <stdio.h>

#include "model.h"

/*
 * JSON renderers of the result model (see gput(1), OUTPUT, for the keys).
 * They read the model and compute only rates from its counts: a rate over
 * zero time, or any value that is not finite, is null. Keys are stable: a
 * key is never renamed or given another type; new ones may be added.
 */

/* The string in "version". */
#define REPORT_JSON_VERSION_PREFIX "gput "

/* The whole run as one pretty-printed document, then a newline. A failed
 * run (m->error set) is still a valid document, with "error" set. */
void report_json(FILE *f, const struct run_model *m);

/* One JSON-lines object for interval iv of side m->side[side_index]:
 * {"type":"interval","side":"l",...the interval's keys...} and a newline.
 * Writes nothing when side_index is not 0 or 1. */
void report_json_ival(FILE *f, const struct run_model *m, int side_index,
                      const struct ival *iv);

/* The same for interval iv of s, a side of m or a stream of one: with
 * m->streams > 1, "stream": s->stream follows "side" (0: the side's sum,
 * 1..N: that stream); with one stream the object is report_json_ival's. */
void report_json_stream_ival(FILE *f, const struct run_model *m,
                             const struct side *s, const struct ival *iv);

/* The run's object (report_json's document) into j: type, when not NULL,
 * is its first member, then "run": run when run > 0 (a --repeat's runs). */
struct json;
void report_json_put_run(struct json *j, const struct run_model *m,
                         const char *type, size_t run);
/* The "params" member of m's document into j's open object. */
void report_json_put_params(struct json *j, const struct run_model *m);

/* The document of report_json on one line, with "type":"summary" first. */
void report_json_summary_line(FILE *f, const struct run_model *m);

#endif
