/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_LOG_H
#define GPUT_PARTNER_LOG_H

/*
 * The partner's log on standard error, one line per event:
 *   2026-11-23T17:44:27Z gput[1234]: client 10.0.0.2 port 40112: ...
 * Each line goes out in one write(2), so lines of concurrent sessions never
 * run into each other.
 */
void plog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
