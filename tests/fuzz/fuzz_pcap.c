/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_pcap.c: libFuzzer target for gput-pcap. The input is a capture file
 * (pcap or pcapng). It goes through gput-pcap's own path: pscan_file()
 * opens it with libpcap (from a memfd, by its /proc/self/fd name), decodes
 * every frame and accounts the flows; then every report format is rendered
 * to /dev/null. Besides the sanitizers, it aborts when a finished scan
 * breaks what pcap_flow.h promises: each direction's layers add up to its
 * wire bytes, the hole array holds no more than its allocated size, a
 * gput UDP direction's counts keep udpacct.h's identities, and an error is
 * one line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pcap_report.h"
#include "pcap_scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

/* payload + retrans + marker_bytes + l4 + l3 + l2 + pad + l1 == wire */
static void
check_dir(const struct pflow_dir *d)
{
	uint64_t sum = d->payload + d->retrans + d->marker_bytes + d->l4 +
	               d->l3 + d->l2 + d->pad + d->l1;

	if (sum != d->wire || d->nholes > d->capholes ||
	    d->data_packets > d->packets || d->retrans_packets > d->packets)
		abort();
	if (d->gput != NULL &&
	    (d->gput->acct.n.received != d->gput->acct.n.unique +
	     d->gput->acct.n.duplicates + d->gput->acct.n.too_old ||
	     d->gput->acct.n.received + d->gput->cut > d->datagrams))
		abort();
}

static void
check_scan(const struct pscan *s)
{
	size_t i;

	for (i = 0; i < s->table.nflows; i++) {
		check_dir(&s->table.flows[i].dir[0]);
		check_dir(&s->table.flows[i].dir[1]);
	}
	check_dir(&s->orphans);
}

/* The input as a file that libpcap opens by name. Returns the fd, or -1. */
static int
input_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	size_t off = 0;
	ssize_t n;
	int fd;

	if ((fd = memfd_create("fuzz_pcap", 0)) == -1)
		return -1;
	while (off < size) {
		if ((n = write(fd, data + off, size - off)) <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[512];
	struct pscan s;
	int fd, rc;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	if ((fd = input_file(data, size, path, sizeof(path))) == -1)
		abort();
	err[0] = '\0';
	rc = pscan_file(&s, path, NULL, 1500, err, sizeof(err));
	close(fd);
	if (rc != 0) {
		if (err[0] == '\0' || strchr(err, '\n') != NULL)
			abort();
	} else {
		check_scan(&s);
		preport_warnings(devnull, &s);
		preport_table(devnull, &s, path, 0);
		preport_table(devnull, &s, path, 10e6);
		preport_csv(devnull, &s, 0);
		preport_csv(devnull, &s, 1e9);
		preport_json(devnull, &s, path, 0);
		preport_json(devnull, &s, path, 10e6);
	}
	pscan_free(&s);
	return 0;
}
