#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: the fast data paths. --batch (sendmmsg/recvmmsg) and --gso
# (UDP GSO/GRO), local and remote, both directions, with exact Bytes and
# datagram counts, the markers still ending the run, pacing kept, loss
# counted exactly under --batch (an nftables rule in a namespace drops every
# 10th datagram); --discard for TCP and UDP receivers and its refusal with
# -c; the fallback when the kernel refuses GSO (a datagram over the MTU in a
# namespace) or has neither GSO nor GRO (tests/nogso.so). The receive
# buffers (-w 4096) hold every datagram of a run, so nothing is lost unless
# a test drops it.
. "$(dirname "$0")/lib.sh"

need_ctlpeer
start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT
G=("$GPUT" -u -w 4096 -l 1472 -p "$P")
jqe() { jq -e "$@" >/dev/null; }

# under TAG TEXT: the line under the table that starts "TAG: TEXT".
line() { sed -n "s/^$1: //p" "$OUT" | grep -F -- "$2" | head -n 1; }
# calls_line TAG: "N datagrams in M calls" of TAG's batch line.
calls_line() { sed -n "s/^$1: \([0-9]* datagrams in [0-9]* calls\),.*/\1/p" "$OUT"; }
# bytes_both WANT: both sides' Bytes.
bytes_both() { eq "$1: Bytes l and 1" "$(field l 2) $(field 1 2)" "$2 $2"; }

# --- --batch: both sides, each side alone, both directions
run_t 30 "${G[@]}" --batch 64 -n 2000 127.0.0.1
bytes_both "--batch 64 both" 2944000
eq "--batch 64 both: the markers end the run" "$(line 1 received)" \
	"received 2000 of 2000 datagrams, 0 lost (0.00%)"
eq "--batch 64 both: the sender's calls (32 batches, 3 markers)" \
	"$(calls_line l)" "2000 datagrams in 35 calls"
eq "--batch 64 both: Calls column is system calls" "$(field l 7)" 35
check "--batch 64 both: the receiver counts every datagram" \
	grep -Eq '^1: 2000 datagrams in [0-9]+ calls, .* \(--batch 64\)$' "$OUT"

run_t 30 "${G[@]}" -n 2000 127.0.0.1 --batch 64
bytes_both "remote --batch 64 (receiver)" 2944000
eq "remote --batch: the plain sender's Calls" "$(field l 7)" 2003
eq "remote --batch: no batch line for the plain side" "$(calls_line l)" ""
eq "remote --batch: arrival" "$(line 1 received)" \
	"received 2000 of 2000 datagrams, 0 lost (0.00%)"

run_t 30 "${G[@]}" -r -n 2000 127.0.0.1 --batch 64
bytes_both "-r, remote --batch 64 (sender)" 2944000
eq "-r, remote --batch: the partner's calls" "$(calls_line 1)" \
	"2000 datagrams in 35 calls"
eq "-r, remote --batch: the local receiver reads one per call" "$(field l 7)" 2000
eq "-r, remote --batch: arrival" "$(line l received)" \
	"received 2000 of 2000 datagrams, 0 lost (0.00%)"

run_t 30 "${G[@]}" -r --batch 16 -n 2000 127.0.0.1 -l 1472
bytes_both "-r --batch 16 both" 2944000
eq "-r --batch 16: the partner's calls (125 batches, 3 markers)" \
	"$(calls_line 1)" "2000 datagrams in 128 calls"
check "-r --batch 16: the local receiver's datagrams" \
	grep -Eq '^l: 2000 datagrams in [0-9]+ calls' "$OUT"

# --- --gso: 44 datagrams of 1472 bytes per super-buffer
run_t 30 "${G[@]}" --gso -n 2000 127.0.0.1
bytes_both "--gso both" 2944000
eq "--gso both: the sender's calls (46 sends, 3 markers)" "$(calls_line l)" \
	"2000 datagrams in 49 calls"
