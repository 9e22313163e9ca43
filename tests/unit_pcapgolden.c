/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_pcapgolden.c: gput-pcap's output on the generated captures, compared
 * byte for byte with tests/golden/NAME.out (cases in tests/golden/cases;
 * regenerate with tests/golden/regen.sh). Runs ./gput-pcap,
 * tests/unit_pcapscan and tests/unit_pcapudp from the top directory, as
 * `make check` does. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capbuild.h"

#define CASES "tests/golden/cases"

static char dir[256], root[4096];

/* The whole of a stream, NUL-terminated; NULL if it cannot be read. */
static char *
slurp(FILE *f)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *m = open_memstream(&buf, &len);

	if (m == NULL)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(m);
	return buf;
}

static int
setup(void **state)
{
	static const char *const writers[] = { "tests/unit_pcapscan",
	                                       "tests/unit_pcapudp" };
	char cmd[600];
	size_t i;

	(void)state;
	if (getcwd(root, sizeof(root)) == NULL)
		return -1;
	if (cb_tmpdir(dir, sizeof(dir), "unit_pcapgolden") == -1)
		return -1;
	for (i = 0; i < sizeof(writers) / sizeof(writers[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s --captures '%s'", writers[i], dir);
		if (access(writers[i], X_OK) != 0 || system(cmd) != 0)
			return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	return cb_rmdir(dir);
}

/* Run one case as tests/golden/regen.sh does; compare with NAME.out. */
static int
run_case(const char *name, const char *args)
{
	char cmd[8192], path[512];
	char *got, *want;
	FILE *p, *f;
	int same;

	snprintf(cmd, sizeof(cmd), "cd '%s' && { '%s/gput-pcap' %s; } 2>&1; "
	         "echo \"exit $?\"", dir, root, args);
	snprintf(path, sizeof(path), "tests/golden/%s.out", name);
	if ((p = popen(cmd, "r")) == NULL || (f = fopen(path, "r")) == NULL) {
		print_error("%s: cannot run or read %s\n", name, path);
		return 0;
	}
	got = slurp(p);
	want = slurp(f);
	pclose(p);
	fclose(f);
	same = got != NULL && want != NULL && strcmp(got, want) == 0;
	if (!same)
		print_error("%s: output differs from %s:\n%s", name, path,
		            got ? got : "(none)\n");
	free(got);
	free(want);
	return same;
}

static void
test_golden(void **state)
{
	char line[1024], name[128];
	int n = 0, ok = 0, off;
	FILE *f;

	(void)state;
	if (access("gput-pcap", X_OK) != 0)
		skip();  /* `make unit` does not build the programs */
	assert_non_null(f = fopen(CASES, "r"));
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || sscanf(line, "%127s %n", name, &off) != 1)
			continue;
		n++;
		ok += run_case(name, line + off);
	}
	fclose(f);
	print_message("%d of %d golden cases match\n", ok, n);
	assert_true(n > 0);
	assert_int_equal(ok, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
