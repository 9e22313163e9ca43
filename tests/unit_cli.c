/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_cli.c: cli_parse and cli_params as tables of command lines: every
 * option in both spellings, the defaults, the partner's options, the
 * environment, and every usage error with its exact message. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cli.h"
#include "cli_opts.h"
#include "pattern.h"
#include "wire_ctl.h"

/* Rows start from the defaults and override fields: that is the point. */
#pragma GCC diagnostic ignored "-Woverride-init"
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Winitializer-overrides"

#define DEF_FMT GPUT_DEFAULT_FORMAT
#define P62     (1ULL << 62)
#define H_ABC    0x1a47e90bu    /* FNV-1a 32 of "abc" */
#define H_FOOBAR 0xbf9cf968u    /* FNV-1a 32 of "foobar" */
#define H_A      0xe40c292cu    /* FNV-1a 32 of "a" */

/* Every mismatch of a table is printed; the test fails at its end. */
static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

/* Split "gput -l 1000 host" on spaces into argv; "''" is an empty word. */
struct args {
	char  buf[1024];
	char *v[64];
	int   c;
};

static void
split(struct args *a, const char *line)
{
	char *tok, *save = NULL;

	snprintf(a->buf, sizeof a->buf, "gput %s", line);
	a->c = 0;
	for (tok = strtok_r(a->buf, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save))
		a->v[a->c++] = strcmp(tok, "''") == 0 ? tok + 2 : tok;
	a->v[a->c] = NULL;
}

/* The config points into argv: keep the words until the next parse. */
static struct args words;

static int
parse(const char *line, const char *loc_env, const char *rem_env,
      struct config *c, char *err, size_t errlen)
{
	split(&words, line);
	return cli_parse(words.c, words.v, loc_env, rem_env, c, err, errlen);
}

/* ---- accepted command lines ---------------------------------------- */

#define SIDE(...) { .len = 4096, .count = 2048, .format = DEF_FMT, __VA_ARGS__ }

struct ok_row {
	const char *line, *loc_env, *rem_env;
	struct config want;     /* env_store ignored; format compared as text */
};

#define CONF(...) { .mode = MODE_CLIENT, .port = GPUT_DEFAULT_PORT, .mtu = 1500, \
	.host = "host", .loc = SIDE(), .rem = SIDE(), __VA_ARGS__ }
#define NOHOST(...) CONF(.host = NULL, __VA_ARGS__)

