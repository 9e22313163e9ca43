/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gput-textfile: put a file into a directory that other programs read
 * (the node exporter's textfile directory), for tools/gput-probe, which
 * runs as root.
 *
 *   gput-textfile DIR NAME      write standard input as DIR/NAME, atomically
 *   gput-textfile -d DIR NAME   remove DIR/NAME (no error if it is absent)
 *
 * Everything happens through a descriptor of DIR, never by path after it
 * was opened: the directory is opened once and checked (owned by root or by
 * this user, and not writable by group or others unless it has the sticky
 * bit, where nobody can rename or remove another user's files); the
 * content goes to a new name, .NAME.XXXXXX, opened with O_CREAT|O_EXCL|
 * O_NOFOLLOW (a name planted before, a symlink above all, is never
 * followed or reused: another name is drawn), mode 0644 by fchmod, written,
 * synced, then renamed over NAME within the directory (rename replaces a
 * planted symlink itself, never its target). NAME is one plain file name.
 * Standard input is bounded (4 MiB). Exit status: 0 done, 1 refused or
 * failed (one line on standard error says why), 2 bad arguments.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define TF_MAX_BYTES (4u << 20)
#define TF_TRIES 64

static int tf_fail(const char *what, const char *name, int err)
{
	if (err != 0)
		fprintf(stderr, "gput-textfile: %s%s%s: %s\n", what,
			name ? " " : "", name ? name : "", strerror(err));
	else
		fprintf(stderr, "gput-textfile: %s%s%s\n", what,
			name ? " " : "", name ? name : "");
	return 1;
}

static int tf_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n < 200 && name[0] != '.' && strchr(name, '/') == NULL;
}

/* DIR opened and checked: a descriptor, or -1 (said why). */
static int tf_open_dir(const char *dir)
{
	struct stat st;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0) {
		tf_fail("cannot open directory", dir, errno);
		return -1;
	}
	if (fstat(dfd, &st) != 0) {
		tf_fail("cannot stat directory", dir, errno);
		close(dfd);
		return -1;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		fprintf(stderr, "gput-textfile: %s: refused: owned by uid %u, "
			"neither root nor this user\n", dir, (unsigned)st.st_uid);
		close(dfd);
		return -1;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    (st.st_mode & S_ISVTX) == 0) {
		fprintf(stderr, "gput-textfile: %s: refused: writable by group "
			"or others without the sticky bit (mode %04o)\n", dir,
			(unsigned)(st.st_mode & 07777));
		close(dfd);
		return -1;
	}
	return dfd;
}

/* A new file .NAME.XXXXXX in dfd: its descriptor (tmp holds the name). */
static int tf_create(int dfd, const char *name, char *tmp, size_t cap)
{
	static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789";

	for (int i = 0; i < TF_TRIES; i++) {
		unsigned char r[8];
		char sfx[9];

		if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
			return -1;
		for (size_t k = 0; k < 8; k++)
			sfx[k] = al[r[k] % (sizeof al - 1)];
		sfx[8] = '\0';
		snprintf(tmp, cap, ".%s.%s", name, sfx);
		int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL |
				O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

static int tf_copy(int fd)
{
	static char buf[65536];
	size_t total = 0;

	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tf_fail("cannot read standard input", NULL, errno);
		if (n == 0)
			return 0;
		total += (size_t)n;
		if (total > TF_MAX_BYTES)
			return tf_fail("standard input exceeds 4 MiB", NULL, 0);
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(fd, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return tf_fail("cannot write", NULL, errno);
			off += w;
		}
	}
}

static int tf_write(int dfd, const char *dir, const char *name)
{
	char tmp[256];
	int fd = tf_create(dfd, name, tmp, sizeof tmp);

	if (fd < 0)
		return tf_fail("cannot create a file in", dir, errno);
	int rc = tf_copy(fd);
	if (rc == 0 && fchmod(fd, 0644) != 0)
		rc = tf_fail("cannot chmod", tmp, errno);
	if (rc == 0 && fsync(fd) != 0)
		rc = tf_fail("cannot sync", tmp, errno);
	if (close(fd) != 0 && rc == 0)
		rc = tf_fail("cannot close", tmp, errno);
	if (rc == 0 && renameat(dfd, tmp, dfd, name) != 0)
		rc = tf_fail("cannot rename over", name, errno);
	if (rc != 0)
		unlinkat(dfd, tmp, 0);
	return rc;
}

int main(int argc, char **argv)
{
	int del = argc == 4 && strcmp(argv[1], "-d") == 0;

	if (argc != 3 + del || !tf_name_ok(argv[2 + del])) {
		fprintf(stderr, "usage: gput-textfile [-d] DIR NAME (NAME a plain "
			"file name, not starting with '.')\n");
		return 2;
	}
	const char *dir = argv[1 + del], *name = argv[2 + del];
	int dfd = tf_open_dir(dir);
	if (dfd < 0)
		return 1;
	int rc;
	if (del)
		rc = unlinkat(dfd, name, 0) != 0 && errno != ENOENT ?
		     tf_fail("cannot remove", name, errno) : 0;
	else
		rc = tf_write(dfd, dir, name);
	close(dfd);
	return rc;
}
