#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# --sliding-window on loopback: exact counts of every side (first sends,
# retransmissions, ACKs sent and received, unique, duplicate, missing), a
# partner that never acknowledges (the retry limit ends the run, exit 1),
# the command line's refusals. Loss, copies and reordering: live_window_testbed.sh.
. "$(dirname "$0")/lib.sh"

start_daemon || { fail "daemon"; t_done; }

# csv_col ROW NAME: column NAME of the CSV row whose side is ROW.
csv_col() {
	awk -F, -v r="$1" -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == r { print $(c[n]); exit }' "$OUT"
}

# window_ok NAME N DGRAMS BYTES [COPIES]: the run in $OUT (--csv) moved DGRAMS
# datagrams and BYTES bytes once each with window N: the receiver has them
# all, none missing; it answered every copy it received; its duplicates
# are the sender's retransmissions (loopback copies nothing; COPIES 1: the
# path may, then at least those); the sender's ACKs are at most the
# receiver's and its new ones one per datagram.
window_ok() {
	local name=$1 n=$2 dg=$3 by=$4 copies=${5:-0}
	local first re to ackin sent uniq dup mis miss
	first=$(csv_col l first_sends) re=$(csv_col l retransmissions)
	to=$(csv_col l timeouts) ackin=$(csv_col l acks_received)
	sent=$(csv_col 1 acks_sent) uniq=$(csv_col 1 unique)
	dup=$(csv_col 1 duplicates) mis=$(csv_col 1 misordered)
	miss=$(csv_col 1 missing)
	eq "$name: exit" "$RC" 0
	eq "$name: window" "$(csv_col l window)" "$n"
	eq "$name: first sends" "$first" "$dg"
	eq "$name: unique" "$uniq" "$dg"
	eq "$name: missing" "$miss" 0
	eq "$name: sender Bytes (acknowledged, once each)" "$(csv_col l bytes)" "$by"
	eq "$name: receiver Bytes" "$(csv_col 1 bytes)" "$by"
	eq "$name: timeouts = retransmissions" "$to" "$re"
	eq "$name: sender calls = sends + 3 markers" "$(csv_col l calls)" \
		"$((first + re + 3))"
	eq "$name: ACKs sent = datagrams received" "$sent" "$((uniq + dup))"
	if [ "$copies" = 0 ]; then
		eq "$name: duplicates = retransmissions" "$dup" "$re"
	else
		check "$name: duplicates >= retransmissions that arrived" \
			test "$dup" -ge 0
	fi
	check "$name: ACKs received ($ackin) within first sends and ACKs sent ($sent)" \
		test "$ackin" -ge "$dg" -a "$ackin" -le "$((sent + copies * sent))"
	check "$name: misordered ($mis) within unique" test "$mis" -le "$uniq"
}

G=("$GPUT" -u -p "$D_PORT" --csv)

# 1. Stop-and-wait and a window of 5, 50: every datagram once.
run_t 30 "${G[@]}" -l 1024 -n 200 --sliding-window 1 127.0.0.1
window_ok "stop-and-wait" 1 200 204800
run_t 30 "${G[@]}" -l 1440 -n 1000 --sliding-window 5 127.0.0.1
window_ok "window 5" 5 1000 1440000
run_t 30 "${G[@]}" -l 1440 -n 1000 --sliding-window 50 127.0.0.1
window_ok "window 50" 50 1000 1440000
# a short last datagram (-x): 11 datagrams, the last of 500 bytes
run_t 30 "${G[@]}" -l 1000 -x 10500 --sliding-window 3 127.0.0.1
window_ok "-x 10500 -l 1000" 3 11 10500
# a window larger than the stream
run_t 30 "${G[@]}" -l 100 -n 7 --sliding-window 1000 127.0.0.1
window_ok "window above the count" 1000 7 700

# go-back-N on a path that loses nothing: the same counts
run_t 30 "${G[@]}" -l 1440 -n 300 --sliding-window 8 --go-back-n 127.0.0.1
window_ok "go-back-N" 8 300 432000

# 2. The table's lines under the result, and -P: each stream its window.
run_t 30 "$GPUT" -u -p "$D_PORT" -l 1024 -n 100 --sliding-window 4 --rto 500 127.0.0.1
eq "table: exit" "$RC" 0
check "table: the sender's line" grep -Eq \
	'^l: window 4 \(selective repeat\): 100 datagrams sent first, [0-9]+ retransmitted \([0-9]+ timeouts\); [0-9]+ ACKs received \(100 new\); RTO 500.0 ms \(--rto\), SRTT [0-9.]+ ms over [0-9]+ round trips$' "$OUT"
check "table: the receiver's line" grep -Eq \
	'^1: [0-9]+ ACKs sent \(one per datagram received\); 100 unique, [0-9]+ duplicate, [0-9]+ misordered, 0 missing$' "$OUT"
run_t 30 "$GPUT" -u -p "$D_PORT" -l 512 -n 300 -P 3 --sliding-window 8 --json 127.0.0.1
eq "-P 3: exit" "$RC" 0
check "-P 3: every stream's window in JSON" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
l, p = d["sides"]
assert l["window"]["first_sends"] == 900 and l["window"]["acks_new"] == 900
assert p["window"]["unique"] == 900 and p["window"]["missing"] == 0
for s in l["streams"]:
    assert s["window"]["window"] == 8 and s["window"]["acks_new"] == 300, s
