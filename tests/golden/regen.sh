#!/bin/sh
# Regenerates tests/golden/*.out from tests/golden/cases: the captures are
# written by `tests/unit_pcapscan --captures DIR` and
# `tests/unit_pcapudp --captures DIR`, the outputs by gput-pcap run in DIR. tests/unit_pcapgolden compares them byte for byte.
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
make -s gput-pcap tests/unit_pcapscan tests/unit_pcapudp
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gput-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tests/unit_pcapscan --captures "$tmp"
tests/unit_pcapudp --captures "$tmp"
rm -f tests/golden/*.out
grep -v '^#' tests/golden/cases | while read -r name args; do
	[ -n "$name" ] || continue
	out="$root/tests/golden/$name.out"
	rc=0
	# word splitting of $args is wanted: the filter is several words
	# shellcheck disable=SC2086
	(cd "$tmp" && "$root/gput-pcap" $args) >"$out" 2>&1 || rc=$?
	echo "exit $rc" >>"$out"
done
echo "regenerated $(ls tests/golden/*.out | wc -l) golden outputs"
