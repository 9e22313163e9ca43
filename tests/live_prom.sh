#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: --prometheus on loopback. Success (TCP with --link, paced UDP
# with two streams) and every failure a probe meets (no partner, a busy
# partner, a partner that refuses, ^C) print the text format with one
# gput_up series and, for a failure, the right error label on
# gput_probe_error; the counts are the run's exact counts; promtool, when
# installed, checks every output. Then tools/gput-probe, the command
# gput-probe@.service runs, writes its result into a real
# prometheus-node-exporter's textfile directory and the exporter serves it
# over HTTP; a series two files hold is served once, from the first file,
# with HTTP 200 (README). tests/live_promserver.sh has a Prometheus scrape it.
. "$(dirname "$0")/lib.sh"

PROBE=${GPUT_PROBE:-tools/gput-probe}
NODE_EXPORTER=${NODE_EXPORTER:-prometheus-node-exporter}

# prom_ok FILE: promtool parses FILE and has nothing to say (exit 0, its
# lint included). Without promtool: true, and the caller reports a SKIP
# once.
PROMTOOL=$(command -v promtool || true)
prom_ok() {
	[ -n "$PROMTOOL" ] || return 0
	_out=$("$PROMTOOL" check metrics <"$1" 2>&1)
	_rc=$?
	[ "$_rc" -eq 0 ] && return 0
	printf 'promtool (exit %s): %s\n' "$_rc" "$_out"
	return 1
}
[ -n "$PROMTOOL" ] || skip "promtool check metrics (promtool not installed: apt-get install prometheus)"

# README's Prometheus configuration and alerting rules: valid, and the
# rules fire on made-up series exactly as tests/prom/gput-alerts.test.yml says
if [ -n "$PROMTOOL" ]; then
	check "promtool check config tools/prometheus/prometheus.yml" eval \
		'"$PROMTOOL" check config tools/prometheus/prometheus.yml >"$T_TMP/pc" 2>&1 || { cat "$T_TMP/pc"; false; }'
	check "promtool test rules: the alerts of gput-alerts.yml" eval \
		'"$PROMTOOL" test rules tests/prom/gput-alerts.test.yml >"$T_TMP/pt" 2>&1 || { cat "$T_TMP/pt"; false; }'
fi

# sample NAME LABELS: the value of the sample NAME{LABELS} in $OUT.
sample() { awk -v k="$1{$2}" '$1 == k { print $2; exit }' "$OUT"; }
RUN='target="127.0.0.1",proto="tcp",direction="out"'

start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT
LOG0=$D_LOG

# TCP, count mode, --link: every figure of both sides, exact counts
run_t 30 "$GPUT" --prometheus --link 1G -n 1000 -l 8192 -p "$P" 127.0.0.1
eq "tcp: exit 0" "$RC" 0
check "tcp: promtool check metrics" prom_ok "$OUT"
eq "tcp: gput_up 1" "$(sample gput_up "$RUN")" 1
for s in 'side="local",role="send"' 'side="partner",role="recv"'; do
	eq "tcp: $s bytes" "$(sample gput_bytes "$RUN,$s,stream=\"sum\"")" 8192000
done
eq "tcp: the sender's calls" \
	"$(sample gput_calls "$RUN,side=\"local\",role=\"send\",stream=\"sum\"")" 1000
check "tcp: expected goodput with --link (below 1 Gbit/s: 125 MB/s)" awk -v k="gput_expected_goodput_bytes_per_second{$RUN}" \
	'$1 == k && $2 > 1.125e8 && $2 < 1.25e8 { ok = 1 } END { exit !ok }' "$OUT"
check "tcp: retransmits and RTT of the sender only" eval \
	'[ "$(grep -c "^gput_\(retransmits\|rtt_seconds\){" "$OUT")" = 2 ] &&
	 grep -q "^gput_rtt_seconds{$RUN,side=\"local\",role=\"send\",stream=\"sum\"} [0-9.e-]*$" "$OUT"'
