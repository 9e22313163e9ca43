#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs cmocka unit binaries and live test scripts; totals their cases.
# A live script reports each case as "PASS: name", "FAIL: name" or
# "SKIP: name (reason)" (see tests/lib.sh); a cmocka binary is read from its
# own summary lines. Exits non-zero when any case failed or a program crashed.
set -u
pass=0 fail=0 skip=0 broken=""
mkdir -p tests/out
for t in "$@"; do
	name=$(basename "$t")
	log="tests/out/$name.log"
	case "$t" in
	*.sh) bash "$t" >"$log" 2>&1 ;;
	*)    "./$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	cat "$log"
	p=$(grep -c '^PASS: ' "$log")
	f=$(grep -c '^FAIL: ' "$log")
	s=$(grep -c '^SKIP: ' "$log")
	cp=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	cf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	cs=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	pass=$((pass + p + ${cp:-0}))
	fail=$((fail + f + ${cf:-0}))
	skip=$((skip + s + ${cs:-0}))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && [ "${cf:-0}" -eq 0 ]; then
		fail=$((fail + 1))
		broken="$broken $name(exit $rc)"
	fi
done
[ -n "$broken" ] && echo "programs that failed without a report:$broken"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
