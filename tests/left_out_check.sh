#!/bin/sh
# Whether a report names what it left out (reports/left_out.h): run by test_cli.sh on its quick
# report, made with no frameworks' environment (XDG_CACHE_HOME elsewhere), and first on planted
# copies that lack a row, so that a check that passes everything is caught.
#   left_out_check.sh REPORT_DIR CONSOLE_OUTPUT   -> status 0, or 1 with what is missing
dir=$1 console=$2
rows="torch_gelu torch_gelu_tanh tf_gelu tf_gelu_tanh jax_gelu jax_gelu_tanh ort_gelu ort_gelu_tanh ort_ms_gelu ort_ms_fastgelu"
missing=""
python3 - "$dir/answer.json" $rows <<'PY' || missing="$missing answer.json"
import json, sys
lo = json.load(open(sys.argv[1]))["left_out"]
fam = [f for f in lo if f["family"] == "frameworks not installed"]
assert fam, "no family 'frameworks not installed' in %r" % lo
rows = [r.strip() for r in fam[0]["rows"].split(",")]
assert all(r in rows for r in sys.argv[2:]), "rows %r" % rows
assert fam[0]["command"] == "tools/setup.sh --frameworks", fam[0]["command"]
for f in ("PyTorch", "TensorFlow", "JAX", "ONNX Runtime"):
    assert f in fam[0]["why"], fam[0]["why"]
PY
page=$(grep -o '<p class="sub" id="left-out">.*</p>' "$dir/index.html")
line=$(grep '^left out: frameworks not installed: ' "$console")
for r in $rows; do
    printf '%s\n' "$page" | grep -q "[ (]$r[,)]" || missing="$missing page:$r"
    printf '%s\n' "$line" | grep -q " $r[,( ]" || missing="$missing console:$r"
done
printf '%s\n' "$page" | grep -qF '<code>tools/setup.sh --frameworks</code>' || missing="$missing page:command"
printf '%s\n' "$line" | grep -qF 'tools/setup.sh --frameworks)' || missing="$missing console:command"
# benchmark-only rows: scanned nowhere, benchmarked, named
col=$(head -1 "$dir/bench.csv" | tr ',' '\n' | grep -n '^impl$' | cut -d: -f1)
for r in $(cut -d, -f"$col" "$dir/bench.csv" | grep '_omp$' | sort -u); do
    grep -q "^$r," "$dir/accuracy.csv" && continue
    grep -q "^left out: benchmark-only rows: .*$r" "$console" || missing="$missing console:$r"
    printf '%s\n' "$page" | grep -qF "$r" || missing="$missing page:$r"
done
[ -z "$missing" ] || { echo "left out, not named:$missing"; exit 1; }
