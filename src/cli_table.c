/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_table.c: the one table of the command line's options: each one's
 * names, value, scope, -h line and, for a flag, an enum's value or a plain
 * number, the field its value goes to (else the function that checks it);
 * and usage()'s synopses, in the table's words. cli_opts.c makes getopt's
 * arrays of it, cli_help.c -h and usage(). */
#include "cli_opts.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "cli_partner.h"
#include "cli_value.h"
#include "net.h"
#include "swin.h"
#include "xfer_params.h"

#define FSZ(t, f) sizeof(((struct t *)0)->f)
/* a flag or an enum's value v into a field of the side or the config */
#define SET_S(f, v) CLI_SET_SIDE, offsetof(struct side_opts, f), \
	FSZ(side_opts, f), 0, (v), NULL
#define SET_C(f, v) CLI_SET_CONF, offsetof(struct config, f), \
	FSZ(config, f), 0, (v), NULL
/* a number in [lo, hi] */
#define INT_S(f, lo, hi) CLI_INT_SIDE, offsetof(struct side_opts, f), \
	FSZ(side_opts, f), (lo), (hi), NULL
#define INT_C(f, lo, hi) CLI_INT_CONF, offsetof(struct config, f), \
	FSZ(config, f), (lo), (hi), NULL
/* a size (B, K, M, G) in [lo, hi] */
#define SIZE_S(f, lo, hi) CLI_SIZE_SIDE, offsetof(struct side_opts, f), \
	FSZ(side_opts, f), (lo), (hi), NULL
#define SIZE_C(f, lo, hi) CLI_SIZE_CONF, offsetof(struct config, f), \
	FSZ(config, f), (lo), (hi), NULL
#define FN(f) CLI_FN, 0, 0, 0, 0, (f)

#define SIDE    CLI_SIDE
#define PARTNER CLI_PARTNER
#define HELP    CLI_HELP_ONLY

