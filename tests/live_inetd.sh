#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live test: gput -i --inetd with standard error on the client's own
# connection, as inetd(8) and systemd's Accept=yes with StandardInput=socket
# hand it over (tests/inetdlog plays inetd). The client is served (no log
# line inside the control protocol), and as root, in a mount namespace whose
# /dev/log is inetdlog's, the session's log lines arrive in syslog.
. "$(dirname "$0")/lib.sh"

INETDLOG=tests/inetdlog
if [ ! -x "$INETDLOG" ] && ! make -s "$INETDLOG" >/dev/null; then
	fail "tests/inetdlog builds"
	t_done
fi

# serve NAME OUT [WRAP...]: inetdlog (under WRAP) runs the partner; a client
# sends 10 x 100 bytes; sets RC (the client's) and CLI (its output file)
serve() {
	_name=$1 _out=$2; shift 2
	"$@" "$INETDLOG" "${LOGSOCK:--}" "$GPUT" -i --inetd >"$_out" 2>&1 &
	_pid=$!
	T_PIDS="$T_PIDS $_pid"
	if ! wait_for_line "$_out" '^ok listen port ' 20; then
		fail "$_name: inetdlog listens"; cat "$_out"
		return 1
	fi
	_port=$(sed -n 's/^ok listen port //p' "$_out")
	CLI=$T_TMP/$_name.cli
	timeout -k 2 30 "$GPUT" -n 10 -l 100 -p "$_port" 127.0.0.1 >"$CLI" 2>&1
	RC=$?
	wait "$_pid"
}

serve plain "$T_TMP/plain.out"
eq "stderr is the connection: the client is served" \
	"$RC $(awk '$1 == "1" { print $2 }' "$CLI")" "0 1000"
[ "$RC" = 0 ] || cat "$CLI"
check "stderr is the connection: the partner exits 0" grep -qx 'ok exit 0' "$T_TMP/plain.out"

if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	skip "the log in syslog (needs root and unshare for a /dev/log of its own)"
	t_done
fi
# a mount namespace with a /dev of its own: the nodes gput needs, bound from
# the real one, and /dev/log, inetdlog's socket
cat >"$T_TMP/ns.sh" <<'EOF2'
set -e
mount --make-rprivate /
mkdir -p "$T/realdev"
mount --rbind /dev "$T/realdev"
mount -t tmpfs tmpfs /dev
for n in null zero full random urandom; do
	touch "/dev/$n"
	mount --bind "$T/realdev/$n" "/dev/$n"
done
ln -s /proc/self/fd /dev/fd
exec "$@"
EOF2
LOGSOCK=/dev/log serve syslog "$T_TMP/syslog.out" env T="$T_TMP" unshare -m sh "$T_TMP/ns.sh"
eq "syslog: the client is served" "$RC $(awk '$1 == "1" { print $2 }' "$CLI")" "0 1000"
check "syslog: the partner exits 0" grep -qx 'ok exit 0' "$T_TMP/syslog.out"
# RFC 3164 as glibc writes it: <PRI>TIMESTAMP gput[PID]: text (daemon.info = 30)
check "syslog: the test's start, facility daemon" grep -Eq \
	'^log: <30>.* gput\[[0-9]+\]: client 127\.0\.0\.1 port [0-9]+: start: tcp, partner receives 1000 bytes$' "$T_TMP/syslog.out"
check "syslog: its end" grep -Eq \
	'^log: <30>.* gput\[[0-9]+\]: client 127\.0\.0\.1 port [0-9]+: end: tcp receive, 1000 bytes, 10 calls, .*: ok$' "$T_TMP/syslog.out"
[ "$T_FAILED" = 0 ] || cat "$T_TMP/syslog.out"
t_done
