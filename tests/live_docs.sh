#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The documentation says what the programs do: man pages lint-clean, usage()
# equal to SYNOPSIS, gput.1's option list the option table's.
. "$(dirname "$0")/lib.sh"

if ! command -v mandoc >/dev/null; then
	skip "docs (mandoc not installed: apt-get install mandoc)"
	t_done
fi
for m in man/*.[18]; do
	eq "mandoc -Tlint $m" "$(mandoc -Tlint -W warning "$m" 2>&1)" ""
done
# The man pages as installed name installed commands: no source tree's
# path (tools/..., ./gput), and every program installed has its page.
for m in man/gput.1 man/gput-pcap.1 man/gput-testbed.8 man/gput-probe.8 \
    man/gput-plot.1 man/plot-seq.1; do
	eq "$m names no path of the source tree" \
		"$(mandoc -Tascii "$m" 2>/dev/null | col -bx | grep -o 'tools/[a-z.-]*\|\./gput[a-z-]*' | sort -u)" ""
done
for m in man/gput-probe.8 man/gput-plot.1 man/plot-seq.1; do
	check "$m is installed (Makefile's MANS, MAN8)" grep -q "^MAN[S8] .*$m" Makefile
done

# Words of the SYNOPSIS as mandoc renders it, and of usage().
synopsis() {
	mandoc -Tascii "$1" 2>/dev/null | col -bx |
	    sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;$d' | tr -s ' \n' '  ' |
	    sed 's/^ *//; s/ *$//'
}
# usage(): what -h prints up to its first empty line (gput's option groups follow)
usage_words() { "$1" -h | sed '/^$/q' | sed 's/^usage://' | tr -s ' \n' '  ' |
    sed 's/^ *//; s/ *$//'; }
eq "gput: usage() matches SYNOPSIS" "$(usage_words "$GPUT")" "$(synopsis man/gput.1)"
if [ -x "$GPUT_PCAP" ] && [ -f man/gput-pcap.1 ]; then
	eq "gput-pcap: usage() matches SYNOPSIS" "$(usage_words "$GPUT_PCAP")" \
	    "$(synopsis man/gput-pcap.1)"
fi

# The man page's option list and the option table (src/cli_table.c, as
# tests/optlist prints it) name the same options: every spelling of every
# option has its .It entry, and every .It Fl entry is an option of the table.
need_optlist
table=$("$OPTLIST" | sort -u)
check "tests/optlist: the option table read" [ "$(echo "$table" | wc -w)" -gt 100 ]
manopts=$(grep '^\.It Fl' man/gput.1 |
    awk '{ for (i = 1; i < NF; i++) if ($i == "Fl") print "-" $(i + 1) }' | sort -u)
check "gput.1: the option list read" [ "$(echo "$manopts" | wc -w)" -gt 100 ]
eq "every option of the table has its .It entry in gput.1" \
    "$(comm -23 <(echo "$table") <(echo "$manopts") | tr '\n' ' ')" ""
eq "every .It Fl entry of gput.1 is an option of the table" \
    "$(comm -13 <(echo "$table") <(echo "$manopts") | tr '\n' ' ')" ""
for o in $table; do
	case $o in --*) nm=${o#--}; check "gput.1 documents $o" grep -q "^\.It .*Fl -$nm\b" man/gput.1 ;; esac
done
# Every PARAMS extension flag (CTL_XF_* in include/xfer_params.h) is in the
# control protocol's document (doc/control-protocol.md, PARAMS byte 152), by
# its value; and CAVEATS does not deny the zero-copy sender gput has.
xflags=$(sed -n 's/^#define CTL_XF_[A-Z]* *0x\([0-9a-f]*\)u.*/\1/p' include/xfer_params.h)
check "xfer_params.h: the extension flags read" [ "$(echo "$xflags" | wc -w)" -ge 5 ]
flaglist=$(grep '`CTL_PX_XFLAGS`' doc/control-protocol.md |
    sed -n 's/.*xfer_params\.h): \(.*\)a bit this gput does not know is refused.*/ \1/p')
check "doc/control-protocol.md: the extension flags' row read" [ -n "$flaglist" ]
for f in $xflags; do
	v=$(printf '%x' "0x$f")
	case $v in [0-9]) want=" $v " ;; *) want=" 0x$v " ;; esac
	check "doc/control-protocol.md lists PARAMS extension flag 0x$v" eval 'case " $flaglist" in *"$want"*) true ;; *) false ;; esac'
done
check "gput.1 no longer says gput has no MSG_ZEROCOPY sender" eval \
    '! mandoc -Tascii man/gput.1 2>/dev/null | col -bx | tr -s " \n" "  " | grep -q "has no MSG_ZEROCOPY sender"'
t_done
