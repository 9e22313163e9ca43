#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tools/gput-plot on real runs over loopback: a TCP run with two streams
# and a paced UDP run, each gput --json --interval; the PNG and SVG exist
# and are real figures (file(1)'s type, over 10 KB), and the SVG's legend
# names what the figure must show (both sides, each stream, the sum, the
# sender's RTT and cwnd; for UDP the datagrams sent and received and what
# the path held). A --repeat document is drawn from its first run; a run
# without intervals and bad usage are refused with one line. About 5 s.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

for t in jq gnuplot file; do
	if ! command -v "$t" >/dev/null 2>&1; then
		skip "gput-plot (needs $t)"
		t_done
	fi
done
start_daemon || { fail "daemon"; t_done; }
P=tools/gput-plot

run_t 30 "$GPUT" --time 1.5 --interval 0.25 -P 2 --json -p "$D_PORT" 127.0.0.1
eq "TCP -P 2 run: exit 0" "$RC" 0
cp "$OUT" "$T_TMP/tcp.json"
run_t 30 "$P" "$T_TMP/tcp.json"
eq "gput-plot tcp.json: exit 0" "$RC" 0
figures() {
	check "$1.png: a PNG over 10 KB" sh -c \
	    "file -b '$1.png' | grep -q '^PNG image' && [ \$(wc -c <'$1.png') -gt 10000 ]"
	check "$1.svg: an SVG over 10 KB" sh -c \
	    "grep -q '<svg' '$1.svg' && [ \$(wc -c <'$1.svg') -gt 10000 ]"
}
figures "$T_TMP/tcp"
for want in "l (send), sum of the streams" "1 (recv), sum of the streams" \
    "stream l.1 (send)" "stream l.2 (send)" "stream 1.1 (recv)" "stream 1.2 (recv)" \
    "sender smoothed RTT (right axis)" "cwnd l.1" "cwnd l.2" \
    "goodput (MBit/s)" "RTT (ms)" "cwnd (segments)" "time since START (s)"; do
	check "tcp.svg shows '$want'" grep -qF "$want" "$T_TMP/tcp.svg"
done

run_t 30 "$GPUT" -u -l 1000 --rate 20M --time 1.5 --interval 0.25 --json -p "$D_PORT" 127.0.0.1
eq "UDP run: exit 0" "$RC" 0
cp "$OUT" "$T_TMP/udp.json"
run_t 30 "$P" "$T_TMP/udp.json" --out "$T_TMP/u"
eq "gput-plot udp.json --out: exit 0" "$RC" 0
figures "$T_TMP/u"
for want in "l (send)" "1 (recv)" "sent per second (sender)" \
    "received per second (receiver)" "sent, not (yet) received (right axis)" \
    "datagrams per second" "lost"; do
	check "u.svg shows '$want'" grep -qF "$want" "$T_TMP/u.svg"
done

run_t 30 "$GPUT" --repeat 2 --pause 0 --time 0.5 --interval 0.1 --json -p "$D_PORT" 127.0.0.1
cp "$OUT" "$T_TMP/rep.json"
run_t 30 "$P" "$T_TMP/rep.json"
eq "a --repeat document: its first run drawn" "$RC" 0
figures "$T_TMP/rep"

# A hostile result file: every string gput-plot reads (the host, the side
# and stream names, a number made a string) carries a gnuplot command in
# each form gnuplot would run: a backquote, system() after a closing " or
# ', a ; and a newline. The canary first proves this gnuplot runs such a
# payload when it is pasted into a string unescaped.
rm -f "$T_TMP/canary"
gnuplot -e "x = \"\`touch $T_TMP/canary\`\"" >/dev/null 2>&1
check "the payload runs in gnuplot when pasted unescaped (canary)" test -e "$T_TMP/canary"
evil="a\`touch $T_TMP/pwned1\`\"; system(\"touch $T_TMP/pwned2\"); x=\"';
system(\"touch $T_TMP/pwned3\") # \`touch $T_TMP/pwned4\`"
jq --arg e "$evil" '.params.host = $e | .sides[0].side = $e |
    .sides[0].streams[0].stream = $e | .link = {rate_bit_s: 1e9, expected_mbit: ("system(\"touch '"$T_TMP"'/pwned5\")")}' \
    "$T_TMP/tcp.json" >"$T_TMP/evil.json"
jq --arg e "$evil" '.params.host = $e | (.sides[] | select(.udp) | .udp.lost) = $e' \
    "$T_TMP/udp.json" >"$T_TMP/evilu.json"
check "the hostile files carry the payload" eval \
    '[ "$(jq -r .params.host "$T_TMP/evil.json")" = "$evil" ] && [ "$(jq -r .params.host "$T_TMP/evilu.json")" = "$evil" ]'
run_t 30 "$P" "$T_TMP/evil.json" --out "$T_TMP/ev\`i;l"
eq "a hostile TCP result: exit 0, nothing said" "$RC $(cat "$ERR")" "0 gput-plot: $T_TMP/ev\`i;l.png, $T_TMP/ev\`i;l.svg"
figures "$T_TMP/ev\`i;l"
check "... its title drawn as text" grep -qF "port $(jq -r .params.port "$T_TMP/tcp.json")" "$T_TMP/ev\`i;l.svg"
run_t 30 "$P" "$T_TMP/evilu.json"
eq "a hostile UDP result: exit 0" "$RC" 0
figures "$T_TMP/evilu"
check "no command from a result file ran" eval \
    '[ -z "$(ls "$T_TMP" | grep pwned)" ]'

run_t 30 "$GPUT" -n 100 --json -p "$D_PORT" 127.0.0.1
cp "$OUT" "$T_TMP/noiv.json"
run_t 10 "$P" "$T_TMP/noiv.json"
eq "no intervals: exit 1, one line" "$RC $(wc -l <"$ERR") $(cat "$ERR")" \
    "1 1 gput-plot: $T_TMP/noiv.json has no intervals: run gput with --interval"
run_t 10 "$P"
eq "no file: usage, exit 2" "$RC $(cat "$ERR")" "2 usage: gput-plot RUN.json [--out prefix]"
run_t 10 "$P" "$T_TMP/none.json"
eq "a missing file: exit 1" "$RC $(cat "$ERR")" "1 gput-plot: cannot read $T_TMP/none.json"
echo '{"x":1}' >"$T_TMP/other.json"
run_t 10 "$P" "$T_TMP/other.json"
eq "not gput's JSON: exit 1" "$RC $(cat "$ERR")" \
    "1 gput-plot: $T_TMP/other.json has no sides (is it gput --json output?)"
t_done
