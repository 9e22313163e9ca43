#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools/bufferbloat.sh: the bufferbloat experiment, as root, on the testbed.
#
#   tools/bufferbloat.sh [--router] [RATE [DELAY_MS [QUEUE_BYTES [SECONDS]]]]
#                                         (default 10M 10 100000 9)
#
# Brings up tools/gput-testbed with RATE, DELAY_MS each way and a
# QUEUE_BYTES bottleneck queue (--router: in a router between the hosts, as
# on a real path; without it the queue is the sender's own qdisc, which TCP
# Small Queues keeps nearly empty for TCP, so only UDP fills it) (namespaces $GPUT_TESTBED_PREFIX-a/-b,
# default prefix gput-bloat), runs gput's partner in b and from a, each with
# --latency: UDP at 1.2 times RATE, TCP cubic, TCP bbr. During each loaded
# phase ping measures the same path from a (its median beside gput's p50).
# Prints a table and leaves each run's JSON and ping output in bloat-out/.
# Everything it started is stopped and the testbed taken down on exit.
set -eu

cd "$(dirname "$0")/.."
PATH=$PATH:/usr/sbin:/sbin
GPUT=${GPUT:-./gput}
TESTBED=tools/gput-testbed
GPUT_TESTBED_PREFIX=${GPUT_TESTBED_PREFIX:-gput-bloat}
export GPUT_TESTBED_PREFIX
ROUTER=
if [ "${1:-}" = --router ]; then ROUTER=--router; shift; fi
RATE=${1:-10M}
DELAY=${2:-10}
QUEUE=${3:-100000}
SECS=${4:-9}
ADDR_B=198.18.0.2
OUT=bloat-out
DPID=""

die() { echo "bufferbloat: $*" >&2; exit 1; }
cleanup() {
	set +e          # the partner's exit status is no reason to stop here
	[ -n "$DPID" ] && kill "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
	"$TESTBED" down >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" = 0 ] || die "needs root (network namespaces)"
command -v jq >/dev/null || die "needs jq"
command -v ping >/dev/null || die "needs ping (iputils-ping)"
[ -x "$GPUT" ] || die "$GPUT: build it first (make)"
mkdir -p "$OUT"
"$TESTBED" up "$RATE" $ROUTER --delay "$DELAY" --queue "$QUEUE" >/dev/null
"$TESTBED" exec b "$GPUT" -i -p 0 2>"$OUT/partner.log" &
DPID=$!
i=0
until PORT=$(sed -n 's/.*listening on .* port \([0-9]*\).*/\1/p' "$OUT/partner.log") &&
    [ -n "$PORT" ]; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || die "the partner did not start: $(cat "$OUT/partner.log")"
	sleep 0.05      # poll; the count above bounds the wait
done
# UDP: 1.2 times the link's rate of payload (the queue stays full)
UDP_RATE=$(awk -v r="$RATE" 'BEGIN { m = r + 0; u = substr(r, length(r));
	f = u == "G" ? 1e9 : u == "M" ? 1e6 : u == "k" ? 1e3 : 1;
	printf "%.0f", m * f * 1.2 }')

# run NAME GPUT-ARGS...: gput with --latency from a, ping under its load
run() {
	name=$1; shift
	# ping from 2 s in (after the 1 s idle phase and the handshake) for
	# SECS - 3 s, 10 a second
	( sleep 2; "$TESTBED" exec a ping -n -i 0.1 -c $(( (SECS - 3) * 10 )) \
		"$ADDR_B" >"$OUT/$name.ping" 2>&1 ) &
	ppid=$!
	"$TESTBED" exec a "$GPUT" --time "$SECS" --latency --link "$RATE" \
		--queue-bytes "$QUEUE" --json -p "$PORT" "$@" "$ADDR_B" \
		>"$OUT/$name.json" || die "$name: gput failed"
	wait "$ppid" || true
	ping_p50=$(sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p' "$OUT/$name.ping" |
		sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)];
		else print "-" }')
	jq -r --arg n "$name" --arg ping "$ping_p50" '
		def f: if . == null then "-" else (. * 100 | round / 100 | tostring) end;
		[$n, (.sides[] | select(.role == "recv") | .real_mbit | f),
		 (.latency.idle.p50_ms | f), (.latency.loaded.p50_ms | f),
		 (.latency.loaded.p90_ms | f), (.latency.expected_loaded_ms | f),
		 $ping, (.latency.rpm | if . == null then "-" else round | tostring end),
		 (.latency.tcp_srtt_ms | f)] | @tsv' "$OUT/$name.json"
}

printf '# %s, %s ms each way, a %s-byte queue%s; gput --latency, ping under load\n' \
	"$RATE" "$DELAY" "$QUEUE" "${ROUTER:+ in a router}"
printf '# run\tMbit/s\tidle_p50\tloaded_p50\tloaded_p90\texpected\tping_p50\tRPM\ttcp_srtt\n'
run udp -u --rate "$UDP_RATE" -l 1472
run cubic --cc cubic
run bbr --cc bbr
