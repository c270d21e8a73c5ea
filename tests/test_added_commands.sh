#!/bin/sh
# Implementations added at run time through every command that reads or writes results: a
# plugin (tests/test_plugin.c, erfc_f64's kernels) and an exec child (tests/exec_child serving
# erfc_f64) go through report --quick, pick, merge and moons like built-in ones; their untrusted
# origin lines reach the report escaped; forward-only ones (no derivative) are "n/a", never a
# failure.
# - report --quick with the plugin (origin: markup, commas, quotes, a newline, ESC) and a
#   forward-only exec child: index.html shows the origin HTML-escaped (no raw markup, no control
#   byte), implementations.csv holds it RFC 4180-quoted (read back equal, ESC and the newline as
#   '?'), the page shows n/a for the child's derivative;
# - pick reads that report with both added (and refuses it, exit 2, without them);
# - merge of two shards with both equals the unsharded run's CSV;
# - moons trains through the plugin's kernels and leaves the forward-only child out with a note.
# Usage: test_added_commands.sh GELUCHECK PLUGIN.so EXEC_CHILD
set -u
g=$1 plugin=$2 child=$3
. "$(dirname "$0")/lib.sh"
export GELUCHECK_TEST_PLUGIN_CASE=hostile_origin
fo="ef=$child erfc_f64 --name ef --no-derivative"

"$g" report --quick --out "$d/rep" --plugin "$plugin" --exec "$fo" >"$d/out" 2>"$d/err" ||
    fail "report --quick with a plugin and an exec child: status $?: $(tail -5 "$d/err")"
html=$d/rep/index.html
grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; a, &quot;quoted&quot;?origin ?\[31mred' "$html" ||
    fail "the hostile origin is not in the page, escaped: $(grep -o 'plug_erfc_f64</b>.\{0,200\}' "$html")"
grep -q '<script>alert' "$html" && fail "the origin's markup reached the page raw"
LC_ALL=C grep -q "$(printf '\033')" "$html" && fail "an ESC byte reached the page"
grep -q '<li><b>ef</b>: exec child .*; forward only; outputs independent of the batching</li>' "$html" ||
    fail "the exec child is not described on the page"
grep -q '<td title="forward only: no derivative">n/a</td>' "$html" || fail "no n/a cell for the child's derivative"
python3 - "$d/rep/implementations.csv" <<'PY' || fail "implementations.csv: $(cat "$d/rep/implementations.csv" | head -5)"
import csv, sys
rows = {r["impl"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
p, e = rows["plug_erfc_f64"], rows["ef"]
assert p["origin"] == '<script>alert(1)</script> & a, "quoted"?origin ?[31mred', p["origin"]
assert p["source"].startswith("plugin '") and p["derivative"] == "yes" and p["batch_independent"] == ""
assert e["derivative"] == "no" and e["batch_independent"] == "yes" and e["source"].startswith("exec child '")
assert rows["erfc_f64"]["source"] == "built-in"
PY
grep -q '^ef,.*,derivative,' "$d/rep/accuracy.csv" && fail "accuracy.csv: a derivative row for a forward-only child"

"$g" pick --platform host --max-ulp 1 --results "$d/rep" --plugin "$plugin" --exec "$fo" >"$d/out" 2>"$d/err" ||
    fail "pick with the plugin and the child: status $?: $(cat "$d/err")"
"$g" pick --platform host --max-ulp 1 --results "$d/rep" >"$d/out" 2>"$d/err"
st=$?
[ $st -eq 2 ] && grep -q "'\(plug_erfc_f64\|ef\)' is not an implementation" "$d/err" ||
    fail "pick without them: status $st: $(cat "$d/err")"
"$g" pick --platform host --grad-max-ulp 1 --results "$d/rep" --plugin "$plugin" --exec "$fo" >"$d/out" 2>&1 ||
    [ $? -eq 1 ] || fail "pick --grad-max-ulp with a forward-only child: $(cat "$d/out")"

both="--plugin $plugin --impl plug_erfc_f64,ef,erfc_f64 --sample 100000 --grad"
# shellcheck disable=SC2086
"$g" accuracy --exec "$fo" $both --csv "$d/whole.csv" >/dev/null 2>"$d/err" || fail "whole: $(cat "$d/err")"
for k in 1 2; do
    # shellcheck disable=SC2086
    "$g" accuracy --exec "$fo" $both --shard $k/2 --partial "$d/p$k" >/dev/null 2>"$d/err" ||
        fail "shard $k/2: $(cat "$d/err")"
done
"$g" merge --plugin "$plugin" --exec "$fo" --csv "$d/merged.csv" "$d/p1" "$d/p2" >/dev/null 2>"$d/err" ||
    fail "merge: $(cat "$d/err")"
cmp -s "$d/whole.csv" "$d/merged.csv" || fail "merged shards differ from the unsharded run"

"$g" moons --quick --seeds 2 --plugin "$plugin" --exec "$fo" --impl plug_erfc_f64 --impl ef \
    --csv "$d/moons.csv" >"$d/out" 2>"$d/err" || fail "moons: $(cat "$d/err")"
grep -q '^plug_erfc_f64 ' "$d/out" && grep -q ',plug_erfc_f64,' "$d/moons.csv" ||
    fail "moons did not train through the plugin: $(head -20 "$d/out")"
grep -q "left out (forward only: no derivative to train through): ef" "$d/out" ||
    fail "moons: the forward-only child not left out with a note"

[ $fails -eq 0 ] && echo "added implementations: every command as expected"
exit $((fails > 0))
