# Sourced by the shell tests (`. "$(dirname "$0")/lib.sh"`): a temporary directory $d removed at
# exit, and fail MESSAGE, which prints it and counts it in $fails (a test exits 1 when it is
# non-zero).
fails=0
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
