#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live: capture real loopback gput transfers (TCP, then UDP) with tcpdump and
# check that gput-pcap finds the data flow and exactly gput's Bytes in it.
# On the lo of a network namespace of the test's own: the captures hold
# only the test's traffic, so tcpdump's statistics judge them complete
# (tests/lib.sh, cap_stop) and its UDP counters count the datagrams.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "live pcap (capturing on lo needs root; run make check as root)"
	t_done
fi
if ! command -v tcpdump >/dev/null 2>&1; then
	skip "live pcap (tcpdump is not installed: apt-get install tcpdump)"
	t_done
fi
if [ ! -x "$GPUT" ] || [ ! -x "$GPUT_PCAP" ]; then
	skip "live pcap ($GPUT or $GPUT_PCAP is not built)"
	t_done
fi

CSV="$T_TMP/flows.csv"
NS=gput-t$$p
t_netns "$NS" || { fail "a network namespace of the test's own ($NS)"; t_done; }
NX=(ip netns exec "$NS")
D_WRAP=("${NX[@]}")
CAP_WRAP=("${NX[@]}")

start_daemon || { fail "daemon announces its port"; t_done; }

# Headers are enough (gput-pcap takes sizes from them): -s 128, and a large
# buffer keeps the kernel from dropping packets.
cap_start lo-tcp lo 'host 127.0.0.1 and tcp' -s 128 -B 32768 ||
	{ fail "tcpdump starts capturing on lo"; t_done; }

run_t 30 "${NX[@]}" "$GPUT" -v -T -n 1000 -l 1448 -p "$D_PORT" 127.0.0.1
eq "gput transfer: exit status" "$RC" 0
BYTES=$(field 1 2)
eq "gput transfer: partner Bytes" "$BYTES" 1448000
# -v names the data connection ("data tcp A port S -> B port D"); without
# it, the flow with the most payload is taken, which is gput's when no
# other traffic runs on lo
PORTS=$(sed -n 's/.*data tcp [^ ]* port \([0-9]*\) -> [^ ]* port \([0-9]*\).*/\1,\2/p' "$ERR")
PORTS=${PORTS:-any}

# The CSV row (0 = none) of the data flow in file $1.
data_row() {
	awk -F, -v p="$PORTS" 'NR > 1 && (p == "any" || $5 "," $7 == p) { print NR - 1; exit }' "$1"
}
row() { awk -F, -v n="$1" -v c="$2" 'NR == n + 1 { print $c }' "$OUT"; }

cap_stop || t_done

run_t 10 "$GPUT_PCAP" --csv --link 10G "$CAP"
eq "gput-pcap: exit status" "$RC" 0
R=$(data_row "$OUT")
R=${R:-0}
check "gput-pcap: finds the data flow ($PORTS)" [ "$R" -gt 0 ]
eq "gput-pcap: data flow is TCP" "$(row "$R" 2)" tcp
# the client's data connection opens with the session's 16-byte nonce and
# its 2-byte stream number (gput(1), CONTROL PROTOCOL): gput-pcap takes it
# for what it is, a header, not payload (it counted it before: BYTES + 18)
eq "gput-pcap: its payload bytes are gput's Bytes" "$(row "$R" 12)" "$BYTES"
eq "gput-pcap: the stream header apart (markers, marker_bytes)" \
	"$(row "$R" 31) $(row "$R" 32)" "1 18"
# Retransmissions do happen on a loaded loopback: payload counts each byte
# once and the rest is retransmitted, so together they are every TCP payload
# byte the data direction carried, as tcpdump itself decodes them.
tcp_sum() {
	tcpdump -r "$CAP" -n "tcp and src port ${PORTS%,*} and dst port ${PORTS#*,}" 2>/dev/null |
	    awk '{ for (i = 1; i < NF; i++) if ($i == "length") n += $(i + 1) + 0 } END { print n + 0 }'
}
if [ "$PORTS" = any ]; then
	skip "gput-pcap: payload + retransmitted = tcpdump's sum (gput -v named no data ports)"
