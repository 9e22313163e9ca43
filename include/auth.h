/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_AUTH_H
#define GPUT_AUTH_H

#include <stddef.h>
#include <stdint.h>

/*
 * The shared secret of the control connection and the HMAC-SHA256
 * challenge-response built on it. All cryptography is OpenSSL's libcrypto;
 * this module only reads the key file carefully and fixes how a MAC is taken.
 */

#define AUTH_KEY_MIN        16     /* bytes of secret, at least */
#define AUTH_KEY_MAX        1024
#define AUTH_CHALLENGE_LEN  32
#define AUTH_MAC_LEN        32     /* HMAC-SHA256 */

struct auth_key {
	uint8_t key[AUTH_KEY_MAX];
	size_t  len;
};

/* Read the shared secret from path: the file's bytes less one trailing "\n"
 * or "\r\n", AUTH_KEY_MIN to AUTH_KEY_MAX bytes. Refuses a file that group or
 * others may read, write or execute, a file that is not a regular file, and
 * an empty, too short or too long secret, with a one-line reason naming the
 * file ("--key-file /x: readable by others (chmod 600 it)"). Returns 0, or -1
 * with err filled and k wiped. */
int  auth_key_load(const char *path, struct auth_key *k, char *err,
                   size_t errlen);

/* Fill buf with n unpredictable bytes from the kernel (getrandom(2)), for
 * challenges. Returns 0, or -1 with err filled. */
int  auth_random(uint8_t *buf, size_t n, char *err, size_t errlen);

/* mac = HMAC-SHA256(key, label || data); label is a NUL-terminated ASCII
 * string, its NUL not included. The label separates the uses of the one key:
 * with a different label for the client's and the partner's answers, a MAC
 * one side sent can never be reflected back as the other side's answer. Any
 * key length from 1 to AUTH_KEY_MAX is accepted (auth_key_load enforces
 * AUTH_KEY_MIN). Returns 0, or -1 when the key length is out of range or
 * libcrypto fails. */
int  auth_mac(const struct auth_key *k, const char *label, const uint8_t *data,
              size_t n, uint8_t mac[AUTH_MAC_LEN]);

/* Is mac HMAC-SHA256(key, label || data)? Compared in constant time.
 * Returns 1 if so, 0 if not or when the MAC cannot be computed. */
int  auth_verify(const struct auth_key *k, const char *label,
                 const uint8_t *data, size_t n,
                 const uint8_t mac[AUTH_MAC_LEN]);

/* Overwrite the key and its length with zeros (OPENSSL_cleanse, which the
 * compiler may not optimise away). */
void auth_key_wipe(struct auth_key *k);

#endif
