/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c: parse, validate, dispatch. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_help.h"
#include "client.h"
#include "wire_ctl.h"
#include "partner_daemon.h"
#include "linkpred.h"
#include "report_link.h"
#include "client_mcast.h"
#include "client_multi.h"
#include "client_repeat.h"
#include "json.h"
#include "stop.h"

/* gput --predict: the breakdown for one message, no transfer. Exit status. */
static int
run_predict(const struct config *c)
{
	struct link_predict pr;
	char err[256];

	if (linkpred_predict(c, &pr, err, sizeof err) == -1) {
		fprintf(stderr, "gput: --predict: %s\n", err);
		return 1;
	}
	report_link_predict(stdout, &pr);
	return 0;
}

/* A usage error: each of its lines on standard error; and when the line
 * asked for JSON (--json, --json-lines), one JSON object on standard
 * output too, so that its reader has a document whatever happened. */
static void
usage_error(int argc, char **argv, const char *err)
{
	const char *p, *nl;
	struct json j;
	int i;

	for (p = err; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
		fprintf(stderr, "gput: %.*s\n", (int)(nl - p), p);
	fprintf(stderr, "gput: %s\n", p);
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--json") != 0 &&
		    strcmp(argv[i], "--json-lines") != 0)
			continue;
		json_init(&j, stdout, 0);
		json_begin_object(&j);
		json_kv_string(&j, "type", "error");
		json_kv_string(&j, "version", "gput " GPUT_VERSION);
		json_kv_string(&j, "error", err);
		json_kv_u64(&j, "exit_status", 2);
		json_end_object(&j);
		fputc('\n', stdout);
		return;
	}
}

int
main(int argc, char **argv)
{
	struct config c;
	char err[1024];
	int rc = 0;

	if (cli_parse(argc, argv, getenv("GPUT_LOC_OPT"), getenv("GPUT_REM_OPT"),
	    &c, err, sizeof err) == -1) {
		usage_error(argc, argv, err);
		cli_free(&c);
		return 2;
	}
	switch (c.mode) {
	case MODE_HELP:
		cli_help(stdout);
		break;
	case MODE_VERSION:
		printf("gput %s (control protocol %d)\n", GPUT_VERSION, CTL_VERSION);
		break;
	case MODE_DAEMON:
		rc = run_daemon(&c);
		break;
	case MODE_PREDICT:
		rc = run_predict(&c);
		break;
	case MODE_CLIENT:
		/* one partner runs here, as ever; several, one process each;
		 * a group, one sender for all the partners */
		rc = c.mcast.family != 0 ? run_mcast(&c) : c.npartners > 1 ?
		    run_multi(&c) : c.rep.max > 0 ? run_repeat(&c) : run_client(&c);
		break;
	}
	cli_free(&c);
	if (cli_stdout_done("gput") == -1 && rc == 0)
		rc = 1;
	/* interrupted: 128 + the signal, as a shell reports a process it
	 * killed (130 for SIGINT, 143 for SIGTERM) */
	if (rc == 130 && stop_signal() == SIGTERM)
		rc = 143;
	return rc;
}
