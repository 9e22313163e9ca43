#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live test: the Debian package. A clean clone of this repository's HEAD
# builds with dpkg-buildpackage -us -uc -b (its unit tests run in
# dh_auto_test), lintian reports no error and no warning, and the package
# holds the programs, man pages, units, probe and tools where debian/rules
# says; its maintainer scripts, run over a systemctl that keeps the units'
# state in files, start nothing on install, restart an enabled partner on
# upgrade, stop it on removal, and purge the probes' results. With GPUT_TEST_DEB_INSTALL=1 (CI's throwaway machine, as root) it
# is also installed, run, removed and purged; a developer's machine is left
# alone. About a minute; skipped without dpkg-dev, debhelper and lintian, or
# outside a git work tree (make check-asan's copy).
. "$(dirname "$0")/lib.sh"

for t in dpkg-buildpackage dpkg-checkbuilddeps dh lintian git; do
	if ! command -v "$t" >/dev/null; then
		skip "Debian package ($t not installed: tools/install-deps)"
		t_done
	fi
done
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1 || [ ! -d debian ]; then
	skip "Debian package (not a git work tree with debian/)"
	t_done
fi
if ! dpkg-checkbuilddeps >"$T_TMP/deps" 2>&1; then
	skip "Debian package ($(cat "$T_TMP/deps"))"
	t_done
fi

git clone -q . "$T_TMP/src" || { fail "git clone"; t_done; }
# a new version, as a maintainer makes one (dch -v NEW): the changelog's
# newest entry, and include/version.h, which make rewrites from it
OLDV=$(head -n 1 debian/changelog | cut -d' ' -f2 | tr -d '()')
NEWV=$OLDV.99
{
	printf 'gput (%s) unstable; urgency=medium\n\n' "$NEWV"
	printf '  * tests/live_deb.sh: a new version, built in a clone.\n\n'
	printf ' -- %s  %s\n\n' "$(sed -n 's/^ -- \(.*>\)  .*/\1/p' debian/changelog | head -n 1)" \
		"$(date -R)"
	cat debian/changelog
} >"$T_TMP/src/debian/changelog"
(cd "$T_TMP/src" && make -s include/version.h &&
	git -c user.name=test -c user.email=test@invalid commit -qam "version $NEWV") ||
	fail "the clone's new version, committed"
eq "make rewrote include/version.h from the changelog" \
	"$(grep '^#define GPUT_VERSION ' "$T_TMP/src/include/version.h" | tr -s ' ')" \
	"#define GPUT_VERSION \"$NEWV\""
(cd "$T_TMP/src" && timeout -k 5 900 dpkg-buildpackage -us -uc -b) >"$T_TMP/build.log" 2>&1
RC=$?
eq "dpkg-buildpackage -us -uc -b: exit 0" "$RC" 0
[ "$RC" = 0 ] || { tail -n 40 "$T_TMP/build.log"; t_done; }
DEB=$(ls "$T_TMP"/gput_*.deb)
check "dh_auto_test ran the unit tests, none failed" \
	grep -Eq '^[0-9]+ passed, 0 failed' "$T_TMP/build.log"
eq "the build left the clone clean (artefacts in ..)" \
	"$(git -C "$T_TMP/src" status --porcelain)" ""

# lintian: nothing above info (an override would need its reason beside it)
timeout -k 5 300 lintian "$T_TMP"/gput_*.changes >"$T_TMP/lintian" 2>&1
eq "lintian: exit 0" "$?" 0
eq "lintian: no error or warning" "$(grep -E '^[EW]: ' "$T_TMP/lintian")" ""

dpkg-deb -c "$DEB" | awk '{ print $1, $NF }' | sed 's|^\(.\)[^ ]* \./|\1 /|' | \
	grep '^-' | sort >"$T_TMP/files"
