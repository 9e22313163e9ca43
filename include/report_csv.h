#ifndef GPUT_REPORT_CSV_H
#define GPUT_REPORT_CSV_H

#include <stdio.h>

#include "model.h"

/*
 * The run as CSV: the header line
 *   side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit,real_calls_s,cpu_calls_s
 * then one row per side that has a result. Numbers are in the C locale
 * (doubles as json_fmt_double writes them); a rate over zero time is an
 * empty field. No field ever needs quoting.
 */
void report_csv(FILE *f, const struct run_model *m);

#endif
