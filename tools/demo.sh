#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# make demo: the classic goodput experiment on one machine.
#
# As root: builds a 10 Mbit/s Ethernet link in a box (tools/gput-testbed, in
# namespaces of its own: gput-demo-a and gput-demo-b), runs gput's partner
# daemon in b and gput in a, captures the data at b's end with tcpdump, reads
# the capture with gput-pcap, and prints expected (eta*C, from gput --predict)
# beside measured goodput; then sweeps message sizes and plots both with
# tools/plot-goodput.sh; then adds 10 ms of delay each way (RTT 20 ms) and
# runs TCP with gput's prediction for that RTT (--rtt 20), once with the
# kernel's window and once with 16 KiB socket buffers (window-limited).
# Everything it wrote is in demo-out/.
# Not root (or no ip/tc/ethtool): a quick measurement on loopback, which has
# no link rate, so there is no eta*C to compare against; says so.
#
# Takes two to three minutes. Everything it started is stopped and the namespaces
# are removed on exit, also on Ctrl-C.
set -eu

cd "$(dirname "$0")/.."
PATH=$PATH:/usr/sbin:/sbin
GPUT=${GPUT:-./gput}
GPUT_PCAP=${GPUT_PCAP:-./gput-pcap}
OUT=${DEMO_OUT:-demo-out}
RATE=10M
LINK_MBIT=10
TESTBED=tools/gput-testbed
GPUT_TESTBED_PREFIX=${GPUT_TESTBED_PREFIX:-gput-demo}
export GPUT_TESTBED_PREFIX
NS_A=$GPUT_TESTBED_PREFIX-a
NS_B=$GPUT_TESTBED_PREFIX-b
DEV_B=veth-b
ADDR_A=198.18.0.1
ADDR_B=198.18.0.2
# Message sizes of the sweep, seconds of link time each run should take,
# and runs per size (gput --repeat: the figure's mean and its bars).
SIZES=${DEMO_SIZES:-"64 256 512 1024 1472 2000 4000"}
SWEEP_S=${DEMO_SWEEP_S:-2}
REPS=${DEMO_REPS:-3}

PIDS=""
TESTBED_UP=no