check "tcp: HELP and TYPE once per family, before its samples" awk '
	/^# HELP / { h[$3]++ } /^# TYPE / { t[$3]++; if (!h[$3]) bad = 1 }
	/^[a-z]/ { n = $1; sub(/\{.*/, "", n); if (!t[n]) bad = 1 }
	END { for (k in h) if (h[k] != 1 || t[k] != 1) bad = 1; exit bad }' "$OUT"
check "tcp: a timestamp near now" awk -v now="$(date +%s)" \
	'/^gput_run_timestamp_seconds\{/ && $2 > now - 60 && $2 <= now + 1 { ok = 1 } END { exit !ok }' "$OUT"

# UDP, the partner sends on two streams: per stream and the sum
URUN='target="127.0.0.1",proto="udp",direction="in"'
run_t 30 "$GPUT" --prometheus -u -r -P 2 -n 500 -l 1000 --rate 20M -p "$P" 127.0.0.1
eq "udp -r -P 2: exit 0" "$RC" 0
check "udp -r -P 2: promtool check metrics" prom_ok "$OUT"
eq "udp -r -P 2: partner's sum" \
	"$(sample gput_bytes "$URUN,side=\"partner\",role=\"send\",stream=\"sum\"")" 1000000
eq "udp -r -P 2: partner's stream 2" \
	"$(sample gput_bytes "$URUN,side=\"partner\",role=\"send\",stream=\"2\"")" 500000
LOST=$(sample gput_udp_datagrams_lost "$URUN,side=\"local\",role=\"recv\",stream=\"sum\"")
GOT=$(sample gput_bytes "$URUN,side=\"local\",role=\"recv\",stream=\"sum\"")
eq "udp -r -P 2: received + lost = sent" "$(( GOT / 1000 + LOST ))" 1000
eq "udp -r -P 2 --rate 20M: offered 2 x 20 Mbit/s in bytes/s" \
	"$(sample gput_offered_goodput_bytes_per_second "$URUN")" 5000000
check "udp -r -P 2: jitter per stream" grep -q \
	"^gput_udp_jitter_seconds{$URUN,side=\"local\",role=\"recv\",stream=\"1\"} " "$OUT"
# the receiver's drops: its sockets' (per stream, summed) at most what was
# lost; its host's counters once, for the side
DROPS=$(sample gput_udp_socket_drops "$URUN,side=\"local\",role=\"recv\",stream=\"sum\"")
check "udp -r -P 2: socket drops ($DROPS), at most the lost ($LOST)" \
	eval '[ -n "$DROPS" ] && [ "$DROPS" -le "$LOST" ]'
check "udp -r -P 2: the host's RcvbufErrors and InErrors, for the side only" \
	eval '[ "$(grep -Ec "^gput_udp_host_(rcvbuf|in)_errors\{$URUN,side=\"local\",role=\"recv\",stream=\"sum\"\} [0-9]+$" "$OUT")" = 2 ] &&
	    [ "$(grep -c "^gput_udp_host_" "$OUT")" = 2 ]'

# --latency: the probes' round trips by phase, and their counts
run_t 30 "$GPUT" --prometheus --latency --latency-idle 0.5 --time 1 -p "$P" 127.0.0.1
eq "--latency: exit 0" "$RC" 0
check "--latency: promtool check metrics" prom_ok "$OUT"
check "--latency: p50 of both phases" eval '[ "$(grep -c "^gput_latency_rtt_seconds{$RUN,phase=\"\(idle\|loaded\)\",percentile=\"50\"} [0-9.e-]*$" "$OUT")" = 2 ]'
check "--latency: sent = the loaded phase's probes" grep -q \
	"^gput_latency_probes_sent{$RUN,phase=\"loaded\"} [1-9][0-9]*$" "$OUT"

