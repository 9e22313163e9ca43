/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_log.c: the partner's log lines. */
#include "partner_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

void
plog(const char *fmt, ...)
{
	char line[768];
	struct tm tm;
	time_t now = time(NULL);
	size_t n;
	va_list ap;
	int k;

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
