/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_PSUM_H
#define GPUT_REPORT_PSUM_H

#include <stdio.h>

#include "model_psum.h"

/* Several partners' sums (model_psum), rendered. The table's sum lines (a
 * role with two sides or more) and the receivers' fairness line, prefixed
 * "+ ":
 *   + t  2896000 ...  sum of 2 senders
 *   + r  2896000 ...  sum of 2 receivers
 *   + r: fairness of 2 receivers: Jain's index 0.9990, shares 1 50.1% 2 49.9% */
void report_psum_table(FILE *f, const struct psum *s, const char *fmt);
/* CSV rows "sum,t,send,..." and "sum,r,recv,...", padded to columns. */
void report_psum_csv(FILE *f, const struct psum *s, unsigned columns);
/* JSON: {"partners": n, "send": {...}, "recv": {...}, "jain": x,
 * "shares": [...]} (lines: one line, with "type":"partners_sum"). */
void report_psum_json(FILE *f, const struct psum *s, int lines);

#endif
