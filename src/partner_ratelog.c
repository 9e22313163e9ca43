/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_ratelog.c: a token bucket per refusal reason for the partner's log. */
#include "partner_ratelog.h"

#include <string.h>

enum ratelog_reason
ratelog_reason(const char *why)
{
	if (strstr(why, "--allow") != NULL)
		return RATELOG_ALLOW;
	if (strstr(why, "--max-per-source") != NULL)
		return RATELOG_PER_SOURCE;
	if (strstr(why, "--max-sessions") != NULL)
		return RATELOG_SESSIONS;
	if (strstr(why, "--max-handshakes") != NULL)
		return RATELOG_HANDSHAKES;
	return RATELOG_OTHER;
}

int
ratelog_allow(struct ratelog *rl, enum ratelog_reason r, uint64_t now_ns,
              uint64_t *suppressed)
{
	struct ratelog_bucket *b = &rl->b[r < RATELOG_NREASONS ? r : RATELOG_OTHER];

	if (!b->primed) {
		b->primed = 1;
		b->tokens = RATELOG_BURST;
		b->last_ns = now_ns;
	} else if (now_ns > b->last_ns) {
		uint64_t add = (now_ns - b->last_ns) / RATELOG_EVERY_NS;

		if (add >= RATELOG_BURST - b->tokens) {
			b->tokens = RATELOG_BURST;
			b->last_ns = now_ns;
		} else {
			b->tokens += (unsigned)add;
			b->last_ns += add * RATELOG_EVERY_NS;
		}
	}
	if (b->tokens == 0) {
		b->suppressed++;
		return 0;
	}
	b->tokens--;
	*suppressed = b->suppressed;
	b->suppressed = 0;
	return 1;
}
