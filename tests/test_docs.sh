#!/bin/sh
# tools/check_docs.sh on a small planted tree: a clean tree passes; each defect the check
# exists to catch is caught at its file and line: a stale link, a missing anchor, a stale
# generated block (not what its gelucheck command prints), a commit id
# in a comment, a date in docs/, a README over 250 lines, a README command that fails; its
# neighbours are not (0x-prefixed hex, a date in docs/measurements/, a long command with its
# marked quick stand-in); README's answer table, pasted from `markdown --answer` of the latest
# record's answer.json, passes, and fails with a cell changed or an older record's table.
# Commit subjects: a long one and one without an area are named.
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

<!-- generated: gelucheck --list-commands -->
GENERATED
<!-- generated:end -->

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
# the generated block: what the build's gelucheck prints
"$build/cli/gelucheck" --list-commands >"$d/commands"
awk -v f="$d/commands" '$0 == "GENERATED" { while ((getline l < f) > 0) print l; next } { print }' \
    "$t/README.md" >"$d/readme" && mv "$d/readme" "$t/README.md"
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
expect 1 "has 279 lines, more than 250" "a long README"
restore

sed -i 's|^report$|rport|' "$t/README.md"
expect 1 "README.md:9: the block is not what \`gelucheck --list-commands\` prints" "a stale generated block"
restore

sed -i 's|^build/cli/gelucheck list >/dev/null$|build/cli/gelucheck lsit >/dev/null|' "$t/README.md"
expect 1 "README.md:23: command block failed (exit 2): build/cli/gelucheck lsit" "a broken command"
restore
sed -i 's|doc-test: build/cli/gelucheck list|doc-test: build/cli/gelucheck --no-such-flag|' "$t/README.md"
expect 1 "README.md:28: command block failed" "a broken quick stand-in"
restore

# the answer table: the latest record's answer.json (one made from tests/fixtures/answer; an
# older record's with another choice in the first cell), its Markdown pasted between the markers
g=$build/cli/gelucheck
"$g" pick --results "$(dirname "$0")/fixtures/answer" --platform all --json "$d/a.json" >/dev/null ||
    fail "pick --json on the fixture"
python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))
for c in a["cells"]:
    if c["need"] == 0 and c["platform"] == "x86-64-v2": c["choice"]["name"] = "an_older_choice"
json.dump(a, open(sys.argv[2], "w"), indent=1)' "$d/a.json" "$d/older.json" || fail "older.json"
paste_table() { # paste_table ANSWER.json: README's table from it
    "$g" markdown --answer "$1" >"$d/table.md" || fail "markdown --answer $1"
    python3 -c 'import re, sys
readme, table = open(sys.argv[1]).read(), open(sys.argv[2]).read()
readme = re.sub(r"(<!-- answer:begin -->\n).*?(<!-- answer:end -->)",
                lambda m: m.group(1) + table + m.group(2), readme, flags=re.S)
open(sys.argv[1], "w").write(readme)' "$t/README.md" "$d/table.md"
}
cp "$d/older.json" "$t/docs/measurements/2031-01-01-cpu.answer.json"
cp "$d/a.json" "$t/docs/measurements/2031-01-02-cpu.answer.json"
paste_table "$d/a.json"
echo "Measured on cpu: [the record](docs/measurements/2031-01-02-cpu.md)." >>"$t/README.md"
expect 0 "" "the answer table of the latest record, and a link to the record (its date in its name)"
grep -q "answer: skipped" "$d/out" && fail "the answer table not checked: $(cat "$d/out")"
sed -i '/<!-- answer:begin -->/,/<!-- answer:end -->/s/| x86-64-v2<br>/| x86-64-v1<br>/' "$t/README.md"
grep -q "x86-64-v1" "$t/README.md" || fail "the planted cell: $(cat "$t/README.md")"
expect 1 "README.md:3: the answer table is not \`gelucheck markdown --answer docs/measurements/2031-01-02-cpu.answer.json\`" \
    "a changed answer table"
paste_table "$d/older.json"
grep -q "an_older_choice" "$t/README.md" || fail "the older table: $(cat "$t/README.md")"
expect 1 "the answer table is not" "an older record's answer table"
# a second record of a day (<date>-<cpu>-2, which sorts before <date>-<cpu>.answer.json by
# name) is the latest by the time on the records' first lines
rm -f "$t"/docs/measurements/2031-*
cp "$d/older.json" "$t/docs/measurements/2031-01-02-cpu.answer.json"
cp "$d/a.json" "$t/docs/measurements/2031-01-02-cpu-2.answer.json"
printf '# cpu, %s-01-02T08:00:00Z\n' 2031 >"$t/docs/measurements/2031-01-02-cpu.md"
printf '# cpu, %s-01-02T17:00:00Z\n' 2031 >"$t/docs/measurements/2031-01-02-cpu-2.md"
paste_table "$d/a.json"
expect 0 "" "the table of the day's second record, the later run"
paste_table "$d/older.json"
expect 1 "the answer table is not \`gelucheck markdown --answer docs/measurements/2031-01-02-cpu-2.answer.json\`" \
    "the day's first record's table"
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
