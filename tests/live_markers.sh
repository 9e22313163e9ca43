#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# UDP end markers under loss. In a private network namespace, an htb class
# whose leaf is "pfifo limit 0" drops exactly what a u32 filter sends to it:
# the markers (IP length 60: 20 + 8 + 32), marker 1 alone (its index byte,
# IP offset 20 + 8 + 5), or the short last datagram of -x 10500 -l 1000
# (IP length 528). Needs root; skipped otherwise.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "udp marker loss (needs root for a network namespace)"; t_done
fi
for t in ip tc; do
	command -v "$t" >/dev/null || { skip "udp marker loss (needs $t: apt-get install iproute2)"; t_done; }
done
NS=gput-m$$
NSX=(ip netns exec "$NS")
ns_cleanup() { t_cleanup; ip netns pids "$NS" 2>/dev/null | xargs -r kill; ip netns del "$NS" 2>/dev/null; }
trap ns_cleanup EXIT
ip netns add "$NS" && ip -n "$NS" link set lo up || { fail "create namespace $NS"; t_done; }
TC=("${NSX[@]}" tc)
"${TC[@]}" qdisc add dev lo root handle 1: htb default 1 r2q 100000 &&
"${TC[@]}" class add dev lo parent 1: classid 1:1 htb rate 10gbit &&
"${TC[@]}" class add dev lo parent 1: classid 1:2 htb rate 10gbit &&
"${TC[@]}" qdisc add dev lo parent 1:2 handle 20: pfifo limit 0 ||
	{ skip "udp marker loss (htb/pfifo not available in this kernel)"; t_done; }

# drop NAME U32-MATCH...: send matching UDP packets to the dropping class.
drop() {
	"${TC[@]}" filter add dev lo parent 1: protocol ip prio "$1" u32 \
	    match u8 17 0xff at 9 "${@:2}" flowid 1:2
}
undrop() { "${TC[@]}" filter del dev lo parent 1: >/dev/null 2>&1; }

D_WRAP=("${NSX[@]}")
start_daemon || { fail "daemon in $NS"; t_done; }
G=("${NSX[@]}" "$GPUT" -u -x 10500 -l 1000 -p "$D_PORT")
IDLE="; no end marker arrived, receiver stopped after 1.0 s idle"

# 1. Every marker and the last datagram lost: the idle timeout ends it, the
# window still ends at the last datagram that arrived.
drop 1 match u16 60 0xffff at 2
drop 2 match u16 528 0xffff at 2
run_t 10 "${G[@]}" 127.0.0.1
eq "all markers lost, -t: exit" "$RC" 0
eq "all markers lost, -t: arrivals" "$(grep '^1: received' "$OUT")" \
	"1: received 10 of 11 datagrams, 1 lost (9.09%)$IDLE"
eq "all markers lost, -t: receiver Bytes" "$(field 1 2)" 10000
check "all markers lost, -t: window ends at the last datagram, not the timeout" \
	awk '$1 == "1" { exit !($3 < 0.5) }' "$OUT"
run_t 10 "${NSX[@]}" "$GPUT" -r -u -x 10500 -l 1000 -p "$D_PORT" 127.0.0.1
eq "all markers lost, -r: arrivals" "$(grep '^l: received' "$OUT")" \
	"l: received 10 of 11 datagrams, 1 lost (9.09%)$IDLE"
eq "all markers lost, -r: sender Calls still n + 3" "$(field 1 7)" 14

# 2. Every marker lost but all data arrived: it ends at the last datagram.
undrop; drop 1 match u16 60 0xffff at 2
run_t 10 "${G[@]}" 127.0.0.1
eq "markers lost, data complete" "$(grep '^1: received' "$OUT")" \
	"1: received 11 of 11 datagrams, 0 lost (0.00%)"

# 3. Marker 1 and the last datagram lost: marker 2 ends it, no idle wait.
undrop
drop 1 match u16 60 0xffff at 2 match u8 1 0xff at 33
drop 2 match u16 528 0xffff at 2
run_t 10 "${G[@]}" 127.0.0.1
eq "marker 1 lost: marker 2 ends the transfer" "$(grep '^1: received' "$OUT")" \
	"1: received 10 of 11 datagrams, 1 lost (9.09%)"
t_done
