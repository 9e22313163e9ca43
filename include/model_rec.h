/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_MODEL_REC_H
#define GPUT_MODEL_REC_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/*
 * A run's model as one record of bytes, for several partners: each
 * partner's process hands its model to the parent over a pipe, and the
 * parent renders it (gput(1), SEVERAL PARTNERS). Both ends are the same
 * program (fork), so the record holds the structures as they are in
 * memory, their pointers replaced by what they point to, in the writer's
 * byte order, which the header marks; the framing is little-endian
 * (bytes.h):
 *
 *   0  magic "mrec"
 *   4  u32 0x01020304 in the writer's byte order: a reader of another
 *      order refuses the record ("a model record of another byte order")
 *   8  u64 LE: the record's length in bytes
 *   16 run_model   as in memory (its pointers not used)
 *   host        u32 LE length with its NUL (0: NULL), the bytes
 *   error       the same
 *   side 0, 1   its intervals (niv struct ival), then its nst streams,
 *               each a struct side followed by its intervals
 *
 * Pure: no I/O. Everything is checked on the way in: lengths within the
 * record, counts that fit it, strings that end in their NUL.
 */

/* m's record into a buffer of its own: *buf (free it), *len; ivals 0
 * leaves the intervals out (the record says there are none: the table
 * does not print them, and a long run has many). Returns 0, or -1 (no
 * memory). */
int model_rec_put(const struct run_model *m, int ivals, uint8_t **buf,
                  size_t *len);

/* The record at the start of buf[0..len) into out (model_free it); *used:
 * its length. out's host and error point into buf (keep buf while out is
 * used). Its figures are computed again from its counts (model_figures).
 * Returns 0, or -1 with err filled (nothing to free). */
int model_rec_take(const uint8_t *buf, size_t len, size_t *used,
                   struct run_model *out, char *err, size_t errlen);

#endif