say() { printf '\n== %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

cleanup() {
	trap - EXIT INT TERM
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	for p in $PIDS; do wait "$p" 2>/dev/null || true; done
	if [ "$TESTBED_UP" = yes ]; then
		"$TESTBED" down >/dev/null 2>&1 || true
		echo "demo: testbed removed"
	fi
}
trap cleanup EXIT
trap 'echo "demo: interrupted" >&2; exit 130' INT TERM

# wait_line FILE REGEX SECONDS: poll FILE until a line matches REGEX; fail at
# the deadline. (Readiness is announced on stderr; nothing sleeps blindly.)
wait_line() {
	_end=$(( $(date +%s) + $3 ))
	until grep -Eq "$2" "$1" 2>/dev/null; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.05
	done
}

# settle FILE SECONDS: wait until FILE has stopped growing (the same size at
# two polls 0.1 s apart), at most SECONDS.
settle() {
	_end=$(( $(date +%s) + $2 ))
	_last=-1
	while [ "$(date +%s)" -lt "$_end" ]; do
		_sz=$(wc -c <"$1" 2>/dev/null || echo 0)
		[ "$_sz" -eq "$_last" ] && return 0
		_last=$_sz
		sleep 0.1
	done
}

missing_tools() {
	_m=""
	for _t in "$@"; do command -v "$_t" >/dev/null 2>&1 || _m="$_m $_t"; done
	echo "${_m# }"
}

# start_daemon [CMD-PREFIX...]: start "gput -i -p 0" (after the prefix, e.g.
# "ip netns exec NS") and set PORT from its "listening on ... port N" line.
start_daemon() {
	"$@" "$GPUT" -i -p 0 >/dev/null 2>"$OUT/daemon.log" &
	PIDS="$PIDS $!"
	wait_line "$OUT/daemon.log" 'listening on .* port [0-9]+' 5 || {
		cat "$OUT/daemon.log" >&2
		die "gput -i did not announce its port within 5 s"
	}
	PORT=$(sed -n 's/.*listening on .* port \([0-9][0-9]*\).*/\1/p' "$OUT/daemon.log" | head -n 1)
}

# predict ARGS...: print "eta expected_mbit" from gput --predict ARGS.
predict() {
	"$GPUT" --predict "$@" | awk '$1 == "eta" { e = $2 } $1 == "expected" { x = $2 }
	    END { if (e == "" || x == "") exit 1; print e, x }'
}

# recv_mbit NAME: the receiving side's Real-MBit/s from run NAME's JSON
# (gput --json: the sides' real_mbit, the machine's interface, not the table).
recv_mbit() {
	jq -r '.sides[] | select(.role == "recv") | .real_mbit' "$OUT/$1.gput.json"
}

# capture_start NAME: tcpdump at b's end of the link, data direction only
# (from a, without the control connection), into $OUT/NAME.pcap.
capture_start() {
	CAP=""
	[ "$HAVE_TCPDUMP" = yes ] || return 0
	CAP=$OUT/$1.pcap
	rm -f "$CAP" "$OUT/$1.tcpdump.log"
	# --immediate-mode: hand each packet over as it arrives (otherwise
	# libpcap batches them in ring blocks, and a block not yet handed over
	# when tcpdump is stopped is lost); -U: write each one out at once.
	ip netns exec "$NS_B" tcpdump -i "$DEV_B" -n -U --immediate-mode -Z root -w "$CAP" \
		"ip and src host $ADDR_A and not tcp port $PORT" \
		2>"$OUT/$1.tcpdump.log" &
	CAP_PID=$!
	PIDS="$PIDS $CAP_PID"
	wait_line "$OUT/$1.tcpdump.log" 'listening on' 5 || {
		cat "$OUT/$1.tcpdump.log" >&2
		die "tcpdump did not start within 5 s"
	}
}

# capture_stop NAME: stop tcpdump (it flushes and reports on SIGINT), then
# show what gput-pcap makes of the capture and keep its JSON for the summary.
capture_stop() {
	[ -n "$CAP" ] || return 0
	settle "$CAP" 2
	kill -INT "$CAP_PID" 2>/dev/null || true
	wait "$CAP_PID" 2>/dev/null || true
	grep -E 'captured|dropped by kernel' "$OUT/$1.tcpdump.log" | sed 's/^/tcpdump: /'
	if [ "$HAVE_PCAP" != yes ]; then
		echo "($GPUT_PCAP not built: capture kept in $CAP)"
		return 0
	fi
	echo "\$ gput-pcap --link $RATE $CAP"
	"$GPUT_PCAP" --link "$RATE" "$CAP" || echo "(gput-pcap failed)"
	"$GPUT_PCAP" --link "$RATE" --json "$CAP" >"$OUT/$1.json" 2>/dev/null ||
		rm -f "$OUT/$1.json"
}

# pcap_col NAME KEY: KEY of the capture's main flow (most payload), or "-".
pcap_col() {
	_v=""
	if [ -s "$OUT/$1.json" ] && [ "$HAVE_JQ" = yes ]; then
		_v=$(jq -r --arg k "$2" '.flows | max_by(.payload_bytes) | .[$k] // empty' \
			"$OUT/$1.json" 2>/dev/null || true)
	fi
	echo "${_v:--}"
}

# run_gput NAME ARGS...: gput --json in a against the daemon in b, to
# $OUT/NAME.gput.json; each side's result and the link's expectation from
# it to the terminal.
run_gput() {
	_name=$1
	shift
	echo "\$ gput --json $* $ADDR_B"
	ip netns exec "$NS_A" timeout 60 "$GPUT" --json -p "$PORT" "$@" "$ADDR_B" \
		>"$OUT/$_name.gput.json" ||
		{ cat "$OUT/$_name.gput.json"; die "gput $* failed"; }
	jq -r '.sides[] | [.side, .role, .bytes, .real_s, .real_mbit] | @tsv' \
		"$OUT/$_name.gput.json" | awk -F '\t' \
		'{ printf "%s %s: %s bytes, %.3f s, %.4f MBit/s\n", $1, $2, $3, $4, $5 }'
	jq -r '.link // empty | [.eta, .expected_mbit, (.bound_mbit // "")] | @tsv' \
		"$OUT/$_name.gput.json" | awk -F '\t' '{
			printf "link: eta %.4f, expected %.4f MBit/s", $1, $2
			if ($3 != "" && $3 + 0 < $2 + 0) printf ", bound %.4f MBit/s", $3
			printf "\n" }'
}

