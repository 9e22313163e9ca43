/* SPDX-License-Identifier: BSD-2-Clause */
/* nogso.c: an LD_PRELOAD shim for the live tests: a kernel without UDP GSO
 * and GRO. setsockopt(UDP_SEGMENT) and setsockopt(UDP_GRO) fail with
 * ENOPROTOOPT, as on Linux before 4.18 and 5.0; everything else is passed
 * on. Not installed. */
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

int setsockopt(int fd, int level, int name, const void *val, socklen_t len);

int
setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	int (*real)(int, int, int, const void *, socklen_t);

	if (level == IPPROTO_UDP && (name == UDP_SEGMENT || name == UDP_GRO)) {
		errno = ENOPROTOOPT;
		return -1;
	}
	*(void **)&real = dlsym(RTLD_NEXT, "setsockopt");
	return real(fd, level, name, val, len);
}
