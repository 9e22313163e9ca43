/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_LAT_H
#define GPUT_REPORT_LAT_H

#include <stdio.h>

#include "json.h"
#include "model.h"

/*
 * --latency's report: the probes' idle and loaded phases, the increase
 * under load, responsiveness (RPM) and, with --link and --queue-bytes, the
 * loaded round trip physics expects. Renderers only: every figure is in
 * the lat_result already (client_latency.c, latstat.c).
 */

/* The text lines under the table (nothing unless l->have):
 *   latency idle:   100 sent, 100 answered, 0 lost; rtt min 20.05 p50 ...
 *   latency loaded: ...
 *   latency: +80.66 ms under load (p50), 598 RPM (60 s / 100.30 ms, ...)
 * verbose: also the partner's echo counts. */
void report_lat_text(FILE *f, const struct lat_result *l, int verbose);

/* "latency": { "interval_ms", "idle_s", "idle": {...}, "loaded": {...},
 * "increase_ms", "rpm", ... } into the open object (nothing unless
 * l->have). */
void report_lat_json(struct json *j, const struct lat_result *l);

#endif
