/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CONFIG_H
#define GPUT_CONFIG_H

/*
 * What the command line asked for: struct config, its defaults and limits.
 * cli_parse (cli.h) fills it; the drivers (client*, partner_*, linkpred's
 * run_predict) read it. Renderers take what they print as arguments, not a
 * config.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_repeat.h"
#include "mcast.h"
#include "partner_acl.h"
#include "report_out.h"
#include "xfer_params.h"
#define GPUT_DEFAULT_PORT 5037
#define GPUT_DEFAULT_COUNT 2048
#define GPUT_DEFAULT_LEN  4096
/* --sliding-window: a datagram is sent again at most this many times
 * (--retries), and --rto takes 1 ms to a minute. */
#define SWIN_RETRIES 10u
#define SWIN_RETRIES_MAX 100u
#define SWIN_RTO_MAX_MS 60000u
/* nttcp's default -f format: one field per column of the table. */
#define GPUT_DEFAULT_FORMAT "%9b%8.2rt%8.2ct%12.4rbr%12.4cbr%8c%10.2rcr%10.1ccr"

/* What the partner (gput -i) allows a remote to ask for; see gput(1),
 * SECURITY. 0 means no limit where the comment says so. */
#define PARTNER_MAX_SESSIONS 4
#define PARTNER_MAX_PER_SOURCE 2     /* tests and handshakes of one source */
#define PARTNER_SRC_PREFIX4    32    /* a source: an IPv4 address */
#define PARTNER_SRC_PREFIX6    64    /* a source: an IPv6 /64 */
#define PARTNER_MAX_HANDSHAKES 10    /* clients not yet past PARAMS */
#define PARTNER_MAX_TIME_S   600
/* --max-peer-timeout: the longest dead-peer deadline a client may ask
 * (--peer-timeout; NET_PEER_TIMEOUT_S without), s. */
#define PARTNER_MAX_PEER_TIMEOUT_S 60
/* --params-grace: a client's time after HELLO to send PARAMS, s, and its
 * most (the whole handshake has SESSION_HANDSHAKE_MS more than it beyond
 * the default's 3 s: partner_session.h). */
#define PARTNER_PARAMS_GRACE_S     3
#define PARTNER_PARAMS_GRACE_MAX_S 60
#define PARTNER_MAX_BUFFER   (4u << 20)
#define PARTNER_MAX_STREAMS  STREAM_MAX
/* The buffers of all of a test's streams together: this many --max-buffer. */
#define PARTNER_STREAM_BUFFERS 16u
/* A test's memory on the partner (partner_budget.h): PARTNER_STREAM_BUFFERS times
 * --max-buffer and this much for what does not grow with it (the stacks of
 * STREAM_MAX threads, their tables). */
#define PARTNER_MEM_BASE     (32u << 20)
struct partner_limits {
	unsigned max_sessions;  /* --max-sessions: tests at once */
	unsigned max_per_source;/* --max-per-source: handshakes and tests of
	                           one client source at once */
	unsigned src_prefix4;   /* --source-prefix: a source is an IPv4 /N */
	unsigned src_prefix6;   /* ... and an IPv6 /N */
	unsigned max_handshakes;/* --max-handshakes: clients at once that have
	                           not yet passed the handshake (PARAMS) */
	unsigned max_time_s;    /* --max-time: seconds of transfer per test */
	uint64_t max_bytes;     /* --max-bytes: per test (0: none) */
	uint32_t max_buffer;    /* --max-buffer: -l, and so the -c pattern */
	unsigned max_streams;   /* --max-streams: -P per test */
	double   max_rate;      /* --max-rate: UDP sends, bit/s (0: none) */
	unsigned max_peer_timeout_s; /* --max-peer-timeout: the most a client's
	                           --peer-timeout may ask */
	unsigned params_grace_s;/* --params-grace: after HELLO, PARAMS within */
};

/* --latency: a probe every 10 ms, after an idle phase of 1 s; room for the
 * run's length and LAT_SLACK_MS more (a receiver ends after the sender),
 * at most LAT_MAX_PROBES. */
#define LAT_DEFAULT_IDLE_MS     1000u
#define LAT_DEFAULT_INTERVAL_US 10000u
#define LAT_SLACK_MS            10000u
#define LAT_MAX_PROBES          1000000u

enum gput_mode { MODE_CLIENT, MODE_DAEMON, MODE_PREDICT, MODE_HELP, MODE_VERSION };

/* Options that may differ between the local side and the partner's side. */
struct side_opts {
	uint32_t len;         /* -l */
	uint64_t count;       /* -n */
	uint64_t total;       /* -x (0: count * len) */
	uint32_t window;      /* -w, bytes */
	uint32_t gap_us;      /* -g */
	uint32_t seed;        /* -S */
	uint8_t  nodelay, verify, verbose;
	uint8_t  pattern_spans; /* -s, --stream: the pattern runs on across datagrams */
	uint8_t  batch;       /* --batch (0: one datagram per call) */
	uint8_t  gso;         /* --gso */
	uint8_t  discard;     /* --discard */
	uint64_t cpus;        /* --affinity: CPUs 0..63 (affinity.h), 0: any */
	uint8_t  zerocopy;    /* --zerocopy: TCP MSG_ZEROCOPY / TCP_ZEROCOPY_RECEIVE */
	uint8_t  fullreads;   /* --full-reads: TCP receiver, SO_RCVLOWAT = -l */
	const char *format;   /* -f */
};