static const struct ok_row ok_rows[] = {
	{ "host", 0, 0, CONF() },
	{ "-t host", 0, 0, CONF(.role = ROLE_SEND) },
	{ "--transmit host", 0, 0, CONF(.role = ROLE_SEND) },
	{ "-r host", 0, 0, CONF(.role = ROLE_RECV) },
	{ "--receive host", 0, 0, CONF(.role = ROLE_RECV) },
	{ "-r -t host", 0, 0, CONF(.role = ROLE_SEND) },
	{ "-T host", 0, 0, CONF(.title = 1) },
	{ "--title host", 0, 0, CONF(.title = 1) },
	{ "-u host", 0, 0, CONF(.proto = PROTO_UDP) },
	{ "--udp host", 0, 0, CONF(.proto = PROTO_UDP) },
	{ "-4 host", 0, 0, CONF(.family = AF_INET) },
	{ "--ipv4 host", 0, 0, CONF(.family = AF_INET) },
	{ "-6 host", 0, 0, CONF(.family = AF_INET6) },
	{ "--ipv6 host", 0, 0, CONF(.family = AF_INET6) },
	{ "-4 -6 host", 0, 0, CONF(.family = AF_INET6) },
	{ "-p 6000 host", 0, 0, CONF(.port = 6000, .port_set = 1) },
	{ "--port 65535 host", 0, 0, CONF(.port = 65535, .port_set = 1) },
	{ "--port=1 host", 0, 0, CONF(.port = 1, .port_set = 1) },
	{ "--link 10M host", 0, 0, CONF(.link_bps = 1e7) },
	{ "--link=9.5M host", 0, 0, CONF(.link_bps = 9.5e6) },
	{ "-n 10 host", 0, 0, CONF(.loc = SIDE(.count = 10), .rem = SIDE(.count = 10)) },
	{ "--count 1 host", 0, 0, CONF(.loc = SIDE(.count = 1), .rem = SIDE(.count = 1)) },
	{ "--count=4611686018427387904 -l 1 host", 0, 0,
	  CONF(.loc = SIDE(.count = P62, .len = 1), .rem = SIDE(.count = P62, .len = 1)) },
	{ "-l 1000 host", 0, 0, CONF(.loc = SIDE(.len = 1000), .rem = SIDE(.len = 1000)) },
	{ "-l1000 host", 0, 0, CONF(.loc = SIDE(.len = 1000), .rem = SIDE(.len = 1000)) },
	{ "--length 1K host", 0, 0, CONF(.loc = SIDE(.len = 1024), .rem = SIDE(.len = 1024)) },
	{ "-l 64M host", 0, 0, CONF(.loc = SIDE(.len = 64u << 20), .rem = SIDE(.len = 64u << 20)) },
	{ "-x 1M host", 0, 0, CONF(.loc = SIDE(.total = 1 << 20), .rem = SIDE(.total = 1 << 20)) },
	{ "--bytes 4611686018427387904 host", 0, 0,
	  CONF(.loc = SIDE(.total = P62), .rem = SIDE(.total = P62)) },
	{ "-w 64 host", 0, 0, CONF(.loc = SIDE(.window = 65536), .rem = SIDE(.window = 65536)) },
	{ "-w 64K host", 0, 0, CONF(.loc = SIDE(.window = 65536), .rem = SIDE(.window = 65536)) },
	{ "-w 7200B host", 0, 0, CONF(.loc = SIDE(.window = 7200), .rem = SIDE(.window = 7200)) },
	{ "-l 1440B host", 0, 0, CONF(.loc = SIDE(.len = 1440), .rem = SIDE(.len = 1440)) },
	{ "--window 1048576 host", 0, 0,
	  CONF(.loc = SIDE(.window = 1u << 30), .rem = SIDE(.window = 1u << 30)) },
	{ "-g 0 host", 0, 0, CONF() },
	{ "-g 100 host", 0, 0, CONF(.loc = SIDE(.gap_us = 100), .rem = SIDE(.gap_us = 100)) },
	{ "--gap 10000000 host", 0, 0,
	  CONF(.loc = SIDE(.gap_us = 10000000), .rem = SIDE(.gap_us = 10000000)) },
	{ "-S abc host", 0, 0, CONF(.loc = SIDE(.seed = H_ABC), .rem = SIDE(.seed = H_ABC)) },
	{ "--seed foobar host", 0, 0,
	  CONF(.loc = SIDE(.seed = H_FOOBAR), .rem = SIDE(.seed = H_FOOBAR)) },
	{ "-D host", 0, 0, CONF(.loc = SIDE(.nodelay = 1), .rem = SIDE(.nodelay = 1)) },
	{ "--nodelay host", 0, 0, CONF(.loc = SIDE(.nodelay = 1), .rem = SIDE(.nodelay = 1)) },
	{ "-c host", 0, 0, CONF(.loc = SIDE(.verify = 1), .rem = SIDE(.verify = 1)) },
	{ "--verify host", 0, 0, CONF(.loc = SIDE(.verify = 1), .rem = SIDE(.verify = 1)) },
	{ "-s host", 0, 0, CONF(.loc = SIDE(.pattern_spans = 1), .rem = SIDE(.pattern_spans = 1)) },
	{ "--stream host", 0, 0, CONF(.loc = SIDE(.pattern_spans = 1), .rem = SIDE(.pattern_spans = 1)) },
	{ "-v host", 0, 0, CONF(.loc = SIDE(.verbose = 1), .rem = SIDE(.verbose = 1)) },
	{ "--verbose host", 0, 0, CONF(.loc = SIDE(.verbose = 1), .rem = SIDE(.verbose = 1)) },
	{ "--prometheus host", 0, 0, CONF(.out = OUT_PROM) },
	{ "--json host", 0, 0, CONF(.out = OUT_JSON) },
	{ "-f %b%c host", 0, 0, CONF(.loc = SIDE(.format = "%b%c"), .rem = SIDE(.format = "%b%c")) },
	{ "--format %9.2rt host", 0, 0,
	  CONF(.loc = SIDE(.format = "%9.2rt"), .rem = SIDE(.format = "%9.2rt")) },
	{ "-uTDl100 host", 0, 0, CONF(.proto = PROTO_UDP, .title = 1,
	  .loc = SIDE(.nodelay = 1, .len = 100), .rem = SIDE(.nodelay = 1, .len = 100)) },
	{ "-u -l 65507 host", 0, 0, CONF(.proto = PROTO_UDP,
	  .loc = SIDE(.len = 65507), .rem = SIDE(.len = 65507)) },
	/* the receiver's -l may exceed a datagram: only the sender's counts */
	{ "-u -l 70000 -r host -l 1000", 0, 0, CONF(.proto = PROTO_UDP, .role = ROLE_RECV,
	  .loc = SIDE(.len = 70000), .rem = SIDE(.len = 1000)) },
	{ "-- host", 0, 0, CONF() },
	/* the partner's options override only the partner's side */
	{ "-l 1000 host -l 2000", 0, 0, CONF(.loc = SIDE(.len = 1000), .rem = SIDE(.len = 2000)) },
	{ "-r -l 1000 host -l 2000", 0, 0, CONF(.role = ROLE_RECV,
	  .loc = SIDE(.len = 1000), .rem = SIDE(.len = 2000)) },
	{ "-r host -c -D -f %b -g 5 -l 10 -n 3 -s -S abc -v -w 2", 0, 0,
	  CONF(.role = ROLE_RECV, .rem = SIDE(.verify = 1, .nodelay = 1, .format = "%b", .gap_us = 5, .len = 10,
	  .count = 3, .pattern_spans = 1, .seed = H_ABC, .verbose = 1, .window = 2048)) },
	{ "-r host --verify --nodelay --format=%c --gap=6 --length=11 --count=4 --stream "
	  "--seed=a --verbose --window=3", 0, 0,
	  CONF(.role = ROLE_RECV, .rem = SIDE(.verify = 1, .nodelay = 1, .format = "%c", .gap_us = 6, .len = 11,
	  .count = 4, .pattern_spans = 1, .seed = H_A, .verbose = 1, .window = 3072)) },
	{ "-r -n 7 host -x 100", 0, 0, CONF(.role = ROLE_RECV, .loc = SIDE(.count = 7),
	  .rem = SIDE(.count = 7, .total = 100)) },
	{ "-r -x 100 host -n 5", 0, 0, CONF(.role = ROLE_RECV, .loc = SIDE(.total = 100),
	  .rem = SIDE(.count = 5)) },
	{ "-x 100 -x 200 host", 0, 0, CONF(.loc = SIDE(.total = 200), .rem = SIDE(.total = 200)) },
	/* -p after the partner's name: its control port alone */
	{ "host -p 1", 0, 0, CONF(.port = 1) },
	{ "-p 6000 host --port=6001", 0, 0, CONF(.port = 6001, .port_set = 1) },
	{ "host", 0, "-p 7000", CONF(.port = 7000) },
	{ "host -p 7001", 0, "-p 7000", CONF(.port = 7001) },
	/* the environment: before the command line, which wins */
	{ "host", "-l 100 -n 7", 0, CONF(.loc = SIDE(.len = 100, .count = 7),
	  .rem = SIDE(.len = 100, .count = 7)) },
	{ "-l 200 host", "-l 100 -n 7", 0, CONF(.loc = SIDE(.len = 200, .count = 7),
	  .rem = SIDE(.len = 200, .count = 7)) },
	{ "host", " \t-u\n -p 6000 ", 0, CONF(.proto = PROTO_UDP, .port = 6000, .port_set = 1) },
	{ "-l 100 host", 0, "-l 50", CONF(.loc = SIDE(.len = 100), .rem = SIDE(.len = 50)) },
	{ "-l 100 host -l 60", 0, "-l 50", CONF(.loc = SIDE(.len = 100), .rem = SIDE(.len = 60)) },
	{ "host -c", "-n 7 -l 100", "-l 50", CONF(.loc = SIDE(.len = 100, .count = 7),
	  .rem = SIDE(.len = 50, .count = 7, .verify = 1)) },
	{ "-x 1M host", "-n 5", 0, CONF(.loc = SIDE(.count = 5, .total = 1 << 20),
	  .rem = SIDE(.count = 5, .total = 1 << 20)) },
	{ "-n 9 host", "-x 1M", 0, CONF(.loc = SIDE(.count = 9), .rem = SIDE(.count = 9)) },
	{ "host", "", "", CONF() },
	/* the other modes */
	{ "-i", 0, 0, NOHOST(.mode = MODE_DAEMON) },
	{ "--daemon -v -p 0", 0, 0, NOHOST(.mode = MODE_DAEMON, .port = 0, .port_set = 1,
	  .loc = SIDE(.verbose = 1), .rem = SIDE(.verbose = 1)) },
	{ "-h", 0, 0, NOHOST(.mode = MODE_HELP) },
	{ "--help", 0, 0, NOHOST(.mode = MODE_HELP) },
	{ "-V", 0, 0, NOHOST(.mode = MODE_VERSION) },
	{ "--version", 0, 0, NOHOST(.mode = MODE_VERSION) },
	{ "--predict", 0, 0, NOHOST(.mode = MODE_PREDICT) },
	{ "--predict -u -l 1472 --mtu 9000 --no-timestamps --link 1G -D -4 -v", 0, 0,
	  NOHOST(.mode = MODE_PREDICT, .proto = PROTO_UDP, .mtu = 9000, .mtu_set = 1,
	  .no_ts = 1,
	  .link_bps = 1e9, .family = AF_INET,
	  .loc = SIDE(.len = 1472, .nodelay = 1, .verbose = 1),
	  .rem = SIDE(.len = 1472, .nodelay = 1, .verbose = 1)) },
	{ "--predict -6 --mtu=68", 0, 0, NOHOST(.mode = MODE_PREDICT, .family = AF_INET6,
	  .mtu = 68, .mtu_set = 1) },
	/* PPPoE takes 8 bytes of a 1500-byte Ethernet payload: MTU 1492 */
	{ "--predict --pppoe -u -l 1464", 0, 0, NOHOST(.mode = MODE_PREDICT,
	  .proto = PROTO_UDP, .pppoe = 1, .mtu = 1492,
	  .loc = SIDE(.len = 1464), .rem = SIDE(.len = 1464)) },
	{ "--predict --mtu 1480 --pppoe --vlan 2", 0, 0, NOHOST(.mode = MODE_PREDICT,
	  .pppoe = 1, .mtu = 1480, .mtu_set = 1, .vlan_tags = 2) },
	{ "--predict --vlan=0", 0, 0, NOHOST(.mode = MODE_PREDICT) },
	{ "--predict --vlan 8", 0, 0, NOHOST(.mode = MODE_PREDICT, .vlan_tags = 8) },
	{ "--link 10M --vlan 1 --pppoe host", 0, 0, CONF(.link_bps = 1e7,
	  .vlan_tags = 1, .pppoe = 1) },
	{ "--predict -u -l 65507", 0, 0, NOHOST(.mode = MODE_PREDICT, .proto = PROTO_UDP,
	  .loc = SIDE(.len = 65507), .rem = SIDE(.len = 65507)) },
	/* --rtt (ms, to the microsecond), --loss (percent), -w with --predict */
	{ "--predict --rtt 40 -w 64 --link 100M", 0, 0, NOHOST(.mode = MODE_PREDICT,
	  .rtt_s = 0.04, .link_bps = 1e8, .loc = SIDE(.window = 65536),
	  .rem = SIDE(.window = 65536)) },
	{ "--predict --rtt=0.5 --loss 1", 0, 0, NOHOST(.mode = MODE_PREDICT,
	  .rtt_s = 0.0005, .loss = 0.01) },
	{ "--predict --rtt 0.001 --loss 0.5%", 0, 0, NOHOST(.mode = MODE_PREDICT,
	  .rtt_s = 0.000001, .loss = 0.005) },
	{ "--predict --rtt 600000 --loss 100%", 0, 0, NOHOST(.mode = MODE_PREDICT,
	  .rtt_s = 600, .loss = 1) },
	{ "--predict --rtt 20", 0, 0, NOHOST(.mode = MODE_PREDICT, .rtt_s = 0.02) },
	{ "--link 10M --rtt 20 --loss 0.1 -w 32 host", 0, 0, CONF(.link_bps = 1e7,
	  .rtt_s = 0.02, .loss = 0.001, .loc = SIDE(.window = 32768),
	  .rem = SIDE(.window = 32768)) },
	{ "--ecn host", 0, 0, CONF(.ecn = 1) },
	{ "--ecn -u -r host", 0, 0, CONF(.ecn = 1, .proto = PROTO_UDP,
	  .role = ROLE_RECV) },
	{ "--link 10M --rtt 20 host -w 16", 0, 0, CONF(.link_bps = 1e7,
	  .rtt_s = 0.02, .rem = SIDE(.window = 16384)) },
};

