/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_ctldoc.c: doc/control-protocol.md against wire_ctl.h. Every field
 * offset wire_ctl.h names (scanned from the header, so a new one cannot be
 * left out) has a row in the document at its value; every row that names
 * one names a known one; each message's table starts at 0, its fields
 * follow each other without gap or overlap, and it ends at the message's
 * length (its heading's CTL_*_LEN). Run from the source tree's top. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire_ctl.h"

#define DOC    "doc/control-protocol.md"
#define HEADER "include/wire_ctl.h"

#define M(x) { #x, (long)(x) }
static const struct { const char *name; long v; } known[] = {
	M(CTL_HDR_LEN), M(CTL_HELLO_LEN), M(CTL_PARAMS_LEN), M(CTL_READY_LEN),
	M(CTL_RESULT_LEN), M(CTL_INTERVAL_LEN), M(CTL_TCPINFO_LEN),
	M(CTL_UDPSTATS_LEN), M(CTL_ECHOPORT_LEN), M(CTL_ECHOSTATS_LEN),
	M(CTL_HOSTUDP_LEN),
	M(CTL_HDR_MAGIC), M(CTL_HDR_VERSION), M(CTL_HDR_TYPE), M(CTL_HDR_PLEN),
	M(CTL_HELLO_FLAGS), M(CTL_HELLO_RSVD), M(CTL_HELLO_CHALLENGE),
	M(CTL_PX_PROTO), M(CTL_PX_ROLE), M(CTL_PX_FLAGS), M(CTL_PX_BATCH),
	M(CTL_PX_LEN), M(CTL_PX_COUNT), M(CTL_PX_WINDOW), M(CTL_PX_GAP_US),
	M(CTL_PX_DATA_LEN), M(CTL_PX_SEED), M(CTL_PX_DATA_BYTES),
	M(CTL_PX_DATA_GAP_PS), M(CTL_PX_DURATION_MS), M(CTL_PX_INTERVAL_MS),
	M(CTL_PX_OMIT_MS), M(CTL_PX_DATA_BURST), M(CTL_PX_CC),
	M(CTL_PX_STREAMS), M(CTL_PX_MFLAGS), M(CTL_PX_MFAMILY), M(CTL_PX_MTTL),
	M(CTL_PX_MPORT), M(CTL_PX_MGROUP), M(CTL_PX_XFLAGS),
	M(CTL_PX_LAT_INTERVAL_US), M(CTL_PX_LAT_IDLE_MS), M(CTL_PX_LAT_RSVD),
	M(CTL_PX_AFFINITY), M(CTL_PX_PEER_TIMEOUT), M(CTL_PX_HARDEN),
	M(CTL_PX_MAC),
	M(CTL_RDY_PORT), M(CTL_RDY_NPORTS), M(CTL_RDY_NONCE), M(CTL_RDY_MAC),
	M(CTL_RDY_PORTS),
	M(CTL_RES_COUNTS), M(CTL_RES_FLAGS), M(CTL_RES_SNDBUF),
	M(CTL_RES_RCVBUF), M(CTL_RES_STREAM), M(CTL_RES_START_NS),
	M(CTL_RES_END_NS),
	M(CTL_IVL_INDEX), M(CTL_IVL_FLAGS), M(CTL_IVL_START_NS),
	M(CTL_IVL_END_NS), M(CTL_IVL_BYTES), M(CTL_IVL_CALLS), M(CTL_IVL_DGRAMS),
	M(CTL_IVL_RETRANS), M(CTL_IVL_CWND), M(CTL_IVL_SRTT_US),
	M(CTL_IVL_STREAM),
	M(CTL_TCPI_CC), M(CTL_TCPI_RETRANS), M(CTL_TCPI_RTT_US),
	M(CTL_TCPI_MIN_RTT_US), M(CTL_TCPI_CWND), M(CTL_TCPI_MSS),
	M(CTL_TCPI_DELIVERY_RATE), M(CTL_TCPI_BUSY_US),
	M(CTL_TCPI_RWND_LIMITED_US), M(CTL_TCPI_SNDBUF_LIMITED_US),
	M(CTL_TCPI_STREAM), M(CTL_TCPI_ECN), M(CTL_TCPI_DELIVERED_CE),
	M(CTL_TCPI_RECEIVED_CE), M(CTL_TCPI_RECEIVED_CE_BYTES),
	M(CTL_TCPI_RSVD),
	M(CTL_UDPS_COUNTS), M(CTL_UDPS_OWD_MIN), M(CTL_UDPS_OWD_MEAN),
	M(CTL_UDPS_FLAGS), M(CTL_UDPS_STREAM), M(CTL_UDPS_ECN),
	M(CTL_EPORT_PORT), M(CTL_EPORT_RSVD), M(CTL_ESTATS_COUNTS),
	M(CTL_HUDP_RCVBUF), M(CTL_HUDP_INERR), M(CTL_HUDP_FLAGS), M(CTL_HUDP_RSVD),
};
#define NKNOWN (sizeof known / sizeof known[0])

static int bad;
#define BAD(...) (print_error(__VA_ARGS__), bad++)

static long
value_of(const char *name)
{
	size_t i;

	for (i = 0; i < NKNOWN; i++)
		if (strcmp(known[i].name, name) == 0)
			return known[i].v;
	return -1;
}

/* The CTL_ name between the first pair of backquotes in s into out. */
static int
macro_in(const char *s, char *out, size_t len)
{
	const char *a = strstr(s, "`CTL_"), *b;

	if (a == NULL || (b = strchr(a + 1, '`')) == NULL ||
	    (size_t)(b - a - 1) >= len)
		return 0;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = '\0';
	return 1;
}

/* One message's table as the document goes along. */
struct table {
	char name[64];
	long len;               /* its length, -1: no table open */
	long next;              /* the offset the next field must start at */
	int  open_end;          /* a field of variable size ended it */
};

static void
close_table(struct table *t)
{
	if (t->len < 0)
		return;
	if (!t->open_end && t->next != t->len)
		BAD("%s: its fields end at %ld, the message is %ld bytes\n",
		    t->name, t->next, t->len);
	t->len = -1;
}

/* A row "| off | size | type | name | meaning |" of table t. */
static void
row(struct table *t, char *line)
{
	char *cell[6], *save = NULL, *c, name[64];
	long off, size, v;
	int n = 0;

	for (c = strtok_r(line, "|", &save); c != NULL && n < 6;
	    c = strtok_r(NULL, "|", &save))
		cell[n++] = c;
	if (n < 5 || sscanf(cell[0], "%ld", &off) != 1)
		return;                 /* a heading or rule row */
	if (t->len < 0 || t->open_end) {
		BAD("a field at %ld outside a message's table\n", off);
		return;
	}
	if (off != t->next)
		BAD("%s: a field at %ld, the previous one ends at %ld\n", t->name,
		    off, t->next);
	if (sscanf(cell[1], "%ld", &size) == 1 && strchr(cell[1], '(') == NULL) {
		t->next = off + size;
	} else {                        /* READY's further ports: the last */
		t->open_end = 1;
		if (off != t->len)
			BAD("%s: its fixed fields end at %ld, not %ld\n", t->name,
			    off, t->len);
	}
	if (!macro_in(cell[3], name, sizeof name))
		return;
	if ((v = value_of(name)) < 0) {
		BAD("%s: %s is not an offset wire_ctl.h names\n", t->name, name);
		return;
	}
	if (v != off)
		BAD("%s: %s is %ld in the document, %ld in wire_ctl.h\n", t->name,
		    name, off, v);
}

/* Read the document: tables checked as they go; returns its text. */
static char *
read_doc(void)
{
	FILE *f = fopen(DOC, "r");
	char *text;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return text;
}

static void
test_tables(void **state)
{
	struct table t = { "", -1, 0, 0 };
	char *text = read_doc(), *line, *save = NULL, name[64];

	(void)state;
	bad = 0;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "## ", 3) == 0) {
			close_table(&t);
			t.open_end = 0;
			if (macro_in(line, name, sizeof name) &&
			    strstr(name, "_LEN") != NULL) {
				snprintf(t.name, sizeof t.name, "%s", name);
				t.len = value_of(name);
				t.next = 0;
				t.open_end = 0;
				if (t.len < 0)
					BAD("%s: not a length wire_ctl.h names\n",
					    name);
			}
		} else if (line[0] == '|') {
			row(&t, line);
		}
	}
	close_table(&t);
	free(text);
	assert_int_equal(bad, 0);
}

