#!/bin/sh
# --plugin: a shared library's implementations are verified like built-in ones.
# - tests/test_plugin.c (erfc_f64's kernels behind the ABI) gives erfc_f64's rows to the byte,
#   through --plugin and through GELUCHECK_PLUGINS;
# - each planted defect is caught by the gate at its input: a wrong output at 1.5, a
#   monotonicity break at 2, +inf from 2^127 on, a NaN at -inf against a specials claim;
# - a kernel that crashes is reported (the plugin, the implementation, the call), exit 1, and the
#   previous CSV stays: in the row's own process (the default) and --in-process;
# - every malformed plugin is refused with exit 2, the file and the field named.
# Usage: test_plugin_cli.sh GELUCHECK PLUGIN.so
set -u
g=$1 plugin=$2
. "$(dirname "$0")/lib.sh"
run() { # CASE ARGS...: gelucheck with the plugin planted as CASE
    c=$1
    shift
    GELUCHECK_TEST_PLUGIN_CASE=$c "$g" "$@" --plugin "$plugin" >"$d/out" 2>"$d/err"
}

run good accuracy --impl plug_erfc_f64,erfc_f64 --sample 100000 --grad --csv "$d/a.csv" ||
    fail "good plugin: $(cat "$d/err")"
grep '^erfc_f64,' "$d/a.csv" | cut -d, -f2- >"$d/builtin"
grep '^plug_erfc_f64,' "$d/a.csv" | cut -d, -f2- >"$d/plugin"
[ -s "$d/plugin" ] && cmp -s "$d/builtin" "$d/plugin" || fail "the plugin's rows differ from erfc_f64's"
GELUCHECK_PLUGINS="$plugin" "$g" list >"$d/out" 2>&1 && grep -q "^  plug_erfc_f64: plugin '$plugin'" "$d/out" ||
    fail "GELUCHECK_PLUGINS: $(cat "$d/out")"

# --fpenv reaches a row run in its own process (its host is asked for the environment): its rows
# are the in-process run's to the byte around the subnormals, and differ from IEEE's there
for ip in "" --in-process; do
    run good accuracy $ip --impl plug_erfc_f64 --fpenv ftz,daz --range -0x1p-130:0x1p-130 --threads 2 \
        --grad --csv "$d/fe$ip.csv" || fail "--fpenv ftz,daz $ip: $(cat "$d/err")"
done
run good accuracy --impl plug_erfc_f64 --range -0x1p-130:0x1p-130 --threads 2 --grad --csv "$d/fi.csv"
cmp -s "$d/fe.csv" "$d/fe--in-process.csv" && ! cmp -s "$d/fe.csv" "$d/fi.csv" ||
    fail "--fpenv ftz,daz in the plugin's own process: not the in-process rows: $(cut -d, -f1-9 "$d/fe.csv" "$d/fe--in-process.csv")"

# a plugin without a derivative kernel: scanned forward only under --grad, said so, its forward
# rows erfc_f64's
run forward_only accuracy --impl plug_erfc_f64,erfc_f64 --sample 20000 --grad --csv "$d/f.csv" ||
    fail "forward-only plugin: $(cat "$d/err")"
grep -q "^plug_erfc_f64: forward only (no derivative kernel)" "$d/out" &&
    ! grep -q '^plug_erfc_f64,.*,derivative,' "$d/f.csv" &&
    [ "$(grep '^plug_erfc_f64,.*,forward,' "$d/f.csv" | cut -d, -f2-)" = \
      "$(grep '^erfc_f64,.*,forward,' "$d/f.csv" | cut -d, -f2-)" ] ||
    fail "forward-only plugin: $(head -5 "$d/out")"

# the same in binary16 (issue 15): widened, forward only under --grad, no derivative row
run forward_only accuracy --format binary16 --threads 2 --impl plug_erfc_f64 --grad --csv "$d/f16.csv" ||
    fail "forward-only plugin in binary16: $(cat "$d/err")"
grep -q "^plug_erfc_f64: forward only (no derivative kernel)" "$d/out" &&
    grep -q '^plug_erfc_f64,binary16,exact,own,forward,' "$d/f16.csv" &&
    ! grep -q '^plug_erfc_f64,.*,derivative,' "$d/f16.csv" ||
    fail "forward-only plugin in binary16: $(head -5 "$d/out") $(cut -d, -f1-5 "$d/f16.csv")"

# gate CASE NEEDLE ARGS...: exit 1 with NEEDLE in the output
gate() {
    c=$1 needle=$2
    shift 2
    run "$c" "$@"
    st=$?
    [ $st -eq 1 ] && grep -qF -- "$needle" "$d/out" || fail "$c: status $st, '$needle' not in: $(tail -3 "$d/out") $(cat "$d/err")"
}
gate wrong "plug_erfc_f64 forward: max ULP error" accuracy --impl plug_erfc_f64 --range 1.4:1.6
grep -qF "at x = 0x1.8p+0 (0x3fc00000)" "$d/out" || fail "wrong: not at 1.5: $(tail -2 "$d/out")"
gate nonmono "plug_erfc_f64: 1 monotonicity break, largest 7 steps at 0x1p+1" accuracy --impl plug_erfc_f64 --range 1.9:2.1
gate overflow "plug_erfc_f64 forward: max ULP error inf > claimed 0.502 at x = 0x1p+127" accuracy --impl plug_erfc_f64 --range 0x1p126:0x1.000004p127
gate negnan "plug_erfc_f64 forward: special values wrong: x=0xff800000 want 0x80000000" accuracy --impl plug_erfc_f64 --sample 1000