static void
check_side(const char *line, const char *which, const struct side_opts *got,
           const struct side_opts *want)
{
#define SF(f) if (got->f != want->f) MISS("'%s': %s." #f " = %llu, want %llu", \
	line, which, (unsigned long long)got->f, (unsigned long long)want->f)
	SF(len); SF(count); SF(total); SF(window); SF(gap_us); SF(seed);
	SF(nodelay); SF(verify); SF(pattern_spans); SF(verbose);
#undef SF
	if (strcmp(got->format, want->format) != 0)
		MISS("'%s': %s.format = '%s', want '%s'", line, which, got->format,
		         want->format);
}

static void
test_accepted(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof ok_rows / sizeof ok_rows[0]; i++) {
		const struct ok_row *r = &ok_rows[i];
		const struct config *w = &r->want;
		struct config c;
		char err[256];
		int rc = parse(r->line, r->loc_env, r->rem_env, &c, err, sizeof err);

		if (rc != 0) {
			MISS("'%s' (env '%s' / '%s'): rejected: %s", r->line,
			         r->loc_env ? r->loc_env : "", r->rem_env ? r->rem_env : "", err);
			cli_free(&c);
			continue;
		}
		if (err[0] != '\0')
			MISS("'%s': accepted but err = '%s'", r->line, err);
#define CF(f) if (c.f != w->f) MISS("'%s': " #f " = %lld, want %lld", r->line, \
	(long long)c.f, (long long)w->f)
		CF(mode); CF(proto); CF(role); CF(title); CF(family); CF(port);
		CF(port_set); CF(mtu); CF(mtu_set); CF(no_ts); CF(vlan_tags); CF(pppoe);
		CF(out);
#undef CF
		if (c.link_bps != w->link_bps)
			MISS("'%s': link_bps = %g, want %g", r->line, c.link_bps,
			         w->link_bps);
		if (c.ecn != w->ecn)
			MISS("'%s': ecn = %d, want %d", r->line, c.ecn, w->ecn);
		if (c.rtt_s != w->rtt_s || c.loss != w->loss)
			MISS("'%s': rtt_s = %.17g, loss = %.17g, want %.17g, %.17g",
			     r->line, c.rtt_s, c.loss, w->rtt_s, w->loss);
		if ((c.host == NULL) != (w->host == NULL) ||
		    (c.host != NULL && strcmp(c.host, w->host) != 0))
			MISS("'%s': host = '%s', want '%s'", r->line,
			         c.host ? c.host : "(null)", w->host ? w->host : "(null)");
		check_side(r->line, "loc", &c.loc, &w->loc);
		check_side(r->line, "rem", &c.rem, &w->rem);
		if (c.npartners != (w->host != NULL))
			MISS("'%s': npartners = %u, want %d", r->line, c.npartners,
			     w->host != NULL);
		if (c.tag != '1')
			MISS("'%s': tag '%c', want '1'", r->line, c.tag);
		if (c.npartners == 1 && (strcmp(c.partners[0].host, c.host) != 0 ||
		    c.partners[0].port != c.port || c.partners[0].rem.len != c.rem.len))
			MISS("'%s': partners[0] is not host, port, rem", r->line);
		cli_free(&c);
		assert_null(c.env_store[0]);
		assert_null(c.env_store[1]);
	}
	MISSED();
}

/* ---- rejected command lines ---------------------------------------- */

struct bad_row {
	const char *line, *loc_env, *rem_env;
	const char *msg;
};

#define MUST_BEFORE(o) o " must come before the partner name (it applies to both sides)"
#define NO_MEANING_I(o) o " has no meaning with -i"
#define NO_MEANING_P(o) o " has no meaning with --predict"
#define S_RANGE "' is out of range (1 to 67108864)"
#define TAGS "(tags: %b %l %n %c %rt %ct %rbr %cbr %rcr %ccr)"
#define SEED257 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SEED256 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

