#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed plan FILE: a topology file's checks, addresses and routes,
# computed without building anything (no root needed, so this runs
# everywhere; tests/live_graph.sh builds them). About 2 s.
#
#   lab 000: 13 nodes with their addresses (link k is 198.18.k.0/24, .1 its
#       first node); h1 has a /32 to each of the other 22 addresses, all
#       through r1; r2 reaches h9's address toward r3, h1's toward r1
#   a tie (a has two routers, r1 and r2, each a hop from r3): a's routes to
#       r3's addresses go through r1, whose link comes first in the file;
#       swapping the two link lines sends them through r2
#   a host is no transit: r1 reaches r2's address on a-r2 through r3, not
#       through a (two hops either way, but a does not forward)
#   a switch: its members share one /24, the switch has no address
#   per-direction settings land in links: rate 10M/20M, delay 5/1
#   errors: file:line and exit 1, stdin named "stdin"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

TB=tools/gput-testbed
plan() { "$TB" plan "$@" >"$T_TMP/plan" 2>"$T_TMP/err"; }
routes() { awk -v n="$1" '$1 == "route" && $2 == n { print $3, $5, $7 }' "$T_TMP/plan"; }

cp tests/data/lab000.topo "$T_TMP/lab000.topo"
before=$(ip netns list 2>/dev/null | wc -l)
plan "$T_TMP/lab000.topo"
eq "lab 000: plan exits 0" "$?" 0
eq "lab 000: plan built no namespace" "$(ip netns list 2>/dev/null | wc -l)" "$before"
eq "lab 000: 13 nodes" "$(awk '$2 == "host" || $2 == "router"' "$T_TMP/plan" | wc -l)" 13
eq "lab 000: r3's addresses" "$(grep '^r3 router' "$T_TMP/plan")" \
    "r3 router 198.18.1.2 198.18.2.1 198.18.7.2 198.18.8.2 198.18.9.2 198.18.10.2"
eq "lab 000: h9's address" "$(grep '^h9 host' "$T_TMP/plan")" "h9 host 198.18.11.1"
eq "lab 000: h1 has 22 routes, all through r1 (198.18.3.2)" \
    "$(routes h1 | awk '{ n[$2]++ } END { for (h in n) print h, n[h] }')" "198.18.3.2 22"
eq "lab 000: r2 to h9's address through r3" "$(routes r2 | awk '$1 == "198.18.11.1/32" { print $2 }')" 198.18.1.2
eq "lab 000: r2 to h1's address through r1" "$(routes r2 | awk '$1 == "198.18.3.1/32" { print $2 }')" 198.18.0.1
eq "lab 000: r1-r2's settings" "$(grep '^r1-r2 ' "$T_TMP/plan")" \
    "r1-r2 mtu 1500 r1>r2 rate 40000000 queue 101438 delay 10 jitter 0 loss 0 dup 0 reorder 0 ecn 0 r2>r1 rate 40000000 queue 101438 delay 10 jitter 0 loss 0 dup 0 reorder 0 ecn 0"

# a tie: a -- r1 -- r3 and a -- r2 -- r3; b behind r3
tie() { printf '%s\n' 'host a' 'host b' 'router r1' 'router r2' 'router r3' "$1" "$2" \
    'link r1 r3' 'link r2 r3' 'link r3 b'; }
tie 'link a r1' 'link a r2' >"$T_TMP/tie.topo"
plan "$T_TMP/tie.topo"
eq "tie: a's routes to r3's addresses through r1 (first in the file)" \
    "$(routes a | awk '$1 ~ /^198\.18\.(2\.2|3\.2|4\.1)\// { print $2, $3 }' | sort -u)" "198.18.0.2 to-r1"
eq "tie: a host is no transit: r1 reaches r2's address on a-r2 through r3" \
    "$(routes r1 | awk '$1 == "198.18.1.2/32" { print $2 }')" 198.18.2.2
tie 'link a r2' 'link a r1' >"$T_TMP/tie2.topo"
plan "$T_TMP/tie2.topo"
eq "tie, the links swapped: through r2" \
    "$(routes a | awk '$1 ~ /^198\.18\.(2\.2|3\.2|4\.1)\// { print $2, $3 }' | sort -u)" "198.18.0.2 to-r2"

# a switch and per-direction settings
printf '%s\n' 'host h1' 'host h2' 'switch s' 'router r' 'host far' 'link h1 s' 'link s h2' 'link r s' \
    'link r far rate 10M/20M delay 5/1 jitter 1/0 loss 1%/0 mtu 9000' >"$T_TMP/sw.topo"
plan "$T_TMP/sw.topo"
eq "switch: one /24, the switch without address" "$(awk '$2 ~ /^(host|router|switch)$/' "$T_TMP/plan" | tr '\n' ';')" \
    "h1 host 198.18.0.1;h2 host 198.18.0.2;s switch;r router 198.18.0.3 198.18.1.1;far host 198.18.1.2;"
eq "switch: h1 reaches r's far address and far through r" "$(routes h1 | tr '\n' ';')" \
    "198.18.1.1/32 198.18.0.3 to-s;198.18.1.2/32 198.18.0.3 to-s;"
eq "per direction: r-far" "$(grep '^r-far ' "$T_TMP/plan")" \
    "r-far mtu 9000 r>far rate 10000000 queue 200000 delay 5 jitter 1 loss 1 dup 0 reorder 0 ecn 0 far>r rate 20000000 queue 400000 delay 1 jitter 0 loss 0 dup 0 reorder 0 ecn 0"

# errors
printf 'host a\nhost b\n\nlink a b rate 10M delay 5 ecn 3\n' >"$T_TMP/bad.topo"
plan "$T_TMP/bad.topo"
eq "error: exit 1" "$?" 1
eq "error: FILE:LINE: message" "$(cat "$T_TMP/err")" \
    "$T_TMP/bad.topo:4: queue 3 out of range (one frame, 1514 bytes, .. 1000000000 bytes)"
printf 'router r\nhost h\nlink r h mtu 100\n' | "$TB" plan - >/dev/null 2>"$T_TMP/err"
eq "error on stdin: named stdin" "$(cat "$T_TMP/err")" 'stdin:3: bad mtu "100" (1280..9000)'
printf '# nothing\n' | "$TB" plan - >/dev/null 2>"$T_TMP/err"
eq "error: a file without nodes" "$(cat "$T_TMP/err")" "stdin:1: no nodes (host, router or switch NAME)"
"$TB" plan "$T_TMP/none.topo" >/dev/null 2>"$T_TMP/err"
eq "error: no such file" "$(cat "$T_TMP/err")" "gput-testbed: cannot read the topology file '$T_TMP/none.topo'"
t_done
