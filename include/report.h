/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_H
#define GPUT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "meter.h"
#include "model.h"

/*
 * One side's line of the table: the measurement, its figures (the rates,
 * computed by the model: model_figures, model_rates) and the two
 * parameters the -f tags %l and %n print.
 */
struct report_row {
	char     tag;           /* 'l' local, '1' partner */
	uint32_t len;           /* %l: this side's buffer length */
	uint64_t count;         /* %n: this side's buffer count */
	const struct gput_result *r;
	const struct figures *fig;
};

/* Is fmt a valid -f format? Returns 0, or -1 with the reason in err. */
int    report_check_format(const char *fmt, char *err, size_t errlen);

/* The -T title line for fmt: each column's name right-aligned in its width. */
void   report_title(FILE *f, const char *fmt);

/* One table line: the tag, then fmt rendered. A rate whose time is zero is
 * printed as "-" (it has no value), never as a division by zero. */
void   report_line(FILE *f, const char *fmt, const struct report_row *row);
/* report_line with note written before the newline (the streams' lines). */
void   report_line_note(FILE *f, const char *fmt, const struct report_row *row,
                        const char *note);

/* The lines under the table. sender/receiver are the two sides' results and
 * tags. */
/* fig: the receiver's loss (model_loss); u: its exact accounting (NULL:
 * none); same_clock: both ends read one clock, so the one-way delay itself
 * means something. */
void   report_udp_arrivals(FILE *f, char rtag, const struct gput_result *recv,
                           const struct figures *fig, int idle_ms,
                           const struct udp_stats *u, int same_clock);
void   report_verify(FILE *f, char tag, const struct gput_result *r);
/* A UDP side that moved several datagrams per call (--batch above 1,
 * --gso): its datagrams, calls, and datagrams and bytes per call. Nothing
 * for the other sides, where a call is a datagram. */
void   report_udp_batch(FILE *f, char tag, const struct gput_result *r,
                        const struct figures *fig, uint8_t batch, uint8_t gso);
void   report_tcp_queue(FILE *f, char tag, const struct gput_result *r);

/* -v: tag's service demand (model_service_demand), when it moved bytes:
 *   l: service demand 12.345 us of CPU per MB moved */
void   report_service_demand(FILE *f, char tag, const struct gput_result *r);

#endif
