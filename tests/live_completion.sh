#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bash completion (tools/gput.bash, made by tools/gen-completion.sh from
# gput -h): valid bash, every option of gput's table (cli_table.c, as
# tests/optlist prints it) offered, and what it completes in a real bash:
# options after "-", no guess after an option that takes a number, files
# after --key-file.
. "$(dirname "$0")/lib.sh"

COMP=$T_TMP/gput.bash
sh tools/gen-completion.sh "$GPUT" >"$COMP"
eq "gen-completion.sh: exit 0" "$?" 0
check "the completion is valid bash" bash -n "$COMP"
check "its first line is the SPDX tag" grep -qx '# SPDX-License-Identifier: BSD-2-Clause' "$COMP"
OFFERED=$(sed -n 's/.*compgen -W "\([^"]*\)".*/\1/p' "$COMP")
missing=
need_optlist
for o in $("$OPTLIST"); do
	case " $OFFERED " in *" $o "*) ;; *) missing="$missing $o" ;; esac
done
eq "every option of the table (cli_table.c, tests/optlist) is offered" "$missing" ""
check "... and there are many ($(echo "$OFFERED" | wc -w) words)" \
	[ "$(echo "$OFFERED" | wc -w)" -gt 80 ]
# complete WORDS...: what bash offers for the last word after the others
complete_() {
	(cd "$T_TMP" && bash -c '. ./gput.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
	    _gput; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$@")
}
eq "gput --max-s<TAB>" "$(complete_ gput --max-s)" "--max-sessions --max-streams "
eq "gput --js<TAB>" "$(complete_ gput --js)" "--json --json-lines "
eq "gput --rate <TAB>: a rate, nothing to guess" "$(complete_ gput --rate '')" " "
: >"$T_TMP/secret.key"
eq "gput --key-file sec<TAB>: the file" "$(complete_ gput --key-file sec)" "secret.key "
check "the Makefile installs it as bash-completion/completions/gput" grep -q \
	'bash-completion/completions/gput$' Makefile
t_done