static const struct bad_row bad_rows[] = {
	{ "", 0, 0, "no partner host given (start the partner with gput -i)" },
	{ "-u -l 100", 0, 0, "no partner host given (start the partner with gput -i)" },
	{ "-Q host", 0, 0, "unknown option -Q" },
	{ "-uQ host", 0, 0, "unknown option -Q" },
	{ "host -Q", 0, 0, "unknown option -Q" },
	{ "--bogus host", 0, 0, "unknown option --bogus" },
	{ "--bogus=3 host", 0, 0, "unknown option --bogus=3" },
	{ "--no host", 0, 0, "unknown option --no" },       /* ambiguous prefix */
	{ "-l", 0, 0, "option -l needs a value" },
	{ "host -l", 0, 0, "option -l needs a value" },
	{ "-u -p", 0, 0, "option -p needs a value" },
	{ "host -f", 0, 0, "option -f needs a value" },
	{ "-i -p", 0, 0, "option -p needs a value" },
	/* values out of range, option by option */
	{ "-l 0 host", 0, 0, "-l: '0" S_RANGE },
	{ "-l 65537K host", 0, 0, "-l: '65537K" S_RANGE },
	{ "host -l 0", 0, 0, "-l: '0" S_RANGE },
	{ "-l abc host", 0, 0, "-l: 'abc' is not a number" },
	{ "-l -5 host", 0, 0, "-l: '-5' is not a number" },
	{ "-l 5X host", 0, 0,
	  "-l: '5X' is not a size (use a number with an optional B, K, M or G suffix)" },
	{ "-n 0 host", 0, 0, "-n: '0' is out of range (1 to 4611686018427387904)" },
	{ "-n 4611686018427387905 host", 0, 0,
	  "-n: '4611686018427387905' is out of range (1 to 4611686018427387904)" },
	{ "-n 1K host", 0, 0, "-n counts buffers of -l bytes as in nttcp; for a number "
	  "of bytes use -x 1K" },
	{ "-n 1X host", 0, 0, "-n: '1X' is not a whole number" },
	{ "--count ''", 0, 0, "-n: '' is not a number" },
	{ "-x 0 host", 0, 0, "-x: '0' is out of range (1 to 4611686018427387904)" },
	{ "-x 4294967297G host", 0, 0,
	  "-x: '4294967297G' is out of range (1 to 4611686018427387904)" },
	{ "-x 17179869184G host", 0, 0, "-x: '17179869184G' is too large" },
	{ "-w 0 host", 0, 0, "-w: '0' is out of range (1 to 1048576)" },
	{ "-w 1048577 host", 0, 0, "-w: '1048577' is out of range (1 to 1048576)" },
	{ "-w 1023B host", 0, 0, "-w: '1023B' is out of range (1024 to 1073741824)" },
	{ "-w 64Q host", 0, 0,
	  "-w: '64Q' is not a size (use a number with an optional B, K, M or G suffix)" },
	{ "-g 10000001 host", 0, 0, "-g: '10000001' is out of range (0 to 10000000)" },
	{ "host -g -1", 0, 0, "-g: '-1' is not a number" },
	{ "-p 65536 host", 0, 0, "-p: '65536' is out of range (0 to 65535)" },
	{ "--port x host", 0, 0, "-p: 'x' is not a number" },
	{ "--predict --mtu 67", 0, 0, "--mtu: '67' is out of range (68 to 65535)" },
	{ "--predict --mtu 65536", 0, 0, "--mtu: '65536' is out of range (68 to 65535)" },
	{ "--link 999 host", 0, 0,
	  "--link: '999' is out of range (1000 to 10000000000000 bit/s)" },
	{ "--link 10001G host", 0, 0,
	  "--link: '10001G' is out of range (1000 to 10000000000000 bit/s)" },
	{ "--link 10MB host", 0, 0, "--link: '10MB' is not a rate (use e.g. 10M, 1G, 100k)" },
	{ "-S '' host", 0, 0, "-S: seed must be 1 to 256 characters" },
	{ "-S " SEED257 " host", 0, 0, "-S: seed must be 1 to 256 characters" },
	{ "-f %x host", 0, 0, "-f: unknown tag in '%x' " TAGS },
	{ "-f '' host", 0, 0, "-f: empty format" },
	{ "-f %65b host", 0, 0, "-f: width at most 64, precision at most 12" },
	{ "host -f %1.13rt", 0, 0, "-f: width at most 64, precision at most 12" },
	/* -n and -x in one list */
	{ "-n 5 -x 1M host", 0, 0, "-n and -x cannot be used together" },
	{ "-x 1M -n 5 host", 0, 0, "-n and -x cannot be used together" },
	{ "host -n 5 -x 1M", 0, 0, "-n and -x cannot be used together" },
	{ "host", "-n 5 -x 1M", 0, "GPUT_LOC_OPT: -n and -x cannot be used together" },
	/* the sender sizes the stream: a receiving partner's -n or -x is no
	 * count of anything */
	{ "-n 10 host -n 100", 0, 0, "-n after host's name has no effect: the "
	  "partner receives, and the sender (this host) sizes the stream; put it "
	  "before the partner's name" },
	{ "-u host -x 1M", 0, 0, "-x after host's name has no effect: the "
	  "partner receives, and the sender (this host) sizes the stream; put it "
	  "before the partner's name" },
	/* options for both sides after the partner name */
	{ "host -u", 0, 0, MUST_BEFORE("-u") },
	{ "host -t", 0, 0, MUST_BEFORE("-t") },
	{ "host -r", 0, 0, MUST_BEFORE("-r") },
	{ "host -T", 0, 0, MUST_BEFORE("-T") },
	{ "host -4", 0, 0, MUST_BEFORE("-4") },
	{ "host --ipv6", 0, 0, MUST_BEFORE("-6") },
	{ "host -i", 0, 0, MUST_BEFORE("-i") },
	{ "host -h", 0, 0, MUST_BEFORE("-h") },
	{ "host -l 1 -V", 0, 0, MUST_BEFORE("-V") },
	{ "host --link 1M", 0, 0, MUST_BEFORE("--link") },
	{ "host --predict", 0, 0, MUST_BEFORE("--predict") },
	{ "host --mtu 1500", 0, 0, MUST_BEFORE("--mtu") },
	{ "host --no-timestamps", 0, 0, MUST_BEFORE("--no-timestamps") },
	{ "host --vlan 1", 0, 0, MUST_BEFORE("--vlan") },
	{ "host --pppoe", 0, 0, MUST_BEFORE("--pppoe") },
	{ "host", 0, "-u", "GPUT_REM_OPT: " MUST_BEFORE("-u") },
	/* daemon */
	{ "-i host", 0, 0, "-i takes no partner host" },
	{ "-i host -l 5", 0, 0, "-i takes no partner host" },
	{ "-i -l 100", 0, 0, NO_MEANING_I("-l") },
	{ "-i -u", 0, 0, NO_MEANING_I("-u") },
	{ "-i -t", 0, 0, NO_MEANING_I("-t") },
	{ "-i -r", 0, 0, NO_MEANING_I("-r") },
	{ "-i -T", 0, 0, NO_MEANING_I("-T") },
	{ "-i -c", 0, 0, NO_MEANING_I("-c") },
	{ "-i -n 3", 0, 0, NO_MEANING_I("-n") },
	{ "-i -x 3", 0, 0, NO_MEANING_I("-x") },
	{ "-i -w 3", 0, 0, NO_MEANING_I("-w") },
	{ "-i -S x", 0, 0, NO_MEANING_I("-S") },
	{ "-i -f %b", 0, 0, NO_MEANING_I("-f") },
	{ "-i -g 1", 0, 0, NO_MEANING_I("-g") },
	{ "-i -D", 0, 0, NO_MEANING_I("-D") },
	{ "-i -s", 0, 0, NO_MEANING_I("-s") },
	{ "-i -4", 0, 0, NO_MEANING_I("-4") },
	{ "-i --link 1M", 0, 0, NO_MEANING_I("--link") },
	{ "-i --mtu 1500", 0, 0, NO_MEANING_I("--mtu") },
	{ "--daemon --no-timestamps", 0, 0, NO_MEANING_I("--no-timestamps") },
	{ "-i --vlan 1", 0, 0, NO_MEANING_I("--vlan") },
	{ "-i --pppoe", 0, 0, NO_MEANING_I("--pppoe") },
	/* --predict */
	{ "--predict host", 0, 0, "--predict takes no partner host" },
	{ "--predict -n 5", 0, 0, "-n with --predict needs --rtt (the time to send "
	  "them at the path's bound)" },
	{ "--predict -x 5", 0, 0, NO_MEANING_P("-x") },
	{ "--predict -p 1", 0, 0, NO_MEANING_P("-p") },
	{ "--predict -c", 0, 0, NO_MEANING_P("-c") },
	{ "--predict -r", 0, 0, NO_MEANING_P("-r") },
	{ "--predict -t", 0, 0, NO_MEANING_P("-t") },
	{ "--predict -T", 0, 0, NO_MEANING_P("-T") },
	{ "--predict -w 1", 0, 0, "-w with --predict needs --rtt (a window limits "
	  "goodput to window/RTT)" },
	{ "--predict --loss 1", 0, 0, "--loss needs --rtt (the Mathis bound is "
	  "segments per RTT)" },
	{ "--predict -u --rtt 1", 0, 0, "--rtt with -u needs --sliding-window "
	  "(the window it limits); --rtt and --loss otherwise model TCP" },
	{ "--link 1M -u --rtt 1 host", 0, 0, "--rtt with -u needs --sliding-window "
	  "(the window it limits); --rtt and --loss otherwise model TCP" },
	{ "--predict -u --sliding-window 5 --rtt 60 --loss 1", 0, 0, "--loss "
	  "models TCP's loss recovery: no meaning with -u" },
	{ "--predict --sliding-window 5 --rtt 60", 0, 0, "--sliding-window needs "
	  "-u (TCP has its own window)" },
	{ "--predict -u --rto 5", 0, 0, NO_MEANING_P("--rto") },
	{ "--rtt 1 host", 0, 0, "--rtt only applies with --link or --predict" },
	{ "--loss 1 host", 0, 0, "--loss only applies with --link or --predict" },
	{ "--link 1M --loss 1 host", 0, 0, "--loss needs --rtt (the Mathis bound "
	  "is segments per RTT)" },
	{ "host --rtt 1", 0, 0, MUST_BEFORE("--rtt") },
	{ "host --ecn", 0, 0, MUST_BEFORE("--ecn") },
	{ "-i --ecn", 0, 0, NO_MEANING_I("--ecn") },
	{ "--predict --ecn", 0, 0, NO_MEANING_P("--ecn") },
	{ "--ecn=1 host", 0, 0, "unknown option --ecn=1" },
	{ "--ecn -m 239.1.1.1 host", 0, 0, "--ecn: not with -m (a group's "
	  "receivers report no ECN)" },
	{ "-i --rtt 1", 0, 0, NO_MEANING_I("--rtt") },
	{ "-i --loss 1", 0, 0, NO_MEANING_I("--loss") },
	{ "--predict --rtt 0", 0, 0, "--rtt: '0' is out of range (0.001 to 600000)" },
	{ "--predict --rtt 0.0009", 0, 0, "--rtt: '0.0009' is out of range "
	  "(0.001 to 600000)" },
	{ "--predict --rtt 600000.1", 0, 0, "--rtt: '600000.1' is out of range "
	  "(0.001 to 600000)" },
	{ "--predict --rtt 20ms", 0, 0, "--rtt: '20ms' is not a number" },
	{ "--predict --rtt -5", 0, 0, "--rtt: '-5' is not a number" },
	{ "--predict --rtt 1e3", 0, 0, "--rtt: '1e3' is not a number" },
	{ "--predict --rtt inf", 0, 0, "--rtt: 'inf' is not a number" },
	{ "--predict --rtt .", 0, 0, "--rtt: '.' is not a number" },
	{ "--predict --rtt", 0, 0, "option --rtt needs a value" },
	{ "--predict --rtt 1 --loss 0", 0, 0, "--loss: '0': a loss above 0% (the "
	  "bound of no loss is the link's)" },
	{ "--predict --rtt 1 --loss 0%", 0, 0, "--loss: '0%': a loss above 0% (the "
	  "bound of no loss is the link's)" },
	{ "--predict --rtt 1 --loss 100.5", 0, 0, "--loss: '100.5' is out of "
	  "range (above 0 to 100%)" },
#define NOT_PCT(a) "--loss: '" a "' is not a percentage (1 or 1% is a loss of " \
	"one segment in 100)"
	{ "--predict --rtt 1 --loss %", 0, 0, NOT_PCT("%") },
	{ "--predict --rtt 1 --loss 1%%", 0, 0, NOT_PCT("1%%") },
	{ "--predict --rtt 1 --loss 0.01p", 0, 0, NOT_PCT("0.01p") },
	{ "--predict --rtt 1 --loss 1e-3", 0, 0, NOT_PCT("1e-3") },
	{ "--predict --rtt 1 --loss 123456789012345678901234567890123", 0, 0,
	  NOT_PCT("123456789012345678901234567890123") },
	{ "--predict --rtt 1 -w 0", 0, 0, "-w: '0' is out of range (1 to 1048576)" },
	{ "--predict -S a", 0, 0, NO_MEANING_P("-S") },
	{ "--predict -f %b", 0, 0, NO_MEANING_P("-f") },
	{ "--predict -g 1", 0, 0, NO_MEANING_P("-g") },
	{ "--predict -s", 0, 0, NO_MEANING_P("-s") },
	{ "--predict -u -l 65508", 0, 0, "-l: a UDP datagram carries at most 65507 bytes" },
	{ "--mtu 9000 host", 0, 0, "--mtu only applies to --predict" },
	{ "--no-timestamps host", 0, 0, "--no-timestamps only applies to --predict" },
	{ "--vlan 1 host", 0, 0, "--vlan only applies with --link or --predict" },
	{ "--pppoe host", 0, 0, "--pppoe only applies with --link or --predict" },
	{ "--predict --vlan 9", 0, 0, "--vlan: '9' is out of range (0 to 8)" },
	{ "--predict --vlan x", 0, 0, "--vlan: 'x' is not a number" },
	{ "--predict --vlan", 0, 0, "option --vlan needs a value" },
	{ "--predict --pppoe=1", 0, 0, "unknown option --pppoe=1" },
	/* client cross-checks */
	{ "-p 0 host", 0, 0, "-p: port 0 only makes sense with -i" },
	{ "-u -l 65508 host", 0, 0, "-l: a UDP datagram carries at most 65507 bytes" },
	{ "-u -r host -l 65508", 0, 0, "-l: a UDP datagram carries at most 65507 bytes" },
	{ "-n 4611686018427387904 -l 2 host", 0, 0, "-n times -l is too large" },
	{ "-r host -n 4611686018427387904 -l 2", 0, 0, "-n times -l is too large" },
	{ "-n 1099511627777 -l 4M host", 0, 0, "-n times -l is too large" },
	/* the environment's own errors */
	{ "", "host", 0, "GPUT_LOC_OPT: 'host' is not an option" },
	{ "host", "-l 5 x -n 3", 0, "GPUT_LOC_OPT: 'x' is not an option" },
	{ "host", "-Q", 0, "GPUT_LOC_OPT: unknown option -Q" },
	{ "host", "-l 0", 0, "GPUT_LOC_OPT: -l: '0" S_RANGE },
	{ "host", 0, "foo", "GPUT_REM_OPT: 'foo' is not an option" },
	/* after "--", a word that is no partner name */
	{ "host -- -l", 0, 0, "unexpected argument '-l' after the partner's options" },
	{ "a -l 5 b -- -x", 0, 0, "unexpected argument '-x' after the partner's options" },
	/* several partners: each one's options, the bound, what takes one */
	{ "a b c d e f g h i j", 0, 0,
	  "at most 9 partners (their lines are tagged 1 to 9): 'j' is one too many" },
	{ "a -p 1 b -p 2 c d e f g h i -l 9 j -l 10", 0, 0,
	  "at most 9 partners (their lines are tagged 1 to 9): 'j' is one too many" },
	{ "a b -u", 0, 0, MUST_BEFORE("-u") },
	{ "a -l 5 b --time 1", 0, 0, MUST_BEFORE("--time") },
	{ "a b -l 0", 0, 0, "-l: '0" S_RANGE },
	{ "a b -p 65536", 0, 0, "-p: '65536' is out of range (0 to 65535)" },
	{ "a b -p", 0, 0, "option -p needs a value" },
	{ "a -p 0 b", 0, 0, "-p: port 0 only makes sense with -i" },
	{ "a b -p 0", 0, 0, "-p: port 0 only makes sense with -i" },
	{ "a b", 0, "-p 0", "-p: port 0 only makes sense with -i" },
	{ "-u -r a b -l 65508", 0, 0, "-l: a UDP datagram carries at most 65507 bytes" },
	{ "-r a -n 5 b -n 4611686018427387904 -l 2", 0, 0, "-n times -l is too large" },
	{ "a b -n 5 -x 1M", 0, 0, "-n and -x cannot be used together" },
	{ "--link 10M a b", 0, 0,
	  "--link predicts one connection on a link of its own: give one partner" },
	{ "-u -r --log f a b", 0, 0,
	  "--log writes one partner's datagrams: give one partner" },
	{ "--prometheus a b", 0, 0,
	  "--prometheus describes one test: give one partner, without --bidir" },
	{ "a --prometheus", 0, 0,
	  "--prometheus must come before the partner name (it applies to both sides)" },
	{ "--prometheus a b -l 5", 0, 0,
	  "--prometheus describes one test: give one partner, without --bidir" },
	{ "--prometheus --bidir a", 0, 0,
	  "--prometheus describes one test: give one partner, without --bidir" },
	{ "--prometheus --json a", 0, 0, "--csv, --json, --json-lines and "
	  "--prometheus cannot be used together" },
	{ "--csv --prometheus a", 0, 0, "--csv, --json, --json-lines and "
	  "--prometheus cannot be used together" },
	{ "--prometheus --repeat 3 a", 0, 0, "--prometheus describes one run: it "
	  "cannot be used with --repeat" },
	{ "--prometheus -T a", 0, 0, "-f and -T shape the table: no meaning with "
	  "--csv, --json, --json-lines or --prometheus" },
	{ "-i a b", 0, 0, "-i takes no partner host" },
	{ "--predict a b", 0, 0, "--predict takes no partner host" },
	{ "a b", 0, "foo", "GPUT_REM_OPT: 'foo' is not an option" },
	{ "-P 0 h", 0, 0, "-P: '0' is out of range (1 to 128)" },
	{ "-P 129 h", 0, 0, "-P: '129' is out of range (1 to 128)" },
	{ "-P x h", 0, 0, "-P: 'x' is not a number" },
	{ "--cc cubic,,reno h", 0, 0, "--cc: an empty or overlong name in 'cubic,,reno'" },
	{ "--cc reno, h", 0, 0, "--cc: an empty or overlong name in 'reno,'" },
	{ "--cc ,reno h", 0, 0, "--cc: an empty or overlong name in ',reno'" },
	{ "--cc reno,abcdefghijklmnop h", 0, 0,
	  "--cc: an empty or overlong name in 'reno,abcdefghijklmnop'" },
	{ "--bidir a b", 0, 0, "--bidir runs one partner both ways: give one partner" },
	{ "-P 2 --log f -u -r h", 0, 0, "--log records one stream: it cannot be used with -P" },
	{ "-P 2 --link 10M h", 0, 0, "--link describes one connection: it cannot be used with -P" },
	{ "-i --max-streams 0", 0, 0, "--max-streams: '0' is out of range (1 to 128)" },
	{ "-i --max-streams 129", 0, 0, "--max-streams: '129' is out of range (1 to 128)" },
	{ "--max-streams 2 h", 0, 0, "--max-streams only applies to the partner (-i)" },
};

