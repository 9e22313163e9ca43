/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_RUNSET_H
#define GPUT_CLIENT_RUNSET_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "stats.h"

/*
 * A run set: the runs of one --repeat, each a whole result model, and the
 * statistics of their figures per side. Everything is computed from the
 * models (never from text); the renderers (report_repeat.c) only read it.
 */

/* The figures of a side, each defined once in runset_value(). */
enum runset_fig {
	RS_REAL_MBIT,   /* Bytes * 8 / Real s / 10^6 */
	RS_CPU_MBIT,    /* Bytes * 8 / CPU s / 10^6 */
	RS_REAL_S,      /* Real s */
	RS_CPU_S,       /* CPU s */
	RS_CALLS_S,     /* Calls / Real s */
	RS_LOSS_PCT,    /* UDP receiver: (sent - unique) / sent * 100 */
	RS_JITTER_MS,   /* UDP receiver with paced, timed datagrams */
	RS_JAIN,        /* receiver with -P: Jain's index of its streams */
	RS_LINK_RATIO,  /* --link: Real-MBit/s over eta * C */
	RS_LAT_IDLE,    /* --latency, the local side: the idle p50 rtt, ms */
	RS_LAT_LOADED,  /* ... the loaded p50 rtt, ms */
	RS_LAT_RPM,     /* ... responsiveness, RPM */
	RS_NFIG
};

/* A figure's name in JSON and CSV ("real_mbit", ...), and in the table
 * ("Real-MBit/s", ...). */
const char *runset_fig_key(int fig);
const char *runset_fig_label(int fig);

/* One figure over the runs: have = 0 when no run has it. */
struct runset_stat {
	int have;
	struct stats_sum s;
};

/* A stream's figures (-P), each defined once in runset_stream_value(). */
enum runset_sfig {
	RS_ST_REAL_MBIT,  /* its Bytes * 8 / its Real s / 10^6 */
	RS_ST_FCT,        /* its flow completion time: s after START */
	RS_ST_NFIG
};

struct runset_side {
	char     tag;
	uint8_t  role;
	struct runset_stat fig[RS_NFIG];
	uint32_t nst;                /* with -P: streams, and their figures */
	struct runset_stat (*st)[RS_ST_NFIG];  /* st[k]: stream k + 1's */
};

struct runset {
	struct run_model *run;       /* the runs, n of them (cap allocated) */
	size_t   n, cap;
	size_t   ncomplete;          /* the first ncomplete ended normally; a
	                                last one may be interrupted */
	double   level;              /* the CIs' level, percent */
	double   target_pct;         /* the width to reach, 0: none */
	/* runset_compute(): */
	struct runset_side side[2];
	int      have_width;         /* the receiver's Real-MBit/s has a CI */
	double   width_pct;          /* its whole width, % of its mean */
	int      met;                /* width_pct <= target_pct (with a target) */
};

/* Start an empty set at level (percent) with target width (0: none). */
void runset_init(struct runset *rs, double level, double target_pct);
/* Take m's contents into the set (m is left zeroed; the set frees them).
 * complete: the run ended normally. Returns 0, or -1 (no memory; m is
 * untouched and still the caller's). */
int  runset_add(struct runset *rs, struct run_model *m, int complete);
void runset_free(struct runset *rs);

/* Figure fig of side i of run m into *v: 1, or 0 when the run has no such
 * figure (no result, a rate over zero time, not a UDP receiver, ...). */
int  runset_value(const struct run_model *m, int i, int fig, double *v);
/* Figure sfig of stream k (0-based) of side i: 1, or 0 (no such stream, no
 * result, a rate over zero time, or one stream only). */
int  runset_stream_value(const struct run_model *m, int i, uint32_t k,
                         int sfig, double *v);

/* The statistics of the complete runs into rs->side, and the width and
 * verdict. Returns 0, or -1 (no memory). */
int  runset_compute(struct runset *rs);

#endif