# a crash, in the row's own process (the default) and --in-process
own="plugin '$plugin', implementation 'plug_erfc_f64' (in its own process): exec child 'plug_erfc_f64' (.*)"
for ip in "" --in-process; do
    echo keep >"$d/keep.csv"
    run crash accuracy $ip --impl plug_erfc_f64 --range 2.9:3.1 --csv "$d/keep.csv"
    st=$?
    if [ -z "$ip" ]; then
        want="$own: forward request of [0-9]* inputs from x = 0x[0-9a-f.]*p+1: its output ended after 0 of 24 bytes; the child killed by signal 11"
    else
        want="plugin '$plugin', implementation 'plug_erfc_f64', crashed (signal 11) in a forward call of .* inputs from x = 0x"
    fi
    [ $st -eq 1 ] && grep -q "$want" "$d/err" || fail "crash $ip: status $st: $(cat "$d/err")"
    [ "$(cat "$d/keep.csv")" = keep ] || fail "crash $ip: the CSV was replaced"
    ls -a "$d" | grep -q '\.tmp\.' && fail "crash $ip: a temporary file was left"
done

# refused CASE NEEDLE: exit 2 naming the plugin file and NEEDLE
refused() {
    c=$1 needle=$2
    run "$c" list
    st=$?
    [ $st -eq 2 ] && grep -qF -- "$needle" "$d/err" && grep -qF "$plugin" "$d/err" ||
        fail "$c: status $st, '$needle' not in: $(cat "$d/err")"
}
refused abi2 "is built for plugin ABI 2; this gelucheck speaks 1"
refused null "gelucheck_plugin_v1() returned NULL"
refused hostile "name '<script>' is not 1 to 48 of"
refused twice "names two implementations 'plug_erfc_f64'"
refused clash "two implementations are named 'erfc_f64': the built-in one and plugin"
refused nancontract "contract.max_ulp is nan"
refused noforward "no forward kernel"
refused badtarget "target 'erf' is not exact"
refused badfeature "cpu_features: 'avx1024' is not one of"
refused badformat "format 'binary8' is not one this gelucheck scans"
refused small "size 8 is smaller than version 1's"
refused badmethod "method '1x' is not 1 to 48 of"
refused badfamily "family 'vendor' is not ours, libm_gsl, simd_library, ml_library or framework"
refused badisa "isa 'avx1024' is not portable, avx2, avx512f or avx512"
refused isafeatures "isa 'avx2' needs cpu_features avx2,fma"
# the appended fields: read only when the size covers them; dispatched_isa goes into the CSV
run firstsize list || fail "firstsize: a plugin of the first layout is refused: $(cat "$d/err")"
run dispatched accuracy --impl plug_erfc_f64 --sample 1000 --csv "$d/p.csv" &&
    python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); sys.exit(not r or any(x["dispatched_isa"] != "test_path" for x in r))' "$d/p.csv" ||
    fail "dispatched: test_path not in every row's dispatched_isa: $(cat "$d/err")"
# binary64 rows (the appended binary64 kernels): in their own list, erfc_libm's rows to the byte,
# a planted sign flip at the largest double caught there; malformed ones refused
run f64 accuracy --format binary64 --impl plug_erfc_f64,erfc_libm --sample 2000 --grad \
    --csv "$d/b.csv" || fail "f64: $(cat "$d/err") $(tail -3 "$d/out")"
grep '^erfc_libm,' "$d/b.csv" | cut -d, -f2- >"$d/builtin64"
grep '^plug_erfc_f64,binary64,' "$d/b.csv" | cut -d, -f2- >"$d/plugin64"
[ -s "$d/plugin64" ] && cmp -s "$d/builtin64" "$d/plugin64" || fail "f64: the plugin's rows differ from erfc_libm's"
run f64wrong accuracy --format binary64 --impl plug_erfc_f64 --sample 2000
st=$?
[ $st -eq 1 ] && grep -q "CONTRACT BROKEN.*plug_erfc_f64 forward.*(0x7fefffffffffffff)" "$d/out" ||
    fail "f64wrong: status $st: $(grep CONTRACT "$d/out")"
# a binary64 row runs in its own process too: a crash there is named with the request
echo keep >"$d/keep64.csv"
run f64crash accuracy --format binary64 --impl plug_erfc_f64 --sample 2000 --csv "$d/keep64.csv"
st=$?
[ $st -eq 1 ] && grep -q "$own: forward request of [0-9]* inputs from x = .*: its output ended after 0 of 24 bytes; the child killed by signal 11" "$d/err" &&
    [ "$(cat "$d/keep64.csv")" = keep ] || fail "f64crash: status $st: $(cat "$d/err")"
