#!/bin/sh
# Install dependencies (tools/setup.sh), configure build/ if it is not configured yet, and
# compile. Idempotent; the first step of both README quick-start commands.
# Usage: tools/build.sh [BUILDDIR [MESON_SETUP_ARGS...]]
set -eu
cd "$(dirname "$0")/.."
builddir=${1:-build}
[ $# -gt 0 ] && shift
./tools/setup.sh
if [ ! -f "$builddir/build.ninja" ]; then
    rm -rf "$builddir"
    meson setup "$builddir" "$@"
fi
meson compile -C "$builddir"
