/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_hints.c: a command line typed with iperf's habits, caught before it
 * runs a test nobody asked for, with one line saying what to type instead.
 * nttcp's meanings stay: a hint is given only where gput would otherwise
 * refuse the line, or read an argument as something it plainly is not (a
 * number after -t or -i as a partner's name). */
#include "cli_hints.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* An iperf option gput does not have, and gput's way to the same end; %s
 * is the option's value (or what stands for it when there is none). */
struct hint {
	const char *name;       /* "b" (short) or "bitrate" (long) */
	int         takes_arg;  /* in iperf */
	const char *say;
};

static const struct hint short_hints[] = {
	{ "b", 1, "-b is iperf's bitrate: gput paces the sender with --rate %s "
	          "(payload bit/s)" },
	{ "R", 0, "-R is iperf's reverse: in gput, -r makes this host receive "
	          "and the partner send" },
	{ "J", 0, "-J is iperf's JSON: gput prints JSON with --json (or "
	          "--json-lines)" },
	{ "d", 0, "-d is iperf2's dual test: gput runs both directions at once "
	          "with --bidir" },
	{ "O", 1, "-O is iperf's omit: gput leaves out the first seconds with "
	          "--omit %s" },
	{ "C", 1, "-C is iperf's congestion control: gput sets it with --cc %s" },
	{ "N", 0, "-N is iperf's no-delay: gput sets TCP_NODELAY with -D" },
	{ "k", 1, "-k is iperf's block count: gput counts buffers with -n %s" },
	{ "1", 0, "-1 is iperf's one-off server: gput -i --once serves one test" },
	{ NULL, 0, NULL },
};

static const struct hint long_hints[] = {
	{ "client",     1, "--client is iperf's: gput takes the partner's name "
	                   "alone (gput %s)" },
	{ "server",     0, "--server is iperf's: start the partner with gput -i" },
	{ "reverse",    0, "--reverse is iperf's: in gput, -r makes this host "
	                   "receive and the partner send" },
	{ "bitrate",    1, "--bitrate is iperf's: gput paces the sender with "
	                   "--rate %s (payload bit/s)" },
	{ "bandwidth",  1, "--bandwidth is iperf's: gput paces the sender with "
	                   "--rate %s (payload bit/s)" },
	{ "congestion", 1, "--congestion is iperf's: gput sets it with --cc %s" },
	{ "blockcount", 1, "--blockcount is iperf's: gput counts buffers with "
	                   "-n %s" },
	{ "no-delay",   0, "--no-delay is iperf's: gput sets TCP_NODELAY with -D "
	                   "(--nodelay)" },
	{ "dualtest",   0, "--dualtest is iperf2's: gput runs both directions at "
	                   "once with --bidir" },
	{ "one-off",    0, "--one-off is iperf's: gput -i --once serves one test" },
	{ "get-server-output", 0, "--get-server-output is iperf's: gput always "
	                   "prints the partner's side" },
	{ NULL, 0, NULL },
};

struct scan {
	int argc;
	char **argv;
	const char *shortopts;
	const struct option *longopts;
	int operands;           /* words that are not options nor their values */
	int seen_s, seen_other_mode;
	char *err;
	size_t errlen;
};

/* "10", "2.5": what iperf's -t and -i take. */
static int
is_number(const char *s)
{
	int digits = 0, dots = 0;

	for (; *s != '\0'; s++) {
		if (isdigit((unsigned char)*s))
			digits++;
		else if (*s == '.' && dots++ == 0)
			continue;
		else
			return 0;
	}
	return digits > 0;
}

/* A count with a size suffix ("10M"): iperf's -n is bytes. */
static int
is_size(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && s[n] != '\0' && strchr("kKmMgG", s[n]) != NULL &&
	    s[n + 1] == '\0';
}

/* One more hint into err, a line of its own after those before it. */
static int
say(struct scan *sc, const char *fmt, const char *val)
{
	size_t n = strlen(sc->err);

	if (n > 0 && n + 1 < sc->errlen)
		sc->err[n++] = '\n';
	if (n + 1 >= sc->errlen)
		return 1;               /* no room: the lines before it stand */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(sc->err + n, sc->errlen - n, fmt, val);
#pragma GCC diagnostic pop
	return 1;
}

static const struct hint *
find_hint(const struct hint *h, const char *name, size_t len)
{
	for (; h->name != NULL; h++)
		if (strlen(h->name) == len && strncmp(h->name, name, len) == 0)
			return h;
	return NULL;
}

/* Does gput's short option c take a value? -1: not a gput option. */
static int
short_takes(const struct scan *sc, int c)
{
	const char *p = sc->shortopts;

	p += strspn(p, "+-:");
	for (; *p != '\0'; p++)
		if (*p == c)
			return p[1] == ':';
		else if (*p == ':')
			continue;
	return -1;
}

/* A gput long option: exactly name, or the one it abbreviates. */
static const struct option *
find_long(const struct scan *sc, const char *name, size_t len)
{
	const struct option *o, *hit = NULL;
	int hits = 0;

	for (o = sc->longopts; o->name != NULL; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len)
			return o;
		hit = o;
		hits++;
	}
	return hits == 1 ? hit : NULL;
}