# failures: gput_up 0 (the one series of a success too), the reason in
# gput_probe_error's label, a timestamp, nothing else
fails_like() {          # NAME WANT-RC WANT-ERROR
	eq "$1: exit $2" "$RC" "$2"
	check "$1: promtool check metrics" prom_ok "$OUT"
	eq "$1: gput_up 0, no label of the error" "$(grep '^gput_up{' "$OUT")" \
		"gput_up{$RUN} 0"
	eq "$1: gput_probe_error{error=\"$3\"} 1" "$(grep '^gput_probe_error{' "$OUT")" \
		"gput_probe_error{$RUN,error=\"$3\"} 1"
	eq "$1: no figures" "$(grep -c '^gput_' "$OUT")" 3
}
run_t 10 "$GPUT" --prometheus -p 1 127.0.0.1
fails_like "no partner" 1 connect
run_t 10 "$GPUT" --prometheus --key-file "$T_TMP/none" -p "$P" 127.0.0.1
fails_like "unreadable key file" 1 failed

start_daemon --max-sessions 1 --max-time 4 || fail "second daemon"
P1=$D_PORT
need_ctlpeer
# a test (which sends nothing: cut at --max-time) holds the only slot; a
# client in its handshake would hold none (--max-handshakes)
"$CTLPEER" client "$P1" hello params=tcp,recv,1000,1000 ready data start hold \
	>"$T_TMP/holder" 2>&1 &
HOLDER=$!
T_PIDS="$T_PIDS $HOLDER"
if wait_for_line "$T_TMP/holder" '^ok hold' 5; then
	run_t 10 "$GPUT" --prometheus -p "$P1" 127.0.0.1
	fails_like "busy partner (--max-sessions 1)" 1 busy
	check "busy partner: its words on stderr" grep -q 'partner busy: 1 tests running' "$ERR"
else
	fail "the slot-holding test started"
fi
kill "$HOLDER" 2>/dev/null; wait "$HOLDER" 2>/dev/null
# the held session ends with its connection; until the partner has reaped
# it, a test may still find it busy
wait_until 15 eval 'run_t 10 "$GPUT" -n 1 -p "$P1" 127.0.0.1; [ "$RC" = 0 ]' ||
	fail "the partner serves again once the slot is free"
run_t 10 "$GPUT" --prometheus --time 5 -p "$P1" 127.0.0.1
fails_like "partner refuses (--time 5 over --max-time 4)" 1 partner
check "refused: not taken for busy" grep -q 'max-time' "$ERR"

# ^C once the partner logged this run's start (a line more than before)
N0=$(grep -c ': start: ' "$LOG0")
"$GPUT" --prometheus --time 20 -p "$P" 127.0.0.1 >"$T_TMP/int.out" 2>"$T_TMP/int.err" &
IP=$!
if wait_until 10 eval '[ "$(grep -c ": start: " "$LOG0")" -gt "$N0" ]'; then
	kill -INT "$IP"
else
	fail "the run to be interrupted started"
	kill "$IP"
fi
wait "$IP"; RC=$?
OUT=$T_TMP/int.out
fails_like "^C" 130 interrupted

# The probe: its configuration, the atomic write, and a real node exporter
# that serves the result over HTTP.
CONF=$T_TMP/probe
TXT=$T_TMP/textfile
mkdir -p "$CONF" "$TXT"
printf '# loopback, two seconds\n\n -n 2000 -l 4096 --link 1G -p %s 127.0.0.1 \n' "$P" >"$CONF/lo.conf"
TEXTFILE=${GPUT_TEXTFILE:-tools/gput-textfile}
probe() { GPUT=$GPUT GPUT_TEXTFILE=$TEXTFILE GPUT_PROBE_CONF_DIR=$CONF \
	GPUT_PROBE_TEXTFILE_DIR=$TXT timeout -k 2 60 sh "$PROBE" "$@"; }
probe lo >"$T_TMP/probe.out" 2>&1
eq "probe: exit 0" "$?" 0
check "probe: gput-lo.prom written, readable by others, no temporary left" eval \
	'[ "$(ls -A "$TXT")" = gput-lo.prom ] && [ "$(stat -c %a "$TXT/gput-lo.prom")" = 644 ]'
