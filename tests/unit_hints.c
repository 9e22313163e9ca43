/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_hints.c: iperf's habits caught before a test runs (one line saying
 * what to type instead, a usage error), nttcp's meanings kept where the
 * line is gput's; -w with units; -P after a partner's name; -h and
 * usage() name the parser's options. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <getopt.h>

#include "cli.h"
#include "cli_help.h"

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

struct args {
	char  buf[1024];
	char *v[64];
	int   c;
};

static struct args words;

static int
parse(const char *line, struct config *c, char *err, size_t errlen)
{
	char *tok, *save = NULL;

	snprintf(words.buf, sizeof words.buf, "gput %s", line);
	words.c = 0;
	for (tok = strtok_r(words.buf, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save))
		words.v[words.c++] = tok;
	words.v[words.c] = NULL;
	return cli_parse(words.c, words.v, NULL, NULL, c, err, errlen);
}

struct row {
	const char *line, *msg;
};

#define RATE(v) "-b is iperf's bitrate: gput paces the sender with --rate " v \
	" (payload bit/s)"
#define TIME(v) "-t transmits as in nttcp; for a timed run use --time " v
#define IVAL(v) "-i starts the partner as in nttcp; for interval lines use " \
	"--interval " v
#define REV "-R is iperf's reverse: in gput, -r makes this host receive and " \
	"the partner send"
#define SRV "-s is nttcp's stream pattern and needs a partner; to start the " \
	"partner (iperf's server) use gput -i"

static const struct row habits[] = {
	/* a number after -t or -i, wherever it stands */
	{ "-t 10 host", TIME("10") },
	{ "-t 2.5 host", TIME("2.5") },
	{ "-ut 10 host", TIME("10") },
	{ "-t10 host", TIME("10") },
	{ "host -t 10", TIME("10") },
	{ "-c host -t 10", TIME("10") },
	{ "-i 1", IVAL("1") },
	{ "-c host -i 0.5", IVAL("0.5") },
	{ "-i1", IVAL("1") },
	/* iperf's options gput does not have */
	{ "-b 10M host", RATE("10M") },
	{ "-u -b 10M host", RATE("10M") },
	{ "-ub 10M host", RATE("10M") },
	{ "-b10M host", RATE("10M") },
	{ "host -b 1G", RATE("1G") },
	{ "-b", RATE("VALUE") },
	{ "-R host", REV },
	{ "-rR host", REV },
	{ "-J host", "-J is iperf's JSON: gput prints JSON with --json (or --json-lines)" },
	{ "-d host", "-d is iperf2's dual test: gput runs both directions at once with --bidir" },
	{ "-O 2 host", "-O is iperf's omit: gput leaves out the first seconds with --omit 2" },
	{ "-C reno host", "-C is iperf's congestion control: gput sets it with --cc reno" },
	{ "-N host", "-N is iperf's no-delay: gput sets TCP_NODELAY with -D" },
	{ "-k 100 host", "-k is iperf's block count: gput counts buffers with -n 100" },
	/* every habit of the line at once, a line each */
	{ "-s -1", "-1 is iperf's one-off server: gput -i --once serves one test\n"
	  "-s is nttcp's stream pattern and needs a partner; to start the partner "
	  "(iperf's server) use gput -i" },
	{ "-c H -t 10 -i 1 -J", "-t transmits as in nttcp; for a timed run use "
	  "--time 10\n-i starts the partner as in nttcp; for interval lines use "
	  "--interval 1\n-J is iperf's JSON: gput prints JSON with --json (or "
	  "--json-lines)" },
	/* gput's options that iperf reads otherwise */
	{ "-n 10M host", "-n counts buffers of -l bytes as in nttcp; for a number of "
	  "bytes use -x 10M" },
	{ "host -n 1G", "-n counts buffers of -l bytes as in nttcp; for a number of "
	  "bytes use -x 1G" },
	{ "-f m host", "-f takes an nttcp format (gput(1), OUTPUT), not iperf's unit "
	  "letter 'm': rates are MBit/s (10^6 bit/s)" },
	{ "-s", SRV },
	{ "-s -p 5201", SRV },
	{ "-s -u", SRV },
	/* iperf's long options */
	{ "--client host", "--client is iperf's: gput takes the partner's name alone "
	  "(gput host)" },
	{ "--client=host", "--client is iperf's: gput takes the partner's name alone "
	  "(gput host)" },
	{ "--server", "--server is iperf's: start the partner with gput -i" },
	{ "--reverse host", "--reverse is iperf's: in gput, -r makes this host receive "
	  "and the partner send" },
	{ "--bitrate 5M host", "--bitrate is iperf's: gput paces the sender with --rate "
	  "5M (payload bit/s)" },
	{ "--bandwidth=5M host", "--bandwidth is iperf's: gput paces the sender with "
	  "--rate 5M (payload bit/s)" },
	{ "--congestion cubic host", "--congestion is iperf's: gput sets it with --cc cubic" },
	{ "--blockcount 9 host", "--blockcount is iperf's: gput counts buffers with -n 9" },
	{ "--no-delay host", "--no-delay is iperf's: gput sets TCP_NODELAY with -D (--nodelay)" },
	{ "--dualtest host", "--dualtest is iperf2's: gput runs both directions at once "
	  "with --bidir" },
	{ "-i --one-off", "--one-off is iperf's: gput -i --once serves one test" },
	{ "--get-server-output host", "--get-server-output is iperf's: gput always "
	  "prints the partner's side" },
};

