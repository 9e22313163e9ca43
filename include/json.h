/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_JSON_H
#define GPUT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A small streaming JSON writer (RFC 8259) onto a caller's FILE *. The
 * caller opens and closes containers in order; the writer places commas,
 * colons and, with pretty = 1, newlines and two-space indents. pretty = 0
 * writes everything on one line (JSON lines). Nothing is buffered or
 * allocated; no trailing newline is written.
 *
 * Strings: '"' and '\\' are escaped, as are \b \f \n \r \t in their short
 * form; every other control character (U+0000-U+001F) and DEL (0x7f) as
 * \u00xx (lower-case hex). Bytes >= 0x80 pass through when they form
 * well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above
 * U+10FFFF); each maximal ill-formed subpart (Unicode ch. 3, "U+FFFD
 * substitution of maximal subparts") becomes one \ufffd.
 *
 * Numbers: unsigned 64-bit integers exactly (%llu). Doubles in the shortest
 * of %.15g, %.16g, %.17g that reads back to the same double (so no digit is
 * invented and none lost), always with '.' as the decimal point; a value
 * that is not finite is written as null.
 */

#define JSON_MAX_DEPTH 32

/* Layouts (json_init's pretty): one line; a member a line; or laid out by
 * the caller, who asks for each line break with json_break, members
 * separated by ", " and a key from its value by ": " (gput-pcap's). */
enum { JSON_COMPACT, JSON_PRETTY, JSON_LAID };

struct json {
	FILE *f;
	int   depth;                 /* open containers */
	int   first[JSON_MAX_DEPTH]; /* per level: empty, has members, after a key */
	int   pretty;                /* JSON_COMPACT, JSON_PRETTY or JSON_LAID */
	int   brk;                   /* JSON_LAID: the indent of the line break
	                                asked for (-1: none) */
	int   bytewise;              /* strings as gput-pcap(1) writes them: a
	                                byte that is not part of well-formed
	                                UTF-8 is one \ufffd, every control
	                                character \u00xx, DEL itself */
};

/* Start writing one document to f in a layout above (0 and 1 as ever). */
void json_init(struct json *j, FILE *f, int pretty);
/* JSON_LAID: the next separator (before the next member or element, or
 * the closing bracket) is a new line of indent spaces. */
void json_break(struct json *j, int indent);

/* Containers. At most JSON_MAX_DEPTH levels deep: deeper containers are
 * still written, but without separators (a programming error). */
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);

/* The key of the next member of the open object (escaped like a string). */
void json_key(struct json *j, const char *key);

/* Values. json_string(NULL) writes null; json_string_n writes at most n
 * bytes of s, stopping at a NUL (for fixed-size fields). */
void json_string(struct json *j, const char *s);
void json_string_n(struct json *j, const char *s, size_t n);
void json_u64(struct json *j, uint64_t v);
void json_double(struct json *j, double v);
/* v with prec (0 to 17) digits after the point (%.*f, '.' whatever the
 * locale); null when v is not finite. */
void json_fixed(struct json *j, double v, int prec);
void json_bool(struct json *j, int b);
void json_null(struct json *j);

/* Shorthands: json_key then the value. */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_u64(struct json *j, const char *key, uint64_t v);
void json_kv_double(struct json *j, const char *key, double v);
void json_kv_fixed(struct json *j, const char *key, double v, int prec);
void json_kv_bool(struct json *j, const char *key, int b);
void json_kv_null(struct json *j, const char *key);

/* Format v as above into buf (at least JSON_DOUBLE_LEN bytes). Returns 0, or
 * -1 (buf empty) when v is not finite. Also used by the CSV renderer. */
#define JSON_DOUBLE_LEN 40
int  json_fmt_double(char *buf, size_t len, double v);

#endif
