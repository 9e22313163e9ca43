#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Prints the include cycles between gput's modules and exits 1 when there is
# one. A module is a file's stem: src/xfer.c and include/xfer.h are "xfer".
# An edge a -> b is an '#include "b.h"' in a.c or a.h (system headers,
# in <>, are not modules). Usage: tests/modcycles.sh [DIR] (default: .);
# with -e it prints the edges instead, one "a b" a line.
set -u
edges=0
[ "${1:-}" = -e ] && { edges=1; shift; }
dir=${1:-.}
for f in "$dir"/src/*.c "$dir"/include/*.h; do
	[ -f "$f" ] || continue
	s=${f##*/}; s=${s%.*}
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r h; do
		t=${h##*/}; t=${t%.*}
		[ "$s" != "$t" ] && echo "$s $t"
	done
done | sort -u >"${TMPDIR:-/tmp}/modcycles.$$"
if [ "$edges" -eq 1 ]; then
	cat "${TMPDIR:-/tmp}/modcycles.$$"
	rm -f "${TMPDIR:-/tmp}/modcycles.$$"
	exit 0
fi
# Depth-first search, the modules in name order: an edge to a module still on the path closes a cycle,
# printed from that module round to itself.
awk '
function add(v) { if (!(v in state)) { state[v] = 0; order[++nv] = v } }
{ n[$1]++; adj[$1, n[$1]] = $2; add($1); add($2) }
function visit(v,    i, w, k, s) {
	state[v] = 1; path[++depth] = v
	for (i = 1; i <= n[v]; i++) {
		w = adj[v, i]
		if (state[w] == 1) {
			for (k = depth; path[k] != w; k--) ;
			s = w
			for (k++; k <= depth; k++) s = s " -> " path[k]
			print "cycle: " s " -> " w
			found = 1
		} else if (state[w] == 0) visit(w)
	}
	depth--; state[v] = 2
}
END {
	for (i = 1; i <= nv; i++) if (state[order[i]] == 0) visit(order[i])
	exit found
}' "${TMPDIR:-/tmp}/modcycles.$$"
rc=$?
rm -f "${TMPDIR:-/tmp}/modcycles.$$"
exit "$rc"
