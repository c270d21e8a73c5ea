#!/usr/bin/env python3
"""Static speed estimates of our vf methods' forward kernels: for each vf method
(impls/meson.build's vf_methods) and each ISA build a CPU model runs, compile the build's
array kernel with clang-16 (the build's ISA flags, tuned for the CPU), take its vector loop's
instructions from the assembly, run llvm-mca-16 for that CPU and write cycles per element:
the loop's block reciprocal throughput over the elements one iteration computes, and the
scheduling model llvm-mca used (named by its resources: LLVM 16 has no model of its own for
every CPU it knows). What `gelucheck pick` ranks by on a platform where nothing here can time
the code (reports/pick.c: the Arm platforms; docs/platforms.md shows the method on x86).

Which instructions: the loop is found by clang's own loop comments (`Loop Header`, `in Loop`);
of the kernel's loops, the one with the longest fast path (below) among those whose fast path
calls nothing, ties to the first in layout (the source's vector loop comes first in every array
kernel). Its fast path is the shortest path of instructions from its header back to it: every
lane on the vector path, the branches to the rarely taken paths (cr's accurate path, a split
kernel's tail and packing) not taken. Such a row says `fast_path_only` with the number of
conditional branches skipped. A loop whose fast path runs through a nested loop (a split
kernel's loop over chunks) is not a candidate; a loop found with fewer than 20 instructions (a
loop over coefficients left rolled) is an error. The vector loop is not unrolled (-unroll-runtime=false: its trip count is
known at run time only; loops of constant count are unrolled: -unroll-threshold=3000, as GCC
unrolls the coefficient loops), so one
iteration is one vector: VF_WIDTH elements (the build's ISA row below). Static functions are
inlined as GCC inlines the builds' `static inline` ones (-inline-threshold=4000).

Usage: tools/mca_estimate.py [--out data/mca_estimates.csv] [--only METHOD] [--verbose]
       tools/mca_estimate.py --measure-clock   (this CPU's core clock: docs/platforms.md)
       tools/mca_estimate.py --compare LABEL=BENCH_CSV... --ghz G [--cpu C] [--size S]
Needs clang-16 and llvm-mca-16 (Debian's clang-16, llvm-16) and, for AArch64, the cross libc's
headers (libc6-dev-arm64-cross). Python 3 standard library only.
"""
import argparse
import heapq
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLANG, MCA = "clang-16", "llvm-mca-16"

# The ISA builds: their flags as impls/meson.build and cross/meson.build give them (the build
# made for the ISA, not for the CPU: an AVX2 build tuned for Sapphire Rapids uses no AVX-512)
# and the elements one vector holds.
ISAS = {
    "avx2": {"triple": "x86_64-linux-gnu", "flags": ["-mavx2", "-mfma"], "width": 8},
    "avx512": {"triple": "x86_64-linux-gnu",
               "flags": ["-mavx512f", "-mavx512dq", "-mavx512bw", "-mavx512vl", "-mavx2", "-mfma"],
               "width": 16},
    "neon": {"triple": "aarch64-linux-gnu", "flags": [], "width": 4},
    "sve128": {"triple": "aarch64-linux-gnu",
               "flags": ["-march=armv8.2-a+sve", "-msve-vector-bits=128"], "width": 4},
    "sve256": {"triple": "aarch64-linux-gnu",
               "flags": ["-march=armv8.2-a+sve", "-msve-vector-bits=256"], "width": 8},
}

# The CPUs estimated: llvm-mca's -mcpu (clang's -mtune), the ISA builds it runs. The x86 ones
# validate the method against this host's measured speed (docs/platforms.md); the Arm ones are
# the pick platforms' (reports/pick.c: armv8-a is judged on neoverse-n1, armv8.2-a+sve on
# neoverse-v1, armv9-a+sve2 on neoverse-v2).
CPUS = [
    ("sapphirerapids", ["avx2", "avx512"]),
    ("icelake-server", ["avx2", "avx512"]),
    ("znver4", ["avx2", "avx512"]),
    ("neoverse-n1", ["neon"]),
    ("neoverse-v1", ["neon", "sve256"]),
    ("neoverse-v2", ["neon", "sve128"]),
]

