/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_VERDICT_H
#define GPUT_REPORT_VERDICT_H

#include <stdio.h>

#include "json.h"
#include "model.h"
#include "verdict.h"

/*
 * The verdict (verdict.h) in words and in JSON. It renders what
 * verdict_run() and verdict_stream() return and decides nothing.
 */

/* One receiver's verdict line, then a line per warning:
 *   1: 9.0700 MBit/s, 0.9640 of eta*C: limited by congestion: 29 segments
 *      retransmitted (0.41%), cwnd 31, srtt 24.1 ms against 20.1 min (bbr)
 *   1: warning: the sender kept 10.0% of its schedule ...
 * label is the line's tag ("1", "1.2" for stream 2). */
void report_verdict_line(FILE *f, const char *label, const struct verdict *v);

/* After the table: the run's verdict line; with -P each receiving
 * stream's, and where their shares differ (Jain's index under 1) a line of
 * the shares and the evidence that differs between them. */
void report_verdict_text(FILE *f, const struct run_model *m);

/* Several partners (and --bidir): after their sums, with -v or --link,
 * the figures of their receivers' verdicts that differ between them (srtt,
 * retransmissions, cwnd, congestion control, limit), rm[k] partner k's run
 * (NULL or failed: left out); nothing with fewer than two:
 *   + r: what differs between the partners' receivers: srtt_ms 20.1/80.3;
 *     retrans 0/29; cc bbr/cubic; limit link/congestion (in partner order) */
void report_verdict_partners(FILE *f, const struct run_model *const *rm,
                             unsigned n);

/* The verdict as a JSON value (an object) after a key the caller wrote:
 *   {"limit": "link", "ratio": 0.98 | null, "bound": "eta*C" | null,
 *    "evidence": {"goodput_mbit": 9.4, ...}, "warnings": ["..."],
 *    "cc": "cubic" | null} */
void report_verdict_json(struct json *j, const struct verdict *v);

#endif
