/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_LOG_H
#define GPUT_PARTNER_LOG_H

/*
 * The partner's log on standard error (or syslog), one line per event:
 *   2026-11-23T17:44:27Z gput[1234]: client 10.0.0.2 port 40112: ...
 * Each line goes out in one write(2), so lines of concurrent sessions never
 * run into each other.
 */
void plog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Is standard error the client's connection cfd itself (inetd, systemd
 * Accept=yes with StandardInput=socket)? Then a log line written there
 * would reach the client inside the control protocol. */
int  plog_stderr_is_client(int cfd);

/* From now on plog() goes to syslog (the journal under systemd), facility
 * daemon, and standard error (and standard output when it is cfd too) to
 * /dev/null. */
void plog_use_syslog(int cfd);

/* 1 after plog_use_syslog(). */
int  plog_syslog(void);

#endif
