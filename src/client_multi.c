/* SPDX-License-Identifier: BSD-2-Clause */
/* client_multi.c: several partners at once, one process each (nttcp's lines 1-9). */
#include "client_multi.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"               /* cli_stdout_done */
#include "cli_params.h"
#include "client.h"
#include "json.h"
#include "meter.h"
#include "growbuf.h"
#include "model_psum.h"
#include "model_rec.h"
#include "net.h"
#include "report.h"
#include "report_csv.h"
#include "report_ival.h"
#include "report_json.h"
#include "report_psum.h"
#include "report_table.h"
#include "report_verdict.h"
#include "stop.h"

/* A partner's process writes to four pipes: its standard output (nothing
 * is expected there: its results come as a model), its live interval
 * lines and its standard error (both relayed as whole lines as they come)
 * and its run's model (a record, model_rec.h), which the parent renders
 * once every partner is done, in partner order, and sums over the
 * partners (model_psum.h). */
enum { CH_RESULTS, CH_LIVE, CH_ERR, CH_MODEL, CH_N };

struct child {
	struct config c;            /* this partner's test */
	pid_t  pid;                 /* -1: never started */
	int    fd[CH_N];            /* read ends; -1 once closed */
	struct growbuf out;         /* CH_RESULTS; then what the parent renders
	                               from CH_MODEL's records */
	struct growbuf model;       /* CH_MODEL */
	int    badrec;              /* a model record that did not add up */
	struct run_model rm;        /* its run's model, for the sums (its host */
	int    have_rm;             /*   and error point into model.p) */
	struct growbuf line[CH_N];  /* CH_LIVE, CH_ERR: a line not yet whole */
	int    reaped, status;      /* waitpid's */
	int    killed;              /* by us, after the stop's deadline */
};

struct multi {
	const struct config *c;
	struct child ch[GPUT_MAX_PARTNERS];
	unsigned n;
	sigset_t oldmask;           /* restored in the children */
	sigset_t waitmask;          /* while waiting: signals let in */
	int    stopping;            /* the stop was passed on */
	int    signals_seen;
	mono_ns stop_at;            /* the stop was passed on then */
	mono_ns stop_deadline;
	int    ival_title_due;      /* -T with --interval: before the first line */
};

_Static_assert(PSUM_MAX == GPUT_MAX_PARTNERS, "model_psum sums them all");

static volatile sig_atomic_t multi_signals, multi_child_exited;

static void
on_stop(int sig)
{
	stop_signal_seen(sig);
	multi_signals++;
}

static void
on_chld(int sig)
{
	(void)sig;
	multi_child_exited = 1;
}

/* In a partner's process: where its model goes (CH_MODEL's write end). */
static int child_model_fd = -1;

/* The run's model as a record to the parent (none: the parent says this
 * partner has no results); the table's without the intervals it does not
 * print. arg: the partner's config. */
static void
child_put_model(const struct run_model *m, void *arg)
{
	const struct config *c = arg;
	uint8_t *buf;
	size_t len;

	if (model_rec_put(m, c->out != OUT_TABLE, &buf, &len) == -1) {
		fprintf(stderr, "gput: no memory for the results' record\n");
		return;
	}
	(void)net_write_full(child_model_fd, buf, len);   /* the parent says
	                                                     what is missing */
	free(buf);
}


/* In a partner's process, until run_client installs its own handler. */
static void
child_on_stop(int sig)
{
	(void)sig;
	stop_request(stop_process());
}

/* ---- a partner's process ----------------------------------------- */

/* Become partner k's client: the pipes as its standard output and error
 * and its interval FILE, the stop signals its own, then run_client.
 * Never returns. */
