#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# A very lossy path (lab 002 at P = 0.2): a -- r -- b, 10 Mbit/s, each link
# dropping 20% of the frames toward b (36% on the path), gput's control
# connection's SYN and messages as well as its data. TCP backs its
# retransmission timer off past the default 10 s dead-peer deadline now and
# then there; with --peer-timeout 60 (granted by the partner's default
# --max-peer-timeout) and the partner's --params-grace 30, a timed TCP run
# completes with exit 0 and both sides' results. The loss counters prove
# the path lost frames on both links while it ran. The partner's bound and
# the options' words: live_peertimeout.sh; the default deadline against a
# silent client: live_partner.sh.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tb_init "a lossy path" lossy ip tc nft -- ./gput

cat >"$T_TMP/lossy.topo" <<'EOF'
host a
router r
host b
link a r rate 10M queue 100p loss 20%/0
link r b rate 10M queue 100p loss 20%/0
EOF
tb up --topology "$T_TMP/lossy.topo"
B=$("$TESTBED" addr b a)
tb_daemon --params-grace 30
l0=$(counter 'a>r' loss) l1=$(counter 'r>b' loss)

# a deadline on a hang only: at 36% loss the transfer's tail may take a
# minute of backed-off retransmissions
run_t 300 "$TESTBED" exec a "$GPUT" --time 3 --peer-timeout 60 -l 1448 \
	-p "$D_PORT" "$B"
LB=$(field l 2) PB=$(field 1 2)
eq "36% loss, --peer-timeout 60: exit 0, nothing on standard error" \
	"$RC $(cat "$ERR")" "0 "
check "36% loss: this side's line (bytes '$LB')" [ "${LB:-0}" -gt 0 ]
eq "36% loss: the partner's line, every byte sent received" "${PB:-none}" "$LB"
L0=$(( $(counter 'a>r' loss) - l0 )) L1=$(( $(counter 'r>b' loss) - l1 ))
check "36% loss: the first link dropped frames toward b ($L0)" [ "$L0" -gt 0 ]
check "36% loss: the second link dropped frames toward b ($L1)" [ "$L1" -gt 0 ]
check "36% loss: the partner logs the test's end, ok" \
	wait_for_line "$D_LOG" ": end: tcp receive, $PB bytes, .*: ok$" 10
t_done
