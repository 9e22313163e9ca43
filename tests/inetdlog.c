/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inetdlog.c: inetd for one connection, with a syslog of its own, for
 * tests/live_inetd.sh. Not installed.
 *
 *   inetdlog LOGSOCK CMD ARG...
 *
 * Binds a datagram socket at LOGSOCK (a syslog's /dev/log; "-": none),
 * listens on 127.0.0.1, prints "ok listen port N", accepts one connection
 * and runs CMD with it as descriptors 0, 1 and 2, as inetd(8) does (and
 * systemd with Accept=yes, StandardInput=socket and StandardError=inherit).
 * When CMD has exited it prints each datagram LOGSOCK received as
 * "log: TEXT", then "ok exit N" with CMD's exit status. Every wait has a
 * deadline of 30 s; a failure prints "inetdlog: reason" and exits 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define TIMEOUT_MS 30000

static void
die(const char *what)
{
	fprintf(stderr, "inetdlog: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int
log_socket(const char *path)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int fd;

	if (strcmp(path, "-") == 0)
		return -1;
	if (strlen(path) >= sizeof un.sun_path) {
		errno = ENAMETOOLONG;
		die(path);
	}
	strcpy(un.sun_path, path);
	(void)unlink(path);
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&un, sizeof un) == -1)
		die(path);
	return fd;
}

/* Accept one connection on a fresh loopback listener (deadline). */
static int
accept_one(void)
{
	struct sockaddr_in in = { .sin_family = AF_INET,
	    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof in;
	struct pollfd pfd;
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), fd;

	if (lfd == -1 || bind(lfd, (struct sockaddr *)&in, sizeof in) == -1 ||
	    listen(lfd, 1) == -1 ||
	    getsockname(lfd, (struct sockaddr *)&in, &len) == -1)
		die("listen");
	printf("ok listen port %u\n", ntohs(in.sin_port));
	fflush(stdout);
	pfd = (struct pollfd){ lfd, POLLIN, 0 };
	if (poll(&pfd, 1, TIMEOUT_MS) != 1) {
		errno = ETIMEDOUT;
		die("accept");
	}
	if ((fd = accept(lfd, NULL, NULL)) == -1)
		die("accept");
	close(lfd);
	return fd;
}

/* Wait for pid, at most TIMEOUT_MS (then kill it). Returns its status. */
static int
reap(pid_t pid)
{
	int st, i;

	for (i = 0; i < TIMEOUT_MS / 10; i++) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (r == -1)
			die("waitpid");
		usleep(10000);          /* poll interval; the loop bounds it */
	}
	kill(pid, SIGKILL);
	errno = ETIMEDOUT;
	die("the command did not exit");
	return -1;
}

int
main(int argc, char **argv)
{
	char buf[2048];
	ssize_t n;
	pid_t pid;
	int logfd, fd, st;

	if (argc < 3) {
		fprintf(stderr, "usage: inetdlog LOGSOCK CMD ARG...\n");
		return 2;
	}
	logfd = log_socket(argv[1]);
	fd = accept_one();
	if ((pid = fork()) == -1)
		die("fork");
	if (pid == 0) {
		if (dup2(fd, 0) == -1 || dup2(fd, 1) == -1 || dup2(fd, 2) == -1)
			_exit(127);
		if (fd > 2)
			close(fd);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	close(fd);
	st = reap(pid);
	while (logfd != -1 && (n = recv(logfd, buf, sizeof buf - 1,
	    MSG_DONTWAIT)) > 0) {
		buf[n] = '\0';
		printf("log: %s\n", buf);
	}
	printf("ok exit %d\n", st);
	return 0;
}
