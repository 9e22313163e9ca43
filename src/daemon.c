/* daemon.c: gput -i, the partner side. */
#include "daemon.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl.h"
#include "net.h"

/* Everything one client's session knows. */
struct session {
	int ctl, data, verbose;
	struct sockaddr_storage local, peer;
	char who[NET_ADDRSTRLEN + 16];  /* "ADDR port N", for log lines */
};

static void
logmsg(const struct session *s, const char *what, const char *detail)
{
	fprintf(stderr, "gput: client %s: %s%s%s\n", s->who, what,
	        detail ? ": " : "", detail ? detail : "");
}

/* Report a failure to the log and, best effort, to the client. */
static void
fail(struct session *s, const char *what, const char *detail)
{
	struct ctl_msg m;
	char text[CTL_MAX_TEXT + 1], err[128];

	logmsg(s, what, detail);
	snprintf(text, sizeof text, "%s%s%s", what, detail ? ": " : "",
	         detail ? detail : "");
	ctl_error(&m, text);
	(void)ctl_send(s->ctl, &m, err, sizeof err);
}

/* Why the client spoke or hung up on the control connection while the
 * session waited for something else, into err. Returns 1 if it did. */
static int
client_left(const struct session *s, char *err, size_t errlen)
{
	char why[128];

	switch (ctl_peer_state(s->ctl, why, sizeof why)) {
	case CTL_PEER_QUIET:
		return 0;
	case CTL_PEER_CLOSED:
		snprintf(err, errlen, "the client closed the control connection");
		break;
	case CTL_PEER_FAILED:
		snprintf(err, errlen, "control connection: %s", why);
		break;
	case CTL_PEER_SPOKE:
		snprintf(err, errlen, "%s", why);
		break;
	}
	return 1;
}

/* Create the data socket for p and tell the client its port. For TCP the
 * connection is then accepted from the client's address only; a UDP receiver
 * waits for the first datagram. Either wait ends early when the client
 * closes the control connection. */
static int
setup_data(struct session *s, const struct ctl_msg *req)
{
	const struct xfer_params *p = &req->params;
	int type = p->proto == PROTO_UDP ? SOCK_DGRAM : SOCK_STREAM;
	struct ctl_msg ready = { .type = CTL_READY };
	char err[256];
	int fd = net_bind_like(&s->local, type, err, sizeof err), w;

	if (fd == -1 || (p->window && net_set_window(fd, p->window, err,
	    sizeof err) == -1))
		goto bad;
	if (p->proto == PROTO_UDP && p->role == ROLE_RECV &&
	    xfer_udp_prepare(fd, err, sizeof err) == -1)
		goto bad;
	if (p->proto == PROTO_UDP) {
		struct sockaddr_storage to = s->peer;   /* only ever the client */
		net_set_port(&to, req->udp_port);
		if (connect(fd, (struct sockaddr *)&to, sizeof to) == -1) {
			snprintf(err, sizeof err, "connect UDP: %s", strerror(errno));
			goto bad;
		}
	}
	ready.data_port = net_local_port(fd);
	if (ctl_send(s->ctl, &ready, err, sizeof err) == -1)
		goto bad;
	if (p->proto == PROTO_TCP) {
		int lfd = fd;
		fd = net_accept_from(lfd, &s->peer, s->ctl, DAEMON_CTL_TIMEOUT_MS, err,
		    sizeof err);
		close(lfd);
		if (fd == -2 && !client_left(s, err, sizeof err))
			snprintf(err, sizeof err, "control connection woke");
		if (fd < 0) {
			fd = -1;
			goto bad;
		}
		if (p->nodelay && net_set_nodelay(fd, err, sizeof err) == -1)
			goto bad;
	} else if (p->role == ROLE_RECV &&
	    (w = net_wait_readable(fd, s->ctl, DAEMON_CTL_TIMEOUT_MS)) != 1) {
		if (w == 0)
			snprintf(err, sizeof err, "timed out waiting for the first datagram");
		else if (!client_left(s, err, sizeof err))
			snprintf(err, sizeof err, "control connection woke");
		goto bad;
	}
	if (net_set_timeouts(fd, DATA_IDLE_TIMEOUT_MS, DATA_IDLE_TIMEOUT_MS, err,
	    sizeof err) == -1)
		goto bad;
	s->data = fd;
	return 0;
bad:
	if (fd != -1)
		close(fd);
	fail(s, "data connection", err);
	return -1;
}

/* Keep the data socket open until the client closes the control connection
 * after reading RESULT (at most DAEMON_CTL_TIMEOUT_MS): a UDP receiver ends
 * at the first marker or the last datagram, and closing at once would turn
 * the sender's remaining markers into ICMP port-unreachable errors. A client
 * that closes with RESULT unread resets the connection (a close with unread
 * data does): that is logged.
 * Returns the child's exit status. */
static int
linger(const struct session *s)
{
	char why[128];

	if (net_wait_readable(s->ctl, -1, DAEMON_CTL_TIMEOUT_MS) == 0)
		return 0;
	if (ctl_peer_state(s->ctl, why, sizeof why) != CTL_PEER_FAILED)
		return 0;
	logmsg(s, "results not read", "the client reset the control connection");
	return 1;
}