/* nttcp's lines: no hint, as before. */
static const char *const kept[] = {
	"-t host", "-t -n 10 host", "-c host", "-s host", "host -s", "-r host",
	"-S -t host", "-S 10 -t host", "-f %b host", "-n 10 host", "-x 10M host",
	"-i", "-i -p 0", "-i -v", "-h", "-V", "--predict", "-T host",
	"--time 10 host", "--interval 1 --time 2 host", "--rate 10M -u host",
	"-u -l 1000 host", "--json host", "-t -- 10",
};

static void
test_habits(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof habits / sizeof habits[0]; i++) {
		struct config c;
		char err[512] = "";
		int rc = parse(habits[i].line, &c, err, sizeof err);

		cli_free(&c);
		if (rc != -1)
			MISS("'%s': accepted, want '%s'", habits[i].line, habits[i].msg);
		else if (strcmp(err, habits[i].msg) != 0)
			MISS("'%s': '%s', want '%s'", habits[i].line, err, habits[i].msg);
	}
	for (i = 0; i < sizeof kept / sizeof kept[0]; i++) {
		struct config c;
		char err[512] = "";
		int rc = parse(kept[i], &c, err, sizeof err);

		cli_free(&c);
		if (rc != 0)
			MISS("'%s': refused: '%s'", kept[i], err);
	}
	MISSED();
}