struct run_model;

/* nttcp's line tags 1 to 9: at most this many partners on one command line. */
#define GPUT_MAX_PARTNERS 9

/* One partner named on the command line, with what applies to it alone. */
struct partner {
	const char *host;
	uint16_t port;        /* -p after its name, else the one before */
	struct side_opts rem; /* its side: the local options, GPUT_REM_OPT, its own */
	uint16_t streams;     /* -P after its name, else the one before */
	int      reverse;     /* --bidir: the test the other way round */
};

struct config {
	enum gput_mode mode;
	uint8_t  proto;       /* -u */
	uint8_t  role;        /* the local side's role: -t / -r */
	int      title;       /* -T */
	int      family;      /* -4 / -6: AF_INET, AF_INET6, or 0 */
	uint16_t port;        /* -p (after cli_parse: the first partner's) */
	int      port_set;    /* -p before the partner names (or for -i) */
	const char *host;     /* the partner (the first one) */
	struct side_opts loc, rem;  /* rem: the first partner's */
	/* Several partners (gput(1), SEVERAL PARTNERS): each runs as a test of
	 * its own with a copy of this config whose host, port, rem and tag are
	 * its own. One partner is partners[0], also in host, port and rem. */
	unsigned npartners;
	struct partner partners[GPUT_MAX_PARTNERS];
	char     tag;         /* the partner's line tag: '1' to '9' */
	double   link_bps;    /* --link, 0 = not given */
	unsigned mtu;         /* --mtu (--predict) */
	int      mtu_set;
	int      no_ts;       /* --no-timestamps (--predict) */
	unsigned vlan_tags;   /* --vlan: 802.1Q tags per frame (--predict, --link) */
	int      pppoe;       /* --pppoe: PPPoE framing (--predict, --link) */
	double   rtt_s;       /* --rtt, seconds (--predict, --link; 0: none) */
	double   loss;        /* --loss as a probability (0: none) */
	const char *key_file; /* --key-file: the shared secret (both modes) */
	uint32_t duration_ms; /* --time: 0, count mode */
	uint32_t interval_ms; /* --interval */
	uint32_t omit_ms;     /* --omit */
	const char *cc;       /* --cc: a name or a comma list (NULL: the host's
	                         default) */
	uint16_t streams;     /* -P: parallel streams (1) */
	int      bidir;       /* --bidir: the test and its reverse at once */
	int      ecn;         /* --ecn: ECN on the data connections */
	int64_t  start_at_ns; /* --start-at: CLOCK_REALTIME ns (0: at once) */
	uint32_t swin;        /* --sliding-window: datagrams out at most (0: none) */
	uint32_t rto_ms;      /* --rto: a fixed timeout (0: RFC 6298) */
	uint32_t retries;     /* --retries (SWIN_RETRIES) */
	int      gbn;         /* --go-back-n: a timeout sends the whole window again */
	int      count_set;   /* -n was given (--predict's extrapolation) */
	enum gput_out out;    /* --json, --json-lines, --csv */
	int      quiet;       /* -q: no progress line */
	double   rate_bps;    /* --rate: the sender's payload bit/s (0: -g) */
	uint32_t burst;       /* --burst: writes per gap (0: one) */
	const char *log_file; /* --log: a record per datagram received here */
	int      same_clock;  /* --same-clock: both ends read one clock */
	struct repeat_opts rep;
	int      latency;     /* --latency: probes beside the data */
	uint32_t lat_idle_ms; /* --latency-idle (LAT_DEFAULT_IDLE_MS) */
	uint32_t lat_interval_us; /* --latency-interval (LAT_DEFAULT_INTERVAL_US) */
	uint64_t queue_bytes; /* --queue-bytes: the bottleneck's queue (0: none) */
	uint32_t peer_timeout_s; /* --peer-timeout: the dead-peer deadline, s
	                         (NET_PEER_TIMEOUT_S) */
	struct mcast_group mcast;  /* -m group, --ttl, --mport (family 0: no
	                         -m; ttl, port 0: not given) */
	/* gput -i only: */
	struct partner_limits lim;
	struct acl allow;     /* --allow */
	const char *user;     /* --user (NULL: "nobody" when started as root) */
	const char *allow_cc; /* --allow-cc: a comma list (NULL: what it can set) */
	char     cc_allowed[256]; /* what it found it can set of those, space
	                         separated (the daemon fills it at start; "":
	                         not probed) */
	int      once;        /* --once: serve one test, then exit */
	int      inetd;       /* --inetd: serve the connection on stdin */
	int      no_multicast;/* --no-multicast: refuse -m */
	char    *env_store[2];/* GPUT_LOC_OPT / GPUT_REM_OPT tokens (cli_free) */
};

#endif
