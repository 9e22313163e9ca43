/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_stop.c: the stop request's self-pipe works whatever descriptors it
 * gets, descriptor 0 among them (a partner started with standard input
 * closed). Each case runs in a child process of its own: the process has
 * one stop request, and its pipe is made once. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stop.h"

/* In a child with the descriptors below `lowest` closed: the pipe, a
 * request, the descriptor readable, cleared. Exit status: 0 fine; 1 the
 * pipe was not made at the lowest descriptor; 2 stop_fd said none; 3 the
 * request did not make it readable; 4 clearing left it readable. */
static int
child(int lowest)
{
	struct stopreq *s = stop_process();
	struct pollfd pfd;
	char err[128];
	int fd;

	for (fd = 0; fd < lowest; fd++)
		close(fd);
	if (stop_init(s, err, sizeof err) == -1 || s->pipe[0] != 0)
		return 1;
	if ((pfd.fd = stop_fd(s)) != 0)
		return 2;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) != 0)
		return 3;
	stop_request(s);
	if (poll(&pfd, 1, 1000) != 1 || !stop_requested(s))
		return 3;
	stop_clear(s);
	if (poll(&pfd, 1, 0) != 0 || stop_requested(s))
		return 4;
	return 0;
}

static void
test_fd_zero(void **state)
{
	int st;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child(2));        /* stdin and stdout closed: the pipe is 0, 1 */
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Before stop_init: no descriptor, and a request still sets the flag. */
static void
test_before_init(void **state)
{
	struct stopreq s = STOPREQ_INIT;

	(void)state;
	assert_int_equal(stop_fd(&s), -1);
	stop_request(&s);
	assert_true(stop_requested(&s));
	stop_clear(&s);
	assert_false(stop_requested(&s));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fd_zero),
		cmocka_unit_test(test_before_init),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