# llvm-mca names a model's resources with the model's prefix: the model it used.
MODELS = [("SKX", "SkylakeServer"), ("ICX", "IceLake"), ("Zn4", "Znver4"), ("Zn3", "Znver3"),
          ("A57", "CortexA57"), ("N2", "NeoverseN2"), ("N1", "NeoverseN1"), ("V1", "NeoverseV1"),
          ("V2", "NeoverseV2")]

COMMON = ["-O2", "-mllvm", "-inline-threshold=4000", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-ffp-contract=off",
          "-mllvm", "-unroll-runtime=false", "-mllvm", "-unroll-threshold=3000",
          "-S", "-o", "-"]


def vf_methods():
    """[(method, header, isas)] from impls/meson.build's vf_methods."""
    text = open(os.path.join(ROOT, "impls", "meson.build")).read()
    block = re.search(r"vf_methods = \[(.*?)\n\]", text, re.S).group(1)
    rows = re.findall(r"\['(\w+)', '([\w.]+)', \[([^\]]*)\]\]", block)
    return [(m, h, re.findall(r"'(\w+)'", isas)) for m, h, isas in rows]


def isa_headers():
    text = open(os.path.join(ROOT, "impls", "meson.build")).read()
    block = re.search(r"vf_isas = \[(.*?)\n\]", text, re.S).group(1)
    return dict(re.findall(r"\['(\w+)', '([\w.]+)'", block))


def build_source(method, header, isa, isa_header):
    """The build's file, as impls/vf_build.c.in generates it."""
    name = method if isa == "portable" else method + "_" + isa
    macro = header.split(".")[0].upper() + "_IMPL"
    return name, ('#define VF_METHOD "%s"\n#include "%s"\n\n#include "%s"\n\n%s(%s);\n'
                  % (method, isa_header, header, macro, name))


