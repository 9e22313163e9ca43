/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_log.c: the partner's log lines. */
#include "partner_log.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

static int to_syslog;           /* plog_use_syslog() was called */

/* Do descriptors a and b refer to one socket? */
static int
same_socket(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && S_ISSOCK(sa.st_mode) &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int
plog_stderr_is_client(int cfd)
{
	return same_socket(STDERR_FILENO, cfd);
}

void
plog_use_syslog(int cfd)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	/* nothing written to standard output or error may reach the client:
	 * both go nowhere (when /dev/null cannot be opened, they are closed) */
	if (same_socket(STDOUT_FILENO, cfd)) {
		if (null == -1 || dup2(null, STDOUT_FILENO) == -1)
			close(STDOUT_FILENO);
	}
	if (null == -1 || dup2(null, STDERR_FILENO) == -1)
		close(STDERR_FILENO);
	if (null > STDERR_FILENO)
		close(null);
	openlog("gput", LOG_PID | LOG_NDELAY, LOG_DAEMON);
	to_syslog = 1;
}

int
plog_syslog(void)
{
	return to_syslog;
}

void
plog(const char *fmt, ...)
{
	char line[768];
	struct tm tm;
	time_t now = time(NULL);
	size_t n;
	va_list ap;
	int k;

	if (to_syslog) {                /* syslog adds time, name and pid */
		va_start(ap, fmt);
		vsnprintf(line, sizeof line, fmt, ap);
		va_end(ap);
		syslog(LOG_INFO, "%s", line);
		return;
	}
	gmtime_r(&now, &tm);
	n = strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%SZ", &tm);
	k = snprintf(line + n, sizeof line - n, " gput[%ld]: ", (long)getpid());
	n += k > 0 ? (size_t)k : 0;
	va_start(ap, fmt);
	k = vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
	va_end(ap);
	if (k < 0)
		k = 0;
	n += (size_t)k < sizeof line - n - 1 ? (size_t)k : sizeof line - n - 2;
	line[n++] = '\n';
	(void)!write(STDERR_FILENO, line, n);
}
