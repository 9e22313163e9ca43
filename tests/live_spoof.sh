#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live test: a client that spoofs its UDP proof's source port (a raw socket,
# its real address, READY's real nonce) to point the partner's UDP at
# another port of its host, a victim socket that tests/spoofproof opens and
# counts. The partner must validate the return path first (its cookie,
# echoed from the proven port: xfer_path.h) and send the victim no data.
# Each attack must have run: the victim got the partner's cookie, so the
# partner did take the spoofed proof. Needs root (a raw socket); skipped
# otherwise. Also: the honest client's echo, a client that does not say it
# echoes, a closed port (ICMP port unreachable) during the validation and
# during the transfer.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "spoofed proofs (needs root for a raw socket)"; t_done
fi
need_ctlpeer
SPOOF=${SPOOF:-tests/spoofproof}
if [ ! -x "$SPOOF" ] && ! make -s tests/spoofproof >/dev/null; then
	fail "tests/spoofproof builds"; t_done
fi
start_daemon --max-per-source 1000 || { fail "daemon announces its port"; t_done; }
P=$D_PORT
log_has() { grep -Fq -- "$1" "$D_LOG"; }

# spoof ARGS...: run the spoofer; a partner from before the cookie (which
# refuses the PARAMS bit it does not know) is asked without it (-o), so the
# attack runs against it too. Sets OUT, ERR, RC and VICTIM.
spoof() {
	run_t 40 "$SPOOF" "$@"
	if [ "$RC" -ne 0 ] && grep -q 'reserved bits set' "$ERR"; then
		echo "note: a partner without return-path validation: -o"
		run_t 40 "$SPOOF" -o "$@"
	fi
	VICTIM=$(sed -n 's/^victim port //p' "$OUT")
}
# victim FIELD: a count of the last line (data bytes cookies other reflected)
victim() { awk -v f="$1" '$1 == "victim" && $2 == "data" { for (i = 2; i < NF; i += 2) if ($i == f) print $(i + 1) }' "$OUT"; }

# --- one spoofed proof, a victim that listens: one cookie, no data
spoof -1 "$P" 20000 1472 0
eq "spoofed proof: the attack ran (spoofproof exit 0)" "$RC" 0
[ "$RC" -eq 0 ] || cat "$ERR"
eq "spoofed proof: the victim got the partner's cookie (the proof was taken)" "$(victim cookies)" 1
eq "spoofed proof: the victim got no data datagram" "$(victim data)" 0
eq "spoofed proof: nor anything else" "$(victim other) $(victim bytes)" "0 0"
eq "spoofed proof: one cookie for one proof" "$(sed -n 's/^proofs //p' "$OUT")" 1
WANT="data connection: return path of stream 1: no echo of the cookie from port $VICTIM (1 sent): the proof came from another socket (a spoofed source port?) or the client does not echo"
eq "spoofed proof: the partner ends the session, says why" "$(sed -n 's/^partner //p' "$OUT")" "ERROR $WANT"
check "spoofed proof: the partner logs it" log_has "$WANT"

# --- --sliding-window: a partner that would acknowledge (receiving, xflags
# 0x20) validates the return path first; the victim gets the cookie, no
# acknowledgement
spoof -a -1 "$P" 2000 1472 0
eq "spoofed proof, partner acknowledging: the attack ran" "$RC" 0
[ "$RC" -eq 0 ] || cat "$ERR"
eq "spoofed proof, partner acknowledging: one cookie to the victim" "$(victim cookies)" 1
eq "spoofed proof, partner acknowledging: no acknowledgement, no data, nothing else" \
	"$(victim data) $(victim other) $(victim bytes)" "0 0 0"
eq "spoofed proof, partner acknowledging: the partner ends the session" \
	"$(sed -n 's/^partner //p' "$OUT")" "ERROR data connection: return path of stream 1: no echo of the cookie from port $VICTIM (1 sent): the proof came from another socket (a spoofed source port?) or the client does not echo"