else
	eq "gput-pcap: payload + retransmitted + header = tcpdump's TCP payload sum" \
	    "$(( $(row "$R" 12) + $(row "$R" 13) + $(row "$R" 32) ))" "$(tcp_sum)"
	# the window opens at the first data segment, not at the header sent at
	# connect: duration = last data segment - first one after the header
	# (tcpdump's microsecond stamps; with a retransmission the last
	# segment may be one, so then at most that)
	tcpdump -tt -r "$CAP" -n "tcp and src port ${PORTS%,*} and dst port ${PORTS#*,}" 2>/dev/null |
	    awk '{ for (i = 1; i < NF; i++) if ($i == "length" && $(i + 1) + 0 > 0) print $1, $(i + 1) + 0 }' \
	    >"$T_TMP/segs"
	eq "tcpdump: the direction's first segment is the 18-byte header" \
	    "$(awk 'NR == 1 { print $2 }' "$T_TMP/segs")" 18
	win_ok() {
		awk -v d="$(row "$R" 23)" -v rt="$(row "$R" 13)" '
		    NR == 2 { t1 = $1 } { tn = $1 }
		    END { w = tn - t1; exit !(rt == 0 ? (d - w < 2e-6 && w - d < 2e-6) : d <= w + 2e-6) }' "$T_TMP/segs"
	}
	check "gput-pcap: its window opens at the first data segment ($(row "$R" 23) s)" win_ok
fi
not_ctl() { [ "$(row "$R" 5)" != "$D_PORT" ] && [ "$(row "$R" 7)" != "$D_PORT" ]; }
check "gput-pcap: the data flow is not the control connection" not_ctl
CTL=$(awk -F, -v p="$D_PORT" 'NR > 1 && ($5 == p || $7 == p) { print $1; exit }' "$OUT")
ctl_later() { [ -n "$CTL" ] && [ "$CTL" -gt "$R" ]; }
check "gput-pcap: the control connection is a separate flow, listed after" ctl_later
eta_ok() { awk -F, -v n="$R" 'NR == n + 1 && $22 > 0.9 && $22 < 1 && $24 > 0 { ok = 1 } END { exit !ok }' "$OUT"; }
check "gput-pcap: eta and goodput are numbers" eta_ok

run_t 10 "$GPUT_PCAP" --json "$CAP"
eq "gput-pcap --json: exit status" "$RC" 0
if command -v jq >/dev/null 2>&1; then
	# jq -e: exit status 0 only when the expression is true
	check "gput-pcap --json: valid JSON, same payload, warnings array" \
	    jq -e --argjson n "$R" --argjson b "$BYTES" \
	    '.flows[$n - 1].payload_bytes == $b and (.warnings | type) == "array"' "$OUT"
else
	skip "gput-pcap --json: JSON check (jq is not installed: apt-get install jq)"
fi

# UDP: the sender follows its 200 datagrams with three 32-byte end markers;
# gput-pcap counts them apart, so the flow's payload is exactly the
# receiver's Bytes and its eta the model's. The remote -w 4096 (4 MiB
# receive buffer) keeps the partner from dropping datagrams.
# The partner keeps its socket open until the client is done, so all three
# markers reach the wire; gput-pcap's count is also checked against
# tcpdump's own filter on the same file (magic "GPUE" after the UDP header,
# UDP length 8 + 32).
# The namespace's UDP counter says how many datagrams were sent: the capture
# must hold exactly as many.
cap_start lo-udp lo 'host 127.0.0.1 and udp' -s 128 -B 32768 ||
	{ fail "tcpdump starts capturing UDP on lo"; t_done; }
UCAP=$CAP
U0=$(snmp_udp OutDatagrams "${NX[@]}")
run_t 30 "${NX[@]}" "$GPUT" -v -u -n 200 -l 1000 -p "$D_PORT" 127.0.0.1 -w 4096
eq "gput UDP transfer: exit status" "$RC" 0
BYTES=$(field 1 2)
eq "gput UDP transfer: partner Bytes" "$BYTES" 200000
eq "gput UDP transfer: sender Calls, 200 + 3 markers" "$(field l 7)" 203
PORTS=$(sed -n 's/.*data udp [^ ]* port \([0-9]*\) -> [^ ]* port \([0-9]*\).*/\1,\2/p' "$ERR")
PORTS=${PORTS:-any}
ETA=$("$GPUT" --predict -u -l 1000 | awk '$1 == "eta" { print $2 }')

cap_stop "$(( $(snmp_udp OutDatagrams "${NX[@]}") - U0 ))" || t_done

