#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: the congestion controls a partner offers (--allow-cc, and by
# default what it can really set once unprivileged), refused in the
# handshake with what it allows; a receiver's stream lines name the
# sender's algorithm, its own in -v.
. "$(dirname "$0")/lib.sh"

CCS=/proc/sys/net/ipv4
avail=$(cat $CCS/tcp_available_congestion_control 2>/dev/null || true)
allowed=$(cat $CCS/tcp_allowed_congestion_control 2>/dev/null || true)
dflt=$(cat $CCS/tcp_congestion_control 2>/dev/null || true)
if [ -z "$avail" ] || [ -z "$dflt" ]; then
	skip "congestion control (no /proc/sys/net/ipv4 lists)"
	t_done
fi
has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }
# another algorithm than the default (reno is always built in)
other=reno
[ "$dflt" = reno ] && for a in $avail; do [ "$a" != reno ] && other=$a && break; done

# --allow-cc names the default alone: a client that asks the partner to send
# with another is refused in the handshake, told what it allows
start_daemon --allow-cc "$dflt" || { fail "daemon with --allow-cc starts"; t_done; }
run_t 20 "$GPUT" -r --cc "$other" -n 10 -p "$D_PORT" 127.0.0.1
eq "--allow-cc $dflt: --cc $other refused, one line" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $D_PORT: partner refused the test: refused: congestion control '$other' is not allowed by this partner (it allows: $dflt; see its --allow-cc)"
run_t 20 "$GPUT" -r --cc "$dflt" -n 10 -p "$D_PORT" 127.0.0.1
eq "--allow-cc $dflt: --cc $dflt served" "$RC" 0
# a receiving partner keeps its default where it may not pick: not refused
run_t 20 "$GPUT" --cc "$dflt" -n 10 -p "$D_PORT" 127.0.0.1
eq "--allow-cc $dflt: this host sends with $dflt" "$RC" 0
kill "$D_PID"; wait "$D_PID" 2>/dev/null

run_t 5 "$GPUT" -i --allow-cc nosuchcc
eq "--allow-cc with a name the host lacks: usage error" "$RC $(cat "$ERR")" \
	"2 gput: --allow-cc: unknown congestion control 'nosuchcc' (this host offers: $avail)"

# an algorithm the host has that an unprivileged process may not pick: a
# partner running as nobody cannot offer it
locked=""
for a in $avail; do has "$allowed" "$a" || has "$dflt" "$a" || { locked=$a; break; }; done
if [ "$(id -u)" = 0 ] && [ -n "$locked" ]; then
	run_t 5 "$GPUT" -i -p 0 --allow-cc "$dflt,$locked"
	eq "--allow-cc $locked (not in tcp_allowed_congestion_control): refused at start" \
		"$RC $(cat "$ERR")" \
		"1 gput: --allow-cc: cannot set $locked unprivileged: add to net.ipv4.tcp_allowed_congestion_control, leave out, or --user root"
	start_daemon || { fail "default daemon starts"; t_done; }
	check "default: the log says what it offers and what not" \
		grep -q "congestion control: clients may ask for .*; not for $locked, which an unprivileged partner cannot set" "$D_LOG"
	run_t 20 "$GPUT" -r --cc "$locked" -n 10 -p "$D_PORT" 127.0.0.1
	check "default: --cc $locked refused in the handshake" \
		grep -q "refused: congestion control '$locked' is not allowed by this partner" "$ERR"
	# the partner receives: it cannot pick $locked and keeps $dflt, but the
	# stream is governed by this host's $locked, and its lines say so
	run_t 30 "$GPUT" -P 2 --cc "$locked" -n 100 -l 1448 -p "$D_PORT" 127.0.0.1
	eq "receiver's lines: exit 0" "$RC" 0
	eq "receiver's lines name the sender's algorithm" \
		"$(awk '$1 == "1" && / stream / { for (i = 1; i < NF; i++) if ($i == "cc") printf "%s ", $(i + 1) }' "$OUT")" \
		"$locked $locked "
	run_t 30 "$GPUT" -v -P 2 --cc "$locked" -n 100 -l 1448 -p "$D_PORT" 127.0.0.1
	eq "-v: and their own" "$(grep -c "^1 .* stream [12]  cc $locked (own $dflt)  fct" "$OUT")" 2
	start_daemon --user root || { fail "root daemon starts"; t_done; }
	run_t 20 "$GPUT" -r --cc "$locked" -n 10 -p "$D_PORT" 127.0.0.1
	eq "--user root: --cc $locked served" "$RC" 0
else
	skip "an algorithm an unprivileged partner cannot set (needs root and one not in tcp_allowed_congestion_control)"
fi
t_done
