#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gen-completion.sh GPUT: bash completion for gput, generated from the
# option lines of GPUT -h (which cli_help.c's table prints), on standard
# output. make builds tools/gput.bash with it and installs that as
# DATADIR/bash-completion/completions/gput. Options complete after "-";
# after an option that takes a value, a file name for file values
# (--key-file, --log), nothing for the others (a number, a rate); else a
# host name (the partner).
set -eu
[ $# -eq 1 ] || { echo "usage: gen-completion.sh GPUT" >&2; exit 2; }
help=$("$1" -h) || { echo "gen-completion.sh: $1 -h failed" >&2; exit 1; }

# The option lines: "  -l, --length length  ...", "  --time s  ...".
# Columns: every spelling of the option; then (after "=") those that
# take a value, and (after "%") those whose value is a file.
printf '%s\n' "$help" | awk '
	# the option names lead the line ("-l, --length"); a value follows
	# the last one after one space ("--rate rate"), a description after
	# two or more
	/^  -/ {
		rest = substr($0, 3); k = 0
		while (match(rest, /^--?[A-Za-z0-9][A-Za-z0-9-]*/)) {
			nm[++k] = substr(rest, 1, RLENGTH)
			rest = substr(rest, RLENGTH + 1)
			if (substr(rest, 1, 2) != ", ")
				break
			rest = substr(rest, 3)
		}
		takes = rest ~ /^ [^ ]/
		file = rest ~ /^ file( |$)/
		for (j = 1; j <= k; j++) {
			if (!(nm[j] in seen)) { seen[nm[j]] = 1; all = all " " nm[j] }
			if (takes && !(nm[j] in vseen)) { vseen[nm[j]] = 1; val = val " " nm[j] }
			if (file && !(nm[j] in fseen)) { fseen[nm[j]] = 1; fil = fil " " nm[j] }
		}
	}
	END {
		print "OPTS=\"" substr(all, 2) "\""
		print "VALS=\"" substr(val, 2) "\""
		print "FILES=\"" substr(fil, 2) "\""
	}
' >"${TMPDIR:-/tmp}/gput-completion.$$"
. "${TMPDIR:-/tmp}/gput-completion.$$"
rm -f "${TMPDIR:-/tmp}/gput-completion.$$"
[ -n "$OPTS" ] || { echo "gen-completion.sh: no options in $1 -h" >&2; exit 1; }

case_list() { printf '%s' "$1" | tr ' ' '|'; }
cat <<EOF2
# SPDX-License-Identifier: BSD-2-Clause
# bash completion for gput, generated from gput -h by tools/gen-completion.sh
# (do not edit: make rebuilds it).
_gput()
{
	local cur=\${COMP_WORDS[COMP_CWORD]} prev=
	[ "\$COMP_CWORD" -gt 0 ] && prev=\${COMP_WORDS[COMP_CWORD-1]}
	case \$prev in
	$(case_list "$FILES"))
		COMPREPLY=(\$(compgen -f -- "\$cur"))
		return ;;
	$(case_list "$VALS"))
		COMPREPLY=()
		return ;;
	esac
	case \$cur in
	-*) COMPREPLY=(\$(compgen -W "$OPTS" -- "\$cur")) ;;
	*) COMPREPLY=(\$(compgen -A hostname -- "\$cur")) ;;
	esac
}
complete -F _gput gput
EOF2
