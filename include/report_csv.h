/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_CSV_H
#define GPUT_REPORT_CSV_H

#include <stdio.h>

#include "model.h"

/*
 * The run as CSV: the header line
 *   side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit,real_calls_s,cpu_calls_s
 * then one row per side that has a result. Numbers are in the C locale
 * (doubles as json_fmt_double writes them); a rate over zero time is an
 * empty field. No field ever needs quoting.
 *
 * With parallel streams (m->streams > 1) the header adds
 *   ,start_s,fct_s,share
 * and each side's row is followed by a row per stream with a result, its
 * side column "l.1", "l.2", ... (the side's tag, a dot, the stream): its
 * own counts and window, start_s and fct_s (seconds after START), and for
 * a receiver's streams with fairness their share (0..1; else empty). The
 * side's row holds its sums, with its first start and last end and no
 * share. With one stream the CSV is exactly as before.
 *
 * With --sliding-window (m->swin) the header adds, after the verdict's,
 *   ,window,first_sends,retransmissions,timeouts,acks_received,srtt_ms,
 *   acks_sent,unique,duplicates,misordered,missing
 * a sender's row filling the first six (srtt_ms empty without a round
 * trip measured), a receiver's the last five, the rest empty.
 */
void report_csv(FILE *f, const struct run_model *m);

#endif
