#!/bin/bash
# bench/naive/gpu.sh [CARVE] [OUTDIR]: the naive corpus on a GPU machine (run on the device).
# Optimizes the kernels of KERNELS (FILE:KERNEL[:DEFINES], default: a product, a chain step, a
# symmetric update, row and column mat-vecs, a column statistic and a stencil, one spelling or
# two) at their sizes, in parallel (one process a core); then times each kernel naive and
# optimized with `carve bench --verify --baseline` (GPU outputs against the interpreter, the
# file's library baseline beside it in the same process), one at a time per GPU: with several
# GPUs the kernels are split among them (CUDA_VISIBLE_DEVICES). Writes OUTDIR/opt/*.{cu,plan},
# OUTDIR/bench/*.json and OUTDIR/summary.txt: naive ms, optimized ms, speedup, baseline ms and
# the optimized kernel's share of it, the verdicts, the passes kept; the geometric mean.
# OPT_LIST (default KERNELS) is what is optimized first; REUSE=1 keeps outputs already in OUTDIR/opt.
carve=${1:-./carve}
out=${2:-naive-gpu}
dir=$(dirname "$0")
mkdir -p "$out/opt" "$out/bench"
list=${KERNELS:-"gemm_a:gemm:-D_N=2048 gemm_b:sgemm_naive:-D_N=2048 syrk_a:syrk:-D_N=2048 2mm_a:mm2_1:-D_N=2048
gemv_a:gemv gemv_b:gemv_rows atax_a:atax1 atax_a:atax2 bicg_a:bicg1 mvt_a:mvt2 covar_a:covar_kernel jacobi2d_a:jacobi2d conv2d_a:conv2d"}
jobs=$(nproc 2>/dev/null || echo 2)
for e in ${OPT_LIST:-$list}; do
  IFS=: read -r f k d <<< "$e"
  [ -n "$REUSE" ] && [ -s "$out/opt/$f.$k.cu" ] && continue   # REUSE=1: an earlier call's output
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.3; done
  ( timeout ${OPT_TIMEOUT:-300} "$carve" optimize "$dir/$f.cu" --kernel "$k" ${d//_/ } -o "$out/opt/$f.$k.cu" 2> "$out/opt/$f.$k.plan" ) &
done
wait
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | paste -sd' ')
[ -n "$gpus" ] || gpus=0
stream() {   # GPU ENTRIES...: bench each entry naive and optimized on that GPU
  local g=$1; shift
  for e in "$@"; do
    IFS=: read -r f k d <<< "$e"
    [ -f "$out/opt/$f.$k.cu" ] || continue
    CUDA_VISIBLE_DEVICES=$g timeout 300 "$carve" bench "$dir/$f.cu" --kernel "$k" ${d//_/ } --verify --baseline --format json > "$out/bench/$f.$k.naive.json" 2> "$out/bench/$f.$k.naive.err"
    CUDA_VISIBLE_DEVICES=$g timeout 300 "$carve" bench "$out/opt/$f.$k.cu" --kernel "$k" ${d//_/ } --verify --baseline --format json > "$out/bench/$f.$k.opt.json" 2> "$out/bench/$f.$k.opt.err"
  done
}
set -- $list
ng=$(echo $gpus | wc -w); i=0
for g in $gpus; do
  mine=(); j=0
  for e in "$@"; do [ $((j % ng)) = $i ] && mine+=("$e"); j=$((j + 1)); done
  stream "$g" "${mine[@]}" &
  i=$((i + 1))
done
wait
python3 - "$out" $list <<'PY' | tee "$out/summary.txt"
import json, sys, math, os, re
out = sys.argv[1]
def load(p):
    try: return json.loads(open(p).read().strip().splitlines()[-1])
    except Exception: return None
print(f"{'file:kernel':26} {'naive ms':>9} {'opt ms':>9} {'speedup':>8} {'baseline':>8} {'base ms':>9} {'base/opt':>8} verify  kept")
sp = []
for e in sys.argv[2:]:
    f, k = e.split(':')[:2]
    n, o = load(f"{out}/bench/{f}.{k}.naive.json"), load(f"{out}/bench/{f}.{k}.opt.json")
    try: plan = open(f"{out}/opt/{f}.{k}.plan").read()
    except OSError: plan = ""
    kept = " ".join(re.findall(r"^carve optimize: ([a-z]+) +applied, verified", plan, re.M)) or "-"
    if not n or not o: print(f"{f + ':' + k:26} ERROR  {kept}"); continue
    vs = (n.get('verify') or []) + (o.get('verify') or [])
    ok = 'FAILED' if any(x.get('ok') is False for x in vs) or not o.get('verify') else 'unknown' if any(x.get('ok') is None for x in vs) else 'ok'
    s = n['median_ms'] / o['median_ms']; sp.append(s)
    bl = o.get('baseline') or {}
    ratio = f"{100 * bl['median_ms'] / o['median_ms']:7.1f}%" if bl.get('median_ms') else '       -'
    print(f"{f + ':' + k:26} {n['median_ms']:9.4f} {o['median_ms']:9.4f} {s:7.2f}x {bl.get('name', '-'):>8} {bl.get('median_ms', 0):9.4f} {ratio} {ok:7} {kept}")
if sp: print(f"geometric mean of {len(sp)} speedups: {math.exp(sum(map(math.log, sp)) / len(sp)):.2f}x; slower than naive: {sum(1 for s in sp if s < 0.98)}")
PY
