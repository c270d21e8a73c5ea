#!/bin/sh
# The report page in a real browser: a quick report opened by tests/browser_check.py in headless
# Chromium (layout at 1366x768 and 390x844, SVG boxes, the Pareto plots' labels not overlapping,
# the answer in the first screen, sorting, console errors; screenshots into OUTDIR for a person
# to look at), after the checker has been shown to catch each defect planted in
# tests/fixtures/browser/planted.html.
# usage: test_browser.sh GELUCHECK PYTHON3 OUTDIR
set -u
g=$1 py=$2 out=$3
here=$(dirname "$0")
rm -rf "$out" && mkdir -p "$out/planted" || exit 1
fails=0

"$py" "$here/browser_check.py" "$here/fixtures/browser/planted.html" "$out/planted" >"$out/planted.log" 2>&1
st=$?
[ $st -eq 1 ] || { echo "FAIL: the planted page gave status $st, not 1: $(cat "$out/planted.log")"; fails=$((fails + 1)); }
for needle in "1366x768: the page scrolls sideways" "<div id=wide> reaches x = 2" "has an empty box" \
              'planted_pareto: labels overlap: "pw_accurate_avx512" and "cr_avx512"' \
              "1366x768: #answer starts at y = 9" \
              "the summary table needs 15" "sorting: no table.sortable" \
              "console.error: planted console error" "uncaught: TypeError"; do
    grep -qF "$needle" "$out/planted.log" || { echo "FAIL: the planted page's check lacks '$needle'"; fails=$((fails + 1)); }
done

"$g" report --quick --out "$out/report" >"$out/report.log" 2>&1
st=$?
if [ $st -gt 1 ] || [ ! -s "$out/report/index.html" ]; then
    echo "FAIL: report --quick: status $st: $(tail -3 "$out/report.log")"
    exit 1
fi
"$py" "$here/browser_check.py" "$out/report/index.html" "$out" || fails=$((fails + 1))
[ $fails -eq 0 ] && echo "browser: all checks passed; screenshots in $out/"
exit $fails