/* err with control characters shown as \xNN (and NUL ending it). */
static const char *
visible(const char *s)
{
	static char buf[1024];
	size_t n = 0;

	for (; *s != '\0' && n + 5 < sizeof buf; s++)
		n += (size_t)snprintf(buf + n, sizeof buf - n,
		    (unsigned char)*s < 0x20 ? "\\x%02x" : "%c", (unsigned char)*s);
	buf[n] = '\0';
	return buf;
}

static void
run_bad(const struct bad_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct bad_row *r = &rows[i];
		struct config c;
		char err[512];
		int rc;

		memset(err, 'Z', sizeof err);
		rc = parse(r->line, r->loc_env, r->rem_env, &c, err, sizeof err);
		cli_free(&c);
		if (rc != -1)
			MISS("'%s' (env '%s' / '%s'): accepted, want '%s'", r->line,
			         r->loc_env ? r->loc_env : "", r->rem_env ? r->rem_env : "",
			         r->msg);
		else if (strcmp(err, r->msg) != 0)
			MISS("'%s' (env '%s' / '%s'): message '%s', want '%s'", r->line,
			         r->loc_env ? r->loc_env : "", r->rem_env ? r->rem_env : "",
			         visible(err), r->msg);
	}
	MISSED();
}

static void
test_rejected(void **state)
{
	(void)state;
	run_bad(bad_rows, sizeof bad_rows / sizeof bad_rows[0]);
}

