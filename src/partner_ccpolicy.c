/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_ccpolicy.c: the congestion controls a partner can really set, found by
 * setting them, once, at start. */
#include "partner_ccpolicy.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tcpinfo.h"

/* Append name to the space-separated list buf. */
static void
add(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? " " : "", name);
}

/* Does a fresh TCP socket of this process take name? */
static int
settable(const char *name)
{
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (fd == -1)
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return 0;
	ok = setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name,
	    (socklen_t)strlen(name)) == 0;
	close(fd);
	return ok;
}

int
ccpolicy_probe(const char *list, char *allowed, size_t alen, char *refused,
               size_t rlen, char *err, size_t errlen)
{
	char names[CCPOLICY_MAX], *tok, *save = NULL;
	size_t i;

	allowed[0] = refused[0] = '\0';
	if (list != NULL) {
		snprintf(names, sizeof names, "%s", list);
		for (i = 0; names[i] != '\0'; i++)
			if (names[i] == ',')
				names[i] = ' ';
	} else if (tcpinfo_cc_available(names, sizeof names) == -1) {
		snprintf(err, errlen, "the host's congestion controls: %s",
		         strerror(errno));
		return -1;
	}
	for (tok = strtok_r(names, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		if (ccpolicy_allows(allowed, tok) || ccpolicy_allows(refused, tok))
			continue;               /* named twice */
		if (settable(tok))
			add(allowed, alen, tok);
		else
			add(refused, rlen, tok);
	}
	if (allowed[0] == '\0') {
		snprintf(err, errlen, "this partner can set none of its congestion "
		         "controls (%s)", refused);
		return -1;
	}
	return 0;
}

int
ccpolicy_allows(const char *allowed, const char *name)
{
	size_t n = strlen(name);
	const char *p = allowed;

	if (n == 0)
		return 0;
	while ((p = strstr(p, name)) != NULL) {
		if ((p == allowed || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}
