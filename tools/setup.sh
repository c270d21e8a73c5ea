#!/bin/sh
# Install, with apt-get, every Debian package that gelucheck's build, tests, benchmarks and
# reports need (Open MPI for `mpirun -n N gelucheck accuracy`; ocl-icd-opencl-dev because
# oneDNN's CMake config looks for OpenCL; chromium and python3 for the report's browser test,
# tests/browser_check.py: standard library only, so no virtual environment and nothing from a
# package registry). Non-interactive and idempotent:
# when everything is present it only checks (dpkg-query) and returns in well under a second.
# Run as root on Debian 12.
set -eu

packages="
  build-essential pkg-config meson ninja-build cmake zlib1g-dev
  libmpfr-dev libgmp-dev libgsl-dev libcriterion-dev
  libsleef-dev libdnnl-dev ocl-icd-opencl-dev libflint-arb-dev
  sollya gnuplot-nox valgrind clang libclang-rt-14-dev
  chromium python3 libopenmpi-dev openmpi-bin
"

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "setup: all packages present"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages:$missing; run this script as root" >&2
    exit 1
fi

echo "setup: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
