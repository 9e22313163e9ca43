/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_PROM_H
#define GPUT_REPORT_PROM_H

#include <stdio.h>

#include "model.h"

/*
 * The run in the Prometheus text exposition format (version 0.0.4), for
 * --prometheus and node exporter's textfile collector (see gput(1),
 * PROMETHEUS). Base units only: seconds, bits per second, bytes, counts.
 * Every metric family has its HELP and TYPE lines and its samples
 * together; families without a sample are left out. No timestamps (the
 * textfile collector refuses them): gput_run_timestamp_seconds says when.
 *
 * Labels, all of bounded cardinality: target (the partner's name as given
 * on the command line), proto ("tcp", "udp"), direction ("out": data from
 * this host to the target, "in": the other way); the figures of a side add
 * side ("local", "partner"), role ("send", "recv") and stream ("sum" for
 * the side; "1".."N" with -P N above 1). With --latency, the probes'
 * families add phase ("idle", "loaded") and, to the round trips,
 * percentile ("0", "50", "90", "99", "100").
 *
 * gput_up is 1 for a run that measured, else 0 with an error label naming
 * m->error_code ("failed", "connect", "busy", "partner", "interrupted",
 * "verify"); a failed run prints no other figure than its timestamp. The
 * renderer computes nothing: each value is a field of the model or one of
 * the model's figure functions, in base units.
 */
void report_prom(FILE *f, const struct run_model *m);

/* The error label's value for code (NULL for RUN_OK). */
const char *report_prom_error_name(enum run_error code);

#endif