for f in /usr/bin/gput /usr/bin/gput-pcap /usr/sbin/gput-testbed \
    /usr/libexec/gput/gput-delay /usr/libexec/gput/gput-probe /usr/libexec/gput/gput-textfile \
    /usr/libexec/gput/gput-testbed-parse.sh /usr/libexec/gput/gput-testbed-delay.sh \
    /usr/libexec/gput/gput-testbed-impair.sh /usr/libexec/gput/gput-testbed-topo.sh \
    /usr/libexec/gput/gput-testbed-graph.sh /usr/libexec/gput/gput-testbed-build.sh \
    /usr/libexec/gput/gput-testbed-calib.sh \
    /usr/share/man/man1/gput.1.gz /usr/share/man/man1/gput-pcap.1.gz \
    /usr/share/man/man8/gput-testbed.8.gz /usr/share/man/man8/gput-probe.8.gz \
    /usr/share/man/man1/gput-plot.1.gz /usr/share/man/man1/plot-seq.1.gz \
    /usr/share/bash-completion/completions/gput \
    /lib/systemd/system/gput.service \
    /lib/systemd/system/gput.socket /lib/systemd/system/gput-probe@.service \
    /lib/systemd/system/gput-probe@.timer /usr/share/gput/plot-goodput.sh \
    /usr/bin/gput-lab /usr/libexec/gput/gputlab/runner.py /usr/share/gput/labs/lab000.lab \
    /usr/share/man/man1/gput-lab.1.gz /usr/share/man/man5/gput-lab.5.gz; do
	check "package holds $f" grep -qx -- "- $f" "$T_TMP/files"
done
# unit FILE: the ExecStart line of the packaged unit FILE
unit() { dpkg-deb --fsys-tarfile "$DEB" | tar -xO "./lib/systemd/system/$1" | grep '^ExecStart='; }
eq "gput.service runs the installed gput" "$(unit gput.service)" \
	"ExecStart=/usr/bin/gput -i --max-sessions 4 --max-time 600"
eq "gput-probe@.service runs the installed probe" "$(unit gput-probe@.service)" \
	"ExecStart=/usr/libexec/gput/gput-probe %i"
eq "the package's version is the changelog's" "$(dpkg-deb -f "$DEB" Version)" "$NEWV"
# its programs say the package's version
dpkg-deb -x "$DEB" "$T_TMP/root"
eq "packaged gput -V" "$("$T_TMP/root/usr/bin/gput" -V | cut -d' ' -f1,2)" "gput $NEWV"
eq "packaged gput-pcap --version" "$("$T_TMP/root/usr/bin/gput-pcap" --version)" \
	"gput-pcap $NEWV"
eq "packaged gput-testbed --version" \
	"$(sh "$T_TMP/root/usr/sbin/gput-testbed" --version)" "gput-testbed $NEWV"
CTL=$T_TMP/ctl
dpkg-deb -e "$DEB" "$CTL"
eq "Recommends: what gput-testbed runs (ip, ethtool, nft)" \
	"$(dpkg-deb -f "$DEB" Recommends)" "ethtool, iproute2, nftables"
check "maintainer scripts: a prerm, and no stop in preinst" eval \
	'[ -f "$CTL/prerm" ] && ! grep -qs "deb-systemd-invoke stop" "$CTL/preinst"'

# The maintainer scripts' logic, run: the package's own scripts, with
# systemd's run directory and the textfile directory pointed at ours, call
# the installed deb-systemd-invoke (its policy-rc.d pointed at nothing),
# which asks tests/debstub/systemctl, keeping each unit's state in files.
MS=$T_TMP/ms
export DEBSTUB_STATE=$MS
mkdir -p "$MS/bin" "$MS/run-systemd" "$MS/enabled" "$MS/active" "$MS/textfile"
for s in preinst postinst prerm postrm; do
	[ -f "$CTL/$s" ] || continue
	sed -e "s|/run/systemd/system|$MS/run-systemd|g" \
	    -e "s|/var/lib/prometheus/node-exporter|$MS/textfile|g" "$CTL/$s" >"$MS/$s"
done
sed "s|'/usr/sbin/policy-rc.d'|'$MS/no-policy-rc.d'|" /usr/bin/deb-systemd-invoke \
	>"$MS/bin/deb-systemd-invoke"