demo_loopback() {
	say "loopback: $1"
	echo "Without the emulated link there is no link rate: loopback runs as fast as"
	echo "the CPU copies, so there is no eta*C to compare with. For the real"
	echo "experiment (a 10 Mbit/s Ethernet link in network namespaces) run: sudo make demo"
	start_daemon
	say "TCP, 10000 x 1448 bytes over loopback"
	echo "\$ gput -T -n 10000 -l 1448 127.0.0.1"
	timeout 60 "$GPUT" -T -p "$PORT" -n 10000 -l 1448 127.0.0.1
	say "UDP, 10000 x 1472 bytes over loopback, 20 us apart"
	echo "\$ gput -T -u -n 10000 -l 1472 -g 20 127.0.0.1"
	timeout 60 "$GPUT" -T -u -p "$PORT" -n 10000 -l 1472 -g 20 127.0.0.1
	say "what the same transfers would give on a 10 Mbit/s Ethernet link (gput --predict)"
	printf 'TCP -l 1448: %s\n' "$("$GPUT" --predict -l 1448 --link "$RATE" | tail -n 1)"
	printf 'UDP -l 1472: %s\n' "$("$GPUT" --predict -u -l 1472 --link "$RATE" | tail -n 1)"
	say "and across 20 ms of RTT with 16 KiB of window (gput --predict --rtt 20 -w 16)"
	"$GPUT" --predict -l 1448 --link "$RATE" --rtt 20 -w 16 | tail -n 4
}

# sweep: REPS short runs per message size and protocol (gput --repeat);
# writes goodput.dat (proto length expected mean min max ci_low ci_high n)
# for tools/plot-goodput.sh.
sweep() {
	say "goodput across message sizes, ${SWEEP_S} s of link time each, $REPS runs"
	_dat=$OUT/goodput.dat
	echo "# proto length expected_mbit measured_mbit min max ci_low ci_high n  (link $RATE; gput --predict; the receiver's Real-MBit/s over gput --repeat $REPS: mean, min, max, 95% CI)" >"$_dat"
	printf '%-5s %6s %8s %9s %9s %7s\n' proto length count expected measured ratio
	for _proto in udp tcp; do
		for _l in $SIZES; do
			if [ "$_proto" = udp ]; then _u=-u; else _u=""; fi
			# shellcheck disable=SC2086 # $_u is empty or one flag
			_x=$(predict $_u -l "$_l" --link "$RATE" | awk '{ print $2 }')
			# Per message at link rate: 8*l/expected us. Count for SWEEP_S
			# seconds; UDP paced 5% faster than the link, so that the queue
			# soon covers a sender descheduled for a few ms (see also below).
			_n=$(awk -v l="$_l" -v x="$_x" -v s="$SWEEP_S" 'BEGIN { printf "%d\n", s * x * 1e6 / (8 * l) }')
			_g=$(awk -v l="$_l" -v x="$_x" 'BEGIN { printf "%d\n", 0.95 * 8 * l / x }')
			if [ "$_proto" = udp ]; then
				ip netns exec "$NS_A" timeout 120 "$GPUT" -p "$PORT" --repeat "$REPS" --csv -u -n "$_n" -l "$_l" -g "$_g" "$ADDR_B" >"$OUT/sweep.txt" ||
					die "gput -u -n $_n -l $_l -g $_g failed"
			else
				ip netns exec "$NS_A" timeout 120 "$GPUT" -p "$PORT" --repeat "$REPS" --csv -n "$_n" -l "$_l" "$ADDR_B" >"$OUT/sweep.txt" ||
					die "gput -n $_n -l $_l failed"
			fi
			_s=$(awk -f tools/goodput-row.awk "$OUT/sweep.txt") || { cat "$OUT/sweep.txt"; die "no partner rows in gput's output"; }
			_m=${_s%% *}
			echo "$_proto $_l $_x $_s" >>"$_dat"
			awk -v p="$_proto" -v l="$_l" -v n="$_n" -v x="$_x" -v m="$_m" \
				'BEGIN { printf "%-5s %6d %8d %9.4f %9.4f %7.4f\n", p, l, n, x, m, m / x }'
		done
	done
	rm -f "$OUT/sweep.txt"
	if command -v gnuplot >/dev/null 2>&1; then
		_sub="two network namespaces joined by an emulated $LINK_MBIT Mbit/s Ethernet link (tools/gput-testbed)\\nlines: expected goodput η·C, the payload’s share of the bits on the wire × $LINK_MBIT Mbit/s\\ndots: measured by the receiving gput, mean of $REPS runs; bars: 95% confidence interval; UDP sent 5% above the link rate"
		for _f in png svg; do
			tools/plot-goodput.sh -C "$LINK_MBIT" -s "$_sub" \
				"$_dat" "$OUT/goodput.$_f"
		done
	else
		echo "demo: gnuplot not found, no plot (install gnuplot-nox); data in $_dat"
	fi
}

