/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_STREAMS_H
#define GPUT_REPORT_STREAMS_H

#include <stdio.h>

#include "model.h"

/*
 * The nttcp table of a run with parallel streams (-P), and its fairness
 * lines (see gput(1), PARALLEL STREAMS). Every figure comes from the model;
 * the rates are report_line's, from the counts.
 */

/* The table's lines, side l first, then the partner when it has a result:
 * with m->streams > 1, one line per stream of a side, in the side's format
 * (loc_fmt for side l, rem_fmt for the partner), then the side's own line
 * (its sums), each with a note after the format's columns:
 *   l   4096000    1.00 ...  stream 1  cc cubic  fct 1.002 s
 *   l  12288000    1.01 ...  sum of 3 streams
 * ("  cc NAME" for TCP: the congestion control that governs the stream,
 * the sending end's, from its TCP_INFO, on both sides' lines; with verbose
 * a receiving stream adds its own socket's, "  cc cubic (own bbr)"; fct is
 * end_ns). A stream without a result is "l  stream 3: no result"; a side
 * without streams has its plain line. With m->streams <= 1 these are
 * exactly report_line's lines of the sides. */
void report_streams_table(FILE *f, const struct run_model *m,
                          const char *loc_fmt, const char *rem_fmt,
                          int verbose);

/* The receiver's fairness, when m->have_fair (else nothing):
 *   1: fairness of 4 streams: Jain's index 0.9987, shares 25.1% 24.9% 25.0% 25.0%
 * shares in stream order, and with m->have_fair_steady (omit_ms: --omit)
 *   1: fairness of 4 streams in the steady state after 1.00 s: Jain's index 0.9990 */
void report_fairness(FILE *f, const struct run_model *m);

#endif
