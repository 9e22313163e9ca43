/* SPDX-License-Identifier: BSD-2-Clause */
/* nomeminfo.c: an LD_PRELOAD shim for the live tests: a kernel without
 * SO_MEMINFO (Linux before 4.12), so a UDP receiver has no count of its
 * socket's own drops. getsockopt(SOL_SOCKET, SO_MEMINFO) fails with
 * ENOPROTOOPT; everything else is passed on. Not installed. */
#include <dlfcn.h>
#include <errno.h>
#include <sys/socket.h>

#ifndef SO_MEMINFO
#define SO_MEMINFO 55
#endif

int getsockopt(int fd, int level, int name, void *val, socklen_t *len);

int
getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	int (*real)(int, int, int, void *, socklen_t *);

	if (level == SOL_SOCKET && name == SO_MEMINFO) {
		errno = ENOPROTOOPT;
		return -1;
	}
	*(void **)&real = dlsym(RTLD_NEXT, "getsockopt");
	return real(fd, level, name, val, len);
}
