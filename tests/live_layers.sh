#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The modules' includes form no cycle (README, SOURCE MAP): a module is a
# file's stem, src/x.c and include/x.h; tests/modcycles.sh finds a cycle
# and prints it.
. "$(dirname "$0")/lib.sh"

out=$(sh tests/modcycles.sh . 2>&1)
rc=$?
eq "no include cycle between modules" "$rc:$out" "0:"

# The check itself sees a cycle: a tree of three modules that include each
# other round a loop, and one module that includes itself (not a cycle).
mkdir -p "$T_TMP/t/src" "$T_TMP/t/include"
printf '#include "b.h"\n#include "a.h"\n' >"$T_TMP/t/src/a.c"
printf '#include <stdio.h>\n#include "c.h"\n' >"$T_TMP/t/include/b.h"
printf '#include "a.h"\n' >"$T_TMP/t/src/c.c"
printf '#include "b.h"\n' >"$T_TMP/t/src/d.c"
out=$(sh tests/modcycles.sh "$T_TMP/t" 2>&1)
rc=$?
eq "a cycle made on purpose is found" "$rc:$out" "1:cycle: a -> b -> c -> a"
eq "the module graph's edges" "$(sh tests/modcycles.sh -e "$T_TMP/t")" \
    "$(printf 'a b\nb c\nc a\nd b')"
rm -f "$T_TMP/t/src/c.c"
out=$(sh tests/modcycles.sh "$T_TMP/t" 2>&1)
eq "no cycle once it is broken" "$?:$out" "0:"
t_done