static void __attribute__((noreturn))
child_run(struct multi *m, unsigned k, const int *wfd)
{
	struct child *ch = &m->ch[k];
	struct client_hooks hooks = { child_put_model, NULL, NULL };
	struct sigaction sa = { .sa_handler = child_on_stop,
	    .sa_flags = SA_RESETHAND };
	char err[256];
	FILE *live;
	unsigned j;
	int i, rc;

	for (j = 0; j <= k; j++)    /* the read ends: the parent's, not ours */
		for (i = 0; i < CH_N; i++)
			if (m->ch[j].fd[i] != -1)
				close(m->ch[j].fd[i]);
	if (dup2(wfd[CH_RESULTS], STDOUT_FILENO) == -1 ||
	    dup2(wfd[CH_ERR], STDERR_FILENO) == -1)
		_exit(1);
	if (wfd[CH_RESULTS] != STDOUT_FILENO)   /* it was closed, so a pipe got it */
		close(wfd[CH_RESULTS]);
	if (wfd[CH_ERR] != STDERR_FILENO)
		close(wfd[CH_ERR]);
	if ((live = fdopen(wfd[CH_LIVE], "w")) == NULL) {
		fprintf(stderr, "gput: partner %s port %u: fdopen: %s\n", ch->c.host,
		        ch->c.port, strerror(errno));
		_exit(1);
	}
	child_model_fd = wfd[CH_MODEL];
	hooks.ival_out = live;
	hooks.arg = &ch->c;
	/* a stop that comes before run_client's handler must not be lost (it
	 * would run the whole test) nor kill the process (no results) */
	if (stop_init(stop_process(), err, sizeof err) == -1) {
		fprintf(stderr, "gput: %s\n", err);
		_exit(1);
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_SETMASK, &m->oldmask, NULL);
	rc = run_client_hooked(&ch->c, &hooks);
	if (fclose(live) != 0 && rc == 0) {
		fprintf(stderr, "gput: writing the interval lines: %s\n",
		        strerror(errno));
		rc = 1;
	}
	if (cli_stdout_done("gput") == -1 && rc == 0)
		rc = 1;
	_exit(rc);
}

/* Fork partner k's process. Returns 0, or -1 after a line on stderr. */
static int
start_child(struct multi *m, unsigned k)
{
	struct child *ch = &m->ch[k];
	int p[CH_N][2], wfd[CH_N], i, made, e = 0;

	for (made = 0; made < CH_N; made++)
		if (pipe2(p[made], O_CLOEXEC) == -1)
			break;
	e = errno;
	for (i = 0; i < made; i++) {
		ch->fd[i] = p[i][0];
		wfd[i] = p[i][1];
	}
	if (made == CH_N) {
		fflush(stdout);         /* nothing of ours may print twice */
		fflush(stderr);
		ch->pid = fork();
		if (ch->pid == 0)
			child_run(m, k, wfd);
		e = errno;
	}
	for (i = 0; i < made; i++)
		close(wfd[i]);
	if (made == CH_N && ch->pid != -1)
		return 0;
	fprintf(stderr, "gput: partner %s port %u: %s: %s\n", ch->c.host,
	        ch->c.port, made < CH_N ? "pipe" : "fork", strerror(e));
	for (i = 0; i < made; i++) {
		close(ch->fd[i]);
		ch->fd[i] = -1;
	}
	ch->pid = -1;
	return -1;
}

/* ---- relaying ------------------------------------------------------ */

/* A JSON object on one line, with the partner's number as its first
 * member. */
static void
put_tagged_json(FILE *f, char tag, const char *s, size_t len)
{
	if (len > 0 && s[0] == '{') {
		fprintf(f, "{\"partner\":%c%s", tag, len > 2 && s[1] != '}' ? "," : "");
		fwrite(s + 1, 1, len - 1, f);
	} else {
		fwrite(s, 1, len, f);
	}
}

