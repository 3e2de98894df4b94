#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# uetctl's man page and bash completion against uetctl itself: every
# object, command and keyword the usage lines of "uetctl OBJECT help" name
# is in the man page and offered by the completion, and the man page
# formats without a warning; and every counter has its meaning in
# Documentation/counters.rst.  No VM: uetctl's help needs no kernel.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
uetctl=$top/build/uetctl/uetctl
man=$top/tools/uetctl/uetctl.8
comp=$top/tools/uetctl/uetctl.bash-completion
pass=0 fail=0

result() {
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $2"
	else
		fail=$((fail + 1))
		echo "not ok $2"
	fi
}

# shellcheck source=/dev/null
. "$comp"

# offers WORD...: what completing the last word (empty: a new one) offers
offers() {
	COMP_WORDS=(uetctl "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_uetctl
	printf '%s\n' "${COMPREPLY[@]}"
}

# the man page's text, its escaped hyphens plain
man_text=$(sed 's/\\-/-/g' "$man")

in_man() {
	grep -qE "(^|[^a-z0-9-])$1([^a-z0-9-]|$)" <<<"$man_text"
}

# usage: the lines "uetctl OBJECT COMMAND ..." of every object's help
usage=$("$uetctl" help 2>&1 | sed -n 's/^Usage: uetctl //p' | grep -v '^\[' |
	awk '{ print $1 }' | sort -u | while read -r obj; do
		"$uetctl" "$obj" help 2>&1 | sed -n 's/^Usage: uetctl //p'
	done)
[ -n "$usage" ] || { echo "not ok usage lines"; echo "0 passed, 1 failed"; exit 1; }

out=$(groff -man -ww -z -Tutf8 "$man" 2>&1)
[ -z "$out" ] && [ -n "$man_text" ]
result $? "the man page formats without a warning"
[ -n "$out" ] && sed 's/^/# /' <<<"$out"

while read -r obj cmd rest; do
	[ "$cmd" = help ] && continue
	missing_man='' missing_comp=''
	# an object without commands ("monitor [all | dev ...]...")
	if [[ $cmd == '['* ]]; then
		rest="$cmd $rest" cmd=''
	fi
	# what completion offers for this command: its words, their values
	if [ -z "$cmd" ]; then
		pre=()
	elif [ "$obj/$cmd" = dev/set ] || [ "$obj/$cmd" = dev/show ]; then
		pre=(uet0)
	else
		pre=(dev uet0)
	fi
	if [ -n "$cmd" ]; then
		offered=$(offers "$obj" "$cmd" "${pre[@]}" "")
		for w in $offered; do
			offered+=$'\n'$(offers "$obj" "$cmd" "${pre[@]}" "$w" "")
		done
	else
		offered=$(offers "$obj" "")
	fi
	# grep reads all (no -q): under pipefail, a grep that quit at the
	# first match failed the pipe whenever offers wrote after it quit
	offers "" | grep -x "$obj" >/dev/null || missing_comp+=" $obj"
	[ -z "$cmd" ] || offers "$obj" "" | grep -x "$cmd" >/dev/null || missing_comp+=" $cmd"
	in_man "$obj" || missing_man+=" $obj"
	[ -z "$cmd" ] || in_man "$cmd" || missing_man+=" $cmd"
	# the lower-case words of the usage line, alternatives split
	for w in $(tr '[]|{}' '     ' <<<"$rest"); do
		[[ $w =~ ^[a-z0-9][a-z0-9-]*$ ]] || continue
		in_man "$w" || missing_man+=" $w"
		grep -qx -- "$w" <<<"$offered" || missing_comp+=" $w"
	done
	[ -z "$missing_man" ]
	result $? "man page: uetctl $obj $cmd${missing_man:+ (missing:$missing_man)}"
	[ -z "$missing_comp" ]
	result $? "completion: uetctl $obj $cmd${missing_comp:+ (missing:$missing_comp)}"
done <<<"$usage"

# every counter of the module has its row in Documentation/counters.rst,
# and the table no other
names=$(sed -n 's/.*\.name = "\([a-z0-9_]*\)".*/\1/p' "$top/drivers/uet/counters.c")
rows=$(sed -n 's/^``\([a-z0-9_]*\)``  .*/\1/p' "$top/Documentation/counters.rst")
diff <(sort <<<"$names") <(sort <<<"$rows") | sed 's/^/# /'
[ -n "$names" ] && [ "$(sort <<<"$names")" = "$(sort <<<"$rows")" ]
result $? "counters: $(wc -l <<<"$names") in counters.c, each with its meaning"

# a value is left to the user, an enumerated one offered
[ -z "$(offers job add dev uet0 id "")" ] &&
[ "$(offers dev set uet0 lb "" | tr '\n' ' ')" = "single oblivious reps " ] &&
[ "$(offers key add dev uet0 job 1 mode "" | tr '\n' ' ')" = "direct cluster " ] &&
[ "$(offers -j pd | tr '\n' ' ')" = "pdc " ]
result $? "completion: values and options"

echo "uetctl-docs: $pass passed, $fail failed"
[ "$fail" = 0 ]
