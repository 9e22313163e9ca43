#!/bin/sh
# Regenerates the fuzzers' seed corpus:
#   tests/fuzz/corpus/pcap: every capture `tests/unit_pcapscan --captures DIR`
#     and `tests/unit_pcapudp --captures DIR` write (the captures of the unit
#     and golden tests, with the crafted sequence-hole ones and gput UDP
#     runs with data headers);
#   tests/fuzz/corpus/ctl: control messages of protocol version 4 as sent
#     on the wire (header, payload; some followed by a UDP end marker), valid
#     ones of every type (READY with several ports, RESULT per stream and the
#     side's own) and malformed ones (some of versions 2 and 3), written below from
#     hex.
# The seeds are committed; run this after changing the capture builders.
# Below each, found/ keeps inputs that fuzzing found (libFuzzer reads the
# corpus directories recursively): left alone here. To add what a run found
# in DIR, copy tests/fuzz/corpus/NAME/. into an empty TMP, run
#   tests/fuzz/fuzz_NAME -merge=1 TMP DIR
# and move the files new in TMP (they add coverage) to found/. A finding's
# reproducer goes there too.
set -eu
cd "$(dirname "$0")/../.."
make -s tests/unit_pcapscan tests/unit_pcapudp
pcap=tests/fuzz/corpus/pcap
ctl=tests/fuzz/corpus/ctl
mkdir -p "$pcap" "$ctl"
find "$pcap" -maxdepth 1 -type f -exec rm -f {} +
tests/unit_pcapscan --captures "$pcap"
tests/unit_pcapudp --captures "$pcap"