/* One client, start to end. Returns the child's exit status. */
static int
serve(struct session *s)
{
	struct ctl_msg req, res = { .type = CTL_RESULT };
	char err[300];

	if (ctl_recv_type(s->ctl, CTL_PARAMS, &req, DAEMON_CTL_TIMEOUT_MS, err,
	    sizeof err) == -1) {
		fail(s, "bad request", err);
		return 1;
	}
	s->verbose |= req.params.verbose;
	if (setup_data(s, &req) == -1)
		return 1;
	if (xfer_run(s->data, &req.params, &res.result, err, sizeof err) == -1) {
		fail(s, "transfer", err);
		return 1;
	}
	if (s->verbose)
		fprintf(stderr, "gput: client %s: %s %s %llu bytes in %llu calls\n",
		        s->who, req.params.proto == PROTO_UDP ? "udp" : "tcp",
		        req.params.role == ROLE_SEND ? "sent" : "received",
		        (unsigned long long)res.result.bytes,
		        (unsigned long long)res.result.calls);
	/* a UDP receiver cannot tell a client that vanished mid-transfer from
	 * one that is done; the control connection can */
	if (client_left(s, err, sizeof err)) {
		fail(s, "results not sent", err);
		return 1;
	}
	if (ctl_send(s->ctl, &res, err, sizeof err) == -1) {
		logmsg(s, "sending results", err);
		return 1;
	}
	return linger(s);
}

/* The child's whole life: set up, serve, exit. peer is the address accept
 * returned (still known when the client has already reset). */
static void
child(int cfd, const struct sockaddr_storage *peer, const struct config *c)
{
	struct session s = { .ctl = cfd, .data = -1, .verbose = c->loc.verbose,
	    .peer = *peer };
	socklen_t ll = sizeof s.local;
	char addr[NET_ADDRSTRLEN], err[128];
	int rc = 1;

	signal(SIGCHLD, SIG_DFL);
	snprintf(s.who, sizeof s.who, "%s port %u",
	         net_ntop(&s.peer, addr, sizeof addr), net_port(&s.peer));
	if (getsockname(cfd, (struct sockaddr *)&s.local, &ll) == -1)
		logmsg(&s, "control connection", strerror(errno));
	else if (net_set_timeouts(cfd, DAEMON_CTL_TIMEOUT_MS,
	    DAEMON_CTL_TIMEOUT_MS, err, sizeof err) == -1)
		logmsg(&s, "control connection", err);
	else
		rc = serve(&s);
	if (s.data != -1)
		close(s.data);
	close(cfd);
	_exit(rc);
}

/* Fork a child for the client on cfd; the parent keeps nothing of it. */
static void
spawn(int lfd, int tsfd, int cfd, const struct sockaddr_storage *peer,
      const struct config *c)
{
	pid_t pid = fork();

	if (pid == 0) {
		close(lfd);
		if (tsfd != -1)
			close(tsfd);
		child(cfd, peer, c);
	}
	if (pid == -1) {
		struct session s = { .ctl = cfd, .peer = *peer };
		char addr[NET_ADDRSTRLEN];

		snprintf(s.who, sizeof s.who, "%s port %u",
		         net_ntop(peer, addr, sizeof addr), net_port(peer));
		fail(&s, "cannot serve", strerror(errno));   /* fork's errno */
	}
	close(cfd);
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

/* Serve until killed. A burst of failing accept calls is logged once when it
 * starts (and when the error changes) and once when accept works again; in
 * between, retries back off from ACCEPT_BACKOFF_MIN_MS to ACCEPT_BACKOFF_MAX_MS. */
static void
accept_loop(int lfd, int tsfd, const struct config *c)
{
	unsigned long failed = 0;
	int delay_ms = 0, last_errno = 0;

	for (;;) {
		struct sockaddr_storage peer;
		socklen_t pl = sizeof peer;
		int cfd = accept4(lfd, (struct sockaddr *)&peer, &pl, SOCK_CLOEXEC), e;

		if (cfd != -1) {
			if (failed > 0)
				fprintf(stderr, "gput: accept works again after %lu failed "
				        "calls\n", failed);
			failed = 0;
			delay_ms = 0;
			spawn(lfd, tsfd, cfd, &peer, c);
			continue;
		}
		e = errno;
		if (accept_retry_now(e))
			continue;
		if (failed++ == 0 || e != last_errno)
			fprintf(stderr, "gput: accept: %s (retrying at most every %d ms)\n",
			        strerror(e), ACCEPT_BACKOFF_MAX_MS);
		last_errno = e;
		delay_ms = delay_ms == 0 ? ACCEPT_BACKOFF_MIN_MS :
		    delay_ms * 2 > ACCEPT_BACKOFF_MAX_MS ? ACCEPT_BACKOFF_MAX_MS :
		    delay_ms * 2;
		poll(NULL, 0, delay_ms);
	}
}

int
run_daemon(const struct config *c)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	char err[256], addr[NET_ADDRSTRLEN];
	int lfd = net_listen_any(c->port, err, sizeof err), tsfd;

	if (lfd == -1) {
		fprintf(stderr, "gput: %s\n", err);
		return 1;
	}
	/* The kernel turns receive timestamping on lazily, after the first socket
	 * asks for it; a datagram that arrives before then is stamped when it is
	 * read. Holding one stamping socket for the daemon's life keeps it on, so
	 * every UDP receive window starts at a true arrival time. */
	tsfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (tsfd == -1 || xfer_udp_prepare(tsfd, err, sizeof err) == -1)
		fprintf(stderr, "gput: warning: %s\n", tsfd == -1 ? strerror(errno) : err);
	signal(SIGCHLD, SIG_IGN);               /* children reap themselves */
	signal(SIGPIPE, SIG_IGN);
	getsockname(lfd, (struct sockaddr *)&ss, &sl);
	fprintf(stderr, "gput: listening on %s port %u\n",
	        net_ntop(&ss, addr, sizeof addr), net_port(&ss));
	accept_loop(lfd, tsfd, c);
	return 1;                               /* not reached */
}