/*
 * Long options without a short form. The code names an option as typed
 * (argv) when getopt leaves optopt 0, but glibc sets optopt to the long
 * option's val (256.. for these) when a value is missing or one is given to
 * a flag, so "-%c" prints a NUL or a control character instead.
 */
static const struct bad_row long_rows[] = {
	{ "--link", 0, 0, "option --link needs a value" },
	{ "--predict --mtu", 0, 0, "option --mtu needs a value" },
	{ "--predict=1", 0, 0, "unknown option --predict=1" },
	{ "--predict --no-timestamps=1", 0, 0, "unknown option --no-timestamps=1" },
	{ "--udp=1 host", 0, 0, "unknown option --udp=1" },
	{ "--length", 0, 0, "option --length needs a value" },
};

static void
test_rejected_long_only(void **state)
{
	(void)state;
	run_bad(long_rows, sizeof long_rows / sizeof long_rows[0]);
}

/* GPUT_REM_OPT comes before the partner's command-line options, and the
 * command line wins, as GPUT_LOC_OPT does for the local side: an -n in the
 * environment must not clash with an -x typed after the partner name. */
static void
test_env_rem_command_line_wins(void **state)
{
	struct config c;
	char err[256];
	int rc;

	(void)state;
	/* the local side: accepted, -x wins */
	rc = parse("-x 1M host", "-n 5", NULL, &c, err, sizeof err);
	cli_free(&c);
	assert_int_equal(rc, 0);
	/* the partner's side, the same lists */
	rc = parse("-r host -x 1M", NULL, "-n 5", &c, err, sizeof err);
	cli_free(&c);
	if (rc != 0)
		fail_msg("GPUT_REM_OPT='-n 5', '-r host -x 1M': rejected: %s", err);
	assert_int_equal(c.rem.total, 1 << 20);
	assert_int_equal(c.loc.total, 0);
	assert_int_equal(c.loc.count, 2048);
}

/* ---- several partners ---------------------------------------------- */

struct partner_want {
	const char *host;
	uint16_t port;
	struct side_opts rem;
};

struct partners_row {
	const char *line, *rem_env;
	unsigned n;
	struct partner_want p[GPUT_MAX_PARTNERS];
};

/* Each partner starts from the local options and GPUT_REM_OPT; what
 * follows its name is its own; -p before the names is everyone's port. */
static const struct partners_row partners_rows[] = {
	{ "a b", 0, 2, { { "a", 5037, SIDE() }, { "b", 5037, SIDE() } } },
	{ "-l 100 a -l 200 b", 0, 2, { { "a", 5037, SIDE(.len = 200) },
	  { "b", 5037, SIDE(.len = 100) } } },
	{ "-p 6000 a -p 6001 b c -c", "-w 2", 3, {
	  { "a", 6001, SIDE(.window = 2048) }, { "b", 6000, SIDE(.window = 2048) },
	  { "c", 6000, SIDE(.window = 2048, .verify = 1) } } },
	{ "-r a -n 5 b -x 100", "-n 7", 2, { { "a", 5037, SIDE(.count = 5) },
	  { "b", 5037, SIDE(.count = 7, .total = 100) } } },
	{ "127.0.0.1 -p 1 127.0.0.1 -p 2", "-p 9", 2, { { "127.0.0.1", 1, SIDE() },
	  { "127.0.0.1", 2, SIDE() } } },
	{ "a b c d e f g h i -f %b", 0, 9, { { "a", 5037, SIDE() }, { "b", 5037, SIDE() },
	  { "c", 5037, SIDE() }, { "d", 5037, SIDE() }, { "e", 5037, SIDE() },
	  { "f", 5037, SIDE() }, { "g", 5037, SIDE() }, { "h", 5037, SIDE() },
	  { "i", 5037, SIDE(.format = "%b") } } },
	{ "-- a -- b", 0, 2, { { "a", 5037, SIDE() }, { "b", 5037, SIDE() } } },
};

