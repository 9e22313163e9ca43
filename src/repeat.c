/* repeat.c: --repeat: the same test several times, and its statistics. */
#include "repeat.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "meter.h"
#include "report_repeat.h"
#include "runset.h"
#include "stats.h"
#include "stop.h"

void
repeat_defaults(struct repeat_opts *o)
{
	memset(o, 0, sizeof *o);
	o->pause_ms = REPEAT_PAUSE_MS;
	o->level = REPEAT_LEVEL;
}

/* A whole number of runs from s up to its end or a comma. Returns the
 * character after it, or NULL. */
static const char *
parse_runs(const char *s, uint32_t *v)
{
	uint64_t n = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((n = n * 10 + (uint64_t)(*s - '0')) > REPEAT_MAX)
			return NULL;
	*v = (uint32_t)n;
	return s;
}

int
repeat_parse_count(const char *arg, struct repeat_opts *o, char *why,
                   size_t whylen)
{
	uint32_t lo, hi;
	const char *p = parse_runs(arg, &lo);

	if (p != NULL && *p == '\0')
		hi = lo;
	else if (p == NULL || *p != ',' || (p = parse_runs(p + 1, &hi)) == NULL ||
	    *p != '\0') {
		snprintf(why, whylen, "'%s' is not N or MIN,MAX (runs, 2 to %d)",
		         arg, REPEAT_MAX);
		return -1;
	}
	if (lo < 2 || hi < lo) {
		snprintf(why, whylen, "'%s': at least 2 runs%s", arg, hi < lo ?
		         ", and MIN no more than MAX" : "");
		return -1;
	}
	o->min = lo;
	o->max = hi;
	return 0;
}

/* A number from s up to its end or a comma, in [min, max]. Returns the
 * character after it, or NULL. */
static const char *
parse_pct(const char *s, double min, double max, double *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	*v = strtod(s, &end);
	if (errno != 0 || !isfinite(*v) || *v < min || *v > max ||
	    (*end != '\0' && *end != ','))
		return NULL;
	return end;
}

int
repeat_parse_ci(const char *arg, struct repeat_opts *o, char *why,
                size_t whylen)
{
	const char *p = parse_pct(arg, STATS_LEVEL_MIN, STATS_LEVEL_MAX, &o->level);

	if (p == NULL) {
		snprintf(why, whylen, "'%s': the level is a percentage from %g to %g",
		         arg, STATS_LEVEL_MIN, STATS_LEVEL_MAX);
		return -1;
	}
	o->ci_set = 1;
	if (*p == '\0')
		return 0;
	p = parse_pct(p + 1, 0, REPEAT_WIDTH_MAX, &o->width_pct);
	if (p == NULL || *p != '\0' || o->width_pct <= 0) {
		snprintf(why, whylen, "'%s': the width is a percentage of the mean, "
		         "above 0 and at most %g", arg, REPEAT_WIDTH_MAX);
		return -1;
	}
	o->width_set = 1;
	return 0;
}

int
repeat_check(struct config *c, char *err, size_t errlen)
{
	const char *why = NULL;

	if (c->rep.max == 0) {
		if (c->rep.pause_set || c->rep.ci_set)
			why = c->rep.ci_set ? "--ci needs --repeat" :
			    "--pause needs --repeat";
	} else if (c->npartners > 1 || c->mcast.family != 0) {
		why = "--repeat runs one partner's test: give one partner, no -m "
		      "or --bidir";
	} else if (c->log_file != NULL) {
		why = "--log writes one run's datagrams: it cannot be used with "
		      "--repeat";
	} else if (c->out == OUT_PROM) {
		why = "--prometheus describes one run: it cannot be used with "
		      "--repeat";
	}
	if (why != NULL) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	if (c->rep.max > c->rep.min && !c->rep.width_set)
		c->rep.width_pct = REPEAT_WIDTH;
	return 0;
}

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
	report_repeat(stdout, c, &rs, rc);
	fflush(stdout);
	if (rc == 0 && c->rep.width_pct > 0 && rs.have_width && !rs.met)
		report_repeat_unmet(stderr, c, &rs);
	runset_free(&rs);
	return rc;
}
