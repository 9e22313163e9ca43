/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_UNITS_H
#define GPUT_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * One rule for every number a user types (documented in gput(1), UNITS):
 *   sizes  (-l, -x):      suffix K, M, G = 2^10, 2^20, 2^30 bytes (either case);
 *   rates  (--link):      suffix k, M, G = 10^3, 10^6, 10^9 bit/s (either case),
 *                         fractions allowed ("9.5M");
 *   buffers (-w):        a plain number counts kilobytes (nttcp's -w), a
 *                         number with a suffix is a size as above ("256K");
 *   counts (-n, -p, -g):  plain decimal integers.
 * Every parser checks the range and, on failure, writes a one-line reason to
 * err (without the option name) and returns -1.
 */

/* Parse a plain decimal integer in [min, max]. Returns 0, or -1 with err filled. */
int units_parse_int(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                    char *err, size_t errlen);

/* Parse a size with an optional B (bytes), K/M/G (binary) suffix into
 * bytes, in [min, max]. */
int units_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                     char *err, size_t errlen);

/* Parse a plain decimal number ("40", "0.5": digits with at most one
 * point, no sign, exponent or suffix) in [min, max]. Returns 0, or -1 with
 * err filled. */
int units_parse_decimal(const char *s, double min, double max, double *out,
                        char *err, size_t errlen);

/* nttcp's -w: a plain number of kilobytes (2^10 bytes), or a size with a
 * B/K/M/G suffix (-w 7200B: bytes), into bytes, in [min_kb, max_kb]
 * kilobytes. */
int units_parse_kbytes(const char *s, uint64_t min_kb, uint64_t max_kb,
                       uint64_t *out, char *err, size_t errlen);

/* The range of a link rate (--link of gput and gput-pcap), bit/s. */
#define UNITS_RATE_MIN 1e3
#define UNITS_RATE_MAX 1e13

/* Parse a bit rate with an optional k/M/G (decimal) suffix into bit/s, in
 * [min, max] bit/s. A trailing "bit", "bps" or "b/s" is accepted and ignored. */
int units_parse_rate(const char *s, double min, double max, double *out,
                     char *err, size_t errlen);

#endif
