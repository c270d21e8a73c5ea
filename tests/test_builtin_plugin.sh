#!/bin/sh
# A plugin's row gives the same results in its own process (the default), in gelucheck's
# (--in-process) and as the built-in row whose kernels it serves (tests/builtin_plugin.c): every
# figure of the console table, forward and derivative, over ranges that cross blocks and the
# scan's batches of 2^16 inputs. Planted: the plugin serving another row must differ.
# Usage: test_builtin_plugin.sh GELUCHECK BUILTIN_PLUGIN.so
set -u
g=$1 so=$2
. "$(dirname "$0")/lib.sh"
export GELUCHECK_NO_DEFAULT_PEERS=1

# table NAME ARGS...: the console table's rows of the row NAME, its name column removed
table() {
    t_name=$1
    shift
    "$g" accuracy --grad --threads 2 "$@" 2>"$d/err" | awk -v n="$t_name" '$1 == n { $1 = ""; print }'
}

for impl in erfc_f64 pw_fast; do
    for r in "--range 2.9:3.1" "--range -5.5:-5.25" "--range 0x1.ff8p-127:0x1.004p-126"; do
        export GELUCHECK_BUILTIN_PLUGIN=$impl
        table "$impl" --impl "$impl" $r >"$d/builtin"
        [ -s "$d/builtin" ] || fail "$impl $r: no rows from the built-in run: $(cat "$d/err")"
        table "plug_$impl" --plugin "$so" --impl "plug_$impl" $r >"$d/own"
        table "plug_$impl" --plugin "$so" --impl "plug_$impl" --in-process $r >"$d/inproc"
        cmp -s "$d/builtin" "$d/own" || fail "$impl $r: its own process differs: $(diff "$d/builtin" "$d/own" | head -4)"
        cmp -s "$d/builtin" "$d/inproc" || fail "$impl $r: in-process differs: $(diff "$d/builtin" "$d/inproc" | head -4)"
    done
done
# planted: the plugin serving pw_fast, compared with erfc_f64's rows, differs
export GELUCHECK_BUILTIN_PLUGIN=pw_fast
table erfc_f64 --impl erfc_f64 --range 2.9:3.1 >"$d/builtin"
table plug_pw_fast --plugin "$so" --impl plug_pw_fast --range 2.9:3.1 >"$d/own"
cmp -s "$d/builtin" "$d/own" && fail "planted: pw_fast's rows are erfc_f64's"
# a name the plugin does not serve: the plugin is refused, named
GELUCHECK_BUILTIN_PLUGIN=no_such_row "$g" list --plugin "$so" >"$d/out" 2>&1
st=$?
[ "$st" -eq 2 ] && grep -qF "$so" "$d/out" || fail "no_such_row: status $st, $(cat "$d/out")"
[ "$fails" -eq 0 ] && echo "ok: own process, in-process and built-in agree" || exit 1
