#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The build a packager drives: warning-free, install/uninstall with DESTDIR
# and PREFIX.
. "$(dirname "$0")/lib.sh"

# A warning-free build from a copy of the sources (-Werror on the project's
# own warning flags; the copy keeps the tree's objects untouched).
mkdir -p "$T_TMP/src"
cp -r Makefile src include tests man tools "$T_TMP/src/" 2>/dev/null
rm -f "$T_TMP"/src/tools/gput-delay "$T_TMP"/src/tools/*.d
rm -f "$T_TMP"/src/src/*.o "$T_TMP"/src/src/*.a "$T_TMP"/src/src/*.d
if make -s -C "$T_TMP/src" CFLAGS='-O2 -Werror' gput gput-pcap tools/gput-delay >"$T_TMP/build.log" 2>&1; then
	pass "gput, gput-pcap and tools/gput-delay build with -Wall -Wextra -Werror"
else
	fail "warning-free build:"; sed 's/^/    /' "$T_TMP/build.log"
fi

# A packager's flags: CPPFLAGS (dpkg-buildflags' -D_FORTIFY_SOURCE=2) reach
# every compile, and CFLAGS come after the project's warnings (so that
# -Wno-... there wins).
cmd=$(make -s -n -B -C "$T_TMP/src" CPPFLAGS=-DGPUT_CPPFLAGS_SEEN \
    CFLAGS=-Wno-shadow src/units.o 2>&1)
case "$cmd" in
*-Wshadow*-DGPUT_CPPFLAGS_SEEN*-Wno-shadow*)
	pass "make passes CPPFLAGS, then CFLAGS after the warnings" ;;
*)	fail "make passes CPPFLAGS, then CFLAGS after the warnings: $cmd" ;;
esac

D="$T_TMP/dest"
make -s install DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
for f in /usr/bin/gput /usr/bin/gput-pcap /usr/share/man/man1/gput.1 \
    /usr/share/man/man1/gput-pcap.1 /usr/share/man/man8/gput-testbed.8 \
    /usr/sbin/gput-testbed /usr/libexec/gput/gput-probe /usr/libexec/gput/gput-delay \
    /usr/libexec/gput/gput-textfile \
    /usr/libexec/gput/gput-testbed-parse.sh /usr/libexec/gput/gput-testbed-delay.sh \
    /usr/libexec/gput/gput-testbed-impair.sh /usr/libexec/gput/gput-testbed-topo.sh \
    /usr/libexec/gput/gput-testbed-graph.sh /usr/libexec/gput/gput-testbed-build.sh \
    /usr/libexec/gput/gput-testbed-calib.sh \
    /usr/lib/systemd/system/gput.socket /usr/lib/systemd/system/gput-probe@.timer \
    /usr/share/gput/prometheus/gput-alerts.yml; do
	check "make install puts $f under DESTDIR" test -f "$D$f"
done
check "installed units and scripts name PREFIX's directories" eval \
	'grep -qx "ExecStart=/usr/bin/gput -i --max-sessions 4 --max-time 600" "$D/usr/lib/systemd/system/gput.service" &&
	 grep -qx "ExecStart=/usr/libexec/gput/gput-probe %i" "$D/usr/lib/systemd/system/gput-probe@.service" &&
	 grep -qx "GPUT=\${GPUT:-/usr/bin/gput}" "$D/usr/libexec/gput/gput-probe" &&
	 ! grep -rq /usr/local "$D/usr/lib/systemd" "$D/usr/libexec/gput/gput-probe" "$D/usr/sbin/gput-testbed"'
check "installed gput runs" "$D/usr/bin/gput" -V
check "installed gput-testbed sources its parts from LIBEXECDIR" \
	grep -q '^	for _f in .* /usr/libexec/gput/gput-testbed-\$_part.sh; do' "$D/usr/sbin/gput-testbed"
parts=$(sed -n 's/^for _part in \(.*\); do$/\1/p' "$D/usr/sbin/gput-testbed")
eq "installed gput-testbed's parts" "$parts" "parse delay impair topo graph build calib"
for p in $parts; do
	check "make install puts gput-testbed's part $p in LIBEXECDIR" \
		test -f "$D/usr/libexec/gput/gput-testbed-$p.sh"
done
make -s uninstall DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
eq "make uninstall removes every file" "$(find "$D" -type f | wc -l)" 0
t_done
