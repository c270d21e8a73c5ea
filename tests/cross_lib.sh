# Sourced by the cross builds' tests (test_aarch64.sh, test_riscv64.sh) after lib.sh:
#   cross_tools SYSROOT LOADER TOOL...  skips the test (77) when a tool or the cross libc's
#                                       loader (SYSROOT/lib/LOADER) is missing, naming it
#   cross_build MACHINE SOURCE_ROOT DIR sets up DIR with cross/MACHINE-linux-gnu.ini (once) and
#                                       compiles it; the test ends, status 1, when either fails
cross_tools() {
    root=$1 loader=$2
    shift 2
    for p in "$@"; do
        command -v "$p" >/dev/null || { echo "skip: no $p (tools/setup.sh installs it)"; exit 77; }
    done
    [ -e "$root/lib/$loader" ] ||
        { echo "skip: no cross libc in $root (no lib/$loader; tools/setup.sh installs it)"; exit 77; }
}
cross_build() {
    if [ ! -f "$3/build.ninja" ]; then
        meson setup --cross-file "$2/cross/$1-linux-gnu.ini" "$3" "$2" >"$d/setup" 2>&1 ||
            { cat "$d/setup"; echo "FAIL: the cross build's setup"; exit 1; }
    fi
    meson compile -C "$3" >"$d/compile" 2>&1 || { tail -20 "$d/compile"; echo "FAIL: the cross build"; exit 1; }
}