/* In -h's order: by group, then as listed. */
const struct cli_opt cli_opts[] = {
	{ "transmit", 't', NULL, 0, CLI_G_TEST,
	  "this host sends, the partner receives (default)", SET_C(role, ROLE_SEND) },
	{ "receive", 'r', NULL, 0, CLI_G_TEST,
	  "this host receives, the partner sends", SET_C(role, ROLE_RECV) },
	{ "udp", 'u', NULL, 0, CLI_G_TEST, "UDP instead of TCP",
	  SET_C(proto, PROTO_UDP) },
	{ "length", 'l', "length", SIDE, CLI_G_TEST,
	  "bytes per write (size; default 4096)", SIZE_S(len, 1, XFER_TCP_MAX) },
	{ "count", 'n', "count", SIDE, CLI_G_TEST,
	  "writes to send (default 2048)", FN(cli_value_side) },
	{ "bytes", 'x', "bytes", SIDE, CLI_G_TEST,
	  "send exactly this many bytes (size), not -n writes",
	  SIZE_S(total, 1, 1ULL << 62) },
	{ "time", OPT_TIME, "s", 0, CLI_G_TEST,
	  "send for s seconds instead of -n writes", FN(cli_value_global) },
	{ "start-at", OPT_START_AT, "epoch", 0, CLI_G_TEST,
	  "begin sending at this real-time moment (s.frac)", FN(cli_value_global) },
	{ "peer-timeout", OPT_PEER_TIMEOUT, "s", 0, CLI_G_TEST,
	  "silent peer or path: give up after s (10; up to 240)",
	  INT_C(peer_timeout_s, NET_PEER_TIMEOUT_S, NET_PEER_TIMEOUT_MAX_S) },
	{ "window", 'w', "kbytes", SIDE, CLI_G_TEST,
	  "socket buffers: kilobytes, or a size (256K, 4M)", FN(cli_value_side) },
	{ "nodelay", 'D', NULL, SIDE, CLI_G_TEST,
	  "TCP_NODELAY on the data connection", SET_S(nodelay, 1) },
	{ "verify", 'c', NULL, SIDE, CLI_G_TEST,
	  "the receiver checks every byte against the pattern", SET_S(verify, 1) },
	{ "stream", 's', NULL, SIDE, CLI_G_TEST,
	  "UDP: the pattern runs on across datagrams", SET_S(pattern_spans, 1) },
	{ "seed", 'S', "seed", SIDE, CLI_G_TEST,
	  "the pattern's seed (1 to 256 characters)", FN(cli_value_side) },
	{ "discard", OPT_DISCARD, NULL, SIDE, CLI_G_TEST,
	  "the receiver drops the bytes unread (MSG_TRUNC)", SET_S(discard, 1) },
	{ "zerocopy", OPT_ZEROCOPY, NULL, SIDE, CLI_G_TEST,
	  "TCP: lend the sender's pages, map the receiver's", SET_S(zerocopy, 1) },
	{ "full-reads", OPT_FULL_READS, NULL, SIDE, CLI_G_TEST,
	  "TCP receiver: each read waits for a whole -l", SET_S(fullreads, 1) },
	{ "affinity", OPT_AFFINITY, "cpus", SIDE, CLI_G_TEST,
	  "run the data threads on these CPUs (0,1 2-3)", FN(cli_value_side) },
	{ "cc", OPT_CC, "algo[,algo ...]", 0, CLI_G_TEST,
	  "TCP congestion control, per stream in turn", FN(cli_value_global) },
	{ "ecn", OPT_ECN, NULL, 0, CLI_G_TEST,
	  "ECN: UDP sends ECT(0); CE marks counted (-v, JSON)", SET_C(ecn, 1) },
	{ "port", 'p', "port", SIDE, CLI_G_TEST,
	  "the partner's control port (default 5037)", FN(cli_value_global) },
	{ "ipv4", '4', NULL, 0, CLI_G_TEST, "IPv4 only", SET_C(family, AF_INET) },
	{ "ipv6", '6', NULL, 0, CLI_G_TEST, "IPv6 only", SET_C(family, AF_INET6) },
	{ "key-file", OPT_KEY_FILE, "file", 0, CLI_G_TEST,
	  "a shared secret both ends prove they know", FN(cli_value_global) },

	{ "format", 'f', "format", SIDE, CLI_G_OUTPUT,
	  "the table's columns, nttcp's tags (%b %rt ...)", FN(cli_value_side) },
	{ "title", 'T', NULL, 0, CLI_G_OUTPUT, "a title line over the table",
	  SET_C(title, 1) },
	{ "verbose", 'v', NULL, SIDE, CLI_G_OUTPUT,
	  "addresses, buffers, MSS; with -i, log every transfer",
	  SET_S(verbose, 1) },
	{ "quiet", 'q', NULL, 0, CLI_G_OUTPUT, "no progress line",
	  SET_C(quiet, 1) },
	{ "interval", OPT_INTERVAL, "s", 0, CLI_G_OUTPUT,
	  "a line per side every s seconds during the run", FN(cli_value_global) },
	{ "omit", OPT_OMIT, "s", 0, CLI_G_OUTPUT,
	  "the first s seconds left out of the steady state", FN(cli_value_global) },
	{ "json", OPT_JSON, NULL, 0, CLI_G_OUTPUT,
	  "one JSON document instead of the table", SET_C(out, OUT_JSON) },
	{ "json-lines", OPT_JSON_LINES, NULL, 0, CLI_G_OUTPUT,
	  "a JSON object per interval, then the summary",
	  SET_C(out, OUT_JSON_LINES) },
	{ "csv", OPT_CSV, NULL, 0, CLI_G_OUTPUT, "the table's rows as CSV",
	  SET_C(out, OUT_CSV) },
	{ "prometheus", OPT_PROMETHEUS, NULL, 0, CLI_G_OUTPUT,
	  "Prometheus text (node exporter's textfile collector)",
	  SET_C(out, OUT_PROM) },
	{ "help", 'h', NULL, 0, CLI_G_OUTPUT, "this help",
	  SET_C(mode, MODE_HELP) },
	{ "version", 'V', NULL, 0, CLI_G_OUTPUT,
	  "the version and control protocol", SET_C(mode, MODE_VERSION) },

	{ "rate", OPT_RATE, "rate", 0, CLI_G_UDP,
	  "pace the sender to rate bit/s of payload (10M, 1G)",
	  FN(cli_value_global) },
	{ "gap", 'g', "gap", SIDE, CLI_G_UDP,
	  "pace the sender: gap microseconds between writes",
	  INT_S(gap_us, 0, 10000000) },
	{ "burst", OPT_BURST, "n", 0, CLI_G_UDP,
	  "n writes back to back, then n gaps (--rate, -g)",
	  INT_C(burst, 1, XFER_MAX_BURST) },
	{ "batch", OPT_BATCH, "n", SIDE, CLI_G_UDP,
	  "UDP: up to n datagrams per system call",
	  INT_S(batch, 1, XFER_BATCH_MAX) },
	{ "gso", OPT_GSO, NULL, SIDE, CLI_G_UDP,
	  "UDP: the sender's datagrams as GSO super-buffers", SET_S(gso, 1) },
	{ "sliding-window", OPT_SWIN, "n", 0, CLI_G_UDP,
	  "UDP: at most n datagrams unacknowledged, resent",
	  INT_C(swin, 1, SWIN_MAX) },
	{ "rto", OPT_RTO, "ms", 0, CLI_G_UDP,
	  "--sliding-window: a fixed timeout (else RFC 6298)",
	  INT_C(rto_ms, 1, SWIN_RTO_MAX_MS) },
	{ "retries", OPT_RETRIES, "n", 0, CLI_G_UDP,
	  "--sliding-window: resends of a datagram at most (10)",
	  INT_C(retries, 0, SWIN_RETRIES_MAX) },
	{ "go-back-n", OPT_GBN, NULL, 0, CLI_G_UDP,
	  "--sliding-window: a timeout resends the window", SET_C(gbn, 1) },
	{ "log", OPT_LOG, "file", 0, CLI_G_UDP,
	  "-r -u: a line per datagram received (tools/plot-seq)",
	  FN(cli_value_global) },
	{ "same-clock", OPT_SAME_CLOCK, NULL, 0, CLI_G_UDP,
	  "UDP, --latency: one clock at both ends: one-way",
	  SET_C(same_clock, 1) },
	{ "multicast", 'm', "group", 0, CLI_G_UDP,
	  "send UDP to a multicast group, partners join", FN(cli_value_global) },
	{ "ttl", OPT_TTL, "n", 0, CLI_G_UDP,
	  "-m: the datagrams' TTL or hop limit", FN(cli_value_global) },
	{ "mport", OPT_MPORT, "port", 0, CLI_G_UDP, "-m: the group's UDP port",
	  FN(cli_value_global) },

	{ "parallel", 'P', "streams", SIDE, CLI_G_STREAMS,
	  "streams at once (1 to 128); after a partner, its own",
	  FN(cli_value_global) },
	{ "bidir", OPT_BIDIR, NULL, 0, CLI_G_STREAMS,
	  "the test and its reverse at once, with one partner", SET_C(bidir, 1) },
	{ "affinity", OPT_AFFINITY, "cpus", SIDE | HELP, CLI_G_STREAMS,
	  "pin data threads to CPUs (0,1 or 2-3); per partner", FN(NULL) },
	{ NULL, 0, "partner [options] ...", HELP, CLI_G_STREAMS,
	  "up to 9 partners, each with its own options", FN(NULL) },

	{ "repeat", OPT_REPEAT, "n | min,max", 0, CLI_G_REPEAT,
	  "n runs (min to max): mean, stdev, CI per side", FN(cli_value_global) },
	{ "ci", OPT_CI, "level[,width]", 0, CLI_G_REPEAT,
	  "the CIs' level (95); min,max: stop at width %", FN(cli_value_global) },
	{ "pause", OPT_PAUSE, "s", 0, CLI_G_REPEAT,
	  "--repeat: seconds between runs (1)", FN(cli_value_global) },

	{ "daemon", 'i', NULL, 0, CLI_G_PARTNER,
	  "be the partner: serve tests (as root, then --user)",
	  SET_C(mode, MODE_DAEMON) },
	{ "allow", OPT_ALLOW, "cidr", PARTNER, CLI_G_PARTNER,
	  "serve only these clients (repeat, up to 64)", FN(cli_partner_opt) },
	{ "allow-cc", OPT_ALLOW_CC, "algo[,algo ...]", PARTNER, CLI_G_PARTNER,
	  "the --cc a client may ask for", FN(cli_partner_opt) },
	{ "inetd", OPT_INETD, NULL, PARTNER, CLI_G_PARTNER,
	  "serve the connection on standard input", SET_C(inetd, 1) },
	{ "max-buffer", OPT_MAX_BUFFER, "size", PARTNER, CLI_G_PARTNER,
	  "largest buffer a client may ask for (4M)",
	  SIZE_C(lim.max_buffer, 1, XFER_TCP_MAX) },
	{ "max-bytes", OPT_MAX_BYTES, "size", PARTNER, CLI_G_PARTNER,
	  "most bytes one test may move (0: no limit)",
	  SIZE_C(lim.max_bytes, 0, 1ULL << 62) },
	{ "max-rate", OPT_MAX_RATE, "rate", PARTNER, CLI_G_PARTNER,
	  "fastest UDP this partner sends (0: no limit)", FN(cli_partner_opt) },
	{ "max-sessions", OPT_MAX_SESSIONS, "n", PARTNER, CLI_G_PARTNER,
	  "tests at once (4)", INT_C(lim.max_sessions, 1, 1024) },
	{ "max-handshakes", OPT_MAX_HANDSHAKES, "n", PARTNER, CLI_G_PARTNER,
	  "clients at once not yet past PARAMS (10)",
	  INT_C(lim.max_handshakes, 1, 1024) },
	{ "max-per-source", OPT_MAX_PER_SOURCE, "n", PARTNER, CLI_G_PARTNER,
	  "tests and handshakes of one source (2)",
	  INT_C(lim.max_per_source, 1, 1024) },
	{ "max-streams", OPT_MAX_STREAMS, "n", PARTNER, CLI_G_PARTNER,
	  "streams per test (128)", INT_C(lim.max_streams, 1, STREAM_MAX) },
	{ "max-time", OPT_MAX_TIME, "s", PARTNER, CLI_G_PARTNER,
	  "longest transfer of one test (600)", INT_C(lim.max_time_s, 1, 86400) },
	{ "max-peer-timeout", OPT_MAX_PEER_TIMEOUT, "s", PARTNER, CLI_G_PARTNER,
	  "longest --peer-timeout a client may ask (60)",
	  INT_C(lim.max_peer_timeout_s, NET_PEER_TIMEOUT_S,
	        NET_PEER_TIMEOUT_MAX_S) },
	{ "params-grace", OPT_PARAMS_GRACE, "s", PARTNER, CLI_G_PARTNER,
	  "a client's time after HELLO to send PARAMS (3)",
	  INT_C(lim.params_grace_s, 1, PARTNER_PARAMS_GRACE_MAX_S) },
	{ "no-multicast", OPT_NO_MCAST, NULL, PARTNER, CLI_G_PARTNER,
	  "refuse multicast tests", SET_C(no_multicast, 1) },
	{ "source-prefix", OPT_SOURCE_PREFIX, "v4,v6", PARTNER, CLI_G_PARTNER,
	  "a source is an IPv4 /v4 and an IPv6 /v6 (32,64)", FN(cli_partner_opt) },
	{ "once", OPT_ONCE, NULL, PARTNER, CLI_G_PARTNER,
	  "serve one test, then exit", SET_C(once, 1) },
	{ "user", OPT_USER, "name", PARTNER, CLI_G_PARTNER,
	  "started as root, become name (nobody)", FN(cli_partner_opt) },

	{ "link", OPT_LINK, "rate", 0, CLI_G_LINK,
	  "the bottleneck's rate: goodput predicted, compared",
	  FN(cli_value_global) },
	{ "predict", OPT_PREDICT, NULL, 0, CLI_G_LINK,
	  "print the predicted goodput only, no test", SET_C(mode, MODE_PREDICT) },
	{ "rtt", OPT_RTT, "ms", 0, CLI_G_LINK,
	  "the RTT: BDP, whether -w or --sliding-window limits",
	  FN(cli_value_global) },
	{ "loss", OPT_LOSS, "pct", 0, CLI_G_LINK,
	  "TCP, with --rtt: segments lost: the Mathis bound", FN(cli_value_global) },
	{ "mtu", OPT_MTU, "mtu", 0, CLI_G_LINK, "--predict: the path's MTU (1500)",
	  FN(cli_value_global) },
	{ "no-timestamps", OPT_NOTS, NULL, 0, CLI_G_LINK,
	  "--predict: TCP without the timestamp option", SET_C(no_ts, 1) },
	{ "pppoe", OPT_PPPOE, NULL, 0, CLI_G_LINK,
	  "--link, --predict: PPPoE framing", SET_C(pppoe, 1) },
	{ "vlan", OPT_VLAN, "tags", 0, CLI_G_LINK,
	  "--link, --predict: 802.1Q tags per frame (0 to 8)",
	  INT_C(vlan_tags, 0, 8) },

	{ "latency", OPT_LATENCY, NULL, 0, CLI_G_LATENCY,
	  "round trips of small probes, idle and under load", SET_C(latency, 1) },
	{ "latency-idle", OPT_LAT_IDLE, "s", 0, CLI_G_LATENCY,
	  "the probes' idle phase before the data (1)", FN(cli_value_global) },
	{ "latency-interval", OPT_LAT_INTERVAL, "ms", 0, CLI_G_LATENCY,
	  "a probe every ms milliseconds (10)", FN(cli_value_global) },
	{ "queue-bytes", OPT_QUEUE_BYTES, "size", 0, CLI_G_LATENCY,
	  "--link: the bottleneck's queue: expected rtt",
	  SIZE_C(queue_bytes, 1, UINT32_MAX) },
	{ NULL, 0, NULL, 0, CLI_G_N, NULL, FN(NULL) },
};

/* usage()'s synopses (cli_opts.h): a new option is a word here too. */
const char *const cli_synopses[] = {
	"-46cDqrsTtuv f g l m / n p P S w / x affinity batch bidir burst / "
	"cc ci / csv|json|json-lines|prometheus / "
	"discard ecn full-reads go-back-n gso / interval / key-file / "
	"latency latency-idle latency-interval / link log loss mport / "
	"omit pause peer-timeout / pppoe queue-bytes / rate repeat retries rto / "
	"rtt same-clock sliding-window / start-at time ttl vlan / zerocopy / "
	"@partner @[remote @options] @...",
	"!i v p allow inetd key-file / max-buffer max-bytes max-handshakes / "
	"max-peer-timeout max-per-source max-rate / max-sessions max-streams "
	"max-time / no-multicast once params-grace / source-prefix "
	"allow-cc user",
	"!predict -46Du l n w / link loss mtu no-timestamps / "
	"pppoe rtt sliding-window vlan",
	"!h|V",
	NULL,
};