eq "--gso both: arrival" "$(line 1 received)" \
	"received 2000 of 2000 datagrams, 0 lost (0.00%)"
RC1=$(sed -n 's/^1: 2000 datagrams in \([0-9]*\) calls.*/\1/p' "$OUT")
check "--gso both: GRO hands over several datagrams a call (${RC1:-?} calls)" \
	[ "${RC1:-2000}" -lt 2000 ]

run_t 30 "${G[@]}" -r -n 2000 127.0.0.1 --gso
bytes_both "-r, remote --gso (sender)" 2944000
eq "-r, remote --gso: the partner's calls" "$(calls_line 1)" \
	"2000 datagrams in 49 calls"
eq "-r, remote --gso: arrival at a plain receiver" "$(line l received)" \
	"received 2000 of 2000 datagrams, 0 lost (0.00%)"

run_t 30 "${G[@]}" -r --gso --batch 8 -n 2000 127.0.0.1
bytes_both "-r --gso --batch 8 both" 2944000
eq "-r --gso --batch 8: the partner's calls (6 sends of up to 352)" \
	"$(calls_line 1)" "2000 datagrams in 9 calls"
eq "-r --gso --batch 8: arrival" "$(line l received)" \
	"received 2000 of 2000 datagrams, 0 lost (0.00%)"

run_t 30 "${G[@]}" --gso --batch 4 -c -s -x 1000000 127.0.0.1
bytes_both "--gso --batch 4 -c -s -x (a short last datagram)" 1000000
eq "--gso --batch 4 -c: every byte checked" "$(line 1 verified)" \
	"verified 1000000 bytes, all match the pattern"
eq "--gso --batch 4 -x: arrival" "$(line 1 received)" \
	"received 680 of 680 datagrams, 0 lost (0.00%)"

# without -s every full datagram is laid out once and only its header
# rewritten; the short last one goes the other way
run_t 30 "${G[@]}" --gso --batch 4 -c -x 1000000 127.0.0.1
eq "--gso --batch 4 -c -x (no -s): every byte checked" "$(line 1 verified)" \
	"verified 1000000 bytes, all match the pattern"
eq "--gso --batch 4 -c -x (no -s): arrival" "$(line 1 received)" \
	"received 680 of 680 datagrams, 0 lost (0.00%)"

run_t 30 "${G[@]}" -l 16 --gso --batch 2 -n 500 127.0.0.1
eq "-l 16 (no header) --gso --batch 2: Bytes" "$(field l 2) $(field 1 2)" \
	"8000 8000"
eq "-l 16 --gso --batch 2: the sender's calls" "$(calls_line l)" \
	"500 datagrams in 7 calls"

# --- pacing: a batch never holds a datagram before its time
run_t 30 "${G[@]}" --json --batch 64 --rate 200M --burst 10 -n 1000 127.0.0.1
check "--batch 64 --rate --burst 10: a call per burst, 103 calls" jqe \
	'.sides[0] | .calls == 103 and .datagrams == 1000 and .batch == 64 and .gso == false' "$OUT"
check "--batch 64 --rate --burst 10: no earlier than the schedule (58.3 ms)" jqe \
	'.sides[0].real_s >= 0.0582' "$OUT"
check "--batch 64 --rate: every datagram arrived" jqe \
	'.sides[1].udp | .sent == 1000 and .unique == 1000 and .lost == 0' "$OUT"

run_t 30 "${G[@]}" --gso --rate 500M --burst 100 -n 1000 127.0.0.1
eq "--gso --rate --burst 100: a send per burst, up to 44 a time" \
	"$(calls_line l)" "1000 datagrams in 33 calls"

# --- streams: each its own batched path
run_t 30 "${G[@]}" -P 2 --batch 32 -n 1000 127.0.0.1
eq "-P 2 --batch 32: Bytes of both streams" "$(awk '$1 == "l" && NF > 2 { b = $2 } END { print b }' "$OUT")" 2944000

