#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools/touchcount.sh [PORT]: the source files one loopback TCP run
# (gput -i --once and gput -n 1000 -l 1448) executes, both processes and
# the partner's session child counted, and the headers src/client.c pulls
# in (cc -MM): issue 30's measures of the code in the large. It builds a
# copy of the tree with gcov (in a temporary directory, the tree's own
# build untouched); a child that ends by _exit has its counters written by
# a wrapper. Needs gcc's gcov; prints the counts and the files.
set -eu
PORT=${1:-35999}
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mktemp -d "${TMPDIR:-/tmp}/gput-touch.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
chmod 755 "$DIR"                # the partner, as nobody, writes its counters
mkdir "$DIR/src"
cp -R "$TOP/Makefile" "$TOP/include" "$DIR/"
cp "$TOP"/src/*.c "$DIR/src/"               # sources only: no objects
cat >"$DIR/gcovexit.c" <<'EOF'
/* measurement only: a child that ends by _exit writes its counters */
extern void __gcov_dump(void);
extern void __real__exit(int);
void __wrap__exit(int s);
void __wrap__exit(int s) { __gcov_dump(); __real__exit(s); }
EOF
cd "$DIR"
cc -c -o gcovexit.o gcovexit.c
make -s -j2 gput CFLAGS="-O0 -g --coverage" \
    LDFLAGS="--coverage -Wl,--wrap=_exit $DIR/gcovexit.o" >/dev/null
chmod 1777 src                  # the partner runs as nobody
umask 000
./gput -i --once -p "$PORT" >partner.log 2>&1 &
P=$!
i=0
until ss -ltn | grep -q ":$PORT "; do
	i=$((i + 1))
	[ "$i" -le 100 ] || { cat partner.log; exit 1; }
	sleep 0.1
done
./gput -n 1000 -l 1448 -p "$PORT" 127.0.0.1 >client.log 2>&1
wait "$P" || true
n=0
files=""
for d in src/*.gcda; do
	c=${d%.gcda}.c
	if gcov -n -o src "$c" 2>/dev/null | awk -v f="$c" '
	    index($0, "File '\''" f "'\''") == 1 { x = 1; next }
	    x && /Lines executed/ { exit !($0 !~ /:0.00%/) }
	    END { if (!x) exit 1 }'; then
		n=$((n + 1))
		files="$files ${c#src/}"
	fi
done
echo "source files a loopback TCP run executes: $n"
echo "  $files"
echo "headers src/client.c pulls in (cc -MM, distinct): $(cc -Iinclude -MM \
    src/client.c | tr -s ' \\\n' '\n' | grep '\.h$' | sort -u | wc -l)"
echo "of: $(find include -name '*.h' | wc -l) headers, $(find src -name '*.c' |
    wc -l) sources"
