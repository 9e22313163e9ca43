# SPDX-License-Identifier: BSD-2-Clause
# Shared helpers for the live tests (sourced by bash).
# Every wait has a deadline; nothing sleeps to synchronise.
set -u
GPUT=${GPUT:-./gput}
GPUT_PCAP=${GPUT_PCAP:-./gput-pcap}
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gput-test.XXXXXX")
T_PIDS=""
T_FAILED=0
T_NETNS=""

t_cleanup() {
	for p in $T_PIDS; do kill "$p" 2>/dev/null; done
	for p in $T_PIDS; do wait "$p" 2>/dev/null; done
	for n in $T_NETNS; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	rm -rf "$T_TMP"
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; T_FAILED=1; }
skip() { echo "SKIP: $*"; }

# check NAME COND-COMMAND...: PASS when the command succeeds.
check() {
	_n=$1; shift
	if "$@"; then pass "$_n"; else fail "$_n"; fi
}

# wait_for_line FILE REGEX SECONDS: wait until FILE has a line matching REGEX,
# polling with a deadline (the daemon announces readiness on stderr).
wait_for_line() {
	_deadline=$(( $(date +%s%N) / 1000000 + $3 * 1000 ))
	while ! grep -Eq "$2" "$1" 2>/dev/null; do
		[ "$(( $(date +%s%N) / 1000000 ))" -ge "$_deadline" ] && return 1
		sleep 0.02      # poll interval; the deadline above bounds the wait
	done
	return 0
}

# start_daemon [ARGS...]: start "gput -i -p 0 ARGS" in the background and set
# D_PID and D_PORT from its "listening on ... port N" line. With D_WRAP set
# (an array, e.g. (ip netns exec NS)) the daemon runs under that command.
D_WRAP=()
start_daemon() {
	_log="$T_TMP/daemon.$$.$(date +%s%N).log"
	"${D_WRAP[@]}" "$GPUT" -i -p 0 "$@" 2>"$_log" >/dev/null &
	D_PID=$!
	T_PIDS="$T_PIDS $D_PID"
	D_LOG=$_log
	# a bound on a hang, not a judgement of speed: a loaded host (or one
	# starting the partner in a namespace) may take seconds
	if ! wait_for_line "$_log" 'listening on .* port [0-9]+' 20; then
		echo "daemon did not announce its port:"; cat "$_log"
		D_PORT=0
		return 1
	fi
	D_PORT=$(sed -n 's/.*listening on .* port \([0-9][0-9]*\).*/\1/p' "$_log" | head -n 1)
}

# run_t SECONDS CMD...: run with a deadline; sets RC, OUT (stdout file), ERR.
run_t() {
	_t=$1; shift
	OUT="$T_TMP/out"; ERR="$T_TMP/err"
	timeout -k 2 "$_t" "$@" >"$OUT" 2>"$ERR"
	RC=$?
}

# field TAG COLUMN: the COLUMN-th field of the line whose first field is TAG.
field() { awk -v t="$1" -v c="$2" '$1 == t { print $c; exit }' "$OUT"; }

t_done() { exit "$T_FAILED"; }

# wait_until SECONDS CMD...: poll CMD until it succeeds or the deadline passes.
wait_until() {
	_deadline=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
	until "$@"; do
		[ "$(( $(date +%s%N) / 1000000 ))" -ge "$_deadline" ] && return 1
		sleep 0.02      # poll interval; the deadline above bounds the wait
	done
}

# eq NAME GOT WANT: PASS when the two strings are equal, else show both.
eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (got '$2', want '$3')"; fi
}

# wait_for_text FILE TEXT SECONDS: like wait_for_line, for a line that is
# exactly TEXT (no pattern characters to escape).
wait_for_text() {
	_deadline=$(( $(date +%s%N) / 1000000 + $3 * 1000 ))
	while ! grep -Fxq -- "$2" "$1" 2>/dev/null; do
		[ "$(( $(date +%s%N) / 1000000 ))" -ge "$_deadline" ] && return 1
		sleep 0.02      # poll interval; the deadline above bounds the wait
	done
	return 0
}