static void
test_partners(void **state)
{
	size_t i;
	unsigned k;

	(void)state;
	for (i = 0; i < sizeof partners_rows / sizeof partners_rows[0]; i++) {
		const struct partners_row *r = &partners_rows[i];
		struct config c;
		char err[256], which[32];

		if (parse(r->line, NULL, r->rem_env, &c, err, sizeof err) != 0) {
			MISS("'%s': rejected: %s", r->line, err);
			cli_free(&c);
			continue;
		}
		if (c.npartners != r->n)
			MISS("'%s': %u partners, want %u", r->line, c.npartners, r->n);
		for (k = 0; k < r->n && k < c.npartners; k++) {
			const struct partner *got = &c.partners[k];

			if (strcmp(got->host, r->p[k].host) != 0 || got->port != r->p[k].port)
				MISS("'%s': partner %u is %s port %u, want %s port %u",
				     r->line, k + 1, got->host, got->port, r->p[k].host,
				     r->p[k].port);
			snprintf(which, sizeof which, "partner %u", k + 1);
			check_side(r->line, which, &got->rem, &r->p[k].rem);
		}
		/* the first partner is also the single partner's fields */
		if (strcmp(c.host, r->p[0].host) != 0 || c.port != r->p[0].port)
			MISS("'%s': host %s port %u, want the first partner's", r->line,
			     c.host, c.port);
		check_side(r->line, "rem", &c.rem, &r->p[0].rem);
		check_side(r->line, "loc", &c.loc, &(struct side_opts)SIDE(
		    .len = strstr(r->line, "-l 100 a") ? 100 : 4096));
		cli_free(&c);
	}
	MISSED();
}

/* ---- cli_params: the two halves ------------------------------------ */

struct params_row {
	const char *line;
	struct xfer_params loc, rem;
};

#define DATA(...) .data_len = 4096, .data_bytes = 2048ULL * 4096, ##__VA_ARGS__
#define SND(...) { .role = ROLE_SEND, .len = 4096, .count = 2048, DATA(), __VA_ARGS__ }
#define RCV(...) { .role = ROLE_RECV, .len = 4096, .count = 2048, DATA(), __VA_ARGS__ }

static const struct params_row params_rows[] = {
	{ "host", SND(), RCV() },
	{ "-r host", RCV(), SND() },
	{ "-u host", SND(.proto = PROTO_UDP), RCV(.proto = PROTO_UDP) },
	/* --ecn: PARAMS xflags CTL_XF_ECN, both halves */
	{ "--ecn -u host", SND(.proto = PROTO_UDP, .xflags = CTL_XF_ECN),
	  RCV(.proto = PROTO_UDP, .xflags = CTL_XF_ECN) },
	{ "--ecn -r host", RCV(.xflags = CTL_XF_ECN), SND(.xflags = CTL_XF_ECN) },
	{ "-l 1000 host -l 2000",
	  SND(.len = 1000, DATA(.data_len = 1000, .data_bytes = 2048 * 1000)),
	  RCV(.len = 2000, DATA(.data_len = 1000, .data_bytes = 2048 * 1000)) },
	{ "-r -l 1000 host -l 2000",
	  RCV(.len = 1000, DATA(.data_len = 2000, .data_bytes = 2048 * 2000)),
	  SND(.len = 2000, DATA(.data_len = 2000, .data_bytes = 2048 * 2000)) },
	{ "-r -n 10 -l 100 host -n 20",
	  RCV(.len = 100, .count = 10, DATA(.data_len = 100, .data_bytes = 2000)),
	  SND(.len = 100, .count = 20, DATA(.data_len = 100, .data_bytes = 2000)) },
	/* -x: the total, and the count rounded up */
	{ "-x 10000 host",
	  SND(.count = 3, DATA(.data_bytes = 10000)), RCV(.count = 3, DATA(.data_bytes = 10000)) },
	{ "-x 8192 host",
	  SND(.count = 2, DATA(.data_bytes = 8192)), RCV(.count = 2, DATA(.data_bytes = 8192)) },
	{ "-x 1 host", SND(.count = 1, DATA(.data_bytes = 1)), RCV(.count = 1, DATA(.data_bytes = 1)) },
	{ "-x 10000 host -l 1000",
	  SND(.count = 3, DATA(.data_bytes = 10000)),
	  RCV(.len = 1000, .count = 10, DATA(.data_bytes = 10000)) },
	{ "-r -n 5 host -x 1M -l 1000",
	  RCV(.count = 5, DATA(.data_len = 1000, .data_bytes = 1 << 20)),
	  SND(.len = 1000, .count = 1049, DATA(.data_len = 1000, .data_bytes = 1 << 20)) },
	{ "-r -x 100 host -n 5",
	  RCV(.count = 1, DATA(.data_bytes = 5 * 4096)), SND(.count = 5, DATA(.data_bytes = 5 * 4096)) },
	/* per-side flags stay per side; the stream's come from the sender */
	{ "-u -c -D -v -w 64 -g 100 -S abc -s host -g 7",
	  SND(.proto = PROTO_UDP, .verify = 1, .nodelay = 1, .verbose = 1, .window = 65536,
	      .gap_us = 100, DATA(.data_gap_ps = 100000000, .seed = H_ABC, .pattern_spans = 1)),
	  RCV(.proto = PROTO_UDP, .verify = 1, .nodelay = 1, .verbose = 1, .window = 65536,
	      .gap_us = 7, DATA(.data_gap_ps = 100000000, .seed = H_ABC, .pattern_spans = 1)) },
	{ "-r -S a host -S foobar -s -g 9",
	  RCV(DATA(.seed = H_FOOBAR, .pattern_spans = 1, .data_gap_ps = 9000000)),
	  SND(.gap_us = 9, DATA(.seed = H_FOOBAR, .pattern_spans = 1, .data_gap_ps = 9000000)) },
	{ "-S a host -S foobar -s -g 9",
	  SND(DATA(.seed = H_A)), RCV(.gap_us = 9, DATA(.seed = H_A)) },
	{ "-r -c host", RCV(.verify = 1), SND(.verify = 1) },
	{ "host -c -w 1", SND(), RCV(.verify = 1, .window = 1024) },
	/* --rate: the gap from the sender's length, to the picosecond */
	{ "-u --rate 5M -l 1472 host", SND(.proto = PROTO_UDP, .len = 1472,
	      DATA(.data_len = 1472, .data_bytes = 2048 * 1472, .data_gap_ps = 2355200000)),
	  RCV(.proto = PROTO_UDP, .len = 1472, DATA(.data_len = 1472, .data_bytes = 2048 * 1472,
	      .data_gap_ps = 2355200000)) },
	{ "-u --rate 3M --burst 4 -l 1000 host", SND(.proto = PROTO_UDP, .len = 1000,
	      DATA(.data_len = 1000, .data_bytes = 2048 * 1000, .data_gap_ps = 2666666667,
	      .data_burst = 4)),
	  RCV(.proto = PROTO_UDP, .len = 1000, DATA(.data_len = 1000, .data_bytes = 2048 * 1000,
	      .data_gap_ps = 2666666667, .data_burst = 4)) },
	/* --time: the sender stops on time; the shape goes to both sides */
	{ "--time 2.5 --interval 0.5 --omit 1 host",
	  SND(DATA(.data_bytes = 1ULL << 62, .duration_ms = 2500, .interval_ms = 500,
	      .omit_ms = 1000)),
	  RCV(DATA(.data_bytes = 1ULL << 62, .duration_ms = 2500, .interval_ms = 500,
	      .omit_ms = 1000)) },
};

static void
check_params(const char *line, const char *which, const struct xfer_params *got,
             const struct xfer_params *want)
{
#define PF(f) if (got->f != want->f) MISS("'%s': %s." #f " = %llu, want %llu", \
	line, which, (unsigned long long)got->f, (unsigned long long)want->f)
	PF(proto); PF(role); PF(nodelay); PF(verify); PF(verbose); PF(len);
	PF(count); PF(window); PF(gap_us); PF(data_len); PF(data_bytes);
	PF(data_gap_ps); PF(data_burst); PF(seed); PF(pattern_spans);
	PF(duration_ms); PF(interval_ms); PF(omit_ms); PF(xflags);
#undef PF
}

