/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_WIN_H
#define GPUT_REPORT_WIN_H

#include <stdio.h>

#include "model.h"

/*
 * --sliding-window's lines under the table (gput(1), SLIDING WINDOW): the
 * sender's sends, retransmissions, timeouts, acknowledgements and timer;
 * the receiver's acknowledgements and its datagrams unique, duplicate,
 * misordered (arrived below the highest seen: udpacct's reordered) and
 * missing (sent, never delivered: fig.udp_lost, the sender's first sends
 * less the unique arrivals). Nothing without m->swin.
 */
void report_win_text(FILE *f, const struct run_model *m);

#endif
