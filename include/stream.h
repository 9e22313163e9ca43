/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_STREAM_H
#define GPUT_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "xfer.h"

/*
 * Running streams. A stream's data path is chosen once from a table by
 * protocol and role (xfer_tcp.h, xfer_udp.h); the data paths know nothing
 * of what is above them. Several streams run at once, each in a thread of
 * its own, so that they use every core.
 */

/* n zeroed streams, aligned for their cache lines (free() them), each with
 * fd -1 and log_fd -1; NULL when out of memory. */
struct stream *stream_alloc(uint32_t n);

/* Run s's data path in the calling thread: fills s->r, start, end, rc and
 * err, then sets done. */
void stream_run(struct stream *s);

/* Run st[0..n) at once, each in a thread of its own (a single stream runs
 * in the calling thread, as gput always did), and wait for all. A stream
 * that fails while no stop was requested stops the others: its id goes to
 * stop->failed. Returns 0, or -1 with err filled when a thread could not be
 * started (the streams already running are stopped and waited for). */
int  stream_run_all(struct stream *st, uint32_t n, char *err, size_t errlen);

/* The stream whose failure ended the run, or NULL (none failed, or the
 * run was stopped from outside first). */
const struct stream *stream_failed(const struct stream *st, uint32_t n);

/* The reason the run ended when a stream failed, into buf: the failed
 * stream's (or the first's), named "stream K: " when there are several. */
void stream_failure(const struct stream *st, uint32_t n, char *buf, size_t len);

/* The streams' measurements into their records sd->st[0..n) (times in ns
 * after t0, the side's START; a stream that never opened its window starts
 * at its end), then the side's sums (model_sum) with cpu_ns, the CPU time
 * measured around all of them. With one stream the side is that stream, as
 * gput always measured it. */
void stream_sum(const struct stream *st, uint32_t n, mono_ns t0,
                uint64_t cpu_ns, struct side *sd);

#endif
