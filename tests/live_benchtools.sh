#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# make bench's own programs (tools/hostprobe.c, tools/pcapsynth.c, built by
# tools/bench.sh with cc): every number on their command lines is the whole
# word and in range, or a usage error (exit 1) before anything runs.
. "$(dirname "$0")/lib.sh"

CC=${CC:-cc}
if ! command -v "$CC" >/dev/null 2>&1; then
	skip "no C compiler: the bench's tools are not built"
	t_done
fi
"$CC" -O2 -pthread -o "$T_TMP/hostprobe" tools/hostprobe.c 2>"$T_TMP/cc.err"
eq "hostprobe builds" "$?" 0
"$CC" -O2 -o "$T_TMP/pcapsynth" tools/pcapsynth.c 2>>"$T_TMP/cc.err"
eq "pcapsynth builds" "$?" 0

# refused WHAT PROGRAM ARGS...: exit 1, the usage error, nothing on stdout
# (a number taken wrongly may make a run that never ends: 10 s at most)
refused() {
	_w=$1; shift
	timeout 10 "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	eq "$_w: exit 1" "$?" 1
	check "$_w: says why" grep -q "bad arguments\|SNAPLEN\|BYTES" "$T_TMP/err"
	check "$_w: runs nothing" [ ! -s "$T_TMP/out" ]
}

HP="$T_TMP/hostprobe"
refused "hostprobe: LEN 1k" "$HP" tcp-copy 1k 100000 -1 -1
refused "hostprobe: LEN empty" "$HP" tcp-copy "" 100000 -1 -1
refused "hostprobe: BYTES 1e5" "$HP" tcp-copy 1000 1e5 -1 -1
refused "hostprobe: BYTES 18446744073709551617" "$HP" tcp-copy 1000 \
    18446744073709551617 -1 -1
refused "hostprobe: RXCPU 0x" "$HP" tcp-copy 1000 100000 0x -1
refused "hostprobe: TXCPU -2" "$HP" tcp-copy 1000 100000 -1 -2
refused "hostprobe: TXCPU 99999999999" "$HP" tcp-copy 1000 100000 -1 99999999999
refused "hostprobe: MBITS 10M" "$HP" tcp-copy 1000 100000 -1 -1 10M
refused "hostprobe: MBITS nan" "$HP" tcp-copy 1000 100000 -1 -1 nan
refused "hostprobe: BUF 12x" "$HP" tcp-copy 1000 100000 -1 -1 0 12x
refused "hostprobe: BUF 4294967296" "$HP" tcp-copy 1000 100000 -1 -1 0 4294967296
# the same words, right: it runs (a 100 kB TCP copy on loopback)
timeout 60 "$HP" tcp-copy 1000 100000 -1 -1 0 0 >"$T_TMP/out" 2>"$T_TMP/err"
eq "hostprobe tcp-copy 1000 100000 -1 -1 0 0: exit 0" "$?" 0
check "hostprobe: every byte arrived" grep -q " bytes=100000 " "$T_TMP/out"

PS="$T_TMP/pcapsynth"
refused "pcapsynth: BYTES 12x" "$PS" "$T_TMP/c.pcap" 12x
refused "pcapsynth: BYTES -1" "$PS" "$T_TMP/c.pcap" -1
refused "pcapsynth: SNAPLEN 100x" "$PS" "$T_TMP/c.pcap" 14480 100x
timeout 60 "$PS" "$T_TMP/c.pcap" 14480 100 >"$T_TMP/out" 2>"$T_TMP/err"
eq "pcapsynth FILE 14480 100: exit 0" "$?" 0
check "pcapsynth: a capture written" [ -s "$T_TMP/c.pcap" ]
t_done