/* One whole line (with its newline) from partner ch's pipe i. */
static void
emit_line(struct multi *m, const struct child *ch, int i, const char *s,
          size_t len)
{
	if (i == CH_ERR) {
		fwrite(s, 1, len, stderr);
		return;
	}
	if (m->c->out == OUT_JSON_LINES) {
		put_tagged_json(stdout, ch->c.tag, s, len);
	} else {
		if (m->ival_title_due) {        /* over the columns, past "N " */
			fputs("  ", stdout);
			report_ival_title(stdout);
			m->ival_title_due = 0;
		}
		fprintf(stdout, "%c ", ch->c.tag);
		fwrite(s, 1, len, stdout);
	}
	fflush(stdout);
}

/* Relay the whole lines in ch's buffer of pipe i; at_eof: the rest too,
 * with a newline of its own. */
static void
relay_lines(struct multi *m, struct child *ch, int i, int at_eof)
{
	struct growbuf *b = &ch->line[i];
	size_t start = 0, k;

	if (b->len == 0)
		return;
	for (k = 0; k < b->len; k++) {
		if (b->p[k] != '\n')
			continue;
		emit_line(m, ch, i, b->p + start, k + 1 - start);
		start = k + 1;
	}
	if (at_eof && start < b->len) {
		growbuf_add(b, "\n", 1);
		emit_line(m, ch, i, b->p + start, b->len - start);
		start = b->len;
	}
	memmove(b->p, b->p + start, b->len - start);
	b->len -= start;
}

static void
close_pipe(struct multi *m, struct child *ch, int i)
{
	if (ch->fd[i] == -1)
		return;
	if (i == CH_LIVE || i == CH_ERR)
		relay_lines(m, ch, i, 1);
	close(ch->fd[i]);
	ch->fd[i] = -1;
}

