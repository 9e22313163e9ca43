/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_HINTS_H
#define GPUT_CLI_HINTS_H

#include <getopt.h>
#include <stddef.h>

/*
 * Look at a command line (argv[0] the program) for iperf's habits that
 * gput reads otherwise or not at all: "-t 10", "-i 1", -b, -R, -J, "-n 10M",
 * "-s" without a partner, iperf's long options. shortopts and longopts are
 * gput's, as getopt_long takes them. Returns 1 with a line in err for each
 * habit (separated by newlines), saying what to type instead (a usage
 * error), or 0.
 */
int cli_hint(int argc, char **argv, const char *shortopts,
             const struct option *longopts, char *err, size_t errlen);

#endif
