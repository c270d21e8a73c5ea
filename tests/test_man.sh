#!/bin/sh
# The man page gelucheck(1): man renders it without a warning, and it is this build's help (it
# has --version, which only the current --help names). A planted undefined macro is caught by the
# same rendering check, so the check can fail.
# Usage: test_man.sh MANPAGE
. "$(dirname "$0")/lib.sh"
page=$1
warnings() { MANWIDTH=80 man --warnings -l "$1" 2>&1 >/dev/null; }
w=$(warnings "$page")
[ -z "$w" ] || fail "man -l $page warns: $w"
MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q -- "--version" || fail "the page has no --version"
MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q "^NAME" || fail "the page has no NAME section"
cp "$page" "$d/bad.1" && printf '.NOSUCHMACRO x\n' >>"$d/bad.1"
warnings "$d/bad.1" | grep -q "NOSUCHMACRO" || fail "a planted undefined macro is not caught"
exit $((fails > 0))