# timed_run: one 6 s run with intervals, as JSON, drawn by tools/gput-plot
# (goodput per interval of both sides, the sender's RTT and cwnd).
timed_run() {
	say "one timed run: 6 s, intervals of 0.25 s, drawn by tools/gput-plot"
	echo "\$ gput --time 6 --interval 0.25 --link $RATE --json $ADDR_B >$OUT/timed.json"
	ip netns exec "$NS_A" timeout 60 "$GPUT" -p "$PORT" --time 6 --interval 0.25 \
		--link "$RATE" --json "$ADDR_B" >"$OUT/timed.json" || die "the timed run failed"
	if [ -n "$(missing_tools gnuplot jq)" ]; then
		echo "demo: $(missing_tools gnuplot jq) not found, no figure (install gnuplot-nox, jq)"
		return
	fi
	tools/gput-plot "$OUT/timed.json" || die "tools/gput-plot failed"
}

demo_testbed() {
	say "a ${RATE}bit/s Ethernet link in a box: $NS_A ($ADDR_A) <-> $NS_B ($ADDR_B)"
	TESTBED_UP=yes
	"$TESTBED" up "$RATE" 1500
	start_daemon ip netns exec "$NS_B"
	echo "partner: gput -i in $NS_B, control port $PORT"
	HAVE_TCPDUMP=yes
	[ -n "$(missing_tools tcpdump)" ] && {
		HAVE_TCPDUMP=no
		echo "demo: tcpdump not found, no captures (install tcpdump)"
	}

	say "TCP: 10000 x 1448 bytes (timestamps on: 1448 payload bytes per 1538-byte frame)"
	capture_start tcp
	run_gput tcp -n 10000 -l 1448 --link "$RATE"
	capture_stop tcp

	# 1472-byte payload = 1538 bytes on the wire (8 UDP + 20 IP + 14 MAC
	# + 4 FCS + 20 preamble/gap) = 1230.4 us at 10 Mbit/s. Sending every
	# 1200 us is 2.5% faster than the link: the shaper's queue fills slowly
	# (about 100 datagrams over this run, within its 200000-byte limit), so
	# the link, not the sender's pacing, sets the receiver's rate.
	say "UDP: 4000 x 1472 bytes, one every 1200 us (the link needs 1230.4 us per frame)"
	capture_start udp
	run_gput udp -u -n 4000 -l 1472 -g 1200 --link "$RATE"
	capture_stop udp

	say "expected (eta*C) vs measured goodput, MBit/s"
	_tx=$(predict -l 1448 --link "$RATE")
	_ux=$(predict -u -l 1472 --link "$RATE")
	LOW=no
	printf '%-13s %7s %9s %9s %7s %9s %8s\n' run eta expected receiver ratio capture pcap-eta
	for _r in "tcp TCP-l-1448 $_tx" "udp UDP-l-1472 $_ux"; do
		# shellcheck disable=SC2086 # split the tuple
		set -- $_r
		_m=$(recv_mbit "$1")
		awk -v n="$2" -v e="$3" -v x="$4" -v m="$_m" \
			-v c="$(pcap_col "$1" goodput_mbit)" -v ce="$(pcap_col "$1" eta)" \
			'BEGIN {
				if (c != "-") c = sprintf("%.4f", c)
				if (ce != "-") ce = sprintf("%.4f", ce)
				printf "%-13s %7.4f %9.4f %9.4f %7.4f %9s %8s\n", n, e, x, m, m / x, c, ce
				exit m / x < 0.98
			}' || LOW=yes
	done
	echo "receiver = the receiving side's real_mbit in gput's JSON ($OUT/*.gput.json); capture = gput-pcap on $OUT/*.pcap"
	if [ "$LOW" = yes ]; then
		echo "note: a run fell more than 2% short of eta*C. On this emulated link that means"
		echo "the sender or receiver did not get the CPU in time (other load on this host:"
		echo "see gput's lines above, and 'received N of M' for UDP); run make demo again."
	fi

	sweep
	timed_run
	demo_delay
	echo
	echo "demo: results in $OUT/ (gput's JSON *.gput.json, captures *.pcap, goodput.dat, goodput.png, goodput.svg)"
	echo "demo: the timed run: $OUT/timed.json, its figure $OUT/timed.png and .svg"
}

