#!/bin/sh
# Install, with apt-get, every Debian package that gelucheck's build, tests, benchmarks and
# reports need (Open MPI for `mpirun -n N gelucheck accuracy`; ocl-icd-opencl-dev because
# oneDNN's CMake config looks for OpenCL; chromium and python3 for the report's browser test,
# tests/browser_check.py: standard library only, so no virtual environment and nothing from a
# package registry; qemu-user for tests/clones.sh, which runs the scan's portable and AVX2 builds
# on an emulated CPU; help2man makes the man page from `gelucheck --help`, man-db renders it
# in its test; gcc-aarch64-linux-gnu and libc6-dev-arm64-cross cross-compile our vf methods'
# AArch64 builds, cross/aarch64-linux-gnu.ini, which the aarch64 test runs under qemu-aarch64;
# libsleef-dev:arm64 and libdnnl2:arm64, of the arm64 architecture this script enables, are
# SLEEF's and oneDNN's AArch64 builds, which the cross build serves as rows of their own,
# cross/peer_sleef.c and peer_dnnl.c; oneDNN's headers are libdnnl-dev's;
# and clang-16 and llvm-16 with gcc-riscv64-linux-gnu's binutils and libc6-dev-riscv64-cross their
# RISC-V V builds, cross/riscv64-linux-gnu.ini, which the riscv64 test runs under qemu-riscv64).
# Non-interactive and idempotent:
# when everything is present it only checks (dpkg-query) and returns in well under a second.
# Run as root on Debian 12.
#
# tools/setup.sh --frameworks also makes the Python environment of the framework clients
# (examples/exec/: PyTorch over the exec protocol) outside the clone, at
# $XDG_CACHE_HOME/gelucheck/venv (an absolute XDG_CACHE_HOME; else ~/.cache), so that a fresh
# clone (CI's) reuses it: a virtual environment of Debian's python3 with the packages pinned in
# tools/frameworks.txt, installed by pip by name. It prints the environment's python on its last
# line.
set -eu
frameworks=no
for arg in "$@"; do
    case $arg in
    --frameworks) frameworks=yes ;;
    *) echo "setup: unknown argument '$arg' (only --frameworks)" >&2; exit 2 ;;
    esac
done

packages="
  build-essential pkg-config meson ninja-build cmake zlib1g-dev
  libmpfr-dev libgmp-dev libgsl-dev libcriterion-dev
  libsleef-dev libdnnl-dev ocl-icd-opencl-dev libflint-arb-dev
  sollya gnuplot-nox valgrind clang libclang-rt-14-dev
  chromium python3 libopenmpi-dev openmpi-bin qemu-user help2man man-db
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross libsleef-dev:arm64 libdnnl2:arm64
  clang-16 llvm-16 gcc-riscv64-linux-gnu libc6-dev-riscv64-cross
"
# python3-dev: Python's headers, which torch.compile's Inductor builds its generated kernels
# against (PyTorch's compile paths, docs/frameworks.md "Paths"; g++ is build-essential's)
[ $frameworks = yes ] && packages="$packages python3-venv python3-dev"

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "setup: all packages present"
elif [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages:$missing; run this script as root" >&2
    exit 1
else
    echo "setup: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    # the arm64 packages (name:arm64) need the architecture enabled (multiarch)
    dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
    apt-get update -q
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $missing
fi

[ $frameworks = yes ] || exit 0
# as gelucheck finds it (plugins/exec_frameworks.c): a relative XDG_CACHE_HOME is ignored
case ${XDG_CACHE_HOME:-} in
/*) venv=$XDG_CACHE_HOME/gelucheck/venv ;;
*) venv=$HOME/.cache/gelucheck/venv ;;
esac
pins=$(dirname "$0")/frameworks.txt
# up to date when every pinned requirement is what the environment has
if [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$pins" <<'PY'
import sys
from importlib.metadata import version, PackageNotFoundError
want = [l.split("#")[0].strip() for l in open(sys.argv[1])]
try:
    ok = all(version(n) == v for n, v in (w.split("==") for w in want if w))
except PackageNotFoundError:
    ok = False
sys.exit(0 if ok else 1)
PY
then
    echo "setup: frameworks present in $venv"
else
    echo "setup: installing the framework clients' packages into $venv (PyTorch: large)"
    mkdir -p "$(dirname "$venv")"
    [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r "$pins"
fi
echo "$venv/bin/python"
