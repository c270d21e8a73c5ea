#!/bin/sh
# gelucheck --version: the version line first (help2man reads it), then the commit, the compiler
# and the libraries, MPFR's version being the installed library's (pkg-config's, not the code's
# own); exit 0. An unknown option next to it is still refused (exit 2).
# Usage: test_version.sh GELUCHECK
. "$(dirname "$0")/lib.sh"
g=$1
"$g" --version >"$d/v" 2>"$d/e" || fail "--version exited $?: $(cat "$d/e")"
head -1 "$d/v" | grep -Eq '^gelucheck [0-9]+\.[0-9]+\.[0-9]+$' || fail "first line: $(head -1 "$d/v")"
grep -q '^commit: .' "$d/v" || fail "no commit line"
grep -q '^compiler: .' "$d/v" || fail "no compiler line"
mpfr=$(pkg-config --modversion mpfr 2>/dev/null)
if [ -n "$mpfr" ]; then
    grep -q "^libraries: .*mpfr $mpfr" "$d/v" || fail "no 'mpfr $mpfr' in: $(grep libraries "$d/v")"
fi
"$g" --versoin >/dev/null 2>&1
[ $? -eq 2 ] || fail "--versoin not refused with exit 2"
exit $((fails > 0))
