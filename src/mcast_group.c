/* SPDX-License-Identifier: BSD-2-Clause */
/* mcast_group.c: which multicast groups a test may use (pure). */
#include "mcast_group.h"

#include <stddef.h>

const char *
mcast_group_invalid(uint8_t family, const uint8_t addr[16])
{
	size_t i;

	if (family == MCAST_V4) {
		for (i = 4; i < 16; i++)
			if (addr[i] != 0)
				return "an IPv4 group with bytes after its address";
		if (addr[0] < 224 || addr[0] > 239)
			return "not an IPv4 multicast address (224.0.0.0/4)";
		if (addr[0] == 224 && addr[1] == 0 && addr[2] == 0)
			return "224.0.0.0/24 is the Local Network Control Block "
			       "(RFC 5771), not for tests";
		return NULL;
	}
	if (family == MCAST_V6) {
		if (addr[0] != 0xff)
			return "not an IPv6 multicast address (ff00::/8)";
		if ((addr[1] & 0x0f) == 0 || (addr[1] & 0x0f) == 0x0f)
			return "an IPv6 group of a reserved scope (0 or f, RFC 4291)";
		if ((addr[1] & 0x0f) <= 2)
			return "an IPv6 group of scope 1 or 2 (ff01::/16, ff02::/16, "
			       "ff12::/16...) is the link's own, not for tests";
		return NULL;
	}
	return "unknown group family";
}
