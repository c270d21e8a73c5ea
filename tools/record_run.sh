#!/bin/sh
# Writes a measurement record of one `gelucheck report` run: docs/measurements/<date>-<cpu>.md,
# from the run's own files, so that numbers are recorded, never retyped. It reads
#   REPORT_DIR/manifest.json     CPU model, commit, compiler, libraries, command, date
#   LOG                          the report's standard output, for its last table ("where the
#                                time went": wall and CPU seconds per section, the ratio to
#                                the binary32 scan's kernels); default REPORT_DIR/report.log
#   REPORT_DIR/accuracy*.csv     the MPFR fallbacks per format (column ref_fallbacks)
# and copies REPORT_DIR/answer.json, when the report wrote one, beside the record as
# <same name>.answer.json. A second record of the same date and CPU gets a suffix (-2, -3...).
#
# With --accuracy, the record of one `gelucheck accuracy --csv CSV` run instead (an exhaustive
# proof, say): CSV.manifest.json for the CPU, commit and command, every row of CSV (inputs,
# max ULP, correctly rounded, contract verdict), and LOG's closing line ("wall N s, ...") when
# LOG, its standard output, is given.
#
# Usage: tools/record_run.sh [--dest DIR] REPORT_DIR [LOG]
#        tools/record_run.sh [--dest DIR] --accuracy CSV [LOG]
#   e.g.  build/cli/gelucheck report --out report > report.log
#         tools/record_run.sh report report.log
#   --dest DIR  where the record goes (default: docs/measurements of this checkout)
# Prints the record's path. Exit 2 on bad usage or a report directory it cannot read (no
# manifest.json, no time table), naming what is missing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/docs/measurements
usage() {
    echo "usage: tools/record_run.sh [--dest DIR] REPORT_DIR [LOG]" >&2
    echo "       tools/record_run.sh [--dest DIR] --accuracy CSV [LOG]" >&2
    exit 2
}
accuracy=no
while [ $# -gt 0 ]; do
    case $1 in
    --dest) [ $# -ge 2 ] || usage; dest=$2; shift 2 ;;
    --dest=*) dest=${1#--dest=}; shift ;;
    --accuracy) accuracy=yes; shift ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "record_run: unknown option '$1'" >&2; usage ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage
if [ $accuracy = yes ]; then
    for f in "$1" "$1.manifest.json" ${2:+"$2"}; do
        [ -f "$f" ] || { echo "record_run: '$f' is not a file (gelucheck accuracy --csv CSV writes CSV and CSV.manifest.json)" >&2; exit 2; }
    done
    src=$1 man=$1.manifest.json log=${2:-}
else
    dir=$1
    log=${2:-$dir/report.log}
    if [ ! -d "$dir" ]; then
        echo "record_run: '$dir' is not a directory" >&2
        exit 2
    fi
    if [ ! -f "$dir/manifest.json" ]; then
        echo "record_run: '$dir' has no manifest.json: not a report directory" \
             "(gelucheck report --out DIR writes one)" >&2
        exit 2
    fi
    if [ ! -f "$log" ]; then
        echo "record_run: no time table: '$log' does not exist (pass the report's standard" \
             "output as LOG: gelucheck report --out DIR > LOG)" >&2
        exit 2
    fi
    src=$dir man=$dir/manifest.json
fi
mkdir -p "$dest"
exec python3 - "$accuracy" "$src" "$man" "$log" "$dest" <<'PY'
import csv, glob, json, os, re, shutil, sys

accuracy, src, man_path, log, dest = sys.argv[1] == "yes", *sys.argv[2:6]

def fail(msg):
    print(f"record_run: {msg}", file=sys.stderr)
    sys.exit(2)

try:
    with open(man_path, encoding="utf-8") as f:
        man = json.load(f)
    cpu, commit = man["cpu"]["model"], man["gelucheck"]["commit"]
    created, command = man["run"]["created"], man["run"]["command"]
except (OSError, ValueError, KeyError, TypeError) as e:
    fail(f"{man_path}: unreadable or incomplete ({e})")

def record_path(suffix):
    """The record's name and path: <date>-<cpu><suffix>, then -2, -3... when taken."""
    date = created[:10]
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        fail(f"{man_path}: run.created '{created}' is not an ISO date")
    slug = re.sub(r"\((r|tm)\)", "", cpu.lower())
    slug = re.sub(r"[^a-z0-9]+", "-", slug).strip("-") or "unknown-cpu"
    name, k = f"{date}-{slug}{suffix}", 2
    while os.path.exists(os.path.join(dest, name + ".md")):
        name, k = f"{date}-{slug}{suffix}-{k}", k + 1
    return name, os.path.join(dest, name + ".md")