# --- --discard: the kernel drops the data, the counts stay exact
run_t 30 "$GPUT" -n 200 -l 128k -p "$P" 127.0.0.1 --discard
bytes_both "TCP, remote --discard" 26214400
run_t 30 "$GPUT" -r --discard -n 200 -l 128k -p "$P" 127.0.0.1
bytes_both "TCP -r --discard" 26214400
run_t 30 "${G[@]}" -n 2000 127.0.0.1 --discard
bytes_both "UDP, remote --discard" 2944000
eq "UDP --discard: arrival (the header of each datagram read)" \
	"$(line 1 received)" "received 2000 of 2000 datagrams, 0 lost (0.00%)"
run_t 30 "${G[@]}" -r --discard --batch 32 -x 2000000 127.0.0.1
bytes_both "UDP -r --discard --batch 32 -x" 2000000
eq "UDP -r --discard --batch 32: arrival" "$(line l received)" \
	"received 1359 of 1359 datagrams, 0 lost (0.00%)"
run_t 30 "${G[@]}" -l 16 -n 500 127.0.0.1 --discard
eq "UDP --discard, no header: counted by length" "$(field l 2) $(field 1 2)" \
	"8000 8000"

# --- refusals: one usage line, exit 2; the partner refuses them too
run_t 10 "$GPUT" -c --discard -p "$P" 127.0.0.1
eq "--discard -c: exit 2" "$RC" 2
eq "--discard -c: one line" "$(cat "$ERR")" \
	"gput: --discard and -c cannot be used together (-c checks the data that --discard drops)"
run_t 10 "$GPUT" -c -p "$P" 127.0.0.1 --discard
eq "-c, remote --discard: exit 2" "$RC" 2
run_t 10 "$GPUT" --batch 8 -p "$P" 127.0.0.1
eq "--batch for TCP: exit 2" "$RC $(cat "$ERR")" \
	"2 gput: --batch and --gso apply to UDP only"
run_t 10 "$GPUT" -u --batch 129 -p "$P" 127.0.0.1
eq "--batch 129: exit 2" "$RC" 2
# z N: N zero bytes as ctlpeer raw= escapes. A PARAMS (UDP, receive, 10
# buffers of 1000 bytes) with flags 0x22: verify and discard.
z() { printf '\\x00%.0s' $(seq "$1"); }
PARAMS="GPUT\x04\x01\x00\xd8\x01\x01\x22\x00\x00\x00\x03\xe8$(z 7)\x0a$(z 8)"
PARAMS="$PARAMS\x00\x00\x03\xe8$(z 4)$(z 6)\x27\x10$(z 8)$(z 16)$(z 64)\x00\x01$(z 86)"
run_t 20 "$CTLPEER" client "$P" hello "raw=$PARAMS" error
eq "the partner refuses PARAMS with --discard and -c" \
	"$(sed -n 's/^ok error //p' "$OUT")" "bad request: bad PARAMS message: --discard with -c"

# --- fallback: a kernel without GSO and GRO (setsockopt says ENOPROTOOPT);
# the preloaded library comes before the sanitizers' runtime in make check-asan
if make -s tests/nogso.so >/dev/null 2>&1; then
	run_t 30 env ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" LD_PRELOAD=tests/nogso.so "${G[@]}" --gso -n 2000 127.0.0.1
	bytes_both "no GSO here: --gso" 2944000
	eq "no GSO here: said once" "$(grep -c 'gso' "$ERR") $(cat "$ERR")" \
		"1 gput: --gso: the kernel refused UDP_SEGMENT (Protocol not available): sending one datagram per message instead"
	eq "no GSO here: one datagram per call" "$(calls_line l)" \
		"2000 datagrams in 2003 calls"
	run_t 30 env ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" LD_PRELOAD=tests/nogso.so "${G[@]}" -r --gso -n 2000 127.0.0.1 --gso
	bytes_both "no GRO here: -r --gso" 2944000
	eq "no GRO here: said once" "$(grep -c 'gso' "$ERR") $(cat "$ERR")" \
		"1 gput: --gso: the kernel refused UDP_GRO (Protocol not available): receiving one datagram per message instead"
	eq "no GRO here: arrival" "$(line l received)" \
		"received 2000 of 2000 datagrams, 0 lost (0.00%)"
	eq "no GRO here: a datagram per call" "$(calls_line l)" \
		"2000 datagrams in 2000 calls"