OUT=$TXT/gput-lo.prom
eq "probe: gput_up 1" "$(sample gput_up "$RUN")" 1
check "probe: promtool check metrics" prom_ok "$OUT"
printf -- '-n 1 -p %s 127.0.0.1 $(touch %s/pwned)\n' "$P" "$T_TMP" >"$CONF/evil.conf"
probe evil >"$T_TMP/probe.out" 2>&1
eq "probe: a shell word in the configuration: exit 2" "$?" 2
check "probe: ... nothing ran" eval '[ ! -e "$T_TMP/pwned" ] && [ ! -e "$TXT/gput-evil.prom" ]'
printf -- '-n 1 127.0.0.1\n-n 2 127.0.0.1\n' >"$CONF/two.conf"
probe two >"$T_TMP/probe.out" 2>&1
eq "probe: two argument lines: exit 2" "$?" 2
check "probe: ... says so" grep -q 'want one line of gput arguments, found 2' "$T_TMP/probe.out"
probe ../lo >"$T_TMP/probe.out" 2>&1
eq "probe: a name with a slash: exit 2" "$?" 2
printf -- '--no-such-option 127.0.0.1\n' >"$CONF/lo2.conf"
cp "$TXT/gput-lo.prom" "$TXT/gput-lo2.prom"
probe lo2 >"$T_TMP/probe.out" 2>&1
eq "probe: arguments gput refuses: exit 2" "$?" 2
check "probe: ... and the old result is gone" test ! -e "$TXT/gput-lo2.prom"
# another target: two probes of one target, protocol and direction would
# give the node exporter the same series twice (README, Scheduled tests)
DRUN='target="localhost",proto="tcp",direction="out"'
printf -- '-p 1 localhost\n' >"$CONF/down.conf"
probe down >"$T_TMP/probe.out" 2>&1
eq "probe: partner down: exit 0 (the outcome is in the file)" "$?" 0
check "probe: ... gput_up 0, gput_probe_error error=connect" eval \
	'grep -qx "gput_up{$DRUN} 0" "$TXT/gput-down.prom" &&
	 grep -qx "gput_probe_error{$DRUN,error=\"connect\"} 1" "$TXT/gput-down.prom"'

# The probe runs as root in a directory another user may write: that user
# (nobody, through setpriv) acts while gput runs, as a racer would. GPUT is
# a wrapper that first, as nobody, swaps every temporary it finds for a
# symlink to a root-only file (what broke mktemp, >"$tmp", chmod and mv)
# and plants that symlink as the final .prom, then runs gput. In a
# directory others may write without the sticky bit the probe refuses
# (exit 1, one line) and writes nothing; in a sticky one the symlink is
# replaced, never followed. Either way the root-only file keeps its mode
# and content.
probe_attack() { # MODE: the directory's mode
	_ad=$ATK/d$1
	rm -rf "$_ad"; mkdir "$_ad" && chmod "$1" "$_ad"
	printf 'secret\n' >"$VICTIM"; chmod 600 "$VICTIM"
	: >"$ATK/log"
	REAL_GPUT=$GPUT GPUT=$ATK/evilgput GPUT_TEXTFILE=$TEXTFILE GPUT_PROBE_CONF_DIR=$CONF \
		GPUT_PROBE_TEXTFILE_DIR=$_ad ATK_DIR=$_ad ATK_LOG=$ATK/log \
		ATK_VICTIM=$VICTIM timeout -k 2 60 sh "$PROBE" lo \
		>"$T_TMP/probe.out" 2>&1
}
if ! command -v setpriv >/dev/null || [ "$(id -u)" != 0 ] ||
   ! id nobody >/dev/null 2>&1; then
	skip "probe in a hostile directory (needs root, setpriv and user nobody)"
else
	ATK=$(mktemp -d /tmp/gput-probe-attack.XXXXXX)
	chmod 755 "$ATK"
	VICTIM=$T_TMP/victim
	cat >"$ATK/evilgput" <<'EOS'
