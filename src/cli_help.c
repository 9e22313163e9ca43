/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_help.c: gput -h, the synopsis and every option in one line, in
 * groups. gput(1) holds the whole story; tests/unit_hints.c checks that
 * this list, the parser's options and the man page's name the same ones. */
#include "cli_help.h"

#include "cli.h"

struct help_line {
	const char *opt;        /* as typed, with its value's name */
	const char *what;
};

struct help_group {
	const char *title;
	const struct help_line *lines;
};

static const struct help_line test_lines[] = {
	{ "-t, --transmit", "this host sends, the partner receives (default)" },
	{ "-r, --receive", "this host receives, the partner sends" },
	{ "-u, --udp", "UDP instead of TCP" },
	{ "-l, --length length", "bytes per write (size; default 4096)" },
	{ "-n, --count count", "writes to send (default 2048)" },
	{ "-x, --bytes bytes", "send exactly this many bytes (size), not -n writes" },
	{ "--time s", "send for s seconds instead of -n writes" },
	{ "--start-at epoch", "begin sending at this real-time moment (s.frac)" },
	{ "-w, --window kbytes", "socket buffers: kilobytes, or a size (256K, 4M)" },
	{ "-D, --nodelay", "TCP_NODELAY on the data connection" },
	{ "-c, --verify", "the receiver checks every byte against the pattern" },
	{ "-s, --stream", "UDP: the pattern runs on across datagrams" },
	{ "-S, --seed seed", "the pattern's seed (1 to 256 characters)" },
	{ "--discard", "the receiver drops the bytes unread (MSG_TRUNC)" },
	{ "--zerocopy", "TCP: lend the sender's pages, map the receiver's" },
	{ "--full-reads", "TCP receiver: each read waits for a whole -l" },
	{ "--affinity cpus", "run the data threads on these CPUs (0,1 2-3)" },
	{ "--cc algo[,algo ...]", "TCP congestion control, per stream in turn" },
	{ "--ecn", "ECN: UDP sends ECT(0); CE marks counted (-v, JSON)" },
	{ "-p, --port port", "the partner's control port (default 5037)" },
	{ "-4, --ipv4", "IPv4 only" },
	{ "-6, --ipv6", "IPv6 only" },
	{ "--key-file file", "a shared secret both ends prove they know" },
	{ NULL, NULL },
};

static const struct help_line output_lines[] = {
	{ "-f, --format format", "the table's columns, nttcp's tags (%b %rt ...)" },
	{ "-T, --title", "a title line over the table" },
	{ "-v, --verbose", "addresses, buffers, MSS; with -i, log every transfer" },
	{ "-q, --quiet", "no progress line" },
	{ "--interval s", "a line per side every s seconds during the run" },
	{ "--omit s", "the first s seconds left out of the steady state" },
	{ "--json", "one JSON document instead of the table" },
	{ "--json-lines", "a JSON object per interval, then the summary" },
	{ "--csv", "the table's rows as CSV" },
	{ "--prometheus", "Prometheus text (node exporter's textfile collector)" },
	{ "-h, --help", "this help" },
	{ "-V, --version", "the version and control protocol" },
	{ NULL, NULL },
};

static const struct help_line udp_lines[] = {
	{ "--rate rate", "pace the sender to rate bit/s of payload (10M, 1G)" },
	{ "-g, --gap gap", "pace the sender: gap microseconds between writes" },
	{ "--burst n", "n writes back to back, then n gaps (--rate, -g)" },
	{ "--batch n", "UDP: up to n datagrams per system call" },
	{ "--gso", "UDP: the sender's datagrams as GSO super-buffers" },
	{ "--sliding-window n", "UDP: at most n datagrams unacknowledged, resent" },
	{ "--rto ms", "--sliding-window: a fixed timeout (else RFC 6298)" },
	{ "--retries n", "--sliding-window: resends of a datagram at most (10)" },
	{ "--go-back-n", "--sliding-window: a timeout resends the window" },
	{ "--log file", "-r -u: a line per datagram received (tools/plot-seq)" },
	{ "--same-clock", "UDP, --latency: one clock at both ends: one-way" },
	{ "-m, --multicast group", "send UDP to a multicast group, partners join" },
	{ "--ttl n", "-m: the datagrams' TTL or hop limit" },
	{ "--mport port", "-m: the group's UDP port" },
	{ NULL, NULL },
};