refused f64both "format binary64 with binary32 kernels"
refused f64none "format binary64 and no forward_binary64 kernel"
refused f64clash "two binary64 implementations are named 'erfc_libm'"
refused f64u16 "format binary64 with 16-bit kernels (forward_u16, derivative_u16"
# bfloat16 rows (the appended 16-bit kernels): among bfloat16's natives under the binary32 row's
# name, erfc_f64's rows run widened to the byte, scanned over all 65,536 encodings; a planted
# output one encoding low at 1.5 caught there; a crash named with its 16-bit input; malformed
# rows refused; a binary32 row of the layout before them loads with junk past its size
run bf16 accuracy --format bfloat16 --threads 2 --impl plug_erfc_f64,erfc_f64 --grad --csv "$d/h.csv" ||
    fail "bf16: $(cat "$d/err") $(tail -3 "$d/out")"
grep -q '^format bfloat16: all 65536 encodings' "$d/out" && grep -q '^  plug_erfc_f64  *native ' "$d/out" ||
    fail "bf16: not scanned natively over every encoding: $(head -3 "$d/out")"
grep '^erfc_f64,' "$d/h.csv" | cut -d, -f2- >"$d/widened16"
grep '^plug_erfc_f64,bfloat16,' "$d/h.csv" | cut -d, -f2- >"$d/plugin16"
[ "$(wc -l <"$d/plugin16")" -eq 4 ] && cmp -s "$d/widened16" "$d/plugin16" ||
    fail "bf16: the plugin's rows differ from erfc_f64's widened: $(diff "$d/widened16" "$d/plugin16" | head -4)"
GELUCHECK_TEST_PLUGIN_CASE=bf16 "$g" list --plugin "$plugin" 2>&1 |
    grep -q "^  plug_erfc_f64: bfloat16, target exact, correctly rounded (no claim); plugin '$plugin'" ||
    fail "bf16: list does not show the row among bfloat16's natives"
run bf16wrong accuracy --format bfloat16 --threads 2 --impl plug_erfc_f64
st=$?
[ $st -eq 1 ] && grep -q "CONTRACT BROKEN.*plug_erfc_f64 forward: max ULP error 1.17302 > claimed 0.501 at x = 0x1.8p+0 (0x3fc00000)" "$d/out" ||
    fail "bf16wrong: status $st: $(grep -i contract "$d/out")"
for ip in "" --in-process; do
    echo keep >"$d/keep16.csv"
    run bf16crash accuracy $ip --format bfloat16 --threads 2 --impl plug_erfc_f64 --csv "$d/keep16.csv"
    st=$?
    if [ -z "$ip" ]; then
        want="$own: forward request of [0-9]* inputs from x = .* (bfloat16 0x[0-9a-f]\{4\}): its output ended after 0 of 24 bytes; the child killed by signal 11"
    else
        want="plugin '$plugin', implementation 'plug_erfc_f64', crashed (signal 11) in a forward call of [0-9]* inputs from x = 0x[0-9a-f]\{4\} (encoding)"
    fi
    [ $st -eq 1 ] && grep -q "$want" "$d/err" &&
        [ "$(cat "$d/keep16.csv")" = keep ] || fail "bf16crash $ip: status $st: $(cat "$d/err")"
done
refused bf16none "format bfloat16 and no forward_u16 kernel"
refused bf16old "format bfloat16 and no forward_u16 kernel (size "
refused bf16both "format bfloat16 with binary32 kernels (forward, derivative"
refused bf16f64 "format bfloat16 with binary64 kernels (forward_binary64"
refused bf16clash "two bfloat16 implementations are named 'cr_bfloat16': the built-in one and plugin"
refused b32u16 "format binary32 with 16-bit kernels (forward_u16, derivative_u16"
run b64size list || fail "b64size: a plugin of the layout before the 16-bit kernels is refused: $(cat "$d/err")"
run leftout list && grep -qF "  left out by plugin '$plugin': plug_erfc_f64 in binary16: planted reason" "$d/out" ||
    fail "leftout: list does not say what the plugin left out: $(grep 'left out' "$d/out")"
for bad in "$d/nonexistent.so" "$0"; do
    "$g" list --plugin "$bad" >/dev/null 2>"$d/err"
    st=$?
    [ $st -eq 2 ] && grep -qF "cannot load plugin '$bad'" "$d/err" || fail "$bad: status $st: $(cat "$d/err")"
done
other=$(ldd "$g" | awk '/libz\.so/ {print $3}')
if [ -n "$other" ]; then # a real shared object that is not a plugin
    "$g" list --plugin "$other" >/dev/null 2>"$d/err"
    st=$?
    [ $st -eq 2 ] && grep -q "has no gelucheck_plugin_v1 function" "$d/err" || fail "libz: $st: $(cat "$d/err")"
fi

[ $fails -eq 0 ] && echo "plugins: every case as expected"
exit $((fails > 0))