#!/bin/sh
setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups sh -c '
	cd "$1" || exit 1
	for t in .gput-*; do
		[ -e "$t" ] || [ -L "$t" ] || continue
		rm -f "$t" && ln -s "$2" "$t" && echo "swapped $t"
	done
	ln -s "$2" gput-lo.prom && echo planted' sh "$ATK_DIR" "$ATK_VICTIM" >>"$ATK_LOG" 2>&1
exec "$REAL_GPUT" "$@"
EOS
	chmod 755 "$ATK/evilgput"
	probe_attack 0777
	eq "probe, directory writable by others: exit 1" "$?" 1
	check "probe, directory writable by others: the attacker planted its symlink" \
		grep -qx planted "$ATK/log"
	check "probe, directory writable by others: refused in one line" eval \
		'[ "$(grep -c . "$T_TMP/probe.out")" = 2 ] && grep -q "gput-textfile: .*: refused: writable by group or others without the sticky bit (mode 0777)" "$T_TMP/probe.out"'
	check "probe, directory writable by others: root's file untouched" eval \
		'[ "$(stat -c %a "$VICTIM")" = 600 ] && [ "$(cat "$VICTIM")" = secret ]'
	check "probe, directory writable by others: nothing written" eval \
		'[ "$(ls -A "$ATK/d0777")" = gput-lo.prom ] && [ -L "$ATK/d0777/gput-lo.prom" ]'
	probe_attack 1777
	eq "probe, sticky directory with a planted symlink: exit 0" "$?" 0
	check "probe, sticky directory: the attacker planted its symlink" \
		grep -qx planted "$ATK/log"
	check "probe, sticky directory: root's file untouched" eval \
		'[ "$(stat -c %a "$VICTIM")" = 600 ] && [ "$(cat "$VICTIM")" = secret ]'
	check "probe, sticky directory: the .prom is root's regular file, 0644, the result" eval \
		'[ ! -L "$ATK/d1777/gput-lo.prom" ] && [ "$(stat -c %U:%a "$ATK/d1777/gput-lo.prom")" = root:644 ] &&
		 grep -q "^gput_up{.*} 1$" "$ATK/d1777/gput-lo.prom" && [ "$(ls -A "$ATK/d1777")" = gput-lo.prom ]'
	mkdir -m 755 "$ATK/d0755" && chown nobody "$ATK/d0755"
	GPUT=$GPUT GPUT_TEXTFILE=$TEXTFILE GPUT_PROBE_CONF_DIR=$CONF \
		GPUT_PROBE_TEXTFILE_DIR=$ATK/d0755 timeout -k 2 60 sh "$PROBE" lo >"$T_TMP/probe.out" 2>&1
	eq "probe, directory owned by another user: exit 1" "$?" 1
	check "probe, directory owned by another user: says so" \
		grep -q "refused: owned by uid $(id -u nobody), neither root nor this user" "$T_TMP/probe.out"
	rm -rf "$ATK"
fi

if ! command -v "$NODE_EXPORTER" >/dev/null || ! command -v curl >/dev/null; then
	skip "node exporter serves the probe ($NODE_EXPORTER or curl not installed: apt-get install prometheus-node-exporter curl)"
	t_done
fi
# The node exporter cannot listen on port 0 and announce it: try free ports
# from a random start, on 127.0.0.1 only, until one is ours.
NE_PID=
for _try in 1 2 3 4 5 6 7 8; do
	NE_PORT=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
	(exec 4<>"/dev/tcp/127.0.0.1/$NE_PORT") 2>/dev/null && continue  # taken
	"$NODE_EXPORTER" --web.listen-address="127.0.0.1:$NE_PORT" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$TXT" >"$T_TMP/ne.log" 2>&1 &
	NE_PID=$!
	T_PIDS="$T_PIDS $NE_PID"
	if wait_until 10 eval 'curl -sf "http://127.0.0.1:$NE_PORT/metrics" >"$T_TMP/scrape" ||
	    ! kill -0 "$NE_PID" 2>/dev/null' && kill -0 "$NE_PID" 2>/dev/null; then
		break
	fi
	NE_PID=             # lost the port to someone else: another one
