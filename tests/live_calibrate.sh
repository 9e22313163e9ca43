#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed calibrate and up's warning above it. Correctness only (no
# timing threshold): what calibrate stores is checked for its form and its
# bounds (capacity at most the rate asked), up's warning for a rate above
# any capacity a 10M calibration can store, and the state file's trust:
# a symlinked calibration is neither read nor followed when written, and a
# state directory others may write is refused.
#   calibrate 10M:           exit 0; a line per trial; rate 10000000, tried
#                            10M (or 1M after 10M missed its budget: more than
#                            1% of a direction's frames late, or drops),
#                            capacity by its rule (the rate tried, 0 when no
#                            trial kept time, else the goodput's rate),
#                            frames > 0 each way, late <= frames; says so
#   up 20M --delay 1:        warns (20 Mbit/s asked, above the capacity)
#   calibration -> victim:   up ignores it (no warning though the victim
#                            says capacity 1); calibrate replaces the name,
#                            the victim unchanged
#   state directory 0777:    calibrate exit 1, one line, nothing written;
#                            up does not read the file
#   calibrate 10Q, calibrate 1 2: exit 1 and 2 with one line
. "$(dirname "$0")/lib.sh"

tb_init "testbed calibrate" cal ip tc ethtool nft -- "$GPUT" tools/gput-delay
export GPUT_TESTBED_STATE="$T_TMP/state"
CAL=$GPUT_TESTBED_STATE/calibration OUT=$T_TMP/out ERR=$T_TMP/err
# shellcheck disable=SC2317 # called through the trap
cal_cleanup() {
	GPUT_TESTBED_PREFIX=$GPUT_TESTBED_PREFIX-cal "$TESTBED" down >/dev/null 2>&1
	tb_cleanup
}
trap cal_cleanup EXIT

mkdir -p "$GPUT_TESTBED_STATE"
chmod 0755 "$GPUT_TESTBED_STATE"
# a stored capacity of 1 bit/s: every up of calibrate's own would warn
printf 'capacity 1\ndate then\n' >"$CAL"
"$TESTBED" calibrate 10M >"$OUT" 2>"$ERR"
eq "calibrate 10M: exit" "$?" 0
eq "calibrate 10M: its own testbeds' up did not warn against the last calibration" "$(cat "$ERR")" ""
check "calibrate 10M: says what the host emulates" grep -Eq '^calibrate: (this host emulates up to [0-9.]* Mbit/s|the delay lines left more than 1% of their frames over their 100 us budget)' "$OUT"
check "calibrate 10M: a line per trial, 10M first" grep -q '^calibrate: 10 Mbit/s: goodput [0-9.]* Mbit/s' "$OUT"
eq "calibrate 10M: its testbed is gone" "$(ip netns list | grep -c "^$GPUT_TESTBED_PREFIX-cal-")" 0
eq "calibrate 10M: rate stored" "$(awk '$1 == "rate" { print $2 }' "$CAL")" 10000000
# capacity: the deciding trial (10M, or 1M after 10M missed its budget)
# kept time when each direction left at most 1% of its frames late and none
# dropped; then its rate when the flow reached 0.9 of eta*C, else what the
# goodput carries; 0 when 1M too missed it
check "calibrate 10M: capacity by its rule, 0 < frames, late <= frames ($(tr '\n' ' ' <"$CAL"))" \
	awk '{ v[$1] = $2 } END { c = v["capacity"]; t = v["tried"]
	    miss = v["late-ab"] * 100 > v["frames-ab"] || v["late-ba"] * 100 > v["frames-ba"] || v["drops"] > 0
	    want = v["timed"] == !miss && (t == 10000000 || t == 1000000) && v["rate"] == 10000000 &&
		(miss ? c == 0 && t == 1000000 : v["ratio"] >= 0.9 ? c == t : c > 0 && c < t)
	    exit !(want && v["frames-ab"] > 0 && v["frames-ba"] > 0 && v["late"] <= v["frames"] &&
		v["frames"] == v["frames-ab"] + v["frames-ba"] && v["date"] ~ /^20[0-9-]*T/) }' "$CAL"
check "calibrate 10M: 1M tried only after 10M missed its budget" \
	awk -v t="$(awk '$1 == "tried" { print $2 }' "$CAL")" '
	    /^calibrate: 10 Mbit\/s/ { ten = $0 } /^calibrate: 1 Mbit\/s/ { one = 1 }
	    END { if (!one) exit !(t == 10000000)
		  exit !(t == 1000000 && match(ten, /late [0-9]+ of [0-9]+ frames a>b, [0-9]+ of [0-9]+ b>a/)) }' "$OUT"
eq "calibrate 10M: the file is root's, mode 0644 or tighter" \
	"$(stat -c '%u' "$CAL") $(( 0$(stat -c '%a' "$CAL") & 022 ))" "0 0"

"$TESTBED" up 20M --delay 1 >"$OUT" 2>"$ERR"
eq "up 20M above the calibration: exit" "$?" 0
check "up 20M above the calibration: warns" \
	grep -Eq '^gput-testbed: warning: 20 Mbit/s asked(, above the [0-9.]* Mbit/s this host emulated|; at its last calibration .* missed their budget)' "$ERR"
tb down

# a calibration file that is a symlink: not read, not followed
printf 'capacity 1\n' >"$T_TMP/victim"
rm -f "$CAL"
ln -s "$T_TMP/victim" "$CAL"
"$TESTBED" up 20M --delay 1 >"$OUT" 2>"$ERR"
eq "symlinked calibration: up exit" "$?" 0
eq "symlinked calibration: not read (no warning)" "$(grep -c warning "$ERR")" 0
tb down
"$TESTBED" calibrate 10M >"$OUT" 2>"$ERR"
eq "symlinked calibration: calibrate exit" "$?" 0
eq "symlinked calibration: the victim is unchanged" "$(cat "$T_TMP/victim")" "capacity 1"
check "symlinked calibration: the name is a file of its own now" test -f "$CAL" -a ! -L "$CAL"

# a state directory others may write
chmod 0777 "$GPUT_TESTBED_STATE"
cp "$CAL" "$T_TMP/before"
"$TESTBED" calibrate 10M >"$OUT" 2>"$ERR"
eq "state writable by others: calibrate exit" "$?" 1
eq "state writable by others: one line" "$(cat "$ERR")" \
	"gput-testbed: calibrate: $GPUT_TESTBED_STATE is not a directory of root's that only it may write: nothing written"
check "state writable by others: nothing written" cmp -s "$CAL" "$T_TMP/before"
"$TESTBED" up 20M --delay 1 >"$OUT" 2>"$ERR"
eq "state writable by others: up does not read the file (no warning)" "$(grep -c warning "$ERR")" 0
tb down
chmod 0755 "$GPUT_TESTBED_STATE"

"$TESTBED" calibrate 10Q >"$OUT" 2>"$ERR"
eq "calibrate 10Q: exit" "$?" 1
eq "calibrate 10Q: one line" "$(wc -l <"$ERR")" 1
"$TESTBED" calibrate 1M 2 >"$OUT" 2>"$ERR"
eq "calibrate 1M 2: exit" "$?" 1
eq "calibrate 1M 2: usage" "$(cat "$ERR")" "gput-testbed: usage: gput-testbed calibrate [RATE]"
t_done