# demo_delay: the same link with 10 ms of delay each way (RTT 20 ms, by
# tools/gput-delay: this kernel has no netem). Adding a delay rebuilds the
# testbed, which ends the partner: start it again.
demo_delay() {
	say "the same ${RATE}bit/s link with 10 ms of delay each way: RTT 20 ms"
	"$TESTBED" up "$RATE" 1500 --delay 10
	start_daemon ip netns exec "$NS_B"
	if [ -z "$(missing_tools ping)" ]; then
		echo "\$ ping -c 5 -i 0.2 $ADDR_B"
		ip netns exec "$NS_A" ping -c 5 -i 0.2 "$ADDR_B" | tail -n 1
	fi
	say "TCP across 20 ms, with the prediction: eta*C needs a window of the BDP"
	run_gput tcp-rtt20 -n 4000 -l 1448 --link "$RATE" --rtt 20
	say "TCP with 16 KiB socket buffers across 20 ms: window/RTT is below eta*C"
	run_gput tcp-rtt20-w16 -n 2000 -l 1448 -w 16 --link "$RATE" --rtt 20
	echo "The first run fills the link after slow start: the kernel grows its window"
	echo "past the 23537-byte bandwidth-delay product. The second is held near its"
	echo "window per RTT: Linux doubles a socket buffer and keeps a share of it for"
	echo "bookkeeping, so the window -w 16 really gives differs from 16384 bytes."
}

[ -x "$GPUT" ] || die "$GPUT not built: run make first"
mkdir -p "$OUT"
HAVE_PCAP=no
[ -x "$GPUT_PCAP" ] && HAVE_PCAP=yes
HAVE_JQ=no
command -v jq >/dev/null 2>&1 && HAVE_JQ=yes

if [ "$(id -u)" -ne 0 ]; then
	demo_loopback "not root, and the emulated link needs network namespaces (root)"
elif [ -n "$(missing_tools ip tc ethtool jq)" ]; then
	demo_loopback "$(missing_tools ip tc ethtool jq) not found (Debian packages iproute2, ethtool, jq)"
else
	demo_testbed
fi
