/* SPDX-License-Identifier: BSD-2-Clause */
/* pcap_main.c: gput-pcap, overhead and goodput of the flows in a capture.
 * main() parses the options and dispatches; see gput-pcap(1). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pcap_report.h"
#include "pcap_scan.h"
#include "units.h"

#define EXIT_BAD   1  /* cannot read the capture (or not all of it) */
#define EXIT_USAGE 2

enum format { FMT_TABLE, FMT_CSV, FMT_JSON };

struct pcap_opts {
	enum format fmt;
	double      link_bps;  /* 0: no --link */
	unsigned    mtu;
	uint64_t    max_memory;  /* --max-memory, bytes */
	const char *file;
	char       *filter;    /* the remaining arguments joined, or NULL */
};

static const char usage_text[] =
	"usage: gput-pcap [-hV] [--csv | --json] [--link rate] [--max-memory size]\n"
	"                 [--mtu bytes] file [expression]\n";

/* One line naming the option (if any) and the reason, then the usage. */
static void
usage_error(const char *opt, const char *why)
{
	if (opt != NULL)
		fprintf(stderr, "gput-pcap: %s: %s\n%s", opt, why, usage_text);
	else
		fprintf(stderr, "gput-pcap: %s\n%s", why, usage_text);
	exit(EXIT_USAGE);
}

/* The BPF expression is the rest of the command line, as with tcpdump. */
static char *
join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;
	int i;

	if (argc == 0)
		return NULL;
	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if ((s = calloc(1, len)) == NULL) {
		fprintf(stderr, "gput-pcap: out of memory\n");
		exit(EXIT_BAD);
	}
	for (i = 0; i < argc; i++) {
		if (i > 0)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static void
parse_args(int argc, char **argv, struct pcap_opts *o)
{
	static const struct option longopts[] = {
		{ "csv",     no_argument,       NULL, 'c' },
		{ "json",    no_argument,       NULL, 'j' },
		{ "link",    required_argument, NULL, 'L' },
		{ "mtu",     required_argument, NULL, 'm' },
		{ "max-memory", required_argument, NULL, 'M' },
		{ "help",    no_argument,       NULL, 'h' },
		{ "version", no_argument,       NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char err[256];
	uint64_t mtu;
	int ch;

	memset(o, 0, sizeof(*o));
	o->mtu = 1500;
	o->max_memory = PFLOW_MAX_MEMORY_DEFAULT;
	while ((ch = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
		case 'j':
			if (o->fmt != FMT_TABLE)
				usage_error(NULL, "--csv and --json exclude "
				            "each other");
			o->fmt = ch == 'c' ? FMT_CSV : FMT_JSON;
			break;
		case 'L':
			if (units_parse_rate(optarg, UNITS_RATE_MIN,
			    UNITS_RATE_MAX, &o->link_bps, err, sizeof(err)) == -1)
				usage_error("--link", err);
			break;
		case 'm':
			if (units_parse_int(optarg, 68, 1000000, &mtu, err,
			                    sizeof(err)) == -1)
				usage_error("--mtu", err);
			o->mtu = (unsigned)mtu;
			break;
		case 'M':
			if (units_parse_size(optarg, (uint64_t)1 << 20,
			    (uint64_t)1 << 40, &o->max_memory, err,
			    sizeof(err)) == -1)
				usage_error("--max-memory", err);
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(cli_stdout_done("gput-pcap") == 0 ? 0 : EXIT_BAD);
		case 'V':
			printf("gput-pcap %s\n", GPUT_VERSION);
			exit(cli_stdout_done("gput-pcap") == 0 ? 0 : EXIT_BAD);
		default:
			fputs(usage_text, stderr);
			exit(EXIT_USAGE);
		}
	}
	if (optind >= argc)
		usage_error(NULL, "no capture file given");
	o->file = argv[optind];
	o->filter = join_args(argc - optind - 1, argv + optind + 1);
}

int
main(int argc, char **argv)
{
	struct pcap_opts o;
	struct pscan s;
	char err[512];
	int rc;

	parse_args(argc, argv, &o);
	rc = pscan_file_mem(&s, o.file, o.filter, o.mtu, o.max_memory, err,
	                    sizeof(err));
	free(o.filter);
	if (rc != 0) {
		fprintf(stderr, "gput-pcap: %s\n", err);
		pscan_free(&s);
		return rc == PSCAN_EUSAGE ? EXIT_USAGE : EXIT_BAD;
	}
	if (o.fmt == FMT_JSON) {
		preport_json(stdout, &s, o.file, o.link_bps);
	} else {
		preport_warnings(stderr, &s);
		if (o.fmt == FMT_CSV)
			preport_csv(stdout, &s, o.link_bps);
		else
			preport_table(stdout, &s, o.file, o.link_bps);
	}
	pscan_free(&s);
	return cli_stdout_done("gput-pcap") == 0 ? 0 : EXIT_BAD;
}
