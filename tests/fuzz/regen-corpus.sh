#!/bin/sh
# Regenerates the fuzzers' seed corpus:
#   tests/fuzz/corpus/pcap: every capture `tests/unit_pcapscan --captures DIR`
#     writes (the captures of the unit and golden tests, with the crafted
#     sequence-hole ones);
#   tests/fuzz/corpus/ctl: control messages as sent on the wire (header,
#     payload; some followed by a UDP end marker), valid ones of every type
#     and malformed ones, written below from hex.
# The seeds are committed; run this after changing the capture builders.
# Below each, found/ keeps inputs that fuzzing found (libFuzzer reads the
# corpus directories recursively): left alone here. To add what a run found
# in DIR, copy tests/fuzz/corpus/NAME/. into an empty TMP, run
#   tests/fuzz/fuzz_NAME -merge=1 TMP DIR
# and move the files new in TMP (they add coverage) to found/. A finding's
# reproducer goes there too.
set -eu
cd "$(dirname "$0")/../.."
make -s tests/unit_pcapscan
pcap=tests/fuzz/corpus/pcap
ctl=tests/fuzz/corpus/ctl
mkdir -p "$pcap" "$ctl"
find "$pcap" -maxdepth 1 -type f -exec rm -f {} +
tests/unit_pcapscan --captures "$pcap"

# hex NAME HEX...: write the bytes of the hex digits (spaces ignored).
hex() {
	name=$1
	shift
	echo "$*" | tr -d ' \n' | sed 's/../& /g' | tr ' ' '\n' | grep . |
	while read -r b; do printf "\\$(printf %03o "0x$b")"; done >"$ctl/$name"
}
find "$ctl" -maxdepth 1 -type f -exec rm -f {} +
H=47505554   # "GPUT"
V=02         # control protocol version (include/ctl.h)
Z16=00000000000000000000000000000000
Z32=$Z16$Z16
M32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
# HELLO (40 bytes): flags (1: a key is required), zero, challenge[32]
hex hello $H $V 05 0028  00000000 00000000 $M32
hex hello_key $H $V 05 0028  00000001 00000000 $M32
# PARAMS (80 bytes): TCP receiver, -l 1448, -n 100, seed 1; no MAC, a MAC
P_TCP="00 01 00 00 000005a8 0000000000000064 00000000 00000000 000005a8
    00000001 00000000000235a0 00000000 00000000"
hex params_tcp $H $V 01 0050  $P_TCP $Z32
hex params_tcp_mac $H $V 01 0050  $P_TCP $M32
# PARAMS: UDP receiver, -l 1472, -n 10, then end marker 1 (32 bytes: GPUE,
# version 1, index 1, 10 datagrams, 14720 bytes)
hex params_udp_marker $H $V 01 0050  01 01 0e 00 000005c0 000000000000000a \
    00010000 000003e8 000005c0 0000002a 0000000000003980 00000000 000003e8 \
    $Z32  47505545 01 01 0000 000000000000000a 0000000000003980 \
    0000000000000000
# PARAMS: UDP, -l 32 (so the marker is 33 bytes), then marker 3 of 33 bytes
hex params_udp_marker33 $H $V 01 0050  01 01 00 00 00000020 0000000000000003 \
    00000000 00000000 00000020 00000000 0000000000000060 00000000 00000000 \
    $Z32  47505545 01 03 0000 0000000000000003 0000000000000060 \
    0000000000000000 00
# READY (52 bytes): port 5038, zero, nonce[16], MAC[32]
hex ready $H $V 02 0034  13ae 0000 $Z16 $Z32
hex ready_mac $H $V 02 0034  13ae 0000 00112233445566778899aabbccddeeff $M32
# RESULT (100 bytes): eleven u64, flags u32, sndbuf u32, rcvbuf u32
hex result $H $V 03 0064  00000000000235a0 0000000000000064 \
    000000003b9aca00 0000000005f5e100 0000000000000000 0000000000000000 \
    0000000000000000 0000000000000000 0000000000000000 0000000000000000 \
    0000000000000000 00000001 00020000 00020000
# ERROR: printable text; START and STOP: nothing
hex error $H $V 04 000d  6e6f207375636820746869 6e67
hex start $H $V 06 0000
hex stop $H $V 07 0000
# malformed
hex bad_magic 47505556 $V 02 0034  13ae 0000 $Z16 $Z32
hex bad_version $H 01 02 0004  13ae 0000
hex bad_type $H $V 09 0000
hex bad_toolong $H $V 04 0101
hex bad_short_hdr $H $V
hex bad_hello_flags $H $V 05 0028  00000002 00000000 $M32
hex bad_ready_port0 $H $V 02 0034  0000 0000 $Z16 $Z32
hex bad_ready_len $H $V 02 0004  13ae 0000
hex bad_start_len $H $V 06 0001  00
hex bad_error_empty $H $V 04 0000
hex bad_error_ctrl $H $V 04 0003  41 0a 42
hex bad_params_reserved $H $V 01 0050  00 01 f0 00 000005a8 \
    0000000000000064 00000000 00000000 000005a8 00000001 00000000000235a0 \
    00000000 00000000 $Z32
hex bad_params_count0 $H $V 01 0050  00 01 00 00 000005a8 \
    0000000000000000 00000000 00000000 000005a8 00000001 00000000000235a0 \
    00000000 00000000 $Z32
hex bad_result_flags $H $V 03 0064  00000000000235a0 0000000000000064 \
    000000003b9aca00 0000000005f5e100 0000000000000000 0000000000000000 \
    0000000000000000 0000000000000000 0000000000000000 0000000000000000 \
    0000000000000000 ffffffff 00020000 00020000
hex bad_marker_index $H $V 01 0050  01 01 00 00 000005c0 000000000000000a \
    00000000 00000000 000005c0 00000000 0000000000003980 00000000 00000000 \
    $Z32  47505545 01 04 0000 000000000000000a 0000000000003980 \
    0000000000000000
echo "tests/fuzz/regen-corpus.sh: $(find "$pcap" -maxdepth 1 -type f | wc -l)" \
    "pcap seeds, $(find "$ctl" -maxdepth 1 -type f | wc -l) ctl seeds"
