/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_daemon.c: gput -i: the listener, its limits and its privileges. */
#include "partner_daemon.h"

#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "partner_ccpolicy.h"
#include "wire_ctl.h"
#include "partner_gate.h"
#include "net.h"
#include "partner_log.h"
#include "partner_ratelog.h"
#include "partner_session.h"
#include "xfer_udp.h"

/* systemd socket activation: the first passed descriptor (sd_listen_fds(3)). */
#define LISTEN_FDS_START 3

static volatile sig_atomic_t child_exited;

static void
on_sigchld(int sig)
{
	(void)sig;
	child_exited = 1;
}

struct daemon {
	const struct config *c;
	struct auth_key key;
	const struct auth_key *keyp;   /* NULL without --key-file */
	int lfd, tsfd;
	struct gate *gate;             /* who holds a place (partner_gate.h) */
};

/* Collect the children that ended. */
static void
reap(struct daemon *d)
{
	int st;
	pid_t pid;

	child_exited = 0;
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
		gate_reaped(d->gate, pid);
}

/* The refusals' log, bounded per reason (partner_ratelog.h). */
static struct ratelog refusal_log;

static const char *const reason_name[RATELOG_NREASONS] = {
	[RATELOG_ALLOW] = "not in --allow",
	[RATELOG_PER_SOURCE] = "--max-per-source",
	[RATELOG_SESSIONS] = "--max-sessions",
	[RATELOG_HANDSHAKES] = "--max-handshakes",
	[RATELOG_EVICT] = "evicted",
	[RATELOG_OTHER] = "other",
};

/* Refuse a client before any session starts: one ERROR, and one log line
 * unless its reason's bucket is empty (then it is counted, and the next
 * line of that reason says how many went unlogged). */