# need_optlist: set OPTLIST to the option table's lister (tests/optlist),
# building it if need be.
need_optlist() {
	OPTLIST=${OPTLIST:-tests/optlist}
	if [ ! -x "$OPTLIST" ] && ! make -s tests/optlist >/dev/null; then
		fail "tests/optlist builds"
		t_done
	fi
}

# need_ctlpeer: set CTLPEER to the scripted control-protocol peer, building
# it when missing; a test that cannot have it fails and ends here.
need_ctlpeer() {
	CTLPEER=${CTLPEER:-tests/ctlpeer}
	if [ ! -x "$CTLPEER" ] && ! make -s tests/ctlpeer >/dev/null; then
		fail "tests/ctlpeer builds"
		t_done
	fi
}

# t_netns NAME: a network namespace of the test's own with lo up, deleted
# (with whatever still runs in it) when the test ends; fails when it cannot
# be made (needs root). Its counters (/proc/net/snmp) see only its traffic.
t_netns() {
	ip netns add "$1" 2>/dev/null || return 1
	T_NETNS="$T_NETNS $1"
	ip -n "$1" link set lo up
}

# snmp_udp NAME [CMD...]: the Udp: counter NAME (e.g. NoPorts) of
# /proc/net/snmp, read by CMD (e.g. ip netns exec NS, to read a namespace's).
snmp_udp() {
	_c=$1; shift
	"$@" awk -v c="$_c" '$1 == "Udp:" { if (++n == 1) { for (i = 2; i <= NF; i++) if ($i == c) k = i }
		else if (k) print $k }' /proc/net/snmp
}

# tb_init WHAT TAG TOOL... [-- FILE...]: a testbed of the test's own
# (tools/gput-testbed, prefix gput-TAG<pid>, exported), taken down when the
# test ends. Without root or one of the TOOLs the test is skipped (WHAT says
# which, and the Debian package to install); a FILE not built fails it.
# Sets TESTBED; tb and counter below run against it.
tb_init() {
	_what=$1 _tag=$2; shift 2
	PATH=$PATH:/usr/sbin:/sbin
	TESTBED=tools/gput-testbed
	if [ "$(id -u)" -ne 0 ]; then
		skip "$_what (needs root for network namespaces)"
		t_done
	fi
	while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
		if ! command -v "$1" >/dev/null 2>&1; then
			case $1 in
			ip | tc) _pkg=iproute2 ;; nft) _pkg=nftables ;; ping) _pkg=iputils-ping ;; *) _pkg=$1 ;;
			esac
			skip "$_what (needs $1: install the Debian package $_pkg)"
			t_done
		fi
		shift
	done
	[ "$#" -gt 0 ] && shift
	for _f in "$@"; do
		[ -x "$_f" ] || { fail "$_what ($_f not built)"; t_done; }
	done
	GPUT_TESTBED_PREFIX=gput-$_tag$$
	export GPUT_TESTBED_PREFIX
	trap tb_cleanup EXIT
}
# shellcheck disable=SC2317 # called through the trap
tb_cleanup() {
	t_cleanup
	"$TESTBED" down >/dev/null 2>&1
}

# tb ARGS...: run the testbed command; fail and stop the test when it fails.
tb() {
	if ! "$TESTBED" "$@" >"$T_TMP/tb.log" 2>&1; then
		cat "$T_TMP/tb.log"
		fail "gput-testbed $*"
		t_done
	fi
}

# counter DIR KIND: that line of "gput-testbed counters" (empty when absent).
counter() {
	"$TESTBED" counters 2>/dev/null | awk -v d="$1" -v k="$2" '$1 == d && $2 == k { print $3 }'
}

# tb_daemon: gput -i in the testbed's host b (D_WRAP stays so for later
# start_daemon calls); D_PID, D_PORT, D_LOG as start_daemon's; the test stops
# when it cannot start.
tb_daemon() {
	D_WRAP=("$TESTBED" exec b)
	start_daemon "$@" || { fail "gput -i in b"; t_done; }
}

