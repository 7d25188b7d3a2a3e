#!/bin/bash
# Naive whole programs (tests/programs, and any folder of programs given as PROGDIR) on the GPU:
# each optimized by `carve optimize` at a size the interpreter runs quickly (its own check
# included), then the original and the output built by nvcc at a large size, each run once under
# Nsight Compute (gpu__time_duration.sum of every launch, --clock-control none) with the program's
# own verdict checked. Prints one row per program: kernel time naive, optimized, speedup, verdicts,
# the passes kept. Output: $OUT/programs.jsonl (run on the device machine). PROGS selects.
# SAME=1 optimizes each program at the size it is run at (as a user does: `carve optimize` on the
# program as it will run), every program at once, one process a core (MAXSEC: carve's
# --max-seconds for the host program, default 120); LIST=FILE reads the table from FILE.
set -u
out=${OUT:-build/programs-gpu}; mkdir -p "$out"
make -s -j16 carve cudart || exit 2   # cudart: the nvcc route (host code native) optimize falls back to
# OPT_FLAGS: more optimize flags (e.g. --route nvcc)
carve=$PWD/carve
cd "${PROGDIR:-tests/programs}" || exit 2
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
# program | optimize at | build and run at (compile flags; run arguments after --)
list='gemm|-D NI=256 -D NJ=256 -D NK=256|-D NI=2048 -D NJ=2048 -D NK=2048
atax|-D NX=512 -D NY=512|-D NX=8192 -D NY=8192
covar|-D M=256 -D N=256|-D M=2048 -D N=2048
jacobi2d|-D N=256 -D TSTEPS=4|-D N=4096 -D TSTEPS=20
matmul_argv|-- 256|-- 1024
sum_managed|-- 70000|-- 16777216
mvt|-D N=256|-D N=8192
conv2d|-D NI=256 -D NJ=256|-D NI=4096 -D NJ=4096'
: > "$out/programs.jsonl"
kernel_ms() {   # EXE ARGS...: total gpu__time_duration of every launch, in ms; the run's output in $1.log
  local exe=$1; shift
  "$ncu" --clock-control none --metrics gpu__time_duration.sum --csv --print-units base "$exe" "$@" > "$exe.csv" 2> "$exe.ncuerr"
  "$exe" "$@" > "$exe.log" 2>&1
  python3 - "$exe.csv" <<'PY'
import csv, sys
tot = 0.0; n = 0
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
for r in csv.DictReader(rows):
    if r.get("Metric Name") == "gpu__time_duration.sum":
        tot += float(r["Metric Value"].replace(",", "")); n += 1
print(f"{tot / 1e6:.4f} {n}")
PY
}
[ -n "${LIST:-}" ] && list=$(cat "$LIST")
if [ -n "${SAME:-}" ]; then   # optimize every program at its run size first, in parallel
  while IFS='|' read -r prog opt big; do
    case " ${PROGS:-$prog} " in *" $prog "*) ;; *) continue ;; esac
    while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do sleep 0.5; done
    bflags=${big%%--*}; bargs=""; [ "$big" != "$bflags" ] && bargs="-- ${big#*--}"
    ( timeout ${OPT_TIMEOUT:-560} "$carve" optimize -I. $prog.cu $bflags ${OPT_FLAGS:-} --max-seconds ${MAXSEC:-120} -o "$out/$prog.opt.cu" $bargs 2> "$out/$prog.plan" ) &
  done <<< "$list"
  wait
  [ -n "${OPT_ONLY:-}" ] && exit 0   # OPT_ONLY=1: the outputs only (bench/programs-time.sh times them)
fi
while IFS='|' read -r prog opt big; do
  case " ${PROGS:-$prog} " in *" $prog "*) ;; *) continue ;; esac
  oflags=${opt%%--*}; oargs=""; [ "$opt" != "$oflags" ] && oargs="-- ${opt#*--}"
  bflags=${big%%--*}; bargs=""; [ "$big" != "$bflags" ] && bargs=${big#*--}
  [ -n "${SAME:-}" ] || timeout 500 "$carve" optimize -I. $prog.cu $oflags -o "$out/$prog.opt.cu" $oargs 2> "$out/$prog.plan"
  [ -s "$out/$prog.opt.cu" ] || { echo "$prog: carve optimize wrote nothing: $(tail -2 "$out/$prog.plan")"; continue; }
  kept=$(grep -o 'optimize: [a-z]* *applied, verified' "$out/$prog.plan" | awk '{print $2}' | tr '\n' ' ')
  cp common.h "$out/" 2>/dev/null
  nvcc -O3 -arch=sm_90 -I. $bflags -o "$out/$prog.naive" $prog.cu > "$out/$prog.nvcc" 2>&1 || { echo "$prog: nvcc failed (naive)"; continue; }
  nvcc -O3 -arch=sm_90 -I. $bflags -o "$out/$prog.opt" "$out/$prog.opt.cu" >> "$out/$prog.nvcc" 2>&1 || { echo "$prog: nvcc failed (optimized)"; continue; }
  read -r tn nn <<< "$(kernel_ms "$out/$prog.naive" $bargs)"
  read -r to no <<< "$(kernel_ms "$out/$prog.opt" $bargs)"
  vn=$(grep -c '^PASS$' "$out/$prog.naive.log"); vo=$(grep -c '^PASS$' "$out/$prog.opt.log")
  echo "{\"program\": \"$prog\", \"optimized_at\": \"$opt\", \"run_at\": \"$big\", \"naive_ms\": $tn, \"naive_launches\": $nn, \"opt_ms\": $to, \"opt_launches\": $no, \"naive_pass\": $vn, \"opt_pass\": $vo, \"kept\": \"$kept\"}" >> "$out/programs.jsonl"
done <<< "$list"
python3 - "$out/programs.jsonl" <<'PY'
import json, sys, math
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"{'program':12} {'naive ms':>10} {'opt ms':>10} {'speedup':>8}  verdicts  kept")
sp = []
for r in rows:
    s = r['naive_ms'] / r['opt_ms'] if r['opt_ms'] > 0 else float('nan')
    if r['opt_ms'] > 0 and r['naive_ms'] > 0: sp.append(s)
    print(f"{r['program']:12} {r['naive_ms']:10.4f} {r['opt_ms']:10.4f} {s:7.2f}x  {'PASS' if r['naive_pass'] else 'FAIL'}/{'PASS' if r['opt_pass'] else 'FAIL'}  {r['kept']}")
if sp: print(f"geometric mean over {len(sp)} programs: {math.exp(sum(map(math.log, sp)) / len(sp)):.2f}x")
PY
