#!/bin/bash
# The naive corpus (bench/naive: one-thread-per-output kernels in several spellings, each with its
# launch, work and library baseline as `#pragma carve` lines), naive and as `carve optimize`
# decides, on the GPU (run on the device machine): every file optimized at DEFS (default
# "-D N=2048"; the optimizer verifies at reduced, ragged and sampled full sizes), in parallel, one
# file a core; then naive and optimized timed by `carve bench --verify --baseline` (GPU outputs
# against the interpreter, the library call timed in the same process). Output:
# $OUT/naive.jsonl and a table: time naive, optimized, speedup, fraction of the baseline, verdict,
# the passes kept; the geometric mean of the speedups. FILES selects (names without .cu).
set -u
out=${OUT:-build/naive-gpu}; mkdir -p "$out/cu"
dir=${DIR:-bench/naive}
defs=${DEFS:--D N=2048}
make -s -j16 carve || exit 2
export CARVE_CALIBRATION=${CARVE_CALIBRATION:-$out/calibration.json}
[ -f "$CARVE_CALIBRATION" ] || ./carve calibrate --out "$CARVE_CALIBRATION" > /dev/null 2>&1 || echo "calibration failed"
files=${FILES:-$(ls "$dir"/*.cu | xargs -n1 basename | sed 's/\.cu$//')}
jobs=$(nproc)
for f in $files; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.5; done
  ( timeout 560 ./carve optimize "$dir/$f.cu" $defs --explain -o "$out/cu/$f.cu" 2> "$out/cu/$f.plan" ) &
done
wait
: > "$out/naive.jsonl"
for f in $files; do
  [ -f "$out/cu/$f.cu" ] || { echo "{\"file\": \"$f\", \"error\": \"optimize\"}" >> "$out/naive.jsonl"; continue; }
  passes=$(grep -E '^[a-z]+ +applied' "$out/cu/$f.plan" | awk '{print $1}' | tr '\n' ' ')
  for v in naive opt; do
    src=$dir/$f.cu; [ $v = opt ] && src=$out/cu/$f.cu
    b=$(timeout 300 ./carve bench "$src" $defs --verify --verify-blocks ${VERIFY_BLOCKS:-2} --baseline --reps 20 --format json 2>> "$out/bench.err")
    echo "{\"file\": \"$f\", \"variant\": \"$v\", \"passes\": \"$passes\", \"bench\": ${b:-null}}" >> "$out/naive.jsonl"
  done
done
python3 - "$out/naive.jsonl" <<'PY'
import json, sys, math
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows: by.setdefault(r['file'], {})[r.get('variant', '-')] = r
print(f"{'file':14} {'naive ms':>9} {'opt ms':>9} {'speedup':>8} {'baseline':>9} {'base ms':>9} {'base/opt':>8} verify  passes")
sp = []
for k, d in by.items():
    n, o = (d.get('naive') or {}).get('bench'), (d.get('opt') or {}).get('bench')
    if not n or not o: print(f"{k:14} ERROR"); continue
    vs = (n.get('verify') or []) + (o.get('verify') or [])
    ok = 'FAILED' if any(x.get('ok') is False for x in vs) or not o.get('verify') else 'unknown' if any(x.get('ok') is None for x in vs) else 'ok'
    s = n['median_ms'] / o['median_ms']; sp.append(s)
    bl = o.get('baseline') or {}
    ratio = f"{100 * bl['median_ms'] / o['median_ms']:7.1f}%" if bl.get('median_ms') else '       -'
    print(f"{k:14} {n['median_ms']:9.4f} {o['median_ms']:9.4f} {s:7.2f}x {bl.get('name', '-'):>9} {bl.get('median_ms', 0):9.4f} {ratio} {ok:7}  {d['opt'].get('passes', '')}")
if sp: print(f"geometric mean of the speedups over {len(sp)} kernels: {math.exp(sum(map(math.log, sp)) / len(sp)):.2f}x; slower than naive: {sum(1 for s in sp if s < 1)}")
PY