/* -w: a plain number is nttcp's kilobytes, a suffix makes it a size. */
static void
test_window_units(void **state)
{
	static const struct { const char *line; uint32_t loc, rem; } ok[] = {
		{ "-w 256 host", 256u << 10, 256u << 10 },
		{ "-w 256K host", 256u << 10, 256u << 10 },
		{ "-w 256k host", 256u << 10, 256u << 10 },
		{ "-w 4M host", 4u << 20, 4u << 20 },
		{ "-w 1G host", 1u << 30, 1u << 30 },
		{ "-w 1K host -w 2M", 1u << 10, 2u << 20 },
		{ "--window=1048576 host", 1u << 30, 1u << 30 },
	};
	static const struct row bad[] = {
		{ "-w 0K host", "-w: '0K' is out of range (1024 to 1073741824)" },
		{ "-w 2G host", "-w: '2G' is out of range (1024 to 1073741824)" },
		{ "-w 1048577 host", "-w: '1048577' is out of range (1 to 1048576)" },
		{ "-w 64X host", "-w: '64X' is not a size (use a number with an optional "
		  "B, K, M or G suffix)" },
		{ "-w 1.5M host", "-w: '1.5M' is not a size (use a number with an "
		  "optional B, K, M or G suffix)" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		struct config c;
		char err[512] = "";

		if (parse(ok[i].line, &c, err, sizeof err) != 0)
			MISS("'%s': refused: %s", ok[i].line, err);
		else if (c.loc.window != ok[i].loc || c.rem.window != ok[i].rem)
			MISS("'%s': windows %u %u, want %u %u", ok[i].line, c.loc.window,
			     c.rem.window, ok[i].loc, ok[i].rem);
		cli_free(&c);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct config c;
		char err[512] = "";

		if (parse(bad[i].line, &c, err, sizeof err) != -1 ||
		    strcmp(err, bad[i].msg) != 0)
			MISS("'%s': '%s', want '%s'", bad[i].line, err, bad[i].msg);
		cli_free(&c);
	}
	MISSED();
}

/* -P after a partner's name: that partner's streams alone. */
static void
test_streams_per_partner(void **state)
{
	struct config c;
	char err[512] = "";

	(void)state;
	assert_int_equal(parse("-P 3 a b -P 2 c", &c, err, sizeof err), 0);
	assert_int_equal(c.npartners, 3);
	assert_int_equal(c.partners[0].streams, 3);
	assert_int_equal(c.partners[1].streams, 2);
	assert_int_equal(c.partners[2].streams, 3);
	assert_int_equal(c.streams, 3);
	cli_free(&c);
	assert_int_equal(parse("host -P 4", &c, err, sizeof err), 0);
	assert_int_equal(c.streams, 4);
	assert_int_equal(c.partners[0].streams, 4);
	cli_free(&c);
	assert_int_equal(parse("a -P 4 b", &c, err, sizeof err), 0);
	assert_int_equal(c.streams, 4);
	assert_int_equal(c.partners[1].streams, 1);
	cli_free(&c);
	assert_int_equal(parse("host -P 0", &c, err, sizeof err), -1);
	assert_string_equal(err, "-P: '0' is out of range (1 to 128)");
	cli_free(&c);
	assert_int_equal(parse("-u -m 239.1.2.3 a b -P 2", &c, err, sizeof err), -1);
	assert_string_equal(err, "-m sends one stream: it cannot be used with -P");
	cli_free(&c);
	assert_int_equal(parse("--log f -u -r host -P 2", &c, err, sizeof err), -1);
	assert_string_equal(err, "--log records one stream: it cannot be used with -P");
	cli_free(&c);
}


/* ---- gput -h, the parser and the man page name the same options ---- */

#define NAMES_MAX 160
struct names {
	char v[NAMES_MAX][32];
	int n;
};

static void
names_add(struct names *s, const char *name, size_t len)
{
	int i;

	if (len == 0 || len >= sizeof s->v[0])
		return;
	for (i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && strncmp(s->v[i], name, len) == 0)
			return;
	assert_true(s->n < NAMES_MAX);
	memcpy(s->v[s->n], name, len);
	s->v[s->n++][len] = '\0';
}

static int
names_has(const struct names *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return 1;
	return 0;
}

/* Names in a not in b, each a mismatch. */
static void
names_missing(const struct names *a, const char *an, const struct names *b,
              const char *bn)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (!names_has(b, a->v[i]))
			MISS("%s is in %s but not in %s", a->v[i], an, bn);
}

/* The options of gput -h: the words of the option column that start with
 * '-', each line's first 26 columns. */
static void
help_names(struct names *s, const char *text)
{
	const char *line, *nl;

	for (line = text; *line != '\0'; line = nl + 1) {
		char col[32], *tok, *save = NULL;

		nl = strchr(line, '\n');
		assert_non_null(nl);
		if ((size_t)(nl - line) > 79)
			MISS("help line longer than 79 columns: %.*s", (int)(nl - line), line);
		if (strncmp(line, "  -", 3) != 0)
			continue;
		snprintf(col, sizeof col, "%.*s", (int)(nl - line < 26 ? nl - line : 26),
		         line);
		for (tok = strtok_r(col, " ,", &save); tok != NULL;
		    tok = strtok_r(NULL, " ,", &save))
			if (tok[0] == '-')
				names_add(s, tok, strlen(tok));
	}
}

