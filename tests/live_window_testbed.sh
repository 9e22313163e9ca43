#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# --sliding-window across tools/gput-testbed (10 Mbit/s, --delay 30: a
# 60 ms round trip), its counts against the testbed's nftables counters.
# In a testbed of its own, always taken down. Needs root and nft; skipped
# otherwise. About 15 s.
#
#   clean, window 5:  every datagram once; no faster than 5 datagrams a
#                     round trip (the bound a window cannot beat)
#   loss 2% a>b:      unique = sent, missing 0; retransmissions = timeouts;
#                     copies that arrived = sends - the loss counter, so
#                     duplicates = retransmissions - the loss counter
#   go-back-N, loss 2%: the window sent again from the lowest
#                     unacknowledged: duplicates = retransmissions - lost
#   dup 2% a>b:       duplicates = retransmissions + the dup counter;
#                     a capture at b (gput-pcap): the same received,
#                     unique and duplicates
#   reorder 10% a>b, a window of 100 (above the path's 50 datagrams, so
#                     frames queue): frames steered, datagrams misordered,
#                     still every one once
. "$(dirname "$0")/lib.sh"

tb_init "sliding window across the testbed" w ip tc nft -- "$GPUT" tools/gput-delay
tb up 10M --delay 30
tb_daemon
ADDR_B=198.18.0.2

# run NAME ARGS...: gput -u --json ARGS in a, to b; JSON in $T_TMP/NAME.json.
run() {
	local name=$1; shift
	run_t 60 "$TESTBED" exec a "$GPUT" -u --json -l 1440 -p "$D_PORT" "$@" "$ADDR_B"
	cp "$OUT" "$T_TMP/$name.json"
	eq "$name: exit" "$RC" 0
	[ "$RC" = 0 ] || cat "$ERR"
}
# j NAME EXPR: a figure of that run's JSON (python3, the standard library).
j() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); s, r = d["sides"]
w, v = s["window"], r["window"]
x = d.get("explain", {})
print(eval(sys.argv[2]))' "$T_TMP/$1.json" "$2"
}
# whole NAME N: every one of N datagrams delivered once, counted both ways.
whole() {
	eq "$1: first sends" "$(j "$1" 'w["first_sends"]')" "$2"
	eq "$1: unique" "$(j "$1" 'v["unique"]')" "$2"
	eq "$1: missing" "$(j "$1" 'v["missing"]')" 0
	eq "$1: acknowledged, once each" "$(j "$1" 'w["acks_new"]')" "$2"
	eq "$1: timeouts = retransmissions" "$(j "$1" 'w["timeouts"]')" \
		"$(j "$1" 'w["retransmissions"]')"
	eq "$1: ACKs sent = datagrams received" "$(j "$1" 'v["acks_sent"]')" \
		"$(j "$1" 'r["udp"]["received"]')"
}

# --- clean: 5 datagrams a round trip at most
run clean -n 100 --sliding-window 5
whole clean 100
eq "clean: no retransmission" "$(j clean 'w["retransmissions"]')" 0
check "clean: goodput $(j clean 's["real_mbit"]') Mbit/s within 5 x 1440 x 8 / 60 ms" \
	test "$(j clean 'int(s["real_mbit"] <= 5 * 1440 * 8 / 0.060 / 1e6)')" = 1
eq "clean: the verdict names the sliding window, its ratio of window/RTT" \
	"$(j clean 'x["limit"], x["bound"], x["ratio"] >= 0.95, x["evidence"]["window"]')" \
	"('sliding_window', 'window/RTT', True, 5)"

# --- loss: each lost copy is a timeout and a send again
tb impair 'a>b' loss 2
run loss -n 500 --sliding-window 10
LOSS=$(counter 'a>b' loss)
whole loss 500
check "loss 2%: the counter counted some (${LOSS:-none})" [ "${LOSS:-0}" -gt 0 ]
eq "loss 2%: copies received = sends - lost" "$(j loss 'r["udp"]["received"]')" \
	"$(j loss "w['first_sends'] + w['retransmissions'] - ${LOSS:-0}")"