else
	fail "tests/nogso.so builds"
fi

# --- in a namespace: GSO over the MTU, and loss under --batch
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! command -v nft >/dev/null; then
	skip "GSO over the MTU and --batch under loss (need root, ip and nft)"
	t_done
fi
NS=gput-f$$
NSX=(ip netns exec "$NS")
ns_cleanup() { t_cleanup; ip netns pids "$NS" 2>/dev/null | xargs -r kill; ip netns del "$NS" 2>/dev/null; }
trap ns_cleanup EXIT
ip netns add "$NS" && ip -n "$NS" link set lo mtu 1500 up ||
	{ fail "create namespace $NS"; t_done; }
D_WRAP=("${NSX[@]}")
start_daemon || { fail "daemon in $NS"; t_done; }
GN=("${NSX[@]}" "$GPUT" -u -w 4096 -p "$D_PORT")

# 2000-byte datagrams over an MTU of 1500: the kernel refuses to segment
# them (each would need IP fragments); the sender goes on without GSO
run_t 30 "${GN[@]}" --gso -l 2000 -n 1000 127.0.0.1
bytes_both "over the MTU: --gso" 2000000
eq "over the MTU: said once" "$(grep -c 'gso' "$ERR") $(grep -c 'refused UDP_SEGMENT' "$ERR")" "1 1"
eq "over the MTU: one datagram per call" "$(calls_line l)" \
	"1000 datagrams in 1003 calls"
eq "over the MTU: arrival" "$(line 1 received)" \
	"received 1000 of 1000 datagrams, 0 lost (0.00%)"
run_t 30 "${GN[@]}" -r -l 2000 -n 1000 127.0.0.1 --gso
bytes_both "over the MTU: remote --gso" 2000000
check "over the MTU: the partner says it once" \
	[ "$(grep -c 'refused UDP_SEGMENT' "$D_LOG")" -eq 1 ]
run_t 30 "${GN[@]}" --gso -l 1472 -n 1000 127.0.0.1 --gso
eq "within the MTU: --gso goes on" "$(calls_line l)" \
	"1000 datagrams in 26 calls"

# every 10th data datagram (UDP length 1480) dropped on arrival: exactly
# 100 of 1000, whatever the calls that carried them
"${NSX[@]}" nft -f - <<EOF || { fail "nftables rule in $NS"; t_done; }
table inet gput_fast {
	chain in {
		type filter hook input priority 0;
		udp length 1480 numgen inc mod 10 == 0 counter drop
	}
}
EOF
dropped() { "${NSX[@]}" nft list chain inet gput_fast in | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p'; }
run_t 30 "${GN[@]}" --batch 32 -l 1472 -n 1000 127.0.0.1 --batch 32
eq "--batch under loss: arrival" "$(line 1 received)" \
	"received 900 of 1000 datagrams, 100 lost (10.00%)"
eq "--batch under loss: Bytes" "$(field l 2) $(field 1 2)" "1472000 1324800"
eq "--batch under loss: the rule dropped 100" "$(dropped)" 100
eq "--batch under loss: the sender's calls" "$(calls_line l)" \
	"1000 datagrams in 35 calls"
run_t 30 "${GN[@]}" -r --batch 32 -l 1472 -n 1000 127.0.0.1 -l 1472
eq "-r --batch under loss: arrival" "$(line l received)" \
	"received 900 of 1000 datagrams, 100 lost (10.00%)"
eq "-r --batch under loss: datagrams read" "$(sed -n 's/^l: \([0-9]*\) datagrams in.*/\1/p' "$OUT")" 900
t_done
