/* SPDX-License-Identifier: BSD-2-Clause */
/* auth.c: the shared secret and HMAC-SHA256 over libcrypto (OpenSSL 3). */
#include "auth.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

/* Read all of fd into buf, at most cap bytes. Returns the count, or -1. */
static ssize_t
read_all(int fd, uint8_t *buf, size_t cap)
{
	size_t got = 0;

	while (got < cap) {
		ssize_t r = read(fd, buf + got, cap - got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Why a key file of mode m may not be used, or NULL if it may. */
static const char *
mode_problem(mode_t m)
{
	if (!S_ISREG(m))
		return "not a regular file";
	if (m & (S_IRGRP | S_IROTH))
		return "readable by others (chmod 600 it)";
	if (m & (S_IWGRP | S_IWOTH))
		return "writable by others (chmod 600 it)";
	if (m & (S_IXGRP | S_IXOTH))
		return "executable by others (chmod 600 it)";
	return NULL;
}

/* The file is opened first and then checked with fstat, so the checks apply
 * to the file actually read; O_NONBLOCK keeps a FIFO from hanging the open. */
int
auth_key_load(const char *path, struct auth_key *k, char *err, size_t errlen)
{
	/* Room for the longest secret, "\r\n", and one byte to see it is longer. */
	uint8_t buf[AUTH_KEY_MAX + 3];
	const char *why;
	struct stat st;
	ssize_t n;
	int fd;

	auth_key_wipe(k);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd == -1) {
		snprintf(err, errlen, "--key-file %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1) {
		snprintf(err, errlen, "--key-file %s: fstat: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	/* as ssh: a secret someone else owns could be theirs to change or
	 * read; root reading a key that nobody owns is the case to refuse */
	if (st.st_uid != geteuid()) {
		snprintf(err, errlen, "--key-file %s: owned by uid %lu, not by the "
		         "user running gput (uid %lu): chown it", path,
		         (unsigned long)st.st_uid, (unsigned long)geteuid());
		close(fd);
		return -1;
	}
	if ((why = mode_problem(st.st_mode)) != NULL) {
		snprintf(err, errlen, "--key-file %s: %s", path, why);
		close(fd);
		return -1;
	}
	n = read_all(fd, buf, sizeof buf);
	if (n == -1)
		snprintf(err, errlen, "--key-file %s: read: %s", path, strerror(errno));
	close(fd);
	if (n == -1)
		goto fail;

	if (n >= 2 && buf[n - 2] == '\r' && buf[n - 1] == '\n')
		n -= 2;
	else if (n >= 1 && buf[n - 1] == '\n')
		n -= 1;
	if (n == 0) {
		snprintf(err, errlen, "--key-file %s: empty", path);
		goto fail;
	}
	if (n < AUTH_KEY_MIN) {
		snprintf(err, errlen, "--key-file %s: secret too short (%zd bytes, "
		         "at least %d)", path, n, AUTH_KEY_MIN);
		goto fail;
	}
	if (n > AUTH_KEY_MAX) {
		snprintf(err, errlen, "--key-file %s: secret too long (more than %d "
		         "bytes)", path, AUTH_KEY_MAX);
		goto fail;
	}
	memcpy(k->key, buf, (size_t)n);
	k->len = (size_t)n;
	OPENSSL_cleanse(buf, sizeof buf);
	return 0;
fail:
	OPENSSL_cleanse(buf, sizeof buf);
	return -1;
}

/* getrandom(2) without flags waits until the kernel's pool is seeded, then
 * never runs short of entropy; a large request may be cut short, hence the
 * loop. */
int
auth_random(uint8_t *buf, size_t n, char *err, size_t errlen)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = getrandom(buf + got, n - got, 0);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			snprintf(err, errlen, "getrandom: %s", strerror(errno));
			return -1;
		}
		got += (size_t)r;
	}
	return 0;
}

int
auth_mac(const struct auth_key *k, const char *label, const uint8_t *data,
         size_t n, uint8_t mac[AUTH_MAC_LEN])
{
	char digest[] = "SHA256";
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
		OSSL_PARAM_construct_end(),
	};
	EVP_MAC *alg = NULL;
	EVP_MAC_CTX *ctx = NULL;
	size_t outl = 0;
	int ok;

	if (k->len == 0 || k->len > AUTH_KEY_MAX)
		return -1;
	ok = (alg = EVP_MAC_fetch(NULL, "HMAC", NULL)) != NULL &&
	     (ctx = EVP_MAC_CTX_new(alg)) != NULL &&
	     EVP_MAC_init(ctx, k->key, k->len, params) == 1 &&
	     EVP_MAC_update(ctx, (const unsigned char *)label, strlen(label)) == 1 &&
	     (n == 0 || EVP_MAC_update(ctx, data, n) == 1) &&
	     EVP_MAC_final(ctx, mac, &outl, AUTH_MAC_LEN) == 1 &&
	     outl == AUTH_MAC_LEN;
	EVP_MAC_CTX_free(ctx);         /* cleanses the keyed state */
	EVP_MAC_free(alg);
	return ok ? 0 : -1;
}

/* CRYPTO_memcmp takes the same time whichever byte differs, so a peer that
 * times our answers learns nothing about how much of its guess was right. */
int
auth_verify(const struct auth_key *k, const char *label, const uint8_t *data,
            size_t n, const uint8_t mac[AUTH_MAC_LEN])
{
	uint8_t want[AUTH_MAC_LEN];
	int same;

	if (auth_mac(k, label, data, n, want) == -1) {
		OPENSSL_cleanse(want, sizeof want);
		return 0;
	}
	same = CRYPTO_memcmp(want, mac, AUTH_MAC_LEN) == 0;
	OPENSSL_cleanse(want, sizeof want);
	return same;
}

void
auth_key_wipe(struct auth_key *k)
{
	OPENSSL_cleanse(k, sizeof *k);
}
