/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_OUT_H
#define GPUT_REPORT_OUT_H

/* What the client prints on standard output: the table, or --json,
 * --json-lines, --csv, --prometheus. The parser chooses it (config.h); the
 * drivers and renderers that print a run's results switch on it. */
enum gput_out { OUT_TABLE, OUT_JSON, OUT_JSON_LINES, OUT_CSV, OUT_PROM };

#endif
