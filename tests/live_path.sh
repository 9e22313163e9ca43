#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# --rtt, --loss and -w under --predict and --link: the window limit, the
# bandwidth-delay product and the Mathis bound as the binary prints them,
# and in the JSON of a real run on loopback. The figures are checked to the
# digit against hand arithmetic (see tests/unit_pathlim.c for the model).
. tests/lib.sh

# --predict: 64 KiB at 40 ms on 100 Mbit/s is window-limited to 13.1072
run_t 10 "$GPUT" --predict --link 100M --rtt 40 -w 64
eq "--predict --rtt 40 -w 64 exits 0" "$RC" 0
eq "--predict: the bandwidth-delay product" \
	"$(grep '^rtt ' "$OUT")" "rtt 40 ms: bandwidth-delay product 470741 bytes (eta*C x RTT)"
eq "--predict: window-limited" "$(grep '^window ' "$OUT")" \
	"window 65536 bytes / rtt 40 ms = 13.1072 MBit/s: window-limited, 0.1392 of expected"
eq "--predict: the bound" "$(grep '^bound ' "$OUT")" \
	"bound 13.1072 MBit/s (the least of eta*C, window/RTT and the Mathis bound)"
eq "--predict: eta*C line unchanged" "$(grep '^expected ' "$OUT")" "expected 94.1482 MBit/s"

# the Mathis bound: MSS 1448, 20 ms, 1%: 7.0937 MBit/s
run_t 10 "$GPUT" --predict --link 10M --rtt 20 --loss 1
eq "--predict: the Mathis bound" "$(grep '^Mathis ' "$OUT")" \
	"Mathis bound MSS 1448, rtt 20 ms, loss 1%: 7.0937 MBit/s: loss-limited, 0.7535 of expected"
# without timestamps the MSS is 1460; over IPv6 1428 (1500 - 40 - 20 - 12)
run_t 10 "$GPUT" --predict --rtt 20 --loss 1 --no-timestamps
eq "--predict --no-timestamps: MSS 1460" "$(grep '^Mathis ' "$OUT")" \
	"Mathis bound MSS 1460, rtt 20 ms, loss 1%: 7.1525 MBit/s"
run_t 10 "$GPUT" --predict -6 --rtt 20 --loss 1
eq "--predict -6: MSS 1428" "$(grep '^Mathis ' "$OUT")" \
	"Mathis bound MSS 1428, rtt 20 ms, loss 1%: 6.9957 MBit/s"

# usage errors: one line, exit 2
run_t 10 "$GPUT" --predict -w 64
eq "-w without --rtt: exit 2" "$RC" 2
eq "-w without --rtt: the message" "$(cat "$ERR")" \
	"gput: -w with --predict needs --rtt (a window limits goodput to window/RTT)"
run_t 10 "$GPUT" --predict -u --rtt 5
eq "--rtt with -u: exit 2" "$RC" 2

# a real run on loopback: --link 10M --rtt 40 -w 64, the lines and the JSON
start_daemon || { fail "daemon started"; t_done; }
run_t 30 "$GPUT" -n 200 -l 1000 --link 10M --rtt 40 -w 16 127.0.0.1 -p "$D_PORT"
eq "--link --rtt run exits 0" "$RC" 0
# loopback's MTU is 65536: eta*C comes from the link line of this run
_exp=$(sed -n 's/^link .*expected \([0-9.]*\) MBit\/s$/\1/p' "$OUT")
# the window holds whole segments of the MSS the kernel chose (TCP_INFO; a
# 16 KiB buffer makes it choose less than loopback's MTU allows)
_mss=$(sed -n 's/^link .*, MSS \([0-9]*\), .*/\1/p' "$OUT")
_held=$(( 16384 / ${_mss:-1} * ${_mss:-1} ))
_bps=$(awk -v h="$_held" 'BEGIN { printf "%.4f", h * 8 / 0.040 / 1e6 }')
_ratio=$(awk -v e="${_exp:-0}" -v b="$_bps" 'BEGIN { if (e > 0) printf "%.4f", b / e }')
if [ "$_held" = 16384 ]; then
	_want="window 16384 bytes / rtt 40 ms = $_bps MBit/s: window-limited, $_ratio of expected"
else
	_want="window 16384 bytes, $_held in whole segments of MSS $_mss (TCP_INFO: the kernel chose less than the path's 65483) / rtt 40 ms = $_bps MBit/s: window-limited, $_ratio of expected"
fi
eq "--link: the window line (MSS ${_mss:-none})" "$(grep '^window ' "$OUT")" "$_want"
check "--link: the measured lines compare with the bound" \
	grep -Eq '^1: measured [0-9.]+ MBit/s, [0-9.]+ of expected, [0-9.]+ of the bound$' "$OUT"
# the smaller -w of the two sides is the window
run_t 30 "$GPUT" -n 200 -l 1000 --link 10M --rtt 40 --loss 0.01 --json \
	127.0.0.1 -p "$D_PORT" -w 8
eq "--link --json run exits 0" "$RC" 0
if command -v jq >/dev/null; then
	eq "JSON: the path's keys" "$(jq -c '.link | [.rtt_ms, .window_bytes,
		.window_limited, .loss]' "$OUT")" '[40,8192,true,0.0001]'
	# the window holds whole segments of the connection's MSS (TCP_INFO:
	# on loopback it varies from run to run with what the kernel chose)
	eq "JSON: the window bound in whole segments of MSS $(jq .link.mss "$OUT"), the bound" \
		"$(jq -r '.link | ((if .mss > 0 and .mss <= 8192 then (8192 / .mss |
		floor) * .mss else 8192 end) * 8 / 0.04 / 1e6) as $w |
		((.window_mbit - $w) | fabs < 1e-4) and .bound_mbit == .window_mbit' "$OUT")" true
	# Mathis: the connection's own MSS (TCP_INFO) x 8 / 40 ms x sqrt(3/2) / 0.01
	eq "JSON: the Mathis bound from the connection's MSS" "$(jq -r '.link |
		(.mss > 0) and ((.mathis_mbit -
		.mss * 8 / 0.04 * (1.5 | sqrt) / 0.01 / 1e6) | fabs < 1e-9)' "$OUT")" true
else
	skip "JSON keys (no jq)"
fi
t_done