for s in p["streams"]:
    assert s["window"]["unique"] == 300 and s["window"]["missing"] == 0, s
assert p["window"]["acks_sent"] == p["udp"]["received"]
' "$OUT"

# 3. A partner that never acknowledges: datagram 0 goes 1 + 3 times, --rto
# 20 apart, then the retry limit ends the run with exit 1, no hang.
need_ctlpeer
PEER_OUT=$T_TMP/peer.out
"$CTLPEER" partner sendhello getparams sendready acceptdata put=start hold \
	>"$PEER_OUT" 2>&1 &
T_PIDS="$T_PIDS $!"
wait_for_line "$PEER_OUT" '^ok listen port [0-9]+' 10 || fail "ctlpeer listens"
PP=$(sed -n 's/^ok listen port //p' "$PEER_OUT")
run_t 20 "$GPUT" -u -l 100 -n 3 --sliding-window 1 --rto 20 --retries 3 -p "$PP" 127.0.0.1
eq "never acknowledged: exit" "$RC" 1
eq "never acknowledged: why" "$(cat "$ERR")" "gput: partner 127.0.0.1 port $PP: datagram 0 was not acknowledged after 3 retransmissions (--retries): the receiver or the path answers nothing"
check "never acknowledged: the partner got the data and held" grep -qx 'ok hold' "$PEER_OUT"

# 4. The prediction: the window's bound against eta*C, which limits, the
# acknowledgements on the reverse path, the time for -n datagrams.
run_t 10 "$GPUT" --predict -u -l 1440 --sliding-window 5 --rtt 60 --link 10M -n 180000
eq "--predict: exit" "$RC" 0
eq "--predict: the window's lines" "$(tail -n 5 "$OUT")" "rtt 60 ms: bandwidth-delay product 71713 bytes (eta*C x RTT)
window 5 datagrams x 1440 bytes / rtt 60 ms = 0.9600 MBit/s: window-limited, 0.1004 of expected
bound 0.9600 MBit/s (the least of eta*C and window/RTT): the window limits
ACKs on the reverse path at the bound: 83.3 a second of 90 wire bytes = 0.0600 MBit/s, 0.60% of the link
180000 datagrams of 1440 bytes at the bound: 2160.000 s"
run_t 10 "$GPUT" --predict -u -l 1440 --sliding-window 50 --rtt 60 --link 10M
eq "--predict 50: the link limits" "$(sed -n 's/^bound .*: //p' "$OUT")" \
	"the link (eta*C) limits"
# a run's --link and --rtt: the same lines, measured against the bound
run_t 30 "$GPUT" -u -p "$D_PORT" -l 1000 -n 50 --sliding-window 2 --link 10M --rtt 60 127.0.0.1
eq "--link --rtt run: exit" "$RC" 0
eq "--link --rtt run: the window's bound" "$(grep '^window ' "$OUT")" \
	"window 2 datagrams x 1000 bytes / rtt 60 ms = 0.2667 MBit/s: window-limited, 0.0284 of expected"
check "--link --rtt run: each side against the bound" grep -Eq \
	'^l: measured [0-9.]+ MBit/s, [0-9.]+ of expected, [0-9.]+ of the bound$' "$OUT"

# 5. What the command line refuses.
refused() {
	local name=$1 want=$2; shift 2
	run_t 10 "$GPUT" "$@"
	eq "$name: exit" "$RC" 2
	eq "$name: message" "$(cat "$ERR")" "gput: $want"
}
refused "TCP" "--sliding-window needs -u (TCP has its own window)" \
	--sliding-window 5 127.0.0.1
refused "-r" "--sliding-window: the client sends (not with -r or --bidir)" \
	-u -r --sliding-window 5 127.0.0.1
refused "--time" "--sliding-window sends a counted stream: use -n or -x, not --time" \
	-u --time 1 --sliding-window 5 127.0.0.1
refused "--rate" "--sliding-window is paced by its acknowledgements: not with -g, --rate or --burst" \
	-u --rate 10M --sliding-window 5 127.0.0.1
refused "--batch" "--sliding-window sends a datagram a call: not with --batch or --gso" \
	-u --batch 8 --sliding-window 5 127.0.0.1
refused "-l 16" "--sliding-window: every datagram carries the data header the acknowledgement answers: -l (and the last under -x) at least 24 bytes" \
	-u -l 16 --sliding-window 5 127.0.0.1
refused "-x short last" "--sliding-window: every datagram carries the data header the acknowledgement answers: -l (and the last under -x) at least 24 bytes" \
	-u -l 100 -x 1010 --sliding-window 5 127.0.0.1
refused "--rto alone" "--rto, --retries and --go-back-n need --sliding-window" -u --rto 20 127.0.0.1
refused "--go-back-n alone" "--rto, --retries and --go-back-n need --sliding-window" -u --go-back-n 127.0.0.1
refused "window 0" "--sliding-window: '0' is out of range (1 to 65536)" \
	-u --sliding-window 0 127.0.0.1
refused "window 65537" "--sliding-window: '65537' is out of range (1 to 65536)" \
	-u --sliding-window 65537 127.0.0.1
refused "--rto 0" "--rto: '0' is out of range (1 to 60000)" \
	-u --sliding-window 1 --rto 0 127.0.0.1

t_done