def compile_asm(source, isa, cpu, confdir):
    args = [CLANG, "--target=" + ISAS[isa]["triple"], "-mtune=" + cpu] + ISAS[isa]["flags"] + \
        COMMON + ["-I", confdir, "-I", os.path.join(ROOT, "impls"), "-x", "c", "-"]
    p = subprocess.run(args, input=source, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("clang failed: %s\n%s" % (" ".join(args), p.stderr[-2000:]))
    return p.stdout


def forward_kernel(asm, name):
    """The function the descriptor gelu_impl_<name> names first (.forward)."""
    m = re.search(r"^gelu_impl_%s:\n(.*?)^\s*\.size" % re.escape(name), asm, re.S | re.M)
    if not m:
        raise RuntimeError("no descriptor gelu_impl_%s in the assembly" % name)
    funcs = set(re.findall(r"^\s*\.type\s+([\w.$]+),\s*@function", asm, re.M))
    for sym in re.findall(r"^\s*\.(?:quad|xword)\s+([\w.$]+)\s*$", m.group(1), re.M):
        if sym in funcs:
            return sym
    raise RuntimeError("gelu_impl_%s names no function of the file" % name)


class Block:
    def __init__(self, label):
        self.label = label      # "BB0_30"; None for a block clang gave no label
        self.loop = None        # its innermost loop's header label
        self.parent = None      # for a loop's header block: the header of the loop around it
        self.insns, self.jumps, self.falls, self.calls = [], [], True, False


BRANCH = {
    "x86_64-linux-gnu": (re.compile(r"^j\w+$"), re.compile(r"^jmp$"), re.compile(r"^callq?$"),
                         ("ret", "retq")),
    "aarch64-linux-gnu": (re.compile(r"^(b|b\.\w+|cbn?z|tbn?z)$"), re.compile(r"^b$"),
                          re.compile(r"^blr?$"), ("ret",)),
}


def blocks_of(asm, func, triple):
    """The function's basic blocks in layout order, each with its innermost loop (clang's
    comments: a header's label line says "Loop Header" or "Parent Loop P" with the header
    line after it; a member's says "in Loop: Header=H")."""
    body = re.search(r"^%s:.*?\n(.*?)^\.Lfunc_end" % re.escape(func), asm, re.S | re.M)
    if not body:
        raise RuntimeError("function %s not found" % func)
    cmt = "#" if triple.startswith("x86") else "//"
    branch, uncond, call, rets = BRANCH[triple]
    blocks, cur = [], Block(None)
    blocks.append(cur)
    for line in body.group(1).split("\n"):
        s = line.strip()
        lab = re.match(r"^\.L(BB\w+):", s)
        if lab or s.startswith(cmt + " %bb."):
            cur = Block(lab.group(1) if lab else None)
            blocks.append(cur)
        m = re.search(r"in Loop: Header=(BB\w+)", s)
        if m:
            cur.loop = m.group(1)
        m = re.search(r"Parent Loop (BB\w+)", s)
        if m:
            cur.parent = m.group(1)
        if "Loop Header: Depth=" in s:
            cur.loop = cur.label
        if lab or not s or s.startswith(cmt) or s.startswith("."):
            continue
        text = s.split(cmt)[0].strip()
        mnem = text.split()[0]
        cur.insns.append(text)
        if branch.match(mnem):
            target = re.search(r"\.L(BB\w+)\s*$", text)
            if target:
                cur.jumps.append(target.group(1))
            if uncond.match(mnem):
                cur.falls = False
        if mnem in rets:
            cur.falls = False
        if call.match(mnem):
            cur.calls = True
    return [b for b in blocks if b.insns or b.label]


def loops_of(blocks):
    """{header: the indices of the blocks in that loop, nested loops' included}"""
    parent = {b.label: b.parent for b in blocks if b.label and b.loop == b.label}
    members = {h: [] for h in parent}
    for i, b in enumerate(blocks):
        h = b.loop
        while h:
            members[h].append(i)
            h = parent.get(h)
    return members


def fast_path(blocks, header, members):
    """The shortest path (in instructions) from the loop's header back to it through its
    blocks: the vector path with every branch to a rarely taken path (into the loop's other
    blocks) not taken. (instructions, those branches, whether it calls, the blocks' labels),
    None when no path returns to the header."""
    index = {b.label: i for i, b in enumerate(blocks) if b.label}
    start, member = index[header], set(members)

    def succ(i):
        b = blocks[i]
        out = [index[t] for t in b.jumps if t in index]
        if b.falls and i + 1 < len(blocks):
            out.append(i + 1)
        return out

    best, prev, end = {start: len(blocks[start].insns)}, {}, None
    heap = [(best[start], start)]
    while heap:
        cost, i = heapq.heappop(heap)
        if cost > best.get(i, 1 << 30):
            continue
        for j in succ(i):
            if j == start:
                if end is None or cost < end[0]:
                    end = (cost, i)
            elif j in member and cost + len(blocks[j].insns) < best.get(j, 1 << 30):
                best[j], prev[j] = cost + len(blocks[j].insns), i
                heapq.heappush(heap, (best[j], j))
    if end is None:
        return None
    path, i = [end[1]], end[1]
    while i != start:
        i = prev[i]
        path.append(i)
    path.reverse()
    if any(blocks[i].loop != header for i in path):
        return None  # a loop around the vector loop (a split kernel's chunks)
    insns, skipped, calls = [], 0, False
    for k, i in enumerate(path):
        insns += blocks[i].insns
        calls |= blocks[i].calls
        taken = path[k + 1] if k + 1 < len(path) else start
        skipped += sum(1 for j in succ(i) if j != taken and j != start and j in member)
    return insns, skipped, calls, [blocks[i].label or "-" for i in path]


def select_loop(blocks):
    members = loops_of(blocks)
    best = None
    for header in [b.label for b in blocks if b.label in members]:
        fp = fast_path(blocks, header, members[header])
        if fp is None or fp[2]:
            continue
        if best is None or len(fp[0]) > len(best[1][0]):
            best = (header, fp)
    if best is None:
        raise RuntimeError("no loop without a call")
    if len(best[1][0]) < 20:  # a loop over coefficients left rolled, not a vector function
        raise RuntimeError("the loop found, %s, has %d instructions only" % (best[0], len(best[1][0])))
    return best


def mca(insns, triple, cpu):
    args = [MCA, "-mtriple=" + triple, "-mcpu=" + cpu, "-iterations=200"]
    p = subprocess.run(args, input="\n".join(insns) + "\n", capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("llvm-mca failed for %s: %s" % (cpu, p.stderr[-1000:]))
    out = p.stdout
    rthr = float(re.search(r"Block RThroughput:\s*([\d.]+)", out).group(1))
    iters = int(re.search(r"Iterations:\s*(\d+)", out).group(1))
    cycles = int(re.search(r"Total Cycles:\s*(\d+)", out).group(1))
    res = re.search(r"^Resources:\n\[[\d.]+\]\s+-\s+(\w+)", out, re.M).group(1)
    model = next((name for prefix, name in MODELS if res.startswith(prefix)), None)
    if model is None:
        raise RuntimeError("llvm-mca's resource %s names no model this tool knows" % res)
    warn = [l for l in p.stderr.split("\n") if "warning" in l]
    return rthr, cycles / iters, model, warn


# The core clock, for turning measured ns into cycles: a chain of dependent register-register
# 64-bit adds, one cycle each on every x86-64 core (latency 1; an add of an immediate is not
# used: Golden Cove's renamer folds chains of those), timed by CLOCK_MONOTONIC.
CLOCK_PROBE = r"""
#include <stdint.h>
#include <stdio.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(void) {
    double best = 0;
    for (int round = 0; round < 15; round++) {
        uint64_t x = (uint64_t)round, y = 3, n = 200000000;
        double t0 = now();
        for (uint64_t i = 0; i < n; i += 8)
            __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                             "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                             : "+r"(x) : "r"(y));
        double ghz = n / (now() - t0) / 1e9;
        if (ghz > best) best = ghz;
    }
    printf("%.3f\n", best);
    return 0;
}
"""


def measure_clock():
    """The fastest of 15 rounds of 2e8 dependent adds, in GHz (a round slowed by another
    process only lowers its own figure)."""
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "clock")
        subprocess.run([CLANG, "-O2", "-x", "c", "-", "-o", exe], input=CLOCK_PROBE, text=True,
                       check=True)
        return float(subprocess.run([exe], capture_output=True, text=True, check=True).stdout)


def compare(estimates, cpu, benches, size, ghz):
    """A Markdown table: per impl estimated on cpu, the estimate (block reciprocal throughput and
    simulated, cycles/element) against each bench CSV's median ns/element at size, in core
    cycles at ghz, and their ratio."""
    import csv
    est = {}
    with open(estimates) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            if r["cpu"] == cpu:
                est[r["impl"]] = (float(r["rthroughput_cycles_per_element"]),
                                  float(r["simulated_cycles_per_element"]), r["model"], r["loop"])
    measured = []
    for label, path in benches:
        with open(path) as f:
            measured.append((label, {r["impl"]: float(r["ns_per_element_median"])
                                     for r in csv.DictReader(f) if r["size"] == size}))
    head = "| build | loop | estimate (rthroughput) | estimate (simulated) |"
    rule = "|---|---|---|---|"
    for label, _ in measured:
        head += " %s: ns | cycles | rthroughput / measured | simulated / measured |" % label
        rule += "---|---|---|---|"
    print(head + "\n" + rule)
    for impl in sorted(est, key=lambda n: (n.rsplit("_", 1)[1], n)):
        rthr, sim, model, loop = est[impl]
        line = "| %s | %s | %.2f | %.2f |" % (impl, loop.replace("fast_path_only", "fast path"), rthr, sim)
        for _, m in measured:
            if impl in m:
                cyc = m[impl] * ghz
                line += " %.3g | %.2f | %.2f | %.2f |" % (m[impl], cyc, rthr / cyc, sim / cyc)
            else:
                line += " - | - | - | - |"
        print(line)
    print("\nmodel: %s; cycles = ns x %.3f GHz" % (next(iter(est.values()))[2] if est else "-", ghz))
    for label, m in measured:
        for isa in sorted({i.rsplit("_", 1)[1] for i in est}):
            names = [i for i in est if i.endswith("_" + isa) and i in m]
            meas = ranks([m[i] for i in names])
            print("%s, %s builds: Spearman rank correlation with measured: rthroughput %.2f, "
                  "simulated %.2f (%d builds)" % (label, isa, spearman(ranks([est[i][0] for i in names]), meas),
                                                 spearman(ranks([est[i][1] for i in names]), meas), len(names)))


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    for k, i in enumerate(order):
        r[i] = float(k)
    return r


def spearman(a, b):
    n = len(a)
    if n < 2:
        return float("nan")
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(a, b)) / (n * (n * n - 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "data", "mca_estimates.csv"))
    ap.add_argument("--only", help="one method")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--measure-clock", action="store_true",
                    help="print this CPU's core clock in GHz (a dependent add chain) and exit")
    ap.add_argument("--compare", nargs="+", metavar="LABEL=BENCH_CSV",
                    help="print estimate against measured (bench --csv files) as a Markdown table")
    ap.add_argument("--cpu", default="sapphirerapids", help="with --compare: the estimates' cpu")
    ap.add_argument("--size", default="l1", help="with --compare: the bench size")
    ap.add_argument("--ghz", type=float, help="with --compare: the core clock (--measure-clock)")
    a = ap.parse_args()
    if a.compare:
        compare(a.out, a.cpu, [c.split("=", 1) for c in a.compare], a.size, a.ghz)
        return
    if a.measure_clock:
        print("%.3f GHz" % measure_clock())
        return
    headers = isa_headers()
    rows = []
    with tempfile.TemporaryDirectory() as confdir:
        with open(os.path.join(confdir, "gelucheck_config.h"), "w") as f:
            # as the cross build's: no second, FMA-instruction build of the plain kernels
            f.write("#define GELUCHECK_HAVE_SCALAR_FMA 0\n")
        for method, header, isas in vf_methods():
            if a.only and method != a.only:
                continue
            for cpu, cpu_isas in CPUS:
                for isa in cpu_isas:
                    if isa not in isas:
                        continue
                    name, src = build_source(method, header, isa, headers[isa])
                    triple = ISAS[isa]["triple"]
                    asm = compile_asm(src, isa, cpu, confdir)
                    func = forward_kernel(asm, name)
                    blocks = blocks_of(asm, func, triple)
                    header_label, (insns, skipped, _, path) = select_loop(blocks)
                    rthr, sim, model, warn = mca(insns, triple, cpu)
                    width = ISAS[isa]["width"]
                    loop = "fast_path_only:%d" % skipped if skipped else "whole_loop"
                    rows.append((name, method, isa, cpu, model, width, len(insns), loop,
                                 rthr / width, sim / width))
                    if a.verbose or warn:
                        print("%-22s %-15s %-12s %-10s %3d insns %s rthr %.2f sim %.2f path %s %s"
                              % (name, cpu, model, func, len(insns), loop, rthr, sim,
                                 ",".join(path), " ".join(warn)), file=sys.stderr)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("# Generated by tools/mca_estimate.py (clang-16 -O2, llvm-mca-16): do not edit. "
                "Cycles per element of each vf build's forward kernel, its vector loop's fast "
                "path; docs/platforms.md.\n")
        f.write("impl,method,isa,cpu,model,elements_per_iteration,instructions,loop,"
                "rthroughput_cycles_per_element,simulated_cycles_per_element\n")
        for r in rows:
            f.write("%s,%s,%s,%s,%s,%d,%d,%s,%.4f,%.4f\n" % r)
    os.replace(tmp, a.out)
    print("%s: %d rows" % (a.out, len(rows)))


if __name__ == "__main__":
    main()