static void
refuse(int cfd, const struct sockaddr_storage *peer, const char *why)
{
	struct ctl_msg m;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char addr[NET_ADDRSTRLEN];
	size_t n;
	struct timespec ts;
	enum ratelog_reason r = ratelog_reason(why);
	uint64_t sup = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (ratelog_allow(&refusal_log, r, (uint64_t)ts.tv_sec * 1000000000ull +
	    (uint64_t)ts.tv_nsec, &sup)) {
		if (sup > 0)
			plog("refused: %llu similar messages suppressed (%s)",
			     (unsigned long long)sup, reason_name[r]);
		plog("client %s port %u: refused: %s", net_ntop(peer, addr,
		     sizeof addr), net_port(peer), why);
	}
	ctl_error(&m, why);
	n = ctl_encode(&m, buf);
	/* a fresh socket's buffer takes it at once; never wait for a stranger */
	(void)!send(cfd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* A place taken over (partner_gate.h): its process ends now; the
 * listener waits for its own child, so the place is free when it returns
 * (a session that evicts a held test leaves the reaping to the listener). */
static void
evict_place(pid_t pid)
{
	struct timespec ts;
	uint64_t sup = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (ratelog_allow(&refusal_log, RATELOG_EVICT, (uint64_t)ts.tv_sec *
	    1000000000ull + (uint64_t)ts.tv_nsec, &sup)) {
		if (sup > 0)
			plog("evicted: %llu similar messages suppressed",
			     (unsigned long long)sup);
		plog("evicted: session %ld: its place went to a client of another "
		     "source (--max-per-source, --source-prefix)", (long)pid);
	}
	(void)kill(pid, SIGKILL);
	(void)waitpid(pid, NULL, 0);
}

/* Serve cfd in a child of its own, in place k of the gate; the parent
 * keeps nothing of it. */
static void
spawn(struct daemon *d, int cfd, const struct sockaddr_storage *peer, int k)
{
	pid_t pid = fork();

	if (pid == 0) {
		close(d->lfd);
		if (d->tsfd != -1)
			close(d->tsfd);
		signal(SIGCHLD, SIG_DFL);
		_exit(session_serve(cfd, peer, d->c, d->keyp, d->gate, k));
	}
	if (pid == -1) {
		char why[128];

		snprintf(why, sizeof why, "cannot serve: %s", strerror(errno));
		refuse(cfd, peer, why);
		gate_release(d->gate, k);
	} else {
		gate_bind(d->gate, k, pid);
	}
	close(cfd);
}

/* One accepted client: the checks every client passes, then its session.
 * Returns the session's status with --once, else 0. */
static int
admit(struct daemon *d, int cfd, const struct sockaddr_storage *peer)
{
	const struct config *c = d->c;
	char why[200], addr[NET_ADDRSTRLEN];
	int k;

	if (!acl_permits(&c->allow, peer)) {
		snprintf(why, sizeof why, "access denied: %s is not in this partner's "
		         "--allow list", net_ntop(peer, addr, sizeof addr));
		refuse(cfd, peer, why);
		close(cfd);
		return 1;
	}
	if (c->once) {                  /* one test, in this process */
		int rc = session_serve(cfd, peer, c, d->keyp, NULL, -1);

		close(cfd);
		return rc;
	}
	reap(d);
	if ((k = gate_admit(d->gate, peer, arc4random(), why, sizeof why)) == -1) {
		refuse(cfd, peer, why);
		close(cfd);
		return 1;
	}
	spawn(d, cfd, peer, k);
	return 0;
}

/* accept errors that belong to one connection (already gone): try again at
 * once. Any other error (out of descriptors or memory) would fail again at
 * once, with the client still queued: those back off. */
static int
accept_retry_now(int e)
{
	return e == EINTR || e == ECONNABORTED || e == EPROTO || e == EAGAIN ||
	    e == EWOULDBLOCK;
}

/* Serve until killed (or, with --once, one client). A burst of failing
 * accept calls is logged once when it starts (and when the error changes)
 * and once when accept works again; in between, retries back off from
 * ACCEPT_BACKOFF_MIN_MS to ACCEPT_BACKOFF_MAX_MS. */
static int
accept_loop(struct daemon *d)
{
	unsigned long failed = 0;
	int delay_ms = 0, last_errno = 0;

	for (;;) {
		struct sockaddr_storage peer;
		socklen_t pl = sizeof peer;
		int cfd, e;

		if (child_exited)
			reap(d);
		cfd = accept4(d->lfd, (struct sockaddr *)&peer, &pl, SOCK_CLOEXEC);
		if (cfd != -1) {
			if (failed > 0)
				plog("accept works again after %lu failed calls", failed);
			failed = 0;
			delay_ms = 0;
			e = admit(d, cfd, &peer);
			if (d->c->once)
				return e;
			continue;
		}
		e = errno;
		if (accept_retry_now(e))
			continue;
		if (failed++ == 0 || e != last_errno)
			plog("accept: %s (retrying at most every %d ms)", strerror(e),
			     ACCEPT_BACKOFF_MAX_MS);
		last_errno = e;
		delay_ms = delay_ms == 0 ? ACCEPT_BACKOFF_MIN_MS :
		    delay_ms * 2 > ACCEPT_BACKOFF_MAX_MS ? ACCEPT_BACKOFF_MAX_MS :
		    delay_ms * 2;
		poll(NULL, 0, delay_ms);
	}
}

/* Started as root: become user (default "nobody") once the port is bound.
 * Nothing the partner does later needs root. Returns 0 or -1 with err. */
static int
drop_privileges(const char *user, char *err, size_t errlen)
{
	struct passwd *pw;

	if (geteuid() != 0) {
		if (user == NULL)
			return 0;
		snprintf(err, errlen, "--user %s: only root can change user", user);
		return -1;
	}
	if (user == NULL)
		user = "nobody";
	errno = 0;
	if ((pw = getpwnam(user)) == NULL) {
		snprintf(err, errlen, "--user %s: %s", user, errno ? strerror(errno) :
		         "no such user");
		return -1;
	}
	if (pw->pw_uid == 0)
		return 0;                       /* asked to stay root */
	if (setgroups(0, NULL) == -1 || setgid(pw->pw_gid) == -1 ||
	    setuid(pw->pw_uid) == -1) {
		snprintf(err, errlen, "becoming user %s: %s", user, strerror(errno));
		return -1;
	}
	if (setuid(0) != -1) {                  /* must be gone for good */
		snprintf(err, errlen, "becoming user %s: root could be regained", user);
		return -1;
	}
	return 0;
}

/* The congestion controls this partner offers (--cc): of --allow-cc, or of
 * the host's, the ones it can set now that it runs as it will. An admin's
 * name it cannot set stops it here, not a client later. Returns 0, or -1
 * with err filled. */
static int
cc_policy(struct config *dc, char *err, size_t errlen)
{
	char refused[CCPOLICY_MAX], why[160];

	if (ccpolicy_probe(dc->allow_cc, dc->cc_allowed, sizeof dc->cc_allowed,
	    refused, sizeof refused, why, sizeof why) == -1) {
		snprintf(err, errlen, "%s%s", dc->allow_cc ? "--allow-cc: " : "", why);
		return -1;
	}
	if (refused[0] == '\0')
		return 0;
	if (dc->allow_cc != NULL) {
		snprintf(err, errlen, "--allow-cc: cannot set %.60s unprivileged: "
		         "add to net.ipv4.tcp_allowed_congestion_control, leave out, "
		         "or --user root", refused);
		return -1;
	}
	plog("congestion control: clients may ask for %s; not for %s, which an "
	     "unprivileged partner cannot set (net.ipv4.tcp_allowed_congestion_"
	     "control lists what it may; see --allow-cc)", dc->cc_allowed, refused);
	return 0;
}

/* LISTEN_PID names this process: digits alone, nothing after them (as
 * systemd's own parser takes it); anything else is not for us. */
static int
is_our_pid(const char *s)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno == 0 && *end == '\0' && v == (long)getpid();
}

/* The listening socket: systemd's (socket activation), or our own. */
static int
listener(const struct config *c, char *err, size_t errlen)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	int on = 0;
	socklen_t ol = sizeof on;

	if (pid != NULL && fds != NULL && is_our_pid(pid)) {
		if (strcmp(fds, "1") != 0) {
			snprintf(err, errlen, "socket activation: LISTEN_FDS=%s, gput "
			         "takes exactly one listening socket", fds);
			return -1;
		}
		unsetenv("LISTEN_PID");
		unsetenv("LISTEN_FDS");
		if (getsockopt(LISTEN_FDS_START, SOL_SOCKET, SO_ACCEPTCONN, &on,
		    &ol) == -1 || !on) {
			snprintf(err, errlen, "socket activation: descriptor %d is not "
			         "a listening socket", LISTEN_FDS_START);
			return -1;
		}
		return LISTEN_FDS_START;
	}
	return net_listen_any(c->port, err, errlen);
}

