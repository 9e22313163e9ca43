#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live: results that cannot be written are an error. With standard output on
# /dev/full each program exits 1 with one line on standard error, and with
# standard output on a file the same command succeeds.
. "$(dirname "$0")/lib.sh"

if [ ! -w /dev/full ]; then
	skip "writing to a full device (no /dev/full)"
	t_done
fi

# full PROG NAME CMD...: CMD succeeds into a file, fails into /dev/full.
full() {
	_fp=$1 _fn=$2; shift 2
	run_t 20 "$@"
	eq "$_fn: to a file, exit status" "$RC" 0
	check "$_fn: to a file, something written" test -s "$OUT"
	timeout -k 2 20 "$@" >/dev/full 2>"$ERR"
	eq "$_fn >/dev/full: exit status" "$?" 1
	eq "$_fn >/dev/full: the error" "$(cat "$ERR")" \
		"$_fp: writing the results: No space left on device"
}

full gput "gput --predict" "$GPUT" --predict -u -l 1472 --link 10M
full gput "gput -V" "$GPUT" -V
full gput "gput -h" "$GPUT" -h

start_daemon || { fail "daemon announces its port"; t_done; }
full gput "gput client run" "$GPUT" -T -n 10 -l 1000 -p "$D_PORT" 127.0.0.1

CAPS="$T_TMP/caps"
UNIT_PCAPSCAN=${UNIT_PCAPSCAN:-tests/unit_pcapscan}
if [ ! -x "$UNIT_PCAPSCAN" ] && ! make -s "$UNIT_PCAPSCAN" >/dev/null; then
	fail "$UNIT_PCAPSCAN builds (it writes the captures)"
	t_done
fi
mkdir -p "$CAPS" && "$UNIT_PCAPSCAN" --captures "$CAPS" >/dev/null
check "captures written" test -s "$CAPS/udp1472.pcap"
full gput-pcap "gput-pcap table" "$GPUT_PCAP" "$CAPS/udp1472.pcap"
full gput-pcap "gput-pcap --csv" "$GPUT_PCAP" --csv "$CAPS/tcp_ts.pcap"
full gput-pcap "gput-pcap --json" "$GPUT_PCAP" --json --link 10M "$CAPS/tcp_ts.pcap"
full gput-pcap "gput-pcap -V" "$GPUT_PCAP" -V
t_done