/* The options of gput(1): every "Fl x" on an ".It" line of its lists. */
static void
man_names(struct names *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (f == NULL)
		fail_msg("%s: cannot open (run from the top of the tree)", path);
	while (fgets(line, sizeof line, f) != NULL) {
		char *tok, *save = NULL;
		int fl = 0;

		if (strncmp(line, ".It Fl ", 7) != 0)
			continue;
		for (tok = strtok_r(line + 4, " \n", &save); tok != NULL;
		    tok = strtok_r(NULL, " \n", &save)) {
			if (fl && tok[0] != '\0') {
				char nm[40];

				snprintf(nm, sizeof nm, "-%s", tok);
				names_add(s, nm, strlen(nm));
			}
			fl = strcmp(tok, "Fl") == 0;
		}
	}
	fclose(f);
}

static void
test_help(void **state)
{
	static struct names help, man, parser;
	const struct option *o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	cli_help(f);
	fclose(f);
	assert_non_null(strstr(buf, "usage: gput [-46cDqrsTtuv]"));
	assert_non_null(strstr(buf, "\nThe test:\n"));
	assert_non_null(strstr(buf, "\nOutput:\n"));
	assert_non_null(strstr(buf, "\nPacing and UDP:\n"));
	assert_non_null(strstr(buf, "\nStreams and partners:\n"));
	assert_non_null(strstr(buf, "\nThe partner (gput -i):\n"));
	assert_non_null(strstr(buf, "\nLink prediction:\n"));
	help_names(&help, buf);
	free(buf);
	man_names(&man, "man/gput.1");
	for (o = cli_longopts(); o->name != NULL; o++) {
		char nm[40];

		snprintf(nm, sizeof nm, "--%s", o->name);
		names_add(&parser, nm, strlen(nm));
		if (o->val > ' ' && o->val < 127) {
			snprintf(nm, sizeof nm, "-%c", o->val);
			names_add(&parser, nm, strlen(nm));
		}
	}
	assert_true(help.n > 60);
	names_missing(&parser, "the parser", &help, "gput -h (src/cli_help.c)");
	names_missing(&help, "gput -h", &parser, "the parser (src/cli_table.c)");
	names_missing(&man, "gput(1)", &help, "gput -h (src/cli_help.c)");
	names_missing(&help, "gput -h", &man, "gput(1)'s option list");
	MISSED();
}

/* The options usage() names: its words that start with '-', without the
 * brackets and bars; a cluster ("-46cD") a name for each letter. */
static void
usage_names(struct names *s, const char *text)
{
	const char *w = text;
	size_t n, k;

	while (*w != '\0') {
		w += strspn(w, " \n[]|");
		n = strcspn(w, " \n[]|");
		if (n > 2 && w[0] == '-' && w[1] != '-') {
			for (k = 1; k < n; k++) {
				char nm[3] = { '-', w[k], '\0' };

				names_add(s, nm, 2);
			}
		} else if (n > 1 && w[0] == '-') {
			names_add(s, w, n);
		}
		w += n;
	}
}

/* usage() (made from the option table's synopses) names every option of
 * the parser, by its letter where it has one, and nothing else. */
static void
test_usage(void **state)
{
	static struct names usage, parser, spell;
	const struct option *o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	cli_usage(f);
	fclose(f);
	assert_int_equal(strncmp(buf, "usage: gput [-46cDqrsTtuv] [-f format]",
	                 38), 0);
	assert_non_null(strstr(buf, "\n       gput -i [-v] [-p port] [--allow cidr]"));
	assert_non_null(strstr(buf, "[--csv | --json | --json-lines | --prometheus]\n"));
	assert_non_null(strstr(buf, "\n       gput -h | -V\n"));
	usage_names(&usage, buf);
	free(buf);
	for (o = cli_longopts(); o->name != NULL; o++) {
		char nm[40];

		if (o->val < 256)
			snprintf(nm, sizeof nm, "-%c", o->val);
		else
			snprintf(nm, sizeof nm, "--%s", o->name);
		names_add(&parser, nm, strlen(nm));
		names_add(&spell, nm, strlen(nm));
		snprintf(nm, sizeof nm, "--%s", o->name);
		names_add(&spell, nm, strlen(nm));
	}
	assert_true(usage.n > 60);
	names_missing(&parser, "the parser", &usage, "usage()");
	names_missing(&usage, "usage()", &spell, "the parser (src/cli_table.c)");
	MISSED();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_habits),
		cmocka_unit_test(test_window_units),
		cmocka_unit_test(test_streams_per_partner),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
