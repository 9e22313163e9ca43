#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live test: the Prometheus contract as an operator meets it. A real
# prometheus-node-exporter and a real prometheus (Debian's), started here on
# 127.0.0.1, serve and scrape (every second) the files tools/gput-probe
# writes, with tools/prometheus/gput-alerts.yml loaded. Prometheus sees the
# figures as gauges with the run's exact values and the paced probe's
# offered rate; a probe that measured, then failed, is one gput_up series
# (avg_over_time over both runs gives one series between 0 and 1) with the
# reason in gput_probe_error. Every wait is bounded; skipped without the
# two programs, curl or jq.
. "$(dirname "$0")/lib.sh"

PROBE=${GPUT_PROBE:-tools/gput-probe}
TEXTFILE=${GPUT_TEXTFILE:-tools/gput-textfile}
NODE_EXPORTER=${NODE_EXPORTER:-prometheus-node-exporter}
PROMETHEUS=${PROMETHEUS:-prometheus}
for t in "$NODE_EXPORTER" "$PROMETHEUS" curl jq; do
	if ! command -v "$t" >/dev/null; then
		skip "Prometheus scraping a node exporter ($t not installed: apt-get install prometheus prometheus-node-exporter curl jq)"
		t_done
	fi
done
if [ ! -x "$TEXTFILE" ] && ! make -s "$TEXTFILE" >/dev/null; then
	fail "$TEXTFILE builds"
	t_done
fi

# on_free_port NAME URL-PATH CMD...: start CMD (its words may hold @PORT@)
# on a free port of 127.0.0.1, tried from a random start, until URL-PATH
# answers there; sets PORT and PID. Neither program can listen on port 0
# and announce it.
on_free_port() {
	_n=$1 _path=$2; shift 2
	for _try in 1 2 3 4 5 6 7 8; do
		PORT=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
		(exec 4<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && continue  # taken
		"${@//@PORT@/$PORT}" >"$T_TMP/$_n.log" 2>&1 &
		PID=$!
		T_PIDS="$T_PIDS $PID"
		if wait_until 30 eval 'curl -sf -o /dev/null "http://127.0.0.1:$PORT$_path" ||
		    ! kill -0 "$PID" 2>/dev/null' && kill -0 "$PID" 2>/dev/null; then
			pass "$_n listens on 127.0.0.1:$PORT"
			return 0
		fi
		kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null
	done
	fail "$_n listens on 127.0.0.1"
	cat "$T_TMP/$_n.log"
	return 1
}

start_daemon || { fail "daemon announces its port"; t_done; }
CONF=$T_TMP/probe
TXT=$T_TMP/textfile
mkdir -p "$CONF" "$TXT"
probe() { GPUT=$GPUT GPUT_TEXTFILE=$TEXTFILE GPUT_PROBE_CONF_DIR=$CONF \
	GPUT_PROBE_TEXTFILE_DIR=$TXT timeout -k 2 60 sh "$PROBE" "$@" >>"$T_TMP/probe.out" 2>&1; }
printf -- '-n 2000 -l 4096 --link 1G -p %s 127.0.0.1\n' "$D_PORT" >"$CONF/lo.conf"
printf -- '-u --rate 20M -n 500 -l 1000 -p %s 127.0.0.1\n' "$D_PORT" >"$CONF/udp.conf"
probe lo
eq "probe lo: exit 0" "$?" 0
probe udp
eq "probe udp: exit 0" "$?" 0

on_free_port node-exporter /metrics "$NODE_EXPORTER" \
	--web.listen-address=127.0.0.1:@PORT@ --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$TXT" || t_done
NE_PORT=$PORT
cp tools/prometheus/gput-alerts.yml "$T_TMP/"
cat >"$T_TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - gput-alerts.yml
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$NE_PORT']
EOF
on_free_port prometheus /-/ready "$PROMETHEUS" \
	--config.file="$T_TMP/prometheus.yml" --storage.tsdb.path="$T_TMP/tsdb" \
	--web.listen-address=127.0.0.1:@PORT@ || t_done
API=http://127.0.0.1:$PORT/api/v1

# q QUERY: the instant query's result as "labels value" lines, sorted
q() {
	curl -sf --max-time 10 "$API/query" --data-urlencode "query=$1" |
		jq -r '.data.result[] | ((.metric | del(.__name__, .instance, .job) | to_entries |
		    map("\(.key)=\(.value)") | sort | join(",")) + " " + .value[1])' | sort
}
RUN='target="127.0.0.1",proto="tcp",direction="out"'
URUN='target="127.0.0.1",proto="udp",direction="out"'
check "prometheus scraped the probes (gput_up of both)" wait_until 60 eval \
	'[ "$(q "gput_up" | wc -l)" = 2 ]'