run_t 10 "$GPUT_PCAP" --csv "$UCAP"
eq "gput-pcap UDP: exit status" "$RC" 0
R=$(data_row "$OUT")
R=${R:-0}
check "gput-pcap UDP: finds the data flow ($PORTS)" [ "$R" -gt 0 ]
eq "gput-pcap UDP: data flow is UDP" "$(row "$R" 2)" udp
eq "gput-pcap UDP: its payload bytes equal gput's Bytes" "$(row "$R" 12)" "$BYTES"
eq "gput-pcap UDP: 200 data frames" "$(row "$R" 9)" 200
MKF='udp[4:2] = 40 and udp[8:4] = 0x47505545'
[ "$PORTS" = any ] || MKF="$MKF and src port ${PORTS%,*} and dst port ${PORTS#*,}"
MK=$(tcpdump -nn -r "$UCAP" "$MKF" 2>/dev/null | wc -l)
eq "tcpdump: 3 gput end markers in the capture" "$MK" 3
PF='udp[4:2] >= 48 and udp[4:2] <= 50 and udp[8:4] = 0x47505548'
[ "$PORTS" = any ] || PF="$PF and src port ${PORTS%,*} and dst port ${PORTS#*,}"
PR=$(tcpdump -nn -r "$UCAP" "$PF" 2>/dev/null | wc -l)
check "tcpdump: the client's proof datagram in the capture ($PR)" [ "$PR" -ge 1 ]
eq "gput-pcap UDP: end markers and proofs, as tcpdump counts them" "$(row "$R" 31)" "$((MK + PR))"
eq "gput-pcap UDP: 32 bytes a marker, 40 a proof" "$(row "$R" 32)" "$((MK * 32 + PR * 40))"
eq "gput-pcap UDP: eta equals the model's" \
	"$(awk -v e="$(row "$R" 22)" 'BEGIN { printf "%.4f", e }')" "$ETA"

# The partner sends (-r): its cookie goes the data's way before the data,
# the client's proofs and its echo of the cookie the other way; none of it
# is payload (gput(1), CONTROL PROTOCOL).
cap_start lo-udp-r lo 'host 127.0.0.1 and udp' -s 128 -B 32768 ||
	{ fail "tcpdump starts capturing UDP -r on lo"; t_done; }
RCAP=$CAP
U0=$(snmp_udp OutDatagrams "${NX[@]}")
run_t 30 "${NX[@]}" "$GPUT" -v -u -r -n 200 -l 1000 -p "$D_PORT" 127.0.0.1 -w 4096
eq "gput UDP -r: exit status" "$RC" 0
# what the partner sent is on the wire (the client's socket may drop some)
BYTES=$(field 1 2)
eq "gput UDP -r: partner Bytes" "$BYTES" 200000
# the client's data socket, then the partner's: the data flow goes the other way
PORTS=$(sed -n 's/.*data udp [^ ]* port \([0-9]*\) -> [^ ]* port \([0-9]*\).*/\2,\1/p' "$ERR")
PORTS=${PORTS:-any}
cap_stop "$(( $(snmp_udp OutDatagrams "${NX[@]}") - U0 ))" || t_done
run_t 10 "$GPUT_PCAP" --csv "$RCAP"
eq "gput-pcap UDP -r: exit status" "$RC" 0
R=$(data_row "$OUT")
R=${R:-0}
check "gput-pcap UDP -r: finds the data flow ($PORTS)" [ "$R" -gt 0 ]
eq "gput-pcap UDP -r: its payload bytes equal the partner's Bytes" "$(row "$R" 12)" "$BYTES"
eq "gput-pcap UDP -r: 200 data frames" "$(row "$R" 9)" 200
DIR=any
[ "$PORTS" = any ] || DIR="src port ${PORTS%,*} and dst port ${PORTS#*,}"
REV=any
[ "$PORTS" = any ] || REV="src port ${PORTS#*,} and dst port ${PORTS%,*}"
# UDP lengths: a cookie 8 + 44, an echo 8 + 48, a proof 8 + 40
CK=$(tcpdump -nn -r "$RCAP" "udp[4:2] = 52 and udp[8:4] = 0x47505543 and $DIR" 2>/dev/null | wc -l)
EC=$(tcpdump -nn -r "$RCAP" "udp[4:2] = 56 and udp[8:4] = 0x4750554b and $REV" 2>/dev/null | wc -l)
PR=$(tcpdump -nn -r "$RCAP" "udp[4:2] = 48 and udp[8:4] = 0x47505548 and $REV" 2>/dev/null | wc -l)
check "tcpdump -r: the partner's cookie ($CK), the client's echo ($EC) and proof ($PR)" \
	[ "$CK" -ge 1 -a "$EC" -ge 1 -a "$PR" -ge 1 ]
eq "gput-pcap UDP -r: end markers and cookies, as tcpdump counts them" "$(row "$R" 31)" "$((3 + CK))"
eq "gput-pcap UDP -r: 32 bytes a marker, 44 a cookie" "$(row "$R" 32)" "$((3 * 32 + CK * 44))"
eq "gput-pcap UDP -r: the proofs and echoes the other way are not payload" "$(row "$R" 29)" 0
t_done