/* Read what pipe i of ch holds (poll said so). */
static void
drain(struct multi *m, struct child *ch, int i)
{
	char buf[8192];
	ssize_t got = read(ch->fd[i], buf, sizeof buf);

	if (got == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (got <= 0) {                 /* end of file: the process is ending */
		close_pipe(m, ch, i);
		return;
	}
	if (i == CH_RESULTS || i == CH_MODEL) {
		growbuf_add(i == CH_MODEL ? &ch->model : &ch->out, buf,
		    (size_t)got);
		return;
	}
	growbuf_add(&ch->line[i], buf, (size_t)got);
	if (ch->line[i].nomem) {        /* relay what fits, as one line */
		ch->line[i].nomem = 0;
		relay_lines(m, ch, i, 1);
		return;
	}
	relay_lines(m, ch, i, 0);
}

/* ---- the processes' ends ------------------------------------------- */

static void
reap(struct multi *m)
{
	unsigned k;

	multi_child_exited = 0;
	for (k = 0; k < m->n; k++) {
		struct child *ch = &m->ch[k];

		if (ch->pid != -1 && !ch->reaped &&
		    waitpid(ch->pid, &ch->status, WNOHANG) == ch->pid)
			ch->reaped = 1;
	}
}

/* The stop's deadline passed, or a second stop came: end the partners'
 * processes that are still running, now. What they printed on stdout is
 * dropped (it may stop mid-document). */
static void
kill_rest(struct multi *m)
{
	unsigned k;
	int i;

	for (k = 0; k < m->n; k++) {
		struct child *ch = &m->ch[k];

		if (ch->pid == -1 || ch->reaped)
			continue;
		(void)kill(ch->pid, SIGKILL);
		for (i = 0; i < CH_N; i++)
			close_pipe(m, ch, i);
		/* SIGKILL cannot be caught: this wait ends at once */
		while (waitpid(ch->pid, &ch->status, 0) == -1 && errno == EINTR)
			;
		ch->reaped = 1;
		ch->killed = WIFSIGNALED(ch->status) &&
		    WTERMSIG(ch->status) == SIGKILL;
	}
}

/* Signals came in since the last look: the first stop is passed on, a
 * second one STOP_REPEAT_MS or more after it ends everything (one sooner
 * is the same request). The stop goes to the partners as SIGTERM: ^C on
 * a terminal also reaches them as SIGINT, within that time of it, which
 * their clients take as one request (stop_on_signals). */
static void
handle_signals(struct multi *m)
{
	int now = multi_signals;
	unsigned k;

	if (now == m->signals_seen)
		return;
	m->signals_seen = now;
	if (m->stopping) {
		if (mono_now() - m->stop_at >= (mono_ns)STOP_REPEAT_MS * 1000000u)
			kill_rest(m);
		return;
	}
	m->stopping = 1;
	m->stop_at = mono_now();
	m->stop_deadline = m->stop_at + (mono_ns)MULTI_STOP_MS * 1000000u;
	for (k = 0; k < m->n; k++)
		if (m->ch[k].pid != -1 && !m->ch[k].reaped)
			(void)kill(m->ch[k].pid, SIGTERM);
}

/* Relay until every partner's process has ended and its pipes are read.
 * There is no deadline here until a stop: each partner's client keeps its
 * own on every wait, and a test may rightly run for hours. */
static void
pump(struct multi *m)
{
	struct pollfd pfd[GPUT_MAX_PARTNERS * CH_N];
	struct child *who[GPUT_MAX_PARTNERS * CH_N];
	int which[GPUT_MAX_PARTNERS * CH_N];

	for (;;) {
		struct timespec ts, *tsp = NULL;
		nfds_t n = 0, j;
		unsigned k, alive = 0;
		int i, r;

		if (multi_child_exited)
			reap(m);
		handle_signals(m);
		if (m->stopping && mono_now() >= m->stop_deadline)
			kill_rest(m);
		for (k = 0; k < m->n; k++) {
			struct child *ch = &m->ch[k];

			alive += ch->pid != -1 && !ch->reaped;
			for (i = 0; i < CH_N; i++) {
				if (ch->fd[i] == -1)
					continue;
				pfd[n] = (struct pollfd){ ch->fd[i], POLLIN, 0 };
				who[n] = ch;
				which[n++] = i;
			}
		}
		if (n == 0 && alive == 0)
			return;
		if (m->stopping) {
			mono_ns now = mono_now(), left = m->stop_deadline > now ?
			    m->stop_deadline - now : 0;

			ts.tv_sec = (time_t)(left / 1000000000u);
			ts.tv_nsec = (long)(left % 1000000000u);
			tsp = &ts;
		}
		/* the signals get in only here, so none is missed between the
		 * looks above and the wait */
		r = ppoll(pfd, n, tsp, &m->waitmask);
		if (r <= 0)
			continue;       /* a signal, or the stop's deadline */
		for (j = 0; j < n; j++)
			if (pfd[j].revents & (POLLIN | POLLHUP | POLLERR))
				drain(m, who[j], which[j]);
	}
}

/* ---- the results, in partner order -------------------------------- */

/* Did ch's process end on its own, so that what it printed is whole? */
static int
whole(const struct child *ch)
{
	return ch->pid != -1 && ch->reaped && WIFEXITED(ch->status) &&
	    !ch->out.nomem && !ch->model.nomem && !ch->badrec;
}

/* Why ch has no results of its own, in words. */
static const char *
no_results_why(const struct child *ch, char *buf, size_t len)
{
	if (ch->pid == -1)
		snprintf(buf, len, "could not be started");
	else if (ch->killed)
		snprintf(buf, len, "ended after the stop: no results within %d s",
		         MULTI_STOP_MS / 1000);
	else if (WIFSIGNALED(ch->status))
		snprintf(buf, len, "its process ended by signal %d (%s)",
		         WTERMSIG(ch->status), strsignal(WTERMSIG(ch->status)));
	else if (ch->out.nomem || ch->model.nomem)
		snprintf(buf, len, "no memory for its results");
	else if (ch->badrec)
		snprintf(buf, len, "its results did not arrive whole");
	else if (WEXITSTATUS(ch->status) == 130)
		snprintf(buf, len, "interrupted");
	else
		snprintf(buf, len, "failed (exit status %d)", WEXITSTATUS(ch->status));
	return buf;
}

/* A JSON stand-in for a partner without results of its own: its name and
 * why. lines: one line, as --json-lines prints it. */
static void
put_missing_json(FILE *f, const struct child *ch, int lines)
{
	char why[200];
	struct json j;

	json_init(&j, f, !lines);
	json_begin_object(&j);
	if (lines) {
		json_kv_u64(&j, "partner", (uint64_t)(ch->c.tag - '0'));
		json_kv_string(&j, "type", "summary");
	}
	json_kv_string(&j, "host", ch->c.host);
	json_kv_u64(&j, "port", ch->c.port);
	json_kv_bool(&j, "interrupted", ch->killed || (whole(ch) &&
	    WEXITSTATUS(ch->status) == 130));
	json_kv_string(&j, "error", no_results_why(ch, why, sizeof why));
	json_end_object(&j);
	fputc('\n', f);
}

/* The partners' sums from the models their processes sent. */
static void
sums(struct multi *m, struct psum *out)
{
	const struct run_model *rm[GPUT_MAX_PARTNERS] = { NULL };
	unsigned k;

	for (k = 0; k < m->n; k++)
		rm[k] = m->ch[k].have_rm ? &m->ch[k].rm : NULL;
	model_psum(out, rm, m->n);
}

/* Each line of s with the partner's tag and a space before it, as the
 * interval lines have it. */
static void
put_tagged_text(FILE *f, char tag, struct growbuf *b)
{
	const char *s = growbuf_str(b), *nl;

	for (; *s != '\0'; s = nl + 1) {
		nl = strchrnul(s, '\n');
		fprintf(f, "%c %.*s\n", tag, (int)(nl - s), s);
		if (*nl == '\0')
			break;
	}
}

/* The table: the title once, then each partner's lines as it printed them
 * (its l line, its own, and the lines under them), each under the
 * partner's tag; then the sums over the partners. */
static void
print_table(struct multi *m)
{
	int titled = !m->c->title;
	struct psum sm;
	unsigned k;

	for (k = 0; k < m->n; k++) {
		struct child *ch = &m->ch[k];

		if (!whole(ch) || ch->out.len == 0)
			continue;
		if (!titled) {
			fputs("  ", stdout);        /* over the columns, past "N " */
			report_title(stdout, m->c->loc.format);
			titled = 1;
		}
		put_tagged_text(stdout, ch->c.tag, &ch->out);
	}
	sums(m, &sm);
	report_psum_table(stdout, &sm, m->c->loc.format);
	if (m->c->loc.verbose || m->c->rem.verbose || m->c->link_bps > 0) {
		const struct run_model *rm[GPUT_MAX_PARTNERS] = { NULL };

		for (k = 0; k < m->n; k++)
			rm[k] = m->ch[k].have_rm ? &m->ch[k].rm : NULL;
		report_verdict_partners(stdout, rm, m->n);
	}
}

/* The fields of a CSV line s[0..len). */
static unsigned
csv_fields(const char *s, size_t len)
{
	unsigned n = 1;
	size_t i;

	for (i = 0; i < len; i++)
		n += s[i] == ',';
	return n;
}

/* CSV: one header, with a partner column first (the widest partner's: one
 * with -P has the streams' columns); each partner's rows (their header
 * dropped) with its number, padded to the header; then the sums. */
static void
print_csv(struct multi *m)
{
	const char *head = NULL;
	size_t hlen = 0;
	unsigned k, cols = 0;
	struct psum sm;

	for (k = 0; k < m->n; k++) {
		const char *s;
		size_t n;

		if (!whole(&m->ch[k]) || m->ch[k].out.len == 0)
			continue;
		s = growbuf_str(&m->ch[k].out);
		n = strcspn(s, "\n");
		if (head == NULL || csv_fields(s, n) > cols) {
			head = s;
			hlen = n;
			cols = csv_fields(s, n);
		}
	}
	if (head == NULL)
		return;
	printf("partner,%.*s\n", (int)hlen, head);
	for (k = 0; k < m->n; k++) {
		struct child *ch = &m->ch[k];
		const char *s, *nl;
		unsigned f;

		if (!whole(ch) || ch->out.len == 0)
			continue;
		s = growbuf_str(&ch->out);
		for (s += strcspn(s, "\n"); *s == '\n' && s[1] != '\0'; s = nl) {
			s++;
			nl = strchrnul(s, '\n');
			printf("%c,%.*s", ch->c.tag, (int)(nl - s), s);
			for (f = csv_fields(s, (size_t)(nl - s)); f < cols; f++)
				putchar(',');
			putchar('\n');
		}
	}
	sums(m, &sm);
	report_psum_csv(stdout, &sm, cols + 1);
}

/* Each of ch's JSON lines with its partner's number. */
static void
put_tagged_lines(FILE *f, struct child *ch)
{
	const char *s = growbuf_str(&ch->out), *nl;

	for (; *s != '\0'; s = nl + 1) {
		nl = strchrnul(s, '\n');
		put_tagged_json(f, ch->c.tag, s, (size_t)(nl - s));
		fputc('\n', f);
		if (*nl == '\0')
			break;
	}
}

/* --json: {"partners": [run, ...]}, a run document per partner in order.
 * --json-lines: each partner's summary line with its number. */
static void
print_json(struct multi *m)
{
	int lines = m->c->out == OUT_JSON_LINES;
	struct psum sm;
	unsigned k;

	if (!lines)
		fputs("{\"partners\": [\n", stdout);
	for (k = 0; k < m->n; k++) {
		struct child *ch = &m->ch[k];
		size_t len = ch->out.len;

		if (!lines && k > 0)
			fputs(",\n", stdout);
		while (len > 0 && ch->out.p[len - 1] == '\n')
			len--;
		if (!whole(ch) || len == 0)
			put_missing_json(stdout, ch, lines);
		else if (lines)
			put_tagged_lines(stdout, ch);
		else
			fwrite(ch->out.p, 1, len, stdout);
	}
	sums(m, &sm);
	if (lines) {
		report_psum_json(stdout, &sm, 1);
		fputc('\n', stdout);
		return;
	}
	fputs("\n],\n\"sum\": ", stdout);
	report_psum_json(stdout, &sm, 0);
	fputs("}\n", stdout);
}

/* Partner ch's results as text: each model record its process sent,
 * rendered as the table, --csv, --json or --json-lines prints one run,
 * after anything it printed itself. */
static void
render_models(struct multi *m, struct child *ch)
{
	const uint8_t *p = (const uint8_t *)ch->model.p;
	size_t left = ch->model.len, used;
	const struct table_opts o = { ch->c.loc.format, ch->c.rem.format,
	    ch->c.loc.verbose || ch->c.rem.verbose, ch->c.same_clock };
	char err[128];

	while (left > 0 && !ch->model.nomem) {
		struct run_model rm;
		char *text = NULL;
		size_t tlen = 0;
		FILE *f;

		if (model_rec_take(p, left, &used, &rm, err, sizeof err) == -1) {
			ch->badrec = 1;
			return;
		}
		if ((f = open_memstream(&text, &tlen)) == NULL) {
			ch->out.nomem = 1;
			model_free(&rm);
			return;
		}
		if (m->c->out == OUT_TABLE)
			report_table(f, &rm, &o);
		else if (m->c->out == OUT_CSV)
			report_csv(f, &rm);
		else if (m->c->out == OUT_JSON)
			report_json(f, &rm);
		else
			report_json_summary_line(f, &rm);
		if (fclose(f) != 0)
			ch->out.nomem = 1;
		else
			growbuf_add(&ch->out, text, tlen);
		free(text);
		if (!ch->have_rm && rm.error == NULL) {
			ch->rm = rm;            /* for the sums */
			ch->have_rm = 1;
		} else {
			model_free(&rm);
		}
		p += used;
		left -= used;
	}
}

/* ---- the whole run ------------------------------------------------- */

/* A line on stderr for a partner whose process could not say why it
 * ended; the exit status it counts as. */
static int
child_verdict(struct child *ch)
{
	char why[200];

	if (whole(ch))
		return WEXITSTATUS(ch->status);
	if (ch->pid == -1)
		return 1;               /* start_child said why */
	fprintf(stderr, "gput: partner %s port %u: %s\n", ch->c.host, ch->c.port,
	        no_results_why(ch, why, sizeof why));
	return ch->killed ? 130 : 1;
}

/* Partner k's test: the command line's, with the partner's own name, port,
 * options and line tag. The title, if any, is printed here once; several
 * progress lines on one terminal would overwrite each other. */
static void
child_config(struct multi *m, unsigned k)
{
	const struct partner *p = &m->c->partners[k];
	struct child *ch = &m->ch[k];
	int i;

	ch->c = *m->c;
	ch->c.host = p->host;
	ch->c.port = p->port;
	ch->c.rem = p->rem;
	ch->c.streams = p->streams;
	ch->c.role = cli_role(m->c, p);         /* --bidir: the second reversed */
	ch->c.tag = (char)('1' + k);
	ch->c.title = 0;
	ch->c.quiet = 1;
	ch->c.npartners = 1;
	ch->pid = -1;
	for (i = 0; i < CH_N; i++)
		ch->fd[i] = -1;
}

/* The stop signals and SIGCHLD are blocked but while the parent waits in
 * ppoll. They stay so to the end: a stop while the results print changes
 * nothing (it would otherwise kill gput with its exit status unsaid). */
static void
signals_setup(struct multi *m)
{
	struct sigaction stop = { .sa_handler = on_stop },
	    chld = { .sa_handler = on_chld, .sa_flags = SA_NOCLDSTOP };
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &m->oldmask);
	m->waitmask = m->oldmask;
	sigdelset(&m->waitmask, SIGINT);
	sigdelset(&m->waitmask, SIGTERM);
	sigdelset(&m->waitmask, SIGCHLD);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGTERM, &stop, NULL);
	sigaction(SIGCHLD, &chld, NULL);
	signal(SIGPIPE, SIG_IGN);       /* a closed stdout: cli_stdout_done says so */
}