/* A line that stops the partner: on standard error, or in the log when
 * standard error is the client's connection. */
static void
say(const char *text)
{
	if (plog_syslog())
		plog("%s", text);
	else
		fprintf(stderr, "gput: %s\n", text);
}

int
run_daemon(const struct config *conf)
{
	static struct config dc;        /* conf, with what cc_policy found */
	const struct config *c = &dc;
	struct daemon d = { .c = c, .lfd = -1, .tsfd = -1 };
	struct sigaction sa = { .sa_handler = on_sigchld };
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	char err[256], addr[NET_ADDRSTRLEN];
	int rc;

	dc = *conf;
	signal(SIGPIPE, SIG_IGN);
	if (c->inetd && plog_stderr_is_client(STDIN_FILENO))
		plog_use_syslog(STDIN_FILENO);
	if (c->key_file != NULL) {
		if (auth_key_load(c->key_file, &d.key, err, sizeof err) == -1) {
			say(err);
			return 1;
		}
		d.keyp = &d.key;
	}
	if (c->inetd) {                         /* inetd (nowait): stdin is the client */
		if (getpeername(0, (struct sockaddr *)&ss, &sl) == -1) {
			say("--inetd: standard input is not a connected socket");
			return 1;
		}
		if (drop_privileges(c->user, err, sizeof err) == -1 ||
		    cc_policy(&dc, err, sizeof err) == -1) {
			say(err);
			return 1;
		}
		if (!acl_permits(&c->allow, &ss)) {
			refuse(0, &ss, "access denied: not in this partner's --allow list");
			return 1;
		}
		return session_serve(0, &ss, c, d.keyp, NULL, -1);
	}
	if ((d.lfd = listener(c, err, sizeof err)) == -1 ||
	    (d.gate = gate_new(&c->lim, err, sizeof err)) == NULL) {
		fprintf(stderr, "gput: %s\n", err);
		return 1;
	}
	d.gate->evict = evict_place;
	/* The kernel turns receive timestamping on lazily, after the first socket
	 * asks for it; a datagram that arrives before then is stamped when it is
	 * read. Holding one stamping socket for the daemon's life keeps it on, so
	 * every UDP receive window starts at a true arrival time. */
	d.tsfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (d.tsfd == -1 || xfer_udp_prepare(d.tsfd, err, sizeof err) == -1)
		plog("warning: %s", d.tsfd == -1 ? strerror(errno) : err);
	if (drop_privileges(c->user, err, sizeof err) == -1 ||
	    cc_policy(&dc, err, sizeof err) == -1) {
		fprintf(stderr, "gput: %s\n", err);
		return 1;
	}
	sigaction(SIGCHLD, &sa, NULL);          /* no SA_RESTART: accept wakes */
	getsockname(d.lfd, (struct sockaddr *)&ss, &sl);
	fprintf(stderr, "gput: listening on %s port %u\n",
	        net_ntop(&ss, addr, sizeof addr), net_port(&ss));
	rc = accept_loop(&d);
	gate_free(d.gate);
	auth_key_wipe(&d.key);
	return rc;
}
