/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_LINK_H
#define GPUT_REPORT_LINK_H

#include <stdint.h>
#include <stdio.h>

#include "linkpred.h"
#include "overhead.h"
#include "pathlim.h"
#include "report.h"

/*
 * The link prediction's lines (gput(1), LINK PREDICTION): the renderer of
 * what overhead.c, pathlim.c and linkpred.c computed. It computes nothing
 * of its own beyond turning bit/s into MBit/s and the ratios it prints.
 */

/*
 * The per-layer breakdown of one message m (ovh_message() for c and
 * msg_bytes) and eta; with expected_bps > 0 (eta * C) also the expected
 * goodput. The last lines are machine-readable:
 *     eta 0.9415
 *     expected 9.4148 MBit/s        (only with a link)
 */
void report_link_breakdown(FILE *f, const struct ovh_conf *c,
                           uint64_t msg_bytes, const struct ovh_msg *m,
                           double expected_bps);

/*
 * The lines of a path's RTT (pathlim.h), under the breakdown of --predict
 * or the link line of --link, each only when its figures are known:
 *     rtt 40 ms: bandwidth-delay product 47074 bytes (eta*C x RTT)
 *     window 65536 bytes / rtt 40 ms = 13.1072 MBit/s: window-limited, 0.1392 of expected
 *     window 65536 bytes / rtt 40 ms = 13.1072 MBit/s: not window-limited, 1.3923 x expected
 *     Mathis bound MSS 1448, rtt 20 ms, loss 1%: 7.0937 MBit/s: loss-limited, 0.7535 of expected
 *     bound 7.0937 MBit/s (the least of eta*C, window/RTT and the Mathis bound)
 * Without a link (expected_bps 0) the comparisons are left out.
 */
void report_link_path(FILE *f, const struct plim *p);

/* gput --predict: the breakdown of pr, and its path's lines. */
void report_link_predict(FILE *f, const struct link_predict *pr);

/* After a run with --link: m's prediction (link_pred) for its connection
 * (link_conn, the sender's write length data_len), and each side's
 * measured Real-MBit/s against it (its figures' link_ratio, and
 * bound_ratio when the path's bound is below eta * C); a short run's
 * receiver (rows[recv_row]) also the bias of its own length. */
void report_link(FILE *f, const struct run_model *m,
                 const struct report_row *rows, int nrows, int recv_row);

#endif