static void
test_params(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof params_rows / sizeof params_rows[0]; i++) {
		const struct params_row *r = &params_rows[i];
		struct xfer_params loc, rem;
		struct config c;
		char err[256];

		if (parse(r->line, NULL, NULL, &c, err, sizeof err) != 0) {
			MISS("'%s': rejected: %s", r->line, err);
			cli_free(&c);
			continue;
		}
		memset(&loc, 0xa5, sizeof loc);
		memset(&rem, 0x5a, sizeof rem);
		cli_params(&c, &loc, &rem);
		check_params(r->line, "local", &loc, &r->loc);
		check_params(r->line, "remote", &rem, &r->rem);
		/* the data_* fields describe one stream: both halves agree */
		assert_int_equal(loc.data_len, rem.data_len);
		assert_int_equal(loc.data_bytes, rem.data_bytes);
		assert_int_equal(loc.role ^ rem.role, 1);
		cli_free(&c);
	}
	MISSED();
}

/* The seed hash itself: FNV-1a 32 test vectors. */
static void
test_seed_hash(void **state)
{
	(void)state;
	assert_int_equal(pattern_seed(""), 0x811c9dc5u);
	assert_int_equal(pattern_seed("a"), H_A);
	assert_int_equal(pattern_seed("abc"), H_ABC);
	assert_int_equal(pattern_seed("foobar"), H_FOOBAR);
	assert_int_not_equal(pattern_seed("ab"), pattern_seed("ba"));
}

/* A parse may follow a failed one: getopt is reset each time. */
static void
test_reparse(void **state)
{
	struct config c;
	char err[128];

	(void)state;
	assert_int_equal(parse("-Q host", NULL, NULL, &c, err, sizeof err), -1);
	cli_free(&c);
	assert_int_equal(parse("-l 7 host -l 8", NULL, NULL, &c, err, sizeof err), 0);
	assert_int_equal(c.loc.len, 7);
	assert_int_equal(c.rem.len, 8);
	cli_free(&c);
	assert_int_equal(parse("host -l", NULL, NULL, &c, err, sizeof err), -1);
	assert_string_equal(err, "option -l needs a value");
	cli_free(&c);
	assert_int_equal(parse("-n 3 host", "-l 9", "-l 10", &c, err, sizeof err), 0);
	assert_int_equal(c.loc.len, 9);
	assert_int_equal(c.rem.len, 10);
	assert_int_equal(c.rem.count, 3);
	cli_free(&c);
	assert_int_equal(parse("-S " SEED256 " host", NULL, NULL, &c, err, sizeof err), 0);
	assert_int_equal(c.loc.seed, pattern_seed(SEED256));
	assert_int_equal(c.rem.seed, pattern_seed(SEED256));
	cli_free(&c);
	cli_free(&c);                   /* twice is harmless */
}

/* The usage text names every form. */
/* -P, the --cc list, --max-streams and --bidir reach the test's halves. */
static void
test_streams(void **state)
{
	struct xfer_params lp, rp;
	struct config c;
	char err[256];

	(void)state;
	assert_int_equal(parse("h", NULL, NULL, &c, err, sizeof err), 0);
	cli_params(&c, &lp, &rp);
	assert_int_equal(lp.streams, 1);
	assert_int_equal(rp.streams, 1);
	cli_free(&c);
	assert_int_equal(parse("-P 128 --cc reno,reno h", NULL, NULL, &c, err,
	    sizeof err), 0);
	cli_params(&c, &lp, &rp);
	assert_int_equal(c.streams, 128);
	assert_int_equal(lp.streams, 128);
	assert_int_equal(rp.streams, 128);
	assert_string_equal(lp.cc, "reno,reno");
	assert_string_equal(rp.cc, "reno,reno");
	cli_free(&c);
	assert_int_equal(parse("-i --max-streams 7", NULL, NULL, &c, err,
	    sizeof err), 0);
	assert_int_equal(c.lim.max_streams, 7);
	cli_free(&c);
	assert_int_equal(parse("-i", NULL, NULL, &c, err, sizeof err), 0);
	assert_int_equal(c.lim.max_streams, 128);
	cli_free(&c);
	/* --bidir: the partner twice, the second the other way round */
	assert_int_equal(parse("--bidir -r h -p 6000 -l 100", NULL, NULL, &c, err,
	    sizeof err), 0);
	assert_int_equal(c.npartners, 2);
	assert_string_equal(c.partners[1].host, "h");
	assert_int_equal(c.partners[1].port, 6000);
	assert_int_equal(c.partners[1].rem.len, 100);
	assert_int_equal(c.partners[0].reverse, 0);
	assert_int_equal(c.partners[1].reverse, 1);
	assert_int_equal(cli_role(&c, &c.partners[0]), ROLE_RECV);
	assert_int_equal(cli_role(&c, &c.partners[1]), ROLE_SEND);
	cli_free(&c);
}

static void
test_usage(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	cli_usage(f);
	fclose(f);
	assert_non_null(strstr(buf, "usage: gput [-46cDqrsTtuv]"));
	assert_non_null(strstr(buf, "       gput -i [-v] [-p port] [--allow cidr] [--inetd] [--key-file file]\n"));
	assert_non_null(strstr(buf, "       gput --predict [-46Du] [-l length] [-n count] [-w kbytes]\n"
	    "            [--link rate] [--loss pct] [--mtu mtu] [--no-timestamps]\n"
	    "            [--pppoe] [--rtt ms] [--sliding-window n] [--vlan tags]\n"));
	assert_non_null(strstr(buf, "[--loss pct] [--mport port]\n"));
	assert_non_null(strstr(buf, "[--rtt ms] [--same-clock] [--sliding-window n]\n"));
	assert_non_null(strstr(buf, "            [--latency] [--latency-idle s] [--latency-interval ms]\n"));
	assert_non_null(strstr(buf, "[--queue-bytes size]"));
	assert_non_null(strstr(buf, "       gput -h | -V\n"));
	assert_int_equal(buf[len - 1], '\n');
	free(buf);
}

/* The option table's scope is the parser's: after a partner's name an
 * option of one side (CLI_SIDE) is taken, any other refused, as it was
 * by name ("cDfglnpPsSvwx", --batch, --gso, ...) before the table. */
static void
test_table_scope(void **state)
{
	static const char side[] = " -c -D -f -g -l -n -p -P -s -S -v -w -x "
	    "--verify --nodelay --format --gap --length --count --port "
	    "--parallel --stream --seed --verbose --window --bytes --batch "
	    "--gso --discard --affinity --zerocopy --full-reads ";
	const struct cli_opt *r;
	char line[96], nm[40], want[160], err[256];
	struct config c;
	int n = 0, nside = 0;

	(void)state;
	for (r = cli_opts; r->help != NULL; r++) {
		if (r->name == NULL || (r->scope & CLI_HELP_ONLY))
			continue;
		if (r->code < 256)
			snprintf(nm, sizeof nm, "-%c", r->code);
		else
			snprintf(nm, sizeof nm, "--%s", r->name);
		snprintf(line, sizeof line, "host %s%s", nm, r->arg ? " 1" : "");
		snprintf(want, sizeof want, " %s ", nm);
		assert_int_equal(!!(r->scope & CLI_SIDE), strstr(side, want) != NULL);
		parse(line, NULL, NULL, &c, err, sizeof err);
		snprintf(want, sizeof want, "%s must come before the partner name "
		         "(it applies to both sides)", nm);
		if (r->scope & CLI_SIDE) {
			if (strcmp(err, want) == 0)
				MISS("%s: refused after a partner's name", line);
			nside++;
		} else if (strcmp(err, want) != 0) {
			MISS("%s: '%s', not refused by scope", line, err);
		}
		cli_free(&c);
		n++;
	}
	assert_int_equal(nside, 19);
	assert_true(n > 80);
	MISSED();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_rejected_long_only),
		cmocka_unit_test(test_env_rem_command_line_wins),
		cmocka_unit_test(test_partners),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_seed_hash),
		cmocka_unit_test(test_reparse),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_table_scope),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