/* The value of an option at argv[*i], from rest (the word's rest) or the
 * next word; *i moves past it. NULL: none. */
static const char *
take_value(struct scan *sc, int *i, const char *rest)
{
	if (*rest != '\0')
		return rest;
	if (*i + 1 < sc->argc)
		return sc->argv[++*i];
	return NULL;
}

/* A long option at argv[*i] ("--name" or "--name=value"). */
static int
scan_long(struct scan *sc, int *i)
{
	const char *a = sc->argv[*i] + 2, *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	const struct option *o = find_long(sc, a, len);
	const struct hint *h;

	if (o != NULL) {
		if (o->has_arg == required_argument && eq == NULL)
			++*i;
		if (o->val == 'i' || strcmp(o->name, "predict") == 0 ||
		    o->val == 'h' || o->val == 'V')
			sc->seen_other_mode = 1;
		return 0;
	}
	if ((h = find_hint(long_hints, a, len)) == NULL)
		return 0;
	if (h->takes_arg && eq == NULL && *i + 1 < sc->argc)
		return say(sc, h->say, sc->argv[++*i]);
	return say(sc, h->say, eq ? eq + 1 : "VALUE");
}

/* What follows a short option of gput's that iperf reads otherwise. */
static int
scan_value(struct scan *sc, int c, const char *val)
{
	if (c == 'n' && is_size(val))
		return say(sc, "-n counts buffers of -l bytes as in nttcp; for a "
		           "number of bytes use -x %s", val);
	if (c == 'f' && strlen(val) == 1 && strchr("kmgtKMGTaAbB", *val))
		return say(sc, "-f takes an nttcp format (gput(1), OUTPUT), not "
		           "iperf's unit letter '%s': rates are MBit/s (10^6 bit/s)",
		           val);
	return 0;
}

/* A cluster of short options at argv[*i] ("-ut", "-l1000"). */
static int
scan_short(struct scan *sc, int *i)
{
	const char *a = sc->argv[*i];
	const char *next = *i + 1 < sc->argc ? sc->argv[*i + 1] : NULL;
	const struct hint *h;
	size_t j;

	for (j = 1; a[j] != '\0'; j++) {
		int c = (unsigned char)a[j], takes = short_takes(sc, c);
		const char *rest = a + j + 1, *val;

		if (takes == -1) {
			if ((h = find_hint(short_hints, a + j, 1)) == NULL)
				return 0;       /* the parser says "unknown option" */
			val = h->takes_arg ? take_value(sc, i, rest) : NULL;
			return say(sc, h->say, val ? val : "VALUE");
		}
		if (takes) {
			val = take_value(sc, i, rest);
			return val != NULL ? scan_value(sc, c, val) : 0;
		}
		if (c == 's')
			sc->seen_s = 1;
		if (c == 'i' || c == 'h' || c == 'V')
			sc->seen_other_mode = 1;
		if (c != 't' && c != 'i')
			continue;
		/* "-t 10", "-t10", "-i 1": iperf's time and interval */
		val = *rest != '\0' ? rest : next;
		if (val == NULL || !is_number(val))
			continue;
		if (c == 't')
			return say(sc, "-t transmits as in nttcp; for a timed run use "
			           "--time %s", val);
		return say(sc, "-i starts the partner as in nttcp; for interval "
		           "lines use --interval %s", val);
	}
	return 0;
}

int
cli_hint(int argc, char **argv, const char *shortopts,
         const struct option *longopts, char *err, size_t errlen)
{
	struct scan sc = { argc, argv, shortopts, longopts, 0, 0, 0, err, errlen };
	int i, found = 0;

	if (errlen > 0)
		err[0] = '\0';
	/* every habit of the line at once, not one per try */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			sc.operands += argc - i - 1;
			break;
		}
		if (strncmp(a, "--", 2) == 0 ? scan_long(&sc, &i) :
		    a[0] == '-' && a[1] != '\0' ? scan_short(&sc, &i) :
		    (sc.operands++, 0))
			found = 1;
	}
	if (sc.seen_s && sc.operands == 0 && !sc.seen_other_mode)
		found = say(&sc, "%s", "-s is nttcp's stream pattern and needs a "
		            "partner; to start the partner (iperf's server) use gput -i");
	return found;
}
