/* SPDX-License-Identifier: BSD-2-Clause */
/* client_repeat.c: --repeat: the same test several times, and its statistics. */
#include "client_repeat.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "meter.h"
#include "report_repeat.h"
#include "client_runset.h"
#include "stats.h"
#include "stop.h"

/* --pause: wait ms, or less when a stop is requested. Returns 0, or -1
 * (stopped). */
static int
pause_between(struct stopreq *s, uint32_t ms)
{
	mono_ns end = mono_now() + (mono_ns)ms * 1000000u, now;
	struct pollfd pf = { .fd = stop_fd(s), .events = POLLIN };

	while (!stop_requested(s) && (now = mono_now()) < end) {
		int left = (int)((end - now + 999999) / 1000000);

		if (poll(&pf, 1, left) == -1 && errno != EINTR)
			break;
	}
	return stop_requested(s) ? -1 : 0;
}

/* One run into rs. Returns its exit status; *kept = 1 when it had results. */
static int
one_run(const struct config *c, struct runset *rs, int *kept)
{
	struct run_model m;
	int rc;

	memset(&m, 0, sizeof m);
	rc = client_run(c, &m);
	*kept = m.side[0].have_result;
	if (!*kept) {
		model_free(&m);
		return rc;
	}
	if (runset_add(rs, &m, rc == 0) == -1) {
		fprintf(stderr, "gput: --repeat: no memory for run %zu\n", rs->n + 1);
		model_free(&m);
		*kept = 0;
		return rc == 0 ? 1 : rc;
	}
	return rc;
}

int
run_repeat(const struct config *c)
{
	struct runset rs;
	struct report_repeat_opts o = { .out = c->out, .min = c->rep.min,
	    .max = c->rep.max, .pause_ms = c->rep.pause_ms };
	struct stopreq *stop = stop_process();
	char err[200];
	uint32_t k;
	int rc = 0, kept;

	if (stop_init(stop, err, sizeof err) == -1) {
		fprintf(stderr, "gput: %s\n", err);
		return 1;
	}
	runset_init(&rs, c->rep.level, c->rep.width_pct);
	for (k = 0; k < c->rep.max; k++) {
		if (k > 0 && pause_between(stop, c->rep.pause_ms) == -1) {
			rc = 130;
			break;
		}
		stop_rearm(stop);
		if (c->out == OUT_TABLE)
			report_repeat_run_title(stdout, k + 1);
		rc = one_run(c, &rs, &kept);
		if (kept && c->out == OUT_JSON_LINES)
			report_repeat_run_line(stdout, &rs.run[rs.n - 1], rs.n);
		if (rc != 0)
			break;
		if (runset_compute(&rs) == -1) {
			fprintf(stderr, "gput: --repeat: no memory for the statistics\n");
			rc = 1;
			break;
		}
		if (k + 1 >= c->rep.min && c->rep.max > c->rep.min && rs.met)
			break;
	}
	if (runset_compute(&rs) == -1) {
		fprintf(stderr, "gput: --repeat: no memory for the statistics\n");
		rc = 1;
	}
	report_repeat(stdout, &o, &rs, rc);
	fflush(stdout);
	if (rc == 0 && c->rep.width_pct > 0 && rs.have_width && !rs.met)
		report_repeat_unmet(stderr, &rs);
	runset_free(&rs);
	return rc;
}
