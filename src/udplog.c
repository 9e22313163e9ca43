/* SPDX-License-Identifier: BSD-2-Clause */
/* udplog.c: --log's records, from binary to text after the run. */
#include "udplog.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "bytes.h"


struct rec { uint64_t seq, send, at; uint32_t len, flags; };

static int
next_rec(FILE *f, struct rec *r)
{
	uint8_t b[UDP_LOG_REC];
	struct bytes c;

	if (fread(b, 1, sizeof b, f) != sizeof b)
		return 0;
	c = bytes_reader(b, sizeof b);
	r->seq = bytes_le64(&c, UDPLOG_SEQ);
	r->send = bytes_le64(&c, UDPLOG_SEND);
	r->at = bytes_le64(&c, UDPLOG_AT);
	r->len = bytes_le32(&c, UDPLOG_LEN);
	r->flags = bytes_le32(&c, UDPLOG_FLAGS);
	return 1;
}

static const char *
flag_words(uint32_t f, char *buf, size_t len)
{
	static const struct { uint32_t bit; const char *word; } w[] = {
		{ UDPLOG_DUP, "dup" }, { UDPLOG_REORDER, "reorder" },
		{ UDPLOG_LATE, "late" }, { UDPLOG_OLD, "old" },
		{ UDPLOG_NOSEQ, "noseq" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof w / sizeof w[0]; i++)
		if (f & w[i].bit)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
			                      w[i].word);
	return n ? buf : "-";
}

int
udplog_text(FILE *bin, const char *path, uint64_t sent, char *err,
            size_t errlen)
{
	struct rec r;
	uint64_t at0 = 0, send0 = 0;
	int64_t dmin = INT64_MAX;
	int first = 1;
	char fw[64];
	FILE *out;

	/* first pass: the origins and the smallest delay */
	rewind(bin);
	while (next_rec(bin, &r)) {
		if (first || r.at < at0)
			at0 = r.at;
		if (r.send && (send0 == 0 || r.send < send0))
			send0 = r.send;
		if (r.send && (int64_t)(r.at - r.send) < dmin)
			dmin = (int64_t)(r.at - r.send);
		first = 0;
	}
	if ((out = fopen(path, "w")) == NULL) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	fprintf(out, "# gput --log: seq arrive_s send_s delay_ms len flags\n");
	if (sent > 0)       /* lost = sent - unique, as the arrival line has it */
		fprintf(out, "# sent %llu datagrams, sequence numbers 0 to %llu\n",
		        (unsigned long long)sent, (unsigned long long)(sent - 1));
	rewind(bin);
	while (next_rec(bin, &r)) {
		fprintf(out, "%llu %.9f ", (unsigned long long)r.seq,
		        (double)(r.at - at0) / 1e9);
		if (r.send)
			fprintf(out, "%.9f %.6f", (double)(r.send - send0) / 1e9,
			        (double)((int64_t)(r.at - r.send) - dmin) / 1e6);
		else
			fputs("- -", out);
		fprintf(out, " %u %s\n", r.len, flag_words(r.flags, fw, sizeof fw));
	}
	if (ferror(bin) || fclose(out) == EOF) {
		snprintf(err, errlen, "%s", strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
