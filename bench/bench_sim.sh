#!/bin/sh
# bench_sim.sh -- simulation speed of gcnsim, from one run: wave-instructions per second (CPU
# time of the simulation, which a loaded machine disturbs less than wall time) and the ratio to a
# native C loop doing the same work, for the vector add of kernels/vector_add and the VALU loop
# of bench/bench_valu.s.  Targets: vector add within 30x of native C; VALU loop >= 50 M
# wave-instructions/s on one core.
#   usage: bench/bench_sim.sh [N_vector_add] [ITERS_valu]     (run from the build directory)
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${top_builddir:-$(pwd)}
gcnsim=${GCNSIM:-$builddir/gcnsim}
cc=${CC:-cc}
N=${1:-4194304}
ITERS=${2:-8000}
WG=64
[ -x "$gcnsim" ] || { echo "bench_sim.sh: $gcnsim not built" >&2; exit 2; }
T=$(mktemp -d /tmp/gcnsim-bench-XXXXXX)
trap 'rm -rf "$T"' EXIT
$cc -O2 -march=native -o "$T/native" "$srcdir/bench/bench_native.c" -lm 2>/dev/null ||
    $cc -O2 -o "$T/native" "$srcdir/bench/bench_native.c" -lm

# run_sim MANIFEST ARGS... -> "insns cpu_seconds wall_seconds"
run_sim() {
    out=$("$gcnsim" --no-progress --mcpu gfx942 --manifest "$@" 2>&1) || { echo "$out" >&2; exit 1; }
    echo "$out" | sed -n 's/.* \([0-9][0-9]*\) wave-instructions, \([0-9.]*\) s (\([0-9.]*\) s CPU).*/\1 \3 \2/p'
}

set -- $(run_sim "$srcdir/kernels/vector_add/vector_add.json" --set N=$N --set WG=$WG)
va_insns=$1 va_cpu=$2 va_wall=$3
va_native=$("$T/native" vadd "$N")
set -- $(run_sim "$srcdir/bench/bench_valu.json" --set ITERS=$ITERS --set WG=16)
vl_insns=$1 vl_cpu=$2 vl_wall=$3
vl_native=$("$T/native" valu $((16 * 256)) "$ITERS")

python3 - "$N" "$va_insns" "$va_cpu" "$va_wall" "$va_native" "$ITERS" "$vl_insns" "$vl_cpu" "$vl_wall" "$vl_native" <<'PY'
import sys
n, vai, vac, vaw, van, it, vli, vlc, vlw, vln = sys.argv[1:]
vai, vli = int(vai), int(vli)
vac, vaw, van, vlc, vlw, vln = map(float, (vac, vaw, van, vlc, vlw, vln))
print("%-28s %14s %10s %10s %14s %10s %8s" % ("kernel", "wave-insns", "CPU s", "wall s",
      "M wave-insn/s", "native s", "ratio"))
print("%-28s %14d %10.3f %10.3f %14.1f %10.5f %7.1fx" % ("vector_add N=%s" % n, vai, vac, vaw,
      vai / vac / 1e6, van, vac / van))
print("%-28s %14d %10.3f %10.3f %14.1f %10.5f %7.1fx" % ("bench_valu ITERS=%s" % it, vli, vlc, vlw,
      vli / vlc / 1e6, vln, vlc / vln))
ok_va = vac / van <= 30
ok_vl = vli / vlc / 1e6 >= 50
print("targets: vector add within 30x of native: %s; VALU loop >= 50 M wave-insn/s: %s" %
      ("met" if ok_va else "NOT met", "met" if ok_vl else "NOT met"))
PY
