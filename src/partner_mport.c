/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_mport.c: the multicast data ports a partner may hold (partner_mport.h). */
#include "partner_mport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is port in the comma list of ports and ranges? */
static int
in_list(uint16_t port, const char *list)
{
	const char *p = list;

	while (*p != '\0') {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return 0;               /* not a list: nothing reserved */
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p)
				return 0;
		}
		if (port >= lo && port <= hi)
			return 1;
		p = end;
		while (*p == ',' || *p == ' ' || *p == '\n' || *p == '\t')
			p++;
	}
	return 0;
}

const char *
mport_check(uint16_t port, const char *range, const char *reserved, char *err,
            size_t errlen)
{
	unsigned lo, hi;

	if (sscanf(range, "%u %u", &lo, &hi) != 2 || lo > hi || hi > 65535) {
		snprintf(err, errlen, "the group's port %u: this partner cannot read "
		         "its ephemeral port range", port);
		return err;
	}
	if (port < lo || port > hi) {
		snprintf(err, errlen, "the group's port %u is outside this partner's "
		         "ephemeral ports %u-%u (net.ipv4.ip_local_port_range): a "
		         "client may not make it hold another", port, lo, hi);
		return err;
	}
	if (reserved != NULL && in_list(port, reserved)) {
		snprintf(err, errlen, "the group's port %u is reserved on this "
		         "partner (net.ipv4.ip_local_reserved_ports)", port);
		return err;
	}
	return NULL;
}

/* The first line of a sysctl file into buf ("" when unreadable). */
static void
read_sysctl(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
}

int
partner_mport_refused(uint16_t port, char *err, size_t errlen)
{
	char range[64], reserved[1024];

	read_sysctl("/proc/sys/net/ipv4/ip_local_port_range", range, sizeof range);
	read_sysctl("/proc/sys/net/ipv4/ip_local_reserved_ports", reserved,
	    sizeof reserved);
	return mport_check(port, range, reserved, err, errlen) != NULL;
}