# Captures. tcpdump says when it listens, and its own statistics (asked for
# with SIGUSR1 while it runs, printed when it stops) say whether it wrote
# every packet that passed its filter: that, not a file that stopped
# growing, tells a capture complete.
#
# cap_start NAME IFACE FILTER [TCPDUMP-OPTION...]: capture FILTER on IFACE
# into $T_TMP/NAME.pcap, under CAP_WRAP (an array, like D_WRAP: e.g.
# (ip netns exec NS)); returns when tcpdump listens (1 when it does not
# within 5 s). Sets CAP (the file; empty after a failure) and CAP_PID. -U and
# --immediate-mode: each packet goes to the file as soon as it is read.
CAP_WRAP=()
cap_start() {
	CAP=$T_TMP/$1.pcap CAP_ERR=$T_TMP/$1.tcpdump CAP_NAME=$1
	# on lo the kernel hands every packet to the capture twice (as it is
	# sent and as it arrives), and tcpdump writes it once
	CAP_K=1
	[ "$2" = lo ] && CAP_K=2
	_if=$2 _flt=$3
	shift 3
	"${CAP_WRAP[@]}" tcpdump -i "$_if" -n -U --immediate-mode -Z root "$@" -w "$CAP" "$_flt" \
		2>"$CAP_ERR" >/dev/null &
	CAP_PID=$!
	T_PIDS="$T_PIDS $CAP_PID"
	if ! wait_for_line "$CAP_ERR" 'listening on' 5 || ! cap_ask; then
		cat "$CAP_ERR"
		CAP=""
		return 1
	fi
	CAP_R0=$CAP_R     # what passed the filter before the test's traffic
}

# cap_stats: "CAPTURED RECEIVED DROPPED" from the last statistics tcpdump
# printed (its one-line answer to SIGUSR1, or its three lines at exit).
cap_stats() {
	awk '{ n = split($0, p, /, /)
		for (i = 1; i <= n; i++) {
			s = p[i]; sub(/^tcpdump: /, "", s)
			if (s ~ /^[0-9]+ packets? captured$/) c = s + 0
			else if (s ~ /^[0-9]+ packets? received by filter$/) r = s + 0
			else if (s ~ /^[0-9]+ packets? dropped by kernel$/) d = s + 0
		} }
		END { if (c != "" && r != "" && d != "") print c, r, d }' "$CAP_ERR"
}

# cap_ask: ask the running tcpdump for its statistics; sets CAP_C, CAP_R,
# CAP_D (captured, received by filter, dropped by kernel). 1 when it does
# not answer within 2 s.
cap_ask() {
	_n=$(grep -c ' captured' "$CAP_ERR")
	kill -USR1 "$CAP_PID" 2>/dev/null || return 1
	_t=$(( $(date +%s%N) / 1000000 + 2000 ))
	while [ "$(grep -c ' captured' "$CAP_ERR")" -le "$_n" ]; do
		[ "$(( $(date +%s%N) / 1000000 ))" -ge "$_t" ] && return 1
		sleep 0.02      # poll interval; the deadline above bounds the wait
	done
	read -r CAP_C CAP_R CAP_D <<-EOS
	$(cap_stats)
	EOS
}

# cap_settled: tcpdump has written every packet that passed its filter.
cap_settled() {
	cap_ask && [ $(( CAP_R - CAP_R0 )) -eq $(( CAP_K * CAP_C + CAP_D )) ]
}

# cap_stop [WANT]: once tcpdump has written all that passed its filter (the
# test's traffic is over: at most 10 s), stop it (SIGINT), wait for it and
# judge the capture by its exit statistics: nothing dropped by the kernel,
# every packet that passed the filter written, the file holding them all,
# and WANT packets when given. A case of its own; sets CAP_N (the packets
# captured). Returns 1 when the capture is not complete.
cap_stop() {
	wait_until 10 cap_settled
	kill -INT "$CAP_PID" 2>/dev/null
	wait "$CAP_PID" 2>/dev/null
	read -r CAP_N _r _d <<-EOS
	$(cap_stats)
	EOS
	_in=$(tcpdump -r "$CAP" -n 2>/dev/null | wc -l)
	_want=${1:-$CAP_N}
	_got="${CAP_N:-none} ${_d:-none} $(( ${_r:-0} - CAP_R0 - CAP_K * ${CAP_N:-0} )) $_in"
	eq "capture $CAP_NAME: tcpdump captured $_want${1:+ (as the test counts)}, none dropped by the kernel, none passed its filter unwritten, all in the file" \
		"$_got" "$_want 0 0 $_want"
	[ "$_got" = "$_want 0 0 $_want" ]
}
