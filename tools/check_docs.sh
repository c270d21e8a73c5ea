#!/bin/sh
# The documentation check: the reference text states what is true now and cannot go stale.
#   length    README.md has at most 250 lines
#   history   no commit-like token (7 to 40 hex digits with a digit and a letter a-f, not after
#             0x) and no ISO date in README.md, CONTRIBUTING.md, docs/ (docs/measurements/, and
#             a record's name in a link to it, are the place for them), .ci/run, cli/*.c (help
#             texts) and the comments of the
#             sources (*.c *.h *.py *.sh *.sol meson.build)
#   links     every relative link of README.md and docs/*.md names a file that exists, and its
#             #anchor a heading of that file
#   commands  every ```sh block of README.md runs (from a scratch directory where build/ is the
#             build directory and the source tree's folders are linked); a block preceded by
#             <!-- doc-test: CMD --> runs CMD instead (the quick stand-in of a long command);
#             a ```c block preceded by <!-- doc-test file: NAME --> is written to NAME first.
#             tools/build.sh is not run (it installs packages): it must exist; CI runs it.
#   generated a block of README.md or docs/*.md between <!-- generated: gelucheck ARGS --> and
#             <!-- generated:end --> is what `gelucheck ARGS` prints (the docs' copy of a list
#             the code holds: the report's files, say)
#   answer    the table between <!-- answer:begin --> and <!-- answer:end --> of README.md is
#             `gelucheck markdown --answer` of the answer.json beside the latest record in
#             docs/measurements/ (the latest by the time on its first line, not its name: a
#             second record of a day is <date>-<cpu>-2; skipped, saying so, while no record has
#             an answer.json)
# tools/check_docs.sh --commits A..B checks commit subjects instead: each at most 72 characters
# in the form `area: what` (merges excepted).
#
# Usage: tools/check_docs.sh [--root DIR] [--build DIR] [--no-commands]
#        tools/check_docs.sh [--root DIR] --commits A..B
# Exit status: 0 every check holds, 1 a check failed (each finding on one line, FILE:LINE:
# what), 2 bad usage.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=
commands=yes
commits=
usage() {
    echo "usage: tools/check_docs.sh [--root DIR] [--build DIR] [--no-commands] | --commits A..B" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
    --root) [ $# -ge 2 ] || usage; root=$2; shift 2 ;;
    --build) [ $# -ge 2 ] || usage; build=$2; shift 2 ;;
    --no-commands) commands=no; shift ;;
    --commits) [ $# -ge 2 ] || usage; commits=$2; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check_docs: unknown argument '$1'" >&2; usage ;;
    esac
done
if [ -z "$commits" ] && [ ! -f "$root/README.md" ]; then
    echo "check_docs: '$root' has no README.md: not the source tree" >&2
    exit 2
fi
root=$(cd "$root" && pwd)
[ -n "$build" ] || build=$root/build
[ -d "$build" ] && build=$(cd "$build" && pwd)
exec python3 - "$root" "$build" "$commands" "$commits" <<'PY'
import glob, os, re, subprocess, sys, tempfile

root, build, run_commands, commits = sys.argv[1:5]
findings = []

def finding(path, line, what):
    findings.append(f"{os.path.relpath(path, root)}:{line}: {what}")

def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()

# ---- commit subjects ----
if commits:
    if not re.fullmatch(r"[^\s.][^\s]*\.\.[^\s]+", commits):
        print(f"check_docs: --commits '{commits}' is not a range A..B", file=sys.stderr)
        sys.exit(2)
    p = subprocess.run(["git", "-C", root, "log", "--no-merges", "--format=%h %s", commits],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(f"check_docs: git log {commits}: {p.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    bad = 0
    for l in p.stdout.splitlines():
        h, _, s = l.partition(" ")
        why = []
        if len(s) > 72:
            why.append(f"{len(s)} characters, more than 72")
        if not re.match(r"[A-Za-z0-9_.,/{}+ -]{1,40}: \S", s):
            why.append("not in the form 'area: what'")
        if why:
            bad += 1
            print(f"commit {h}: {'; '.join(why)}: {s}")
    n = len(p.stdout.splitlines())
    print(f"check_docs: commits {commits}: {n} checked, {bad} failing")
    sys.exit(1 if bad else 0)

# ---- length ----
readme = os.path.join(root, "README.md")
readme_text = read(readme)
n = readme_text.count("\n")
if n > 250:
    finding(readme, n, f"README.md has {n} lines, more than 250")

# ---- history: commit-like tokens and ISO dates ----
HASH = re.compile(r"(?<![0-9A-Za-z_])(?<!0x)(?<!0X)[0-9a-f]{7,40}(?![0-9A-Za-z_])")
RECORD_PATH = re.compile(r"docs/measurements/[^\s)\]]*")
DATE = re.compile(r"(?<![0-9])(?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])(?![0-9])")

def history(path, text, first_line=1, code_words=frozenset()):
    """Findings in text; a token that is also a word of the file's code (an identifier such as
    bf16f64, test data) is not a commit id; nor are a decimal's digits before its exponent."""
    for k, line in enumerate(text.split("\n")):
        for m in HASH.finditer(line):
            t = m.group(0)
            if t in code_words or re.fullmatch(r"[0-9]+e", t):
                continue
            if re.search(r"[0-9]", t) and re.search(r"[a-f]", t):
                finding(path, first_line + k, f"commit-like token '{t}'")
        # a record's name (docs/measurements/<date>-<cpu>.md) is where a date belongs
        for m in DATE.finditer(RECORD_PATH.sub("", line)):
            finding(path, first_line + k, f"date '{m.group(0)}'")

C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)

def comments(path, text):
    """(line, text) of each comment of a source file, and the words of the rest (its code)."""
    out, code = [], []
    if path.endswith((".c", ".h", ".sol")):
        last = 0
        for m in C_COMMENT.finditer(text):
            if m.group(0)[0] in "/":
                out.append((text.count("\n", 0, m.start()) + 1, m.group(0)))
                code.append(text[last:m.start()])
                last = m.end()
        code.append(text[last:])
    else:  # '#' comments: shell, Python, Meson (a '#' inside a string is rare and harmless)
        for k, line in enumerate(text.split("\n")):
            i = line.find("#")
            if i >= 0 and not line.startswith("#!"):
                out.append((k + 1, line[i:]))
                line = line[:i]
            code.append(line)
    return out, frozenset(re.findall(r"\w+", "\n".join(code)))

whole = [readme, os.path.join(root, "CONTRIBUTING.md"), os.path.join(root, ".ci", "run")]
whole += [p for p in glob.glob(os.path.join(root, "docs", "**", "*"), recursive=True)
          if os.path.isfile(p) and os.sep + "measurements" + os.sep not in p]
whole += glob.glob(os.path.join(root, "cli", "*.c"))
for p in whole:
    if os.path.isfile(p):
        history(p, read(p))
skip_dirs = {"build", ".git", "fixtures", "measurements", "docs"}
for d, dirs, files in os.walk(root):
    dirs[:] = [x for x in dirs if x not in skip_dirs and not x.startswith((".", "build"))]
    for f in files:
        p = os.path.join(d, f)
        if f == "meson.build" or f.endswith((".c", ".h", ".py", ".sh", ".sol")):
            if os.path.relpath(p, root).startswith("cli" + os.sep) and f.endswith(".c"):
                continue  # checked whole above
            found, words = comments(p, read(p))
            for line, text in found:
                history(p, text, line, words)

# ---- links and anchors ----
def slug(heading):
    s = re.sub(r"[`*_]|<[^>]*>", "", heading.strip()).lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")

def anchors(path):
    seen, out = {}, set()
    fence = False
    for line in read(path).split("\n"):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            k = seen.get(s, 0)
            seen[s] = k + 1
            out.add(s if k == 0 else f"{s}-{k}")
    for m in re.finditer(r"<a\s+(?:id|name)=\"([^\"]+)\"", read(path)):
        out.add(m.group(1))
    return out

LINK = re.compile(r"\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
md_files = [readme] + sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
for p in md_files:
    fence = False
    for k, line in enumerate(read(p).split("\n")):
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            target = m.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # http:, https:, mailto:
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(p), file)) if file else p
            if not os.path.exists(dest):
                finding(p, k + 1, f"link to '{target}': no file {os.path.relpath(dest, root)}")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                finding(p, k + 1, f"link to '{target}': no heading #{anchor} in "
                                  f"{os.path.relpath(dest, root)}")

# ---- README's blocks: commands and files ----
def blocks(text):
    """(line, language, body, doc-test directives before it) of each fenced block."""
    lines, out, k = text.split("\n"), [], 0
    pending = []
    while k < len(lines):
        m = re.match(r"```(\w*)\s*$", lines[k])
        d = re.match(r"\s*<!--\s*doc-test(?:\s+(file))?:\s*(.*?)\s*(-->)?\s*$", lines[k])
        if d:
            body = [d.group(2)]
            while not d.group(3) and k + 1 < len(lines):
                k += 1
                end = lines[k].rstrip().endswith("-->")
                body.append(lines[k].rstrip()[:-3] if end else lines[k])
                if end:
                    break
            pending.append((d.group(1) or "run", "\n".join(b for b in body if b.strip())))
        elif m:
            start, lang, body = k + 2, m.group(1), []  # the block's first line
            k += 1
            while k < len(lines) and not lines[k].startswith("```"):
                body.append(lines[k])
                k += 1
            out.append((start, lang, "\n".join(body), pending))
            pending = []
        elif lines[k].strip():
            pending = []
        k += 1
    return out

if run_commands == "yes":
    if not os.access(os.path.join(build, "cli", "gelucheck"), os.X_OK):
        print(f"check_docs: no {build}/cli/gelucheck: give the build directory (--build DIR) "
              "or --no-commands", file=sys.stderr)
        sys.exit(2)
    scratch = tempfile.mkdtemp(prefix="check_docs.")
    os.symlink(build, os.path.join(scratch, "build"))
    for e in os.listdir(root):
        if e not in ("build", ".git") and not os.path.exists(os.path.join(scratch, e)):
            os.symlink(os.path.join(root, e), os.path.join(scratch, e))
    env = dict(os.environ, DOCTEST=scratch)
    for line, lang, body, directives in blocks(readme_text):
        names = [v for kind, v in directives if kind == "file"]
        if lang == "c" and names:
            with open(os.path.join(scratch, names[0]), "w") as f:
                f.write(body + "\n")
            continue
        if lang != "sh":
            continue
        runs = [v for kind, v in directives if kind == "run"]
        script = "\n".join(runs) if runs else body
        script = re.sub(r"(^|&&\s*|;\s*)tools/build\.sh(?=\s|$)", r"\1test -x tools/build.sh",
                        script, flags=re.M)
        p = subprocess.run(["sh", "-ec", script], cwd=scratch, env=env,
                           capture_output=True, text=True)
        if p.returncode != 0:
            tail = (p.stderr.strip() or p.stdout.strip()).split("\n")[-1][:200]
            finding(readme, line, f"command block failed (exit {p.returncode}): "
                                  f"{script.splitlines()[0][:80]}: {tail}")
    subprocess.run(["rm", "-rf", scratch])

# ---- the generated blocks ----
if run_commands == "yes":
    for path in [readme] + sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
        text = open(path, encoding="utf-8").read()
        for g in re.finditer(r"<!-- generated: gelucheck ([^>]*?) -->\n(.*?)<!-- generated:end -->",
                             text, re.S):
            p = subprocess.run([os.path.join(build, "cli", "gelucheck")] + g.group(1).split(),
                               capture_output=True, text=True,
                               env=dict(os.environ, GELUCHECK_NO_DEFAULT_PEERS="1"))
            if p.returncode != 0 or g.group(2) != p.stdout:
                finding(path, text.count("\n", 0, g.start()) + 1,
                        f"the block is not what `gelucheck {g.group(1)}` prints" +
                        (f" (it exited {p.returncode})" if p.returncode else ""))

# ---- the answer table ----
m = re.search(r"<!-- answer:begin -->\n(.*?)<!-- answer:end -->", readme_text, re.S)
if not m:
    finding(readme, 1, "no answer table markers (<!-- answer:begin --> ... <!-- answer:end -->)")
else:
    answers = sorted(glob.glob(os.path.join(root, "docs", "measurements", "*.answer.json")))
    if not answers:
        print("check_docs: answer: skipped: no record in docs/measurements/ has an answer.json")
    elif run_commands != "yes":
        print("check_docs: answer: skipped with --no-commands")
    else:
        def created(answer):  # the record's first line: "# <cpu>, <created, ISO 8601 UTC>"
            md = answer[: -len(".answer.json")] + ".md"
            try:
                with open(md, encoding="utf-8") as f:
                    t = re.search(r", (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\s*$", f.readline())
            except OSError:
                t = None
            return t.group(1) if t else ""
        latest = max(answers, key=lambda a: (created(a), a))  # the latest run, not name
        p = subprocess.run([os.path.join(build, "cli", "gelucheck"), "markdown", "--answer",
                            latest], capture_output=True, text=True)
        table = [l for l in m.group(1).split("\n") if l.startswith("|")]
        want = [l for l in p.stdout.split("\n") if l.startswith("|")]
        if p.returncode != 0 or table != want:
            finding(readme, readme_text.count("\n", 0, m.start()) + 1,
                    "the answer table is not `gelucheck markdown --answer "
                    f"{os.path.relpath(latest, root)}`" +
                    (f" (it exited {p.returncode})" if p.returncode else ""))

for f in findings:
    print(f)
print(f"check_docs: {len(findings)} finding{'s' if len(findings) != 1 else ''}")
sys.exit(1 if findings else 0)
PY