done
if [ -z "$NE_PID" ]; then
	fail "node exporter listens on 127.0.0.1"
	cat "$T_TMP/ne.log"
	t_done
fi
pass "node exporter listens on 127.0.0.1:$NE_PORT"
# norm FILE: FILE's gput samples as gput writes them: the exporter sorts the
# labels by name and writes numbers its own way (8.192e+06)
norm() {
	awk '/^gput_/ {
		name = $1; sub(/\{.*/, "", name); out = ""
		n = split("target proto direction side role stream error", k, " ")
		for (i = 1; i <= n; i++)
			if (match($1, "[{,]" k[i] "=\"[^\"]*\"")) {
				l = substr($1, RSTART + 1, RLENGTH - 1)
				out = out (out == "" ? "" : ",") l
			}
		v = $2 + 0
		printf "%s{%s} %s\n", name, out, (v == int(v) && v < 1e15) ? sprintf("%d", v) : $2
	}' "$1"
}
probe lo >"$T_TMP/probe.out" 2>&1
eq "probe again: exit 0" "$?" 0
curl -sf --max-time 10 "http://127.0.0.1:$NE_PORT/metrics" >"$T_TMP/scrape.raw"
eq "scrape: exit 0" "$?" 0
norm "$T_TMP/scrape.raw" >"$T_TMP/scrape"
check "scrape: the textfile collector read the directory without error" \
	grep -qx 'node_textfile_scrape_error 0' "$T_TMP/scrape.raw"
OUT=$T_TMP/scrape
eq "scrape: gput_up 1 for lo" "$(sample gput_up "$RUN")" 1
eq "scrape: gput_up 0 for down" "$(sample gput_up "$DRUN")" 0
eq "scrape: gput_probe_error error=connect for down" \
	"$(sample gput_probe_error "$DRUN,error=\"connect\"")" 1
eq "scrape: the sender's bytes" \
	"$(sample gput_bytes "$RUN,side=\"local\",role=\"send\",stream=\"sum\"")" 8192000
# counts are integers, so the exporter serves them as the file has them
norm "$TXT/gput-lo.prom" | grep '^gput_\(bytes\|calls\){' | sort >"$T_TMP/a"
grep -h '^gput_\(bytes\|calls\){' "$T_TMP/scrape" | sort >"$T_TMP/b"
check "scrape: the probe's bytes and calls, every side, as written" eval \
	'[ -s "$T_TMP/a" ] && cmp -s "$T_TMP/a" "$T_TMP/b"'
check "scrape: TCP unpaced: no offered rate" eval \
	'! grep -q "^gput_offered_goodput_bytes_per_second" "$TXT/gput-lo.prom"'
# two files with one series (README: two probes of one target, protocol
# and direction): node exporter 1.5 serves it once, from the file first by
# name, with HTTP 200 and no scrape error; only its log says so
sed 's/^\(gput_up{.*}\) 1$/\1 0/' "$TXT/gput-lo.prom" >"$T_TMP/zz"
mv "$T_TMP/zz" "$TXT/gput-zz.prom"
curl -s --max-time 10 -o "$T_TMP/scrape.raw" -w '%{http_code}' \
	"http://127.0.0.1:$NE_PORT/metrics" >"$T_TMP/code"
eq "duplicate series: HTTP 200" "$(cat "$T_TMP/code")" 200
check "duplicate series: node_textfile_scrape_error 0" \
	grep -qx 'node_textfile_scrape_error 0' "$T_TMP/scrape.raw"
norm "$T_TMP/scrape.raw" >"$T_TMP/scrape"
eq "duplicate series: one gput_up, gput-lo.prom's" \
	"$(grep -c "^gput_up{$RUN} " "$T_TMP/scrape") $(sample gput_up "$RUN")" "1 1"
check "duplicate series: only the exporter's log says so" \
	wait_for_line "$T_TMP/ne.log" 'collected before with the same name and label values' 5
rm -f "$TXT/gput-zz.prom"
t_done