# hex NAME HEX...: write the bytes of the hex digits (spaces ignored).
hex() {
	name=$1
	shift
	echo "$*" | tr -d ' \n' | sed 's/../& /g' | tr ' ' '\n' | grep . |
	while read -r b; do printf "\\$(printf %03o "0x$b")"; done >"$ctl/$name"
}
find "$ctl" -maxdepth 1 -type f -exec rm -f {} +
H=47505554   # "GPUT"
V=04         # control protocol version (include/wire_ctl.h)
Z16=00000000000000000000000000000000
Z20=0000000000000000000000000000000000000000
Z32=$Z16$Z16
M32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
N16=00112233445566778899aabbccddeeff
CUBIC=63756269630000000000000000000000   # "cubic", NUL-padded to 16
BBR=62627200000000000000000000000000     # "bbr"
# cc64 LIST: a PARAMS congestion control list, NUL-padded to 64 bytes
cc64() {
	printf %s "$1" | od -An -tx1 | tr -d ' \n'
	n=$((64 - ${#1}))
	while [ "$n" -gt 0 ]; do printf 00; n=$((n - 1)); done
}
CC0=$(cc64 "")
# ports FIRST N: N ports u16 from FIRST on, in hex
ports() {
	i=0
	while [ "$i" -lt "$2" ]; do printf %04x $(($1 + i)); i=$((i + 1)); done
}
# streams u16 (128), zero u16 (130), zero[20] (132), extensions: PARAMS 128..183
# X32: PARAMS 152..183, the version 4 extensions (xflags and their
# ranges), zero when none is asked
X32=$Z32
S1="0001 0000 $Z20 $X32"
# HELLO (40 bytes): flags (1: a key is required), zero, challenge[32]
hex hello $H $V 05 0028  00000000 00000000 $M32
hex hello_key $H $V 05 0028  00000001 00000000 $M32
# PARAMS (216 bytes): bytes 0..39, data_gap_ps u64 (40..47), then
# duration_ms, interval_ms, omit_ms, data_burst u32, cc[64] (a comma list),
# streams u16, zero u16, zero[20], extensions[32] (152..183), MAC[32]
# (184..215).
# TCP receiver, -l 1448, -n 100, seed 1, count mode, one stream; no MAC, a MAC
P_TCP="00 01 00 00 000005a8 0000000000000064 00000000 00000000 000005a8
    00000001 00000000000235a0 00000000 00000000"
hex params_tcp $H $V 01 00d8  $P_TCP $Z16 $CC0 $S1 $Z32
hex params_tcp_mac $H $V 01 00d8  $P_TCP $Z16 $CC0 $S1 $M32
# TCP receiver, --time 10 --interval 1 --omit 2 --cc cubic: data_bytes 2^62
P_TIMED="00 01 00 00 000005a8 0000000000000064 00000000 00000000 000005a8
    00000001 4000000000000000 00000000 00000000"
hex params_timed $H $V 01 00d8  $P_TIMED 00002710 000003e8 000007d0 00000000 \
    "$(cc64 cubic)" $S1 $M32
# count mode with --interval 0.1 (the shortest) and --cc bbr
hex params_interval $H $V 01 00d8  $P_TCP 00000000 00000064 00000000 00000000 \
    "$(cc64 bbr)" $S1 $Z32
# -P 4 --cc cubic,bbr (the streams take the names in turn), a MAC
hex params_streams $H $V 01 00d8  $P_TIMED 00002710 000003e8 00000000 00000000 \
    "$(cc64 cubic,bbr)" 0004 0000 $Z20 $X32 $M32
# -P 128 (the most), --cc with a list of 63 bytes (the most)
hex params_streams_max $H $V 01 00d8  $P_TCP $Z16 \
    "$(cc64 abcdefghijklmno,pqrstuvwxyz0123,456789_-abcdefg,hijklmnopqrstuv)" \
    0080 0000 $Z20 $X32 $Z32
# PARAMS: UDP receiver, -l 1472, -n 10, then end marker 1 (32 bytes: GPUE,
# version 1, index 1, 10 datagrams, 14720 bytes)
hex params_udp_marker $H $V 01 00d8  01 01 0e 00 000005c0 000000000000000a \
    00010000 000003e8 000005c0 0000002a 0000000000003980 00000000 000003e8 \
    $Z16 $CC0 $S1  $Z32  47505545 01 01 0000 000000000000000a 0000000000003980 \
    0000000000000000
# PARAMS: UDP receiver, -l 1472, -n 1000, --rate paced: data_gap_ps 1 ms
# (1e9 ps), --burst 4, -P 3, then marker 1
hex params_udp_paced $H $V 01 00d8  01 01 00 00 000005c0 00000000000003e8 \
    00000000 00000000 000005c0 00000007 0000000000167e00 000000003b9aca00 \
    00000000 00000000 00000000 00000004 $CC0 0003 0000 $Z20 $X32 $Z32  47505545 01 \
    01 0000 00000000000003e8 0000000000167e00 0000000000000000
# PARAMS: pacing at its most: data_gap_ps 10 s (1e13), --burst 1000000
hex params_udp_pace_max $H $V 01 00d8  01 01 00 00 000005c0 00000000000003e8 \
    00000000 00989680 000005c0 00000007 0000000000167e00 000009184e72a000 \
    00000000 00000000 00000000 000f4240 $CC0 $S1 $Z32
# PARAMS: UDP, -l 32 (so the marker is 33 bytes), then marker 3 of 33 bytes
hex params_udp_marker33 $H $V 01 00d8  01 01 00 00 00000020 0000000000000003 \
    00000000 00000000 00000020 00000000 0000000000000060 00000000 00000000 \
    $Z16 $CC0 $S1 $Z32  47505545 01 03 0000 0000000000000003 0000000000000060 \
    0000000000000000 00
# START, then an acknowledgement (GPUA, 24 bytes: version 1, stream 1,
# sequence 7, send time 0x1122334455667788), and one of stream 0 (no stream)
hex start_ack $H $V 06 0000  47505541 01 00 0001 0000000000000007 1122334455667788
hex bad_ack_stream0 $H $V 06 0000  47505541 01 00 0000 0000000000000007 \
    1122334455667788
# READY (50 + 2 * ports bytes): port 5038, ports u16, nonce[16], MAC[32],
# then the other streams' ports u16 each
hex ready $H $V 02 0034  13ae 0001 $Z16 $Z32
hex ready_mac $H $V 02 0034  13ae 0001 $N16 $M32
hex ready_ports4 $H $V 02 003a  13ae 0004 $N16 $M32 "$(ports 5039 3)"
hex ready_ports128 $H $V 02 0132  13ae 0080 $N16 $M32 "$(ports 5039 127)"
# RESULT (120 bytes): eleven u64, flags u32, sndbuf u32, rcvbuf u32, stream
# u32 (0: the side's own), start_ns u64, end_ns u64 (after START). One per
# stream, then the side's sums.
R_CNT="0000000000000000 0000000000000000 0000000000000000 0000000000000000
    0000000000000000 0000000000000000 0000000000000000"
hex result $H $V 03 0078  00000000000235a0 0000000000000064 \
    000000003b9aca00 0000000005f5e100 $R_CNT 00000001 00020000 00020000 \
    00000000 0000000000000000 000000003b9aca00
hex result_stream1 $H $V 03 0078  0000000000011ad0 0000000000000032 \
    000000003b9aca00 0000000000000000 $R_CNT 00000001 00020000 00020000 \
    00000001 0000000000000000 000000003b9aca00
hex result_stream2 $H $V 03 0078  0000000000011ad0 0000000000000032 \
    000000003b8b87c0 0000000000000000 $R_CNT 00000001 00020000 00020000 \
    00000002 00000000000f4240 000000003b9aca00
hex result_stream128 $H $V 03 0078  0000000000000000 0000000000000000 \
    0000000000000000 0000000000000000 $R_CNT 00000000 00000000 00000000 \
    00000080 000000003b9aca00 000000003b9aca00
# ERROR: printable text; START and STOP: nothing
hex error $H $V 04 000d  6e6f207375636820746869 6e67
hex start $H $V 06 0000
hex stop $H $V 07 0000
# UDPSTATS (144 bytes): received, unique, duplicates, reordered,
# max_displacement, late, too_old, other, jitter_ns, delay_var_ns,
# delay_var_max_ns u64, owd_min_ns, owd_mean_ns i64, flags u32 (1 seq,
# 2 timed, 4 ecn), stream u32 (1..N), not-ECT, ECT(1), ECT(0), CE u64;
# received - unique = duplicates + too_old; the ECN counts add up to
# received with flag 4 and are zero without it
U_CNT="00000000000003e8 00000000000003de 0000000000000007 000000000000000c
    000000000000001f 0000000000000001 0000000000000003 0000000000000002"
hex udpstats $H $V 0a 0090  $U_CNT 0000000000002710 00000000000186a0 \
    00000000000f4240 fffffffffffffc18 0000000000002af8 00000007 00000001 \
    0000000000000000 0000000000000000 00000000000003d4 0000000000000014
hex udpstats_noseq $H $V 0a 0090  00000000000003e8 00000000000003e8 \
    $Z16 $Z16 $Z32 $Z16 0000000000000000 00000000 00000080 $Z32
# INTERVAL (64 bytes): index, flags (1 last, 2 omitted, 4 TCP), start_ns,
# end_ns, bytes, calls, dgrams u64, retrans, cwnd, srtt_us, stream u32
hex interval_tcp $H $V 08 0040  00000001 00000004 000000003b9aca00 \
    0000000077359400 0000000007735940 0000000000000514 0000000000000000 \
    00000003 0000000a 00000029 00000001
hex interval_tcp_stream2 $H $V 08 0040  00000001 00000004 000000003b9aca00 \
    0000000077359400 0000000003b9aca0 000000000000028a 0000000000000000 \
    00000001 00000014 0000002b 00000002
hex interval_udp_last $H $V 08 0040  00000009 00000003 000000021e69e5c0 \
    000000022b71a340 0000000000016fe0 000000000000000a 0000000000000009 \
    00000000 00000000 00000000 00000080
# TCPINFO (96 bytes): cc[16], retrans u64, rtt_us, min_rtt_us, cwnd, mss u32,
# delivery_rate, busy_us, rwnd_limited_us, sndbuf_limited_us u64, stream
# u32, ecn u32 (1 negotiated, 2 seen, 4 received CE counted),
# delivered_ce, received_ce, received_ce_bytes u32, zero u32
hex tcpinfo $H $V 09 0060  $BBR 000000000000000c 00000029 00000012 0000000a \
    0000ffcb 00000000ee6b2800 0000000000989680 00000000000005dc \
    0000000000000000 00000001 00000007 0000000c 00000005 00001c48 00000000
hex tcpinfo_nocc $H $V 09 0060  $Z16 $Z16 $Z16 $Z16 0000000000000000 \
    00000080 00000000 $Z16
# malformed
hex bad_magic 47505556 $V 02 0034  13ae 0001 $Z16 $Z32
hex bad_version $H 01 02 0004  13ae 0000
# a whole version-2 READY and PARAMS (112 bytes): refused for the version
hex bad_version2_ready $H 02 02 0034  13ae 0000 $Z16 $Z32
hex bad_version2_params $H 02 01 0070  $P_TCP $Z16 $CUBIC $Z32
# a whole version-3 PARAMS (184 bytes): refused for the version
hex bad_version3_params $H 03 01 00b8  $P_TCP $Z16 $CC0 0001 0000 $Z20 $Z32
hex bad_type $H $V 0b 0000
hex bad_toolong $H $V 04 0141
hex bad_short_hdr $H $V
hex bad_hello_flags $H $V 05 0028  00000002 00000000 $M32
hex bad_ready_port0 $H $V 02 0034  0000 0001 $Z16 $Z32
hex bad_ready_port0_later $H $V 02 003a  13ae 0004 $N16 $M32 13af 0000 13b1
hex bad_ready_count0 $H $V 02 0034  13ae 0000 $Z16 $Z32
hex bad_ready_count $H $V 02 0036  13ae 0003 $N16 $M32 13af   # 3 in 54
hex bad_ready_toomany $H $V 02 0134  13ae 0081 $N16 $M32 "$(ports 5039 128)"
hex bad_ready_len $H $V 02 0004  13ae 0001
hex bad_start_len $H $V 06 0001  00
hex bad_error_empty $H $V 04 0000
hex bad_error_ctrl $H $V 04 0003  41 0a 42
hex bad_params_reserved $H $V 01 00d8  00 01 f0 00 000005a8 \
    0000000000000064 00000000 00000000 000005a8 00000001 00000000000235a0 \
    00000000 00000000 $Z16 $CC0 $S1 $Z32
hex bad_params_reserved130 $H $V 01 00d8  $P_TCP $Z16 $CC0 0001 0001 $Z20 $X32 $Z32
hex bad_params_reserved151 $H $V 01 00d8  $P_TCP $Z16 $CC0 0001 0000 \
    0000000000000000000000000000000000000001 $X32 $Z32
hex bad_params_streams0 $H $V 01 00d8  $P_TCP $Z16 $CC0 0000 0000 $Z20 $X32 $Z32
hex bad_params_streams129 $H $V 01 00d8  $P_TCP $Z16 $CC0 0081 0000 $Z20 $X32 $Z32
hex bad_params_count0 $H $V 01 00d8  00 01 00 00 000005a8 \
    0000000000000000 00000000 00000000 000005a8 00000001 00000000000235a0 \
    00000000 00000000 $Z16 $CC0 $S1 $Z32
hex bad_params_len112 $H $V 01 0070  $P_TCP $Z16 $CUBIC $Z32   # v2's length
hex bad_params_burst $H $V 01 00d8  $P_TIMED 00002710 00000000 00000000 \
    000f4241 "$(cc64 cubic)" $S1 $Z32   # --burst 1000001: one over the most
hex bad_params_gap $H $V 01 00d8  00 01 00 00 000005a8 0000000000000064 \
    00000000 00000000 000005a8 00000001 00000000000235a0 000009184e72a001 \
    00000000 00000000 00000000 00000000 $CC0 $S1 $Z32   # 10 s + 1 ps
hex bad_params_interval $H $V 01 00d8  $P_TCP 00000000 00000063 00000000 \
    00000000 $CC0 $S1 $Z32      # --interval 99 ms: under the 100 ms least
hex bad_params_time $H $V 01 00d8  $P_TIMED 05265c01 00000000 00000000 \
    00000000 $CC0 $S1 $Z32      # a day and a millisecond
hex bad_params_timed_len $H $V 01 00d8  $P_TCP 00002710 00000000 00000000 \
    00000000 $CC0 $S1 $Z32      # --time with a length of its own
hex bad_params_cc_upper $H $V 01 00d8  $P_TCP $Z16 "$(cc64 Cubic)" $S1 $Z32
hex bad_params_cc_after_nul $H $V 01 00d8  $P_TCP $Z16 \
    6262720078"$(printf %0118d 0)" $S1 $Z32   # "bbr", NUL, "x"
hex bad_params_cc_empty_name $H $V 01 00d8  $P_TCP $Z16 "$(cc64 ,cubic)" $S1 $Z32
hex bad_params_cc_double_comma $H $V 01 00d8  $P_TCP $Z16 "$(cc64 cubic,,bbr)" \
    $S1 $Z32
hex bad_params_cc_trailing_comma $H $V 01 00d8  $P_TCP $Z16 "$(cc64 cubic,)" \
    $S1 $Z32
hex bad_params_cc_name16 $H $V 01 00d8  $P_TCP $Z16 \
    "$(cc64 cubic,abcdefghijklmnop)" $S1 $Z32
hex bad_params_cc_nonul $H $V 01 00d8  $P_TCP $Z16 \
    "$(cc64 abcdefghijklmno,pqrstuvwxyz0123,456789_-abcdefg,hijklmnopqrstuvx)" \
    $S1 $Z32                    # 64 bytes, no NUL
hex bad_interval_flags $H $V 08 0040  00000001 00000010 000000003b9aca00 \
    0000000077359400 0000000007735940 0000000000000514 0000000000000000 \
    00000003 0000000a 00000029 00000001
hex bad_interval_stream0 $H $V 08 0040  00000001 00000004 000000003b9aca00 \
    0000000077359400 0000000007735940 0000000000000514 0000000000000000 \
    00000003 0000000a 00000029 00000000
hex bad_interval_stream129 $H $V 08 0040  00000001 00000004 000000003b9aca00 \
    0000000077359400 0000000007735940 0000000000000514 0000000000000000 \
    00000003 0000000a 00000029 00000081
hex bad_interval_backwards $H $V 08 0040  00000001 00000004 0000000077359400 \
    000000003b9aca00 0000000007735940 0000000000000514 0000000000000000 \
    00000003 0000000a 00000029 00000001
hex bad_interval_len $H $V 08 0000
hex bad_tcpinfo_cc $H $V 09 0060  42425200000000000000000000000000 \
    000000000000000c 00000029 00000012 0000000a 0000ffcb 00000000ee6b2800 \
    0000000000989680 00000000000005dc 0000000000000000 00000001 00000000 $Z16
hex bad_tcpinfo_cc_nonul $H $V 09 0060  6162636465666768696a6b6c6d6e6f70 \
    $Z16 $Z16 $Z16 0000000000000000 00000001 00000000 $Z16
hex bad_tcpinfo_stream0 $H $V 09 0060  $BBR $Z16 $Z16 $Z16 0000000000000000 \
    00000000 00000000 $Z16
hex bad_tcpinfo_stream129 $H $V 09 0060  $BBR $Z16 $Z16 $Z16 0000000000000000 \
    00000081 00000000 $Z16
hex bad_tcpinfo_reserved $H $V 09 0060  $BBR $Z16 $Z16 $Z16 0000000000000000 \
    00000001 00000008 $Z16
# CE segments received without ECN negotiated
hex bad_tcpinfo_ecn_counts $H $V 09 0060  $BBR $Z16 $Z16 $Z16 0000000000000000 \
    00000001 00000000 00000000 00000003 00000000 00000000
hex bad_tcpinfo_len $H $V 09 0048  $Z32 $Z32 0000000000000000   # v2's length
hex bad_tcpinfo_len80 $H $V 09 0050  $Z32 $Z32 $Z16   # v3's length
hex bad_result_flags $H $V 03 0078  00000000000235a0 0000000000000064 \
    000000003b9aca00 0000000005f5e100 $R_CNT ffffffff 00020000 00020000 \
    00000000 0000000000000000 000000003b9aca00
hex bad_result_stream129 $H $V 03 0078  00000000000235a0 0000000000000064 \
    000000003b9aca00 0000000005f5e100 $R_CNT 00000001 00020000 00020000 \
    00000081 0000000000000000 000000003b9aca00
hex bad_result_backwards $H $V 03 0078  00000000000235a0 0000000000000064 \
    000000003b9aca00 0000000005f5e100 $R_CNT 00000001 00020000 00020000 \
    00000001 000000003b9aca00 000000003b9ac9ff
hex bad_result_len $H $V 03 0064  00000000000235a0 0000000000000064 \
    000000003b9aca00 0000000005f5e100 $R_CNT 00000001 00020000 00020000
hex bad_udpstats_flags $H $V 0a 0090  $U_CNT $Z16 $Z16 0000000000000000 \
    00000008 00000001 $Z32
hex bad_udpstats_stream0 $H $V 0a 0090  $U_CNT $Z16 $Z16 0000000000000000 \
    00000003 00000000 $Z32
hex bad_udpstats_stream129 $H $V 0a 0090  $U_CNT $Z16 $Z16 0000000000000000 \
    00000003 00000081 $Z32
# udpstats_ecn: ECN counts one short of the 1000 received
hex bad_udpstats_ecn $H $V 0a 0090  $U_CNT $Z16 $Z16 0000000000000000 \
    00000007 00000001 $Z16 00000000000003d4 0000000000000013
# udpstats_sum: 1000 - 990 != 7 + 4
hex bad_udpstats_sum $H $V 0a 0090  00000000000003e8 00000000000003de \
    0000000000000007 $Z16 0000000000000000 0000000000000004 \
    0000000000000000 $Z32 0000000000000000 00000000 00000001 $Z32
# --latency: xflags 2, a probe every 10000 us, an idle phase of 1000 ms
S1_LAT="0001 0000 $Z20 00000002 00002710 000003e8 00000000 $Z16"
hex params_latency $H $V 01 00d8  $P_TIMED 00002710 00000000 00000000 00000000 \
    $CC0 "$S1_LAT" $Z32
# ECHOPORT (4 bytes): port u16, zero u16; ECHOSTATS (48 bytes): received =
# echoed + over the rate + strangers + malformed + unsent
hex echoport $H $V 0d 0004  9c41 0000
hex echostats $H $V 0e 0030  0000000000000064 000000000000005a \
    0000000000000005 0000000000000002 0000000000000003 0000000000000000
# HOSTUDP (17): RcvbufErrors 12725, InErrors 12730, IPv4; a count over 2^32
hex hostudp $H $V 11 0018  00000000000031b5 00000000000031ba 00000000 00000000
hex bad_hostudp_over $H $V 11 0018  0000000100000001 0000000000000000 00000000 00000000
hex bad_echoport_zero $H $V 0d 0004  0000 0000
hex bad_echostats_sum $H $V 0e 0030  0000000000000064 000000000000005a \
    0000000000000005 0000000000000002 0000000000000004 0000000000000000
hex bad_params_latency_interval $H $V 01 00d8  $P_TIMED 00002710 00000000 \
    00000000 00000000 $CC0 "0001 0000 $Z20 00000002 000003e7 000003e8 00000000 $Z16" $Z32
# udpstats_wrap: 6 + (2^64 - 1) wraps to 5
hex bad_udpstats_wrap $H $V 0a 0090  000000000000000a 0000000000000005 \
    0000000000000006 $Z16 0000000000000000 ffffffffffffffff \
    0000000000000000 $Z32 0000000000000000 00000000 00000001 $Z32
hex bad_udpstats_len $H $V 0a 0064  $U_CNT $Z32 00000000
hex bad_udpstats_len112 $H $V 0a 0070  $U_CNT $Z16 $Z16 0000000000000000 \
    00000003 00000001   # v3's length
hex bad_marker_index $H $V 01 00d8  01 01 00 00 000005c0 000000000000000a \
    00000000 00000000 000005c0 00000000 0000000000003980 00000000 00000000 \
    $Z16 $CC0 $S1 $Z32  47505545 01 04 0000 000000000000000a \
    0000000000003980 0000000000000000
echo "tests/fuzz/regen-corpus.sh: $(find "$pcap" -maxdepth 1 -type f | wc -l)" \
    "pcap seeds, $(find "$ctl" -maxdepth 1 -type f | wc -l) ctl seeds"