/* Every offset wire_ctl.h defines (by prefix) is in the test's table
 * (so that it is checked) and has a row in the document. */
static void
test_every_offset(void **state)
{
	static const char *const prefix[] = { "CTL_HDR_", "CTL_HELLO_",
	    "CTL_PX_", "CTL_RDY_", "CTL_RES_", "CTL_IVL_", "CTL_TCPI_",
	    "CTL_UDPS_", "CTL_EPORT_", "CTL_ESTATS_" };
	FILE *h = fopen(HEADER, "r");
	char line[512], name[64], want[80], *doc = read_doc();
	size_t i, n = 0;

	(void)state;
	bad = 0;
	assert_non_null(h);
	while (fgets(line, sizeof line, h) != NULL) {
		int ours = 0;

		if (sscanf(line, "#define %63s", name) != 1)
			continue;
		for (i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
			ours |= strncmp(name, prefix[i], strlen(prefix[i])) == 0;
		/* lengths, flags and the latency range's alias are not fields */
		if (!ours || strstr(name, "_LEN") || strcmp(name, "CTL_HELLO_KEY") == 0 ||
		    strcmp(name, "CTL_PX_LATENCY") == 0)
			continue;
		n++;
		if (value_of(name) < 0)
			BAD("%s: add it to unit_ctldoc's table\n", name);
		snprintf(want, sizeof want, "| `%s` |", name);
		if (strstr(doc, want) == NULL)
			BAD("%s has no row in " DOC "\n", name);
	}
	fclose(h);
	free(doc);
	assert_true(n > 80);
	assert_int_equal(bad, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_every_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