# --- a UDP echo service at the spoofed port: it sends the cookie back from
# that port, but an echo is the cookie transformed; proofs every 200 ms
spoof -e "$P" 20000 1472 0
eq "echo service: the attack ran" "$RC" 0
C=$(victim cookies)
check "echo service: cookies reached it and went back ($C)" [ "${C:-0}" -ge 1 -a "$(victim reflected)" = "$C" ]
check "echo service: never more cookies than proofs" [ "${C:-0}" -le "$(sed -n 's/^proofs //p' "$OUT")" ]
eq "echo service: no data datagram" "$(victim data)" 0
eq "echo service: the partner ends the session" "$(sed -n 's/^partner //p' "$OUT")" \
	"ERROR data connection: return path of stream 1: no echo of the cookie from port $VICTIM ($C sent): the proof came from another socket (a spoofed source port?) or the client does not echo"

# --- the spoofed port is closed: ICMP port unreachable ends it at once
# (before the handshake's 10 s: the reason names the ICMP)
spoof -c "$P" 20000 1472 0
eq "closed port: the attack ran" "$RC" 0
eq "closed port: the partner ends the session at the ICMP" "$(sed -n 's/^partner //p' "$OUT")" \
	"ERROR data connection: return path of stream 1: port $VICTIM is closed (ICMP port unreachable): the proof did not come from the client's data socket; nothing sent but the cookie"

# --- the honest client: its echo validates the path, the test runs
run_t 30 "$CTLPEER" client "$P" hello params=udp,send,10,1000 ready data start
eq "honest peer: cookie echoed, START" "$(grep -E '^ok (cookie|start)' "$OUT" | tr '\n' ,)" "ok cookie echoed,ok start,"
run_t 30 "$GPUT" -u -r -n 200 -l 1000 -p "$P" 127.0.0.1
eq "gput -u -r: exit 0" "$RC" 0
eq "gput -u -r: the partner sent 200 datagrams" "$(field 1 7)" 203
run_t 30 "$GPUT" -u -r -P 4 -n 50 -l 1000 -p "$P" 127.0.0.1
eq "gput -u -r -P 4: exit 0, every stream validated and sent (4 x 53 calls)" \
	"$RC $(awk '$1 == "1" && $NF == "streams" { print $7 }' "$OUT")" "0 212"
run_t 30 "$GPUT" --bidir -u -n 50 -l 1000 -p "$P" 127.0.0.1
eq "gput --bidir -u: exit 0, the reversed test's partner sent (53 calls)" \
	"$RC $(awk '$1 == "2" && $2 == "2" { print $8 }' "$OUT")" "0 53"
run_t 30 "$GPUT" -u -r -n 50 -l 1000 -p "$P" 127.0.0.1 127.0.0.1
eq "gput -u -r, two partners: exit 0, both sent (53 calls each)" \
	"$RC $(awk '$2 ~ /^[12]$/ && $1 == $2 { printf "%s ", $8 }' "$OUT")" "0 53 53 "

# --- a client that does not say it echoes: refused, one line
run_t 30 "$CTLPEER" client "$P" hello nocookie params=udp,send,10,1000 error
eq "no cookie echo: refused" "$(sed -n 's/^ok error //p' "$OUT")" \
	"refused: this partner sends UDP only to a client that echoes its cookie (return-path validation): use a newer gput"
run_t 30 "$CTLPEER" client "$P" hello nocookie params=udp,recv,10,1000 ready data start
check "no cookie echo, the partner receives: nothing to validate" grep -q '^ok start' "$OUT"

# --- ICMP port unreachable during the transfer ends the sender: 100000
# datagrams 1 ms apart (100 s), the client's data socket closed after START
run_t 60 "$CTLPEER" client "$P" hello params=udp,send,100000,1000,1000 ready data start closedata error
eq "closed during the transfer: the partner stops" "$(sed -n 's/^ok error //p' "$OUT")" \
	"transfer: the receiver's port refused the data (receiver gone)"
check "closed during the transfer: logged, well before the end" \
	grep -Eq 'end: udp send, [0-9]{1,7} bytes, [0-9]+ calls, [0-9.]+ s: the receiver.s port refused the data' "$D_LOG"
# the batched sender (sendmmsg) too: 8 datagrams a call, a call every 8 ms
run_t 60 "$CTLPEER" client "$P" hello batch=8 params=udp,send,100000,1000,1000 ready data start closedata error
eq "closed during a batched transfer: the partner stops" "$(sed -n 's/^ok error //p' "$OUT")" \
	"transfer: the receiver's port refused the data (receiver gone)"
eq "both: each logged" "$(grep -Ec 'end: udp send, [0-9]{1,7} bytes, [0-9]+ calls, [0-9.]+ s: the receiver.s port refused the data' "$D_LOG")" 2
t_done
