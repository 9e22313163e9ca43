/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_AFFINITY_H
#define GPUT_AFFINITY_H

#include <stddef.h>
#include <stdint.h>

/*
 * --affinity: the CPUs a side's data threads run on, as a set of CPUs 0 to
 * 63 (bit k: CPU k; 0: wherever the scheduler puts them). With several
 * streams, stream k (from 0) takes the set's CPUs in turn, lowest first.
 * The set travels to the partner in PARAMS bytes 168..175 (gput(1)).
 */
#define AFFINITY_MAX_CPU 63

/* Parse a list of CPUs and ranges ("0", "0,2", "1-3,6") into *set.
 * Returns 0, or -1 with why filled. */
int  affinity_parse(const char *s, uint64_t *set, char *why, size_t whylen);
/* The CPU stream k takes from set, or -1 when set is empty. */
int  affinity_cpu(uint64_t set, uint32_t k);
/* The CPUs 0 to 63 this process may run on (sched_getaffinity). */
uint64_t affinity_allowed(void);
/* The lowest CPU of set that is not in allowed, or -1 when all are. */
int  affinity_missing(uint64_t set, uint64_t allowed);
/* The lowest CPU of set this process may not run on, or -1 when it may run
 * on all; when one is missing, the CPUs it may run on into have (as
 * affinity_text). */
int  affinity_unavailable(uint64_t set, char *have, size_t len);
/* set as a list with ranges ("0-1,3") into buf; "none" when empty. */
void affinity_text(uint64_t set, char *buf, size_t len);
/* Run the calling thread on cpu alone. Returns 0, or -1 with err filled. */
int  affinity_pin(int cpu, char *err, size_t errlen);

#endif
