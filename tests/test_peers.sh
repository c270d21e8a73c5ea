#!/bin/sh
# The default peers (peers/: GSL, SLEEF, oneDNN as plugins loaded by every command):
# - the core executable links no SLEEF or oneDNN (ldd);
# - GELUCHECK_NO_DEFAULT_PEERS=1 runs without them: no gsl_/sleef_/dnnl_ row, the built-in rows
#   unchanged, a peer's name unknown to accuracy (exit 2);
# - a peer file that is missing is listed as "not found" with its path, its rows absent, exit 0;
# - a peer file that is broken (not a shared library) stops every command with exit 2, a
#   message naming the file and how to run without the peers;
# - oneDNN's contract and listed code path follow DNNL_MAX_CPU_ISA.
# Usage: test_peers.sh GELUCHECK PEERS_BUILD_DIR
set -u
g=$1 peers=$2
. "$(dirname "$0")/lib.sh"

ldd "$g" >"$d/ldd" || fail "ldd $g"
grep -Ei 'sleef|dnnl' "$d/ldd" && fail "the core executable links a peer's library"

"$g" list >"$d/with" || fail "list: $(cat "$d/with")"
grep -q '^gsl_cdf ' "$d/with" || fail "gsl_cdf missing from the default list"
GELUCHECK_NO_DEFAULT_PEERS=1 "$g" list >"$d/without" 2>&1 ||
    fail "list without peers: $(cat "$d/without")"
grep -Eq '^(gsl|sleef|dnnl)_' "$d/without" && fail "a peer row without the default peers"
grep -q 'default peers' "$d/without" && fail "the default peers are listed although disabled"
# every built-in row is the same with and without the peers
grep -Ev '^(gsl|sleef|dnnl)_' "$d/with" | sed '/^$/,$d' >"$d/with.builtin"
sed '/^$/,$d' "$d/without" >"$d/without.builtin"
cmp -s "$d/with.builtin" "$d/without.builtin" || fail "the built-in rows differ without the peers"
GELUCHECK_NO_DEFAULT_PEERS=1 "$g" accuracy --impl gsl_cdf --sample 1000 >"$d/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "gsl_cdf" "$d/out" ||
    fail "accuracy --impl gsl_cdf without peers: status $st: $(cat "$d/out")"

# A copy of the peers with one file missing and one broken.
mkdir "$d/peers"
cp "$peers"/gelucheck_peer_*.so "$d/peers/"
rm "$d/peers/gelucheck_peer_gsl.so"
GELUCHECK_PEERS_DIR=$d/peers "$g" list >"$d/out" 2>&1
st=$?
[ $st -eq 0 ] && grep -q "gsl: not found: $d/peers/gelucheck_peer_gsl.so" "$d/out" ||
    fail "missing peer: status $st: $(cat "$d/out")"
grep -q '^gsl_' "$d/out" && fail "missing peer: its rows are listed"

echo "not a shared library" >"$d/peers/gelucheck_peer_gsl.so"
GELUCHECK_PEERS_DIR=$d/peers "$g" accuracy --impl erfc_f64 --sample 1000 >"$d/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "cannot load plugin '$d/peers/gelucheck_peer_gsl.so'" "$d/out" &&
    grep -q "a default peer; GELUCHECK_NO_DEFAULT_PEERS=1" "$d/out" ||
    fail "broken peer: status $st: $(cat "$d/out")"

# oneDNN's contract is its dispatched path's (peers/dnnl.c): each cap in its own process, the
# path named in list, and SSE4.1's wider bounds (where gelu_erf reaches 4.697e-7 forward).
if grep -q '^dnnl_erf ' "$d/with"; then
    for case in "SSE41 sse41 4.71e-07 3.55e-07" "AVX2 avx2 3.8e-07 3.21e-07"; do
        set -- $case
        DNNL_MAX_CPU_ISA=$1 "$g" list >"$d/out" 2>&1 || fail "list under $1: $(cat "$d/out")"
        grep -q "(dispatched ISA: $2)" "$d/out" ||
            fail "$1: path $2 not listed: $(tail -3 "$d/out")"
        grep -Eq "^dnnl_erf +exact +none +yes +- +$3 +- +$4 " "$d/out" ||
            fail "$1: dnnl_erf's contract is not $3 / $4: $(grep '^dnnl_erf ' "$d/out")"
    done
fi

[ $fails -eq 0 ] && echo "ok" || exit 1
