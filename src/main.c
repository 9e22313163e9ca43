/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c: parse, validate, dispatch. */
#include <stdio.h>
#include <stdlib.h>

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

int
main(int argc, char **argv)
{
	struct config c;
	char err[300];
	int rc = 0;

	if (cli_parse(argc, argv, getenv("GPUT_LOC_OPT"), getenv("GPUT_REM_OPT"),
	    &c, err, sizeof err) == -1) {
		fprintf(stderr, "gput: %s\n", err);
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
	return rc;
}