cp tests/debstub/systemctl tests/debstub/deb-systemd-helper "$MS/bin/"
chmod +x "$MS/bin/"*
# ms SCRIPT ARGS...: one maintainer script of the package, as dpkg runs it
ms() {
	[ -f "$MS/$1" ] || return 0
	_s=$1; shift
	echo "== $_s $*" >>"$MS/log"
	PATH="$MS/bin:$PATH" sh -e "$MS/$_s" "$@" >>"$MS/log" 2>&1
}
active() { (cd "$MS/active" && ls | tr '\n' ' '); }
ms preinst install && ms postinst configure
eq "scripts: a fresh install starts nothing" "$(active)" ""
# the administrator: systemctl enable --now gput.socket; a client came
touch "$MS/enabled/gput.socket" "$MS/active/gput.socket" "$MS/active/gput.service"
# an upgrade to the same scripts, in the order dpkg runs them (Debian
# Policy 6.6): old prerm, new preinst, old postrm, new postinst
ms prerm upgrade 1.0.1 && ms preinst upgrade 1.0.0 && ms postrm upgrade 1.0.1 &&
	ms postinst configure 1.0.0
eq "scripts: an upgrade leaves an enabled, running partner running" \
	"$(active)" "gput.service gput.socket "
check "scripts: ... restarted, so the new gput runs" \
	grep -q '^systemctl restart .*gput.socket' "$MS/log"
ms prerm remove && ms postrm remove
eq "scripts: a removal stops the partner" "$(active)" ""
touch "$MS/textfile/gput-to-b.prom" "$MS/textfile/.gput-to-c.Ab12Cd" \
	"$MS/textfile/node.prom"
ms postrm purge
eq "scripts: purge removes the probes' results, nothing else" \
	"$(ls -A "$MS/textfile")" "node.prom"
[ "$T_FAILED" = 0 ] || { echo "the scripts' calls:"; cat "$MS/log"; }

if [ "${GPUT_TEST_DEB_INSTALL:-0}" != 1 ] || [ "$(id -u)" != 0 ]; then
	skip "dpkg -i / -r / -P (set GPUT_TEST_DEB_INSTALL=1 as root: CI does)"
	t_done
fi
if dpkg -s gput >/dev/null 2>&1; then
	skip "dpkg -i / -r / -P (a gput package is installed here already)"
	t_done
fi
dpkg -i "$DEB" >"$T_TMP/dpkg.log" 2>&1
eq "dpkg -i: exit 0" "$?" 0
check "installed: gput -V" /usr/bin/gput -V
check "installed: man gput-testbed" test -f /usr/share/man/man8/gput-testbed.8.gz
check "installed: gput-testbed finds its parts (--help)" eval \
	'/usr/sbin/gput-testbed --help | grep -q "^RATE: bit/s"'
check "installed: no unit enabled" eval '[ -z "$(find /etc/systemd -name "gput*")" ]'
# the package's autopkgtest, run by hand on the binaries just installed
AUTOPKGTEST_TMP=$T_TMP sh "$T_TMP/src/debian/tests/loopback" >"$T_TMP/apt.out" 2>&1
eq "debian/tests/loopback with the installed binaries" "$?" 0
dpkg -r gput >>"$T_TMP/dpkg.log" 2>&1
eq "dpkg -r: exit 0" "$?" 0
# none_left: no file of the package's list is on the system any more
none_left() {
	while read -r _ f; do
		[ -e "$f" ] && { echo "left behind: $f"; return 1; }
	done <"$T_TMP/files"
	return 0
}
check "removed: every file of the package gone" none_left
TXTDIR=/var/lib/prometheus/node-exporter
[ -d "$TXTDIR" ] && touch "$TXTDIR/gput-deb-test.prom"
dpkg -P gput >>"$T_TMP/dpkg.log" 2>&1
eq "dpkg -P: exit 0" "$?" 0
check "purged: no probe result left in $TXTDIR" eval \
	'[ ! -e "$TXTDIR/gput-deb-test.prom" ]'
check "purged: dpkg knows no gput" eval '! dpkg -s gput >/dev/null 2>&1'
t_done