eq "gput_up: one series a probe, 1" "$(q "gput_up{$RUN}")" \
	"direction=out,proto=tcp,target=127.0.0.1 1"
eq "gput_bytes: both sides, the run's exact count" \
	"$(q "gput_bytes{$RUN}")" \
"direction=out,proto=tcp,role=recv,side=partner,stream=sum,target=127.0.0.1 8192000
direction=out,proto=tcp,role=send,side=local,stream=sum,target=127.0.0.1 8192000"
eq "gput_calls: the sender's 2000 writes" \
	"$(q "gput_calls{$RUN,side=\"local\"}" | cut -d' ' -f2)" 2000
eq "gput_offered_goodput_bytes_per_second: the UDP probe's 20 Mbit/s" \
	"$(q "gput_offered_goodput_bytes_per_second{$URUN}" | cut -d' ' -f2)" 2500000
eq "gput_udp_datagrams_lost: sent less received" \
	"$(q "gput_udp_datagrams_lost{$URUN} + gput_bytes{$URUN,side=\"partner\"} / 1000" |
	   cut -d' ' -f2)" 500
# the types as Prometheus recorded them from the exporter
meta() { curl -sf --max-time 10 "$API/metadata?metric=$1" | jq -r ".data.$1[0].type"; }
for m in gput_up gput_bytes gput_calls gput_retransmits gput_udp_datagrams_lost \
    gput_offered_goodput_bytes_per_second gput_goodput_bytes_per_second; do
	check "$m is a gauge" wait_until 30 eval '[ "$(meta "$m")" = gauge ]'
done
eq "no gput family ends in _total" \
	"$(curl -sf --max-time 10 "$API/label/__name__/values" | jq -r '.data[]' | grep -c '^gput_.*_total$')" 0
eq "the alerting rules loaded, all healthy" \
	"$(curl -sf --max-time 10 "$API/rules" | jq -r '[.data.groups[].rules[] | .health] | unique | join(",")')" ok

# the same probe fails (its partner gone): gput_up 0 in the same series
printf -- '-p 1 127.0.0.1\n' >"$CONF/lo.conf"
probe lo
eq "probe lo, partner gone: exit 0 (the outcome is in the file)" "$?" 0
check "prometheus sees the failure: gput_probe_error{error=connect} 1" wait_until 60 eval \
	'[ "$(q "gput_probe_error{$RUN}")" = "direction=out,error=connect,proto=tcp,target=127.0.0.1 1" ]'
eq "gput_up: still one series, now 0" "$(q "gput_up{$RUN}")" \
	"direction=out,proto=tcp,target=127.0.0.1 0"
AVG=$(q "avg_over_time(gput_up{$RUN}[10m])")
eq "avg_over_time(gput_up[10m]) over both outcomes: one series" \
	"$(printf '%s\n' "$AVG" | grep -c .)" 1
check "... between 0 and 1 ($AVG)" eval \
	'printf "%s\n" "$AVG" | awk "{ exit !(\$2 > 0 && \$2 < 1) }"'
check "GputProbeFailed fires for it" wait_until 60 eval \
	'q "ALERTS{alertname=\"GputProbeFailed\",alertstate=\"firing\"}" | grep -q "error=connect,.*target=127.0.0.1 1"'
t_done