int
run_multi(const struct config *c)
{
	static struct multi m;          /* 9 configs: not on the stack */
	int rc = 0, r, i;
	unsigned k;

	memset(&m, 0, sizeof m);
	m.c = c;
	m.n = c->npartners;
	m.ival_title_due = c->title && c->interval_ms && c->out == OUT_TABLE;
	multi_signals = 0;
	multi_child_exited = 0;
	signals_setup(&m);
	for (k = 0; k < m.n; k++)
		child_config(&m, k);
	for (k = 0; k < m.n; k++)
		(void)start_child(&m, k);   /* the others still run */
	pump(&m);
	for (k = 0; k < m.n; k++)
		if (whole(&m.ch[k]))
			render_models(&m, &m.ch[k]);
	if (c->out == OUT_TABLE)
		print_table(&m);
	else if (c->out == OUT_CSV)
		print_csv(&m);
	else
		print_json(&m);
	fflush(stdout);
	for (k = 0; k < m.n; k++) {
		r = child_verdict(&m.ch[k]);
		rc = r == 130 || rc == 130 ? 130 : r != 0 ? 1 : rc;
		if (m.ch[k].have_rm)
			model_free(&m.ch[k].rm);
		growbuf_free(&m.ch[k].out);
		growbuf_free(&m.ch[k].model);
		for (i = 0; i < CH_N; i++)
			growbuf_free(&m.ch[k].line[i]);
	}
	return m.stopping ? 130 : rc;
}