eq "loss 2%: duplicates = retransmissions - lost" "$(j loss 'v["duplicates"]')" \
	"$(j loss "w['retransmissions'] - ${LOSS:-0}")"
eq "loss 2%: the verdict is loss where timeouts held the window under its bound" \
	"$(j loss 'x["limit"] == ("network_loss" if x["ratio"] < 0.95 else "sliding_window"), x["evidence"]["timeouts"] == w["timeouts"] > 0')" \
	"(True, True)"
tb impair ab clear

# --- go-back-N under loss: a timeout sends the window again from the
# lowest unacknowledged, so more copies than lost datagrams arrive
tb impair 'a>b' loss 2
run gbn -n 500 --sliding-window 10 --go-back-n
LOSS=$(counter 'a>b' loss)
for k in first_sends:500 acks_new:500; do
	eq "go-back-N: ${k%%:*}" "$(j gbn "w['${k%%:*}']")" "${k#*:}"
done
eq "go-back-N: unique, missing" "$(j gbn '(v["unique"], v["missing"])')" "(500, 0)"
eq "go-back-N: the mode" "$(j gbn 'w["mode"]')" go-back-n
check "go-back-N: the counter counted some (${LOSS:-none})" [ "${LOSS:-0}" -gt 0 ]
check "go-back-N: timeouts ($(j gbn 'w["timeouts"]')) at most the retransmissions" \
	test "$(j gbn 'int(w["timeouts"] <= w["retransmissions"])')" = 1
eq "go-back-N: duplicates = retransmissions - lost" "$(j gbn 'v["duplicates"]')" \
	"$(j gbn "w['retransmissions'] - ${LOSS:-0}")"
tb impair ab clear

# --- dup: the path's copies are duplicates too; a capture at b says the
# same (gput-pcap)
tb impair 'a>b' dup 2
HAVE_CAP=0
if command -v tcpdump >/dev/null && [ -x "$GPUT_PCAP" ]; then
	CAP_WRAP=("$TESTBED" exec b)
	cap_start dup veth-b "udp and src host 198.18.0.1" && HAVE_CAP=1
fi
run dup -n 500 --sliding-window 10
DUP=$(counter 'a>b' dup)
if [ "$HAVE_CAP" = 1 ]; then
	cap_stop
	run_t 20 "$GPUT_PCAP" --json "$CAP"
	for k in received unique duplicates; do
		eq "dup 2%: the capture's $k (gput-pcap) == gput's" "$(python3 -c '
import json, sys
f = [f for f in json.load(open(sys.argv[1]))["flows"] if f.get("gput_udp")]
print(f[0]["gput_udp"][sys.argv[2]])' "$OUT" "$k")" "$(j dup "r['udp']['$k']")"
	done
else
	skip "dup 2%: the capture (needs tcpdump and gput-pcap)"
fi
whole dup 500
check "dup 2%: the counter counted some (${DUP:-none})" [ "${DUP:-0}" -gt 0 ]
eq "dup 2%: duplicates = retransmissions + copies made" "$(j dup 'v["duplicates"]')" \
	"$(j dup "w['retransmissions'] + ${DUP:-0}")"
tb impair ab clear

# --- reorder: a window above the path's makes a queue for frames to overtake
tb impair 'a>b' reorder 10
run reorder -n 600 --sliding-window 100
STEER=$(counter 'a>b' reorder)
whole reorder 600
check "reorder 10%: frames steered (${STEER:-none})" [ "${STEER:-0}" -gt 0 ]
check "reorder 10%: datagrams misordered ($(j reorder 'v["misordered"]'))" \
	test "$(j reorder 'v["misordered"]')" -gt 0
eq "reorder 10%: duplicates = retransmissions (nothing lost)" \
	"$(j reorder 'v["duplicates"]')" "$(j reorder 'w["retransmissions"]')"
tb impair ab clear
t_done
