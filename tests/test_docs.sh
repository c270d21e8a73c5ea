#!/bin/sh
# tools/check_docs.sh on a small planted tree: a clean tree passes; each defect the check
# exists to catch is caught at its file and line: a stale link, a missing anchor, a commit id
# in a comment, a date in docs/, a README over 250 lines, a README command that fails; its
# neighbours are not (0x-prefixed hex, a date in docs/measurements/, a long command with its
# marked quick stand-in). Commit subjects: a long one and one without an area are named.
# Usage: test_docs.sh SOURCE_ROOT BUILD_DIR
. "$(dirname "$0")/lib.sh"
check=$1/tools/check_docs.sh
build=$2
t=$d/tree
mkdir -p "$t/docs/measurements" "$t/src"
cat >"$t/README.md" <<'R'
# tree

<!-- answer:begin -->
generated
<!-- answer:end -->

See [the page](docs/page.md#a-section-here).

```sh
build/cli/gelucheck list >/dev/null
```

<!-- doc-test: build/cli/gelucheck list >/dev/null -->
```sh
build/cli/gelucheck a-command-that-takes-hours
```
R
cat >"$t/docs/page.md" <<'P'
# Page

## A section, here

Back to [the README](../README.md). A constant: 0x3c22bea0.
P
echo "Measured 2031-01-02 at 3c22bea." >"$t/docs/measurements/2031-01-02-cpu.md"
printf '/* 2^-24: half an ulp of 1 (1.5e-05) */\nint x = 1;\n' >"$t/src/x.c"

run() { # run NAME ARGS...: check_docs on $t, its output in $d/NAME.out, its status echoed
    "$check" --root "$t" --build "$build" "$@" >"$d/out" 2>&1
    echo $?
}
expect() { # expect STATUS PATTERN WHAT
    st=$(run)
    [ "$st" = "$1" ] || fail "$3: exit $st, not $1: $(cat "$d/out")"
    [ -z "$2" ] || grep -qF -- "$2" "$d/out" || fail "$3: no '$2' in: $(cat "$d/out")"
}
cp -r "$t" "$d/clean"
restore() { rm -rf "$t" && cp -r "$d/clean" "$t"; }

expect 0 "answer: skipped" "the clean tree"

sed -i 's|docs/page.md#a-section-here|docs/gone.md|' "$t/README.md"
expect 1 "README.md:7: link to 'docs/gone.md': no file docs/gone.md" "a stale link"
restore
sed -i 's|#a-section-here|#no-such-section|' "$t/README.md"
expect 1 "README.md:7: link to 'docs/page.md#no-such-section': no heading" "a missing anchor"
restore

printf '/* as fixed in 3c22bea */\n' >>"$t/src/x.c"
expect 1 "src/x.c:3: commit-like token '3c22bea'" "a commit id in a comment"
grep -qF "0x3c22bea0" "$d/out" && fail "0x3c22bea0 taken for a commit"
restore
echo "Measured on 2031-01-02." >>"$t/docs/page.md"
expect 1 "docs/page.md:6: date '2031-01-02'" "a date in docs/"
restore

i=0
while [ $i -lt 250 ]; do echo "line" >>"$t/README.md"; i=$((i + 1)); done
expect 1 "has 266 lines, more than 250" "a long README"
restore

sed -i 's|^build/cli/gelucheck list >/dev/null$|build/cli/gelucheck lsit >/dev/null|' "$t/README.md"
expect 1 "README.md:10: command block failed (exit 2): build/cli/gelucheck lsit" "a broken command"
restore
sed -i 's|doc-test: build/cli/gelucheck list|doc-test: build/cli/gelucheck --no-such-flag|' "$t/README.md"
expect 1 "README.md:15: command block failed" "a broken quick stand-in"
restore

# commit subjects
g=$d/git
git init -q "$g" && cd "$g" || exit 1
git config user.email t@t && git config user.name t
c() { git commit -q --allow-empty -m "$1"; }
c "tools: first"
c "tools: a subject of the right form"
c "report: this subject says far too much about what it did and why and with numbers"
c "no area in this one"
out=$("$check" --root "$g" --commits HEAD~3..HEAD 2>&1); st=$?
cd "$d" || exit 1
[ $st -eq 1 ] || fail "bad subjects: exit $st"
echo "$out" | grep -q "^commit [0-9a-f]*: 81 characters, more than 72: report: this" ||
    fail "long subject not named: $out"
echo "$out" | grep -q "not in the form 'area: what': no area in this one" ||
    fail "subject without area not named: $out"
echo "$out" | grep -q "a subject of the right form" && fail "good subject named: $out"
("$check" --root "$g" --commits HEAD~3..HEAD~2 >/dev/null) ||
    fail "good subjects refused"
"$check" --root "$g" --commits nonsense >/dev/null 2>&1
[ $? -eq 2 ] || fail "--commits nonsense: not exit 2"
exit $((fails > 0))