static const struct help_line streams_lines[] = {
	{ "-P, --parallel streams", "streams at once (1 to 128); after a partner, "
	                            "its own" },
	{ "--bidir", "the test and its reverse at once, with one partner" },
	{ "--affinity cpus", "pin data threads to CPUs (0,1 or 2-3); per "
	                     "partner" },
	{ "partner [options] ...", "up to 9 partners, each with its own options" },
	{ NULL, NULL },
};

static const struct help_line partner_lines[] = {
	{ "-i, --daemon", "be the partner: serve tests (as root, then --user)" },
	{ "--allow cidr", "serve only these clients (repeat, up to 64)" },
	{ "--allow-cc algo[,algo ...]", "the --cc a client may ask for" },
	{ "--inetd", "serve the connection on standard input" },
	{ "--max-buffer size", "largest buffer a client may ask for (4M)" },
	{ "--max-bytes size", "most bytes one test may move (0: no limit)" },
	{ "--max-rate rate", "fastest UDP this partner sends (0: no limit)" },
	{ "--max-sessions n", "tests at once (4)" },
	{ "--max-handshakes n", "clients at once not yet past PARAMS (10)" },
	{ "--max-per-source n", "tests and handshakes of one source (2)" },
	{ "--max-streams n", "streams per test (128)" },
	{ "--max-time s", "longest transfer of one test (600)" },
	{ "--no-multicast", "refuse multicast tests" },
	{ "--source-prefix v4,v6", "a source is an IPv4 /v4 and an IPv6 /v6 (32,64)" },
	{ "--once", "serve one test, then exit" },
	{ "--user name", "started as root, become name (nobody)" },
	{ NULL, NULL },
};

static const struct help_line link_lines[] = {
	{ "--link rate", "the bottleneck's rate: goodput predicted, compared" },
	{ "--predict", "print the predicted goodput only, no test" },
	{ "--rtt ms", "the RTT: BDP, whether -w or --sliding-window limits" },
	{ "--loss pct", "TCP, with --rtt: segments lost: the Mathis bound" },
	{ "--mtu mtu", "--predict: the path's MTU (1500)" },
	{ "--no-timestamps", "--predict: TCP without the timestamp option" },
	{ "--pppoe", "--link, --predict: PPPoE framing" },
	{ "--vlan tags", "--link, --predict: 802.1Q tags per frame (0 to 8)" },
	{ NULL, NULL },
};

static const struct help_line repeat_lines[] = {
	{ "--repeat n | min,max", "n runs (min to max): mean, stdev, CI per side" },
	{ "--ci level[,width]", "the CIs' level (95); min,max: stop at width %" },
	{ "--pause s", "--repeat: seconds between runs (1)" },
	{ NULL, NULL },
};

static const struct help_line latency_lines[] = {
	{ "--latency", "round trips of small probes, idle and under load" },
	{ "--latency-idle s", "the probes' idle phase before the data (1)" },
	{ "--latency-interval ms", "a probe every ms milliseconds (10)" },
	{ "--queue-bytes size", "--link: the bottleneck's queue: expected rtt" },
	{ NULL, NULL },
};

static const struct help_group groups[] = {
	{ "The test", test_lines },
	{ "Output", output_lines },
	{ "Pacing and UDP", udp_lines },
	{ "Streams and partners", streams_lines },
	{ "Repeated runs", repeat_lines },
	{ "The partner (gput -i)", partner_lines },
	{ "Link prediction", link_lines },
	{ "Latency under load", latency_lines },
	{ NULL, NULL },
};

void
cli_help(FILE *f)
{
	const struct help_group *g;
	const struct help_line *l;

	cli_usage(f);
	for (g = groups; g->title != NULL; g++) {
		fprintf(f, "\n%s:\n", g->title);
		for (l = g->lines; l->opt != NULL; l++)
			fprintf(f, "  %-24s %s\n", l->opt, l->what);
	}
	fputs("\nSizes take B, K, M or G (1, 2^10, 2^20, 2^30 bytes), rates k, M or G\n"
	      "(10^3, 10^6, 10^9 bit/s). Options after a partner's name apply to\n"
	      "that partner alone. See gput(1).\n", f);
}