def header(title, written):
    """The record's first lines: what it is, where it came from, the run's facts."""
    return [f"# {cpu}, {created}{title}", "", f"Written by {written}.", "",
            "| | |", "|---|---|",
            f"| CPU | {cpu} |",
            f"| CPU features | {man['cpu'].get('features', '')} |",
            f"| gelucheck | {man['gelucheck'].get('version', '')}, commit {commit} |",
            f"| compiler | {man.get('build', {}).get('compiler', '')} |",
            f"| command | `{command}` |",
            f"| created | {created} |"]

def write(path, out):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print(path)

if accuracy:
    keys = ["impl", "target", "reference", "direction", "inputs", "max_ulp", "correctly_rounded",
            "contract"]
    try:
        with open(src, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        if not rows or any(k not in rows[0] for k in keys):
            raise ValueError(f"no rows with the columns {', '.join(keys)}")
        for r in rows:
            int(r["inputs"]), int(r["correctly_rounded"])
    except (OSError, ValueError, TypeError) as e:
        fail(f"{src}: not an accuracy CSV ({e})")
    closing = ""
    if log:
        with open(log, encoding="utf-8", errors="replace") as f:
            walls = [l.strip() for l in f if l.startswith("wall ")]
        if not walls:
            fail(f"{log}: no closing line 'wall ... s' (is it the standard output of a finished run?)")
        closing = walls[-1]
    name, path = record_path("-accuracy")
    out = header(": an accuracy run", f"tools/record_run.sh --accuracy from `{src}` (its manifest "
                 "and rows" + (", the run's closing line" if log else "") + ")")
    if closing:
        out.append(f"| run | {closing} |")
    out += ["", "| implementation | target | reference | direction | inputs | max ULP | correctly rounded | contract |",
            "|---|---|---|---|---:|---:|---:|---|"]
    for r in rows:
        out.append(f"| `{r['impl']}` | {r['target']} | {r['reference']} | {r['direction']} | {r['inputs']} "
                   f"| {r['max_ulp']} | {r['correctly_rounded']} | {r['contract'] or '–'} |")
    write(path, out)
    sys.exit(0)

report = src
# The time table: from the line "where the time went:" to the line "total", then the
# kernels' line.
with open(log, encoding="utf-8", errors="replace") as f:
    lines = f.read().splitlines()
try:
    start = max(i for i, l in enumerate(lines) if l.startswith("where the time went:"))
except ValueError:
    fail(f"{log}: no time table (no line 'where the time went:'); is it the standard "
         "output of a finished 'gelucheck report'?")
row = re.compile(r"^(.*\S)\s+(-?[0-9.]+)\s+(-?[0-9.]+)$")
sections, total, kernels = [], None, None
for l in lines[start + 2:]:
    m = row.match(l)
    if not m:
        break
    name, wall, cpu_s = m.group(1), float(m.group(2)), float(m.group(3))
    if name == "total":
        total = (wall, cpu_s)
        break
    sections.append((name, wall, cpu_s))
if total is None:
    fail(f"{log}: the time table has no 'total' line (the report did not finish)")
for l in lines[start:]:
    if l.startswith("the binary32 scan's kernels alone"):
        kernels = l
        break

# MPFR fallbacks per format: the reference is computed once per target and direction, and
# every row of that target and direction repeats its count.
fallbacks = []
for path in sorted(glob.glob(os.path.join(report, "accuracy*.csv"))):
    per_key = {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            v = r.get("ref_fallbacks", "")
            if v == "":
                continue
            key = (r["target"], r["direction"])
            per_key[key] = max(per_key.get(key, 0), int(v))
    fallbacks.append((os.path.basename(path), sum(per_key.values())))

name, path = record_path("")
out = header("", f"tools/record_run.sh from `{report}` (manifest.json, the time table of the "
             "report's standard output, accuracy*.csv)")
libs = man.get("libraries", {})
if libs:
    out.append("| libraries | " + ", ".join(f"{k} {v}" for k, v in libs.items()) + " |")
out += ["", "## Where the time went", "", "| section | wall s | CPU s |", "|---|---:|---:|"]
out += [f"| {n} | {w:.1f} | {c:.1f} |" for n, w, c in sections]
out += [f"| **total** | **{total[0]:.1f}** | **{total[1]:.1f}** |", ""]
out += [kernels if kernels else "The binary32 scan's kernels were not timed.", ""]
out += ["## MPFR fallbacks", "", "| file | fallbacks |", "|---|---:|"]
out += [f"| {f} | {n} |" for f, n in fallbacks]
answer = os.path.join(report, "answer.json")
if os.path.isfile(answer):
    shutil.copyfile(answer, os.path.join(dest, name + ".answer.json"))
    out += ["", f"The report's answer: [{name}.answer.json]({name}.answer.json)."]
write(path, out)
PY
