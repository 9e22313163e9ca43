/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_auth.c: HMAC-SHA256 against RFC 4231, what the label does, verify's
 * refusals, and auth_key_load on a table of key files with exact messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auth.h"

static struct auth_key
mkkey(const void *bytes, size_t len)
{
	struct auth_key k;

	memset(&k, 0, sizeof k);
	memcpy(k.key, bytes, len);
	k.len = len;
	return k;
}

static void
unhex(const char *hex, uint8_t *out, size_t n)
{
	size_t i;

	assert_int_equal(strlen(hex), 2 * n);
	for (i = 0; i < n; i++) {
		unsigned v;
		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

/* RFC 4231, section 4: test cases 1-4, 6 and 7 (5 truncates the output). */
static void
test_rfc4231(void **state)
{
	static const struct {
		int key_byte, key_len;          /* key_byte -1: 0x01, 0x02, ... */
		const char *data;               /* NULL: data_byte x data_len */
		int data_byte, data_len;
		const char *mac;
	} rows[] = {
		{ 0x0b, 20, "Hi There", 0, 0,
		  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
		{ 0, 0, "what do ya want for nothing?", 0, 0,      /* key "Jefe" */
		  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
		{ 0xaa, 20, NULL, 0xdd, 50,
		  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
		{ -1, 25, NULL, 0xcd, 50,
		  "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
		{ 0xaa, 131, "Test Using Larger Than Block-Size Key - Hash Key First",
		  0, 0,
		  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
		{ 0xaa, 131, "This is a test using a larger than block-size key and "
		  "a larger than block-size data. The key needs to be hashed before "
		  "being used by the HMAC algorithm.", 0, 0,
		  "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		uint8_t keyb[131], data[64], want[AUTH_MAC_LEN], got[AUTH_MAC_LEN];
		const uint8_t *d = data;
		size_t dlen;
		struct auth_key k;
		int j;

		if (rows[i].key_len == 0)
			k = mkkey("Jefe", 4);
		else {
			for (j = 0; j < rows[i].key_len; j++)
				keyb[j] = (uint8_t)(rows[i].key_byte == -1 ? j + 1 :
				                    rows[i].key_byte);
			k = mkkey(keyb, (size_t)rows[i].key_len);
		}
		if (rows[i].data != NULL) {
			d = (const uint8_t *)rows[i].data;
			dlen = strlen(rows[i].data);
		} else {
			memset(data, rows[i].data_byte, (size_t)rows[i].data_len);
			dlen = (size_t)rows[i].data_len;
		}
		unhex(rows[i].mac, want, sizeof want);
		memset(got, 0, sizeof got);
		if (auth_mac(&k, "", d, dlen, got) != 0)
			fail_msg("RFC 4231 row %zu: auth_mac failed", i);
		if (memcmp(got, want, sizeof want) != 0)
			fail_msg("RFC 4231 row %zu: wrong MAC", i);
		assert_int_equal(auth_verify(&k, "", d, dlen, want), 1);
	}
}

/* The label is MACed as a prefix of the data: the same as MACing label||data
 * with an empty label; and different labels give different MACs. */
static void
test_label(void **state)
{
	struct auth_key k = mkkey("0123456789abcdef", 16);
	const uint8_t chal[] = { 0x00, 0xff, 0x10, 0x20, 'x' };
	uint8_t cat[64], a[AUTH_MAC_LEN], b[AUTH_MAC_LEN], c[AUTH_MAC_LEN];
	size_t ll = strlen("gput-client");

	(void)state;
	memcpy(cat, "gput-client", ll);
	memcpy(cat + ll, chal, sizeof chal);
	assert_int_equal(auth_mac(&k, "gput-client", chal, sizeof chal, a), 0);
	assert_int_equal(auth_mac(&k, "", cat, ll + sizeof chal, b), 0);
	assert_memory_equal(a, b, AUTH_MAC_LEN);

	assert_int_equal(auth_mac(&k, "gput-partner", chal, sizeof chal, c), 0);
	assert_memory_not_equal(a, c, AUTH_MAC_LEN);
	assert_int_equal(auth_verify(&k, "gput-partner", chal, sizeof chal, a), 0);

	/* No data at all: the MAC of the label alone. */
	assert_int_equal(auth_mac(&k, "gput-client", NULL, 0, a), 0);
	assert_int_equal(auth_mac(&k, "", cat, ll, b), 0);
	assert_memory_equal(a, b, AUTH_MAC_LEN);
}

static void
test_verify(void **state)
{
	struct auth_key k = mkkey("0123456789abcdef", 16);
	struct auth_key other = mkkey("0123456789abcdeg", 16);
	struct auth_key longer = mkkey("0123456789abcdef!", 17);
	struct auth_key none = mkkey("", 0);
	uint8_t chal[AUTH_CHALLENGE_LEN], mac[AUTH_MAC_LEN], bad[AUTH_MAC_LEN];
	unsigned bit;

	(void)state;
	memset(chal, 0x5a, sizeof chal);
	assert_int_equal(auth_mac(&k, "gput-client", chal, sizeof chal, mac), 0);
	assert_int_equal(auth_verify(&k, "gput-client", chal, sizeof chal, mac), 1);

	for (bit = 0; bit < 8 * AUTH_MAC_LEN; bit++) {
		memcpy(bad, mac, sizeof bad);
		bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		if (auth_verify(&k, "gput-client", chal, sizeof chal, bad) != 0)
			fail_msg("MAC with bit %u flipped accepted", bit);
	}
	assert_int_equal(auth_verify(&other, "gput-client", chal, sizeof chal,
	                             mac), 0);
	assert_int_equal(auth_verify(&longer, "gput-client", chal, sizeof chal,
	                             mac), 0);
	chal[31] ^= 1;
	assert_int_equal(auth_verify(&k, "gput-client", chal, sizeof chal, mac), 0);

	/* A key of no bytes is refused, not MACed with. */
	assert_int_equal(auth_mac(&none, "gput-client", chal, sizeof chal, bad), -1);
	assert_int_equal(auth_verify(&none, "gput-client", chal, sizeof chal, mac), 0);
}

static void
test_random(void **state)
{
	static uint8_t big[100000];
	uint8_t a[AUTH_CHALLENGE_LEN], b[AUTH_CHALLENGE_LEN], zero[AUTH_CHALLENGE_LEN];
	char err[256] = "";
	size_t i, zeros = 0;

	(void)state;
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	memset(zero, 0, sizeof zero);
	assert_int_equal(auth_random(a, sizeof a, err, sizeof err), 0);
	assert_int_equal(auth_random(b, sizeof b, err, sizeof err), 0);
	assert_memory_not_equal(a, zero, sizeof a);
	assert_memory_not_equal(a, b, sizeof a);
	assert_int_equal(auth_random(NULL, 0, err, sizeof err), 0);
	/* A large request is filled to its end, not cut short. */
	assert_int_equal(auth_random(big, sizeof big, err, sizeof err), 0);
	for (i = sizeof big - 1000; i < sizeof big; i++)
		zeros += big[i] == 0;
	assert_true(zeros < 30);                /* about 4 expected */
}

static void
test_wipe(void **state)
{
	struct auth_key k = mkkey("0123456789abcdef", 16), zero;

	(void)state;
	memset(&zero, 0, sizeof zero);
	auth_key_wipe(&k);
	assert_memory_equal(&k, &zero, sizeof k);
}

/* One key file: its bytes and mode, and the key or the exact message
 * after "--key-file PATH: ". */
struct krow {
	const char *name;
	const char *bytes;      /* NULL: fill with 'k' x len */
	size_t      len;
	mode_t      mode;
	int         rc;
	size_t      keylen;     /* rc 0: the key is the first keylen bytes */
	const char *msg;        /* rc -1 */
};

static char tmpdir[] = "/tmp/unit_auth.XXXXXX";

static void
check_load(const struct krow *r, const char *path)
{
	struct auth_key k;
	char err[512] = "untouched", want[512];

	memset(&k, 0x77, sizeof k);
	if (auth_key_load(path, &k, err, sizeof err) != r->rc)
		fail_msg("%s: rc not %d (err '%s')", r->name, r->rc, err);
	if (r->rc == 0) {
		assert_int_equal(k.len, r->keylen);
		if (r->bytes != NULL)
			assert_memory_equal(k.key, r->bytes, r->keylen);
		return;
	}
	snprintf(want, sizeof want, "--key-file %s: %s", path, r->msg);
	if (strcmp(err, want) != 0)
		fail_msg("%s: message '%s', want '%s'", r->name, err, want);
	assert_int_equal(k.len, 0);             /* wiped on failure */
}

static void
test_key_file(void **state)
{
	static const struct krow rows[] = {
		{ "good", "0123456789abcdef", 16, 0600, 0, 16, NULL },
		{ "owner read-only", "0123456789abcdef", 16, 0400, 0, 16, NULL },
		{ "trailing LF", "0123456789abcdef\n", 17, 0600, 0, 16, NULL },
		{ "trailing CRLF", "0123456789abcdef\r\n", 18, 0600, 0, 16, NULL },
		{ "only one LF", "0123456789abcdef\n\n", 18, 0600, 0, 17, NULL },
		{ "only one CRLF", "0123456789abcdef\r\n\r\n", 20, 0600, 0, 18, NULL },
		{ "CR alone kept", "0123456789abcdef\r", 17, 0600, 0, 17, NULL },
		{ "binary", "\0\1\2\3\4\5\6\7\x80\x81\x82\x83\xfc\xfd\xfe\xff\n", 17, 0600,
		  0, 16, NULL },
		{ "longest", NULL, AUTH_KEY_MAX, 0600, 0, AUTH_KEY_MAX, NULL },
		{ "mode 0644", "0123456789abcdef", 16, 0644, -1, 0,
		  "readable by others (chmod 600 it)" },
		{ "mode 0640", "0123456789abcdef", 16, 0640, -1, 0,
		  "readable by others (chmod 600 it)" },
		{ "mode 0602", "0123456789abcdef", 16, 0602, -1, 0,
		  "writable by others (chmod 600 it)" },
		{ "mode 0610", "0123456789abcdef", 16, 0610, -1, 0,
		  "executable by others (chmod 600 it)" },
		{ "empty", "", 0, 0600, -1, 0, "empty" },
		{ "only LF", "\n", 1, 0600, -1, 0, "empty" },
		{ "too short", "0123456789abcde", 15, 0600, -1, 0,
		  "secret too short (15 bytes, at least 16)" },
		{ "too short after LF", "0123456789abcde\n", 16, 0600, -1, 0,
		  "secret too short (15 bytes, at least 16)" },
		{ "too long", NULL, AUTH_KEY_MAX + 1, 0600, -1, 0,
		  "secret too long (more than 1024 bytes)" },
		{ "far too long", NULL, 5000, 0600, -1, 0,
		  "secret too long (more than 1024 bytes)" },
	};
	static char fill[5000];
	size_t i;

	(void)state;
	memset(fill, 'k', sizeof fill);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct krow *r = &rows[i];
		char path[sizeof tmpdir + 32];
		int fd;

		snprintf(path, sizeof path, "%s/key.XXXXXX", tmpdir);
		assert_int_not_equal(fd = mkstemp(path), -1);
		assert_int_equal(write(fd, r->bytes ? r->bytes : fill, r->len),
		                 (ssize_t)r->len);
		assert_int_equal(fchmod(fd, r->mode), 0);
		close(fd);
		check_load(r, path);
		assert_int_equal(unlink(path), 0);
	}
}

/* A key file of another user, though mode 600, is refused as ssh refuses
 * one: as root, a file of "nobody" (only root can give a file away). */
static void
test_key_file_owner(void **state)
{
	char path[sizeof tmpdir + 32], want[300], err[300];
	struct auth_key k;
	uid_t other = 65534;                    /* nobody */
	int fd;

	(void)state;
	if (geteuid() != 0)
		skip();                         /* only root can give a file away */
	snprintf(path, sizeof path, "%s/key.XXXXXX", tmpdir);
	assert_int_not_equal(fd = mkstemp(path), -1);
	assert_int_equal(write(fd, "0123456789abcdef", 16), 16);
	assert_int_equal(fchmod(fd, 0600), 0);
	assert_int_equal(fchown(fd, other, (gid_t)-1), 0);
	close(fd);
	memset(&k, 0x55, sizeof k);
	assert_int_equal(auth_key_load(path, &k, err, sizeof err), -1);
	snprintf(want, sizeof want, "--key-file %s: owned by uid 65534, not by "
	         "the user running gput (uid 0): chown it", path);
	assert_string_equal(err, want);
	assert_int_equal(k.len, 0);
	assert_int_equal(chown(path, 0, (gid_t)-1), 0);
	assert_int_equal(auth_key_load(path, &k, err, sizeof err), 0);
	assert_int_equal(k.len, 16);
	assert_int_equal(unlink(path), 0);
}

/* Not a key file at all: a directory, a name that does not exist. */
static void
test_key_file_missing(void **state)
{
	static const struct krow dir = { "directory", NULL, 0, 0, -1, 0,
	                                 "not a regular file" };
	static const struct krow gone = { "missing", NULL, 0, 0, -1, 0,
	                                  "No such file or directory" };
	char path[sizeof tmpdir + 32];

	(void)state;
	snprintf(path, sizeof path, "%s/sub", tmpdir);
	assert_int_equal(mkdir(path, 0700), 0);
	check_load(&dir, path);
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof path, "%s/nope", tmpdir);
	check_load(&gone, path);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

/* Also removes what a failed case left behind. */
static int
teardown(void **state)
{
	char path[sizeof tmpdir + 300];
	struct dirent *de;
	DIR *d = opendir(tmpdir);

	(void)state;
	while (d != NULL && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", tmpdir, de->d_name);
		if (unlink(path) == -1)
			rmdir(path);
	}
	if (d != NULL)
		closedir(d);
	return rmdir(tmpdir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc4231),
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_verify),
		cmocka_unit_test(test_key_file_owner),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_wipe),
		cmocka_unit_test(test_key_file),
		cmocka_unit_test(test_key_file_missing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
