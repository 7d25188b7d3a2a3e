#!/bin/bash
# Yang et al.'s ten kernels (PLDI 2010, Table 1; examples/), naive and as `carve optimize` decides,
# on the GPU (run on the device machine): each optimized file verified by the optimizer (reduced,
# ragged and sampled full sizes, in parallel, one kernel a core) and again on the GPU against the
# interpreter (`bench --verify`), timed beside its library or copy baseline in the same process;
# then the geometric mean of the naive -> optimized speedups, to set beside the paper's 15.1x
# (GeForce 8800) and 7.9x (GTX 280). Output: $OUT/yang10.jsonl and a table. KERNELS selects;
# VERIFY_BLOCKS: blocks the GPU check samples (2; a large number checks every block, as an output
# updated by atomics from every block needs). EXTRA adds carve optimize flags (e.g. --no-verify for a quick look). KERNELS may name any bundled
# example whose kernel has the file's name (sum, mv2, reduce_shared: the reductions and fused mat-vecs).
out=${OUT:-.}
make -s -j16 carve || exit 2
export CARVE_CALIBRATION=${CARVE_CALIBRATION:-$out/calibration.json}
[ -f "$CARVE_CALIBRATION" ] || ./carve calibrate --out "$CARVE_CALIBRATION" >/dev/null 2>&1 || echo "calibration failed"
kernels=${KERNELS:-"mm mv tmv vv rd strsm conv tp demosaic imregionmax"}
mkdir -p "$out/cu"
: > "$out/yang10.jsonl"
for k in $kernels; do
  ( timeout 500 ./carve optimize examples/$k.cu --kernel $k --explain $EXTRA -o "$out/cu/$k.cu" 2> "$out/cu/$k.plan" ) &
done
wait
for k in $kernels; do
  [ -f "$out/cu/$k.cu" ] || { echo "{\"kernel\": \"$k\", \"error\": \"optimize\"}" >> "$out/yang10.jsonl"; continue; }
  passes=$(grep -o '^[a-z]* *applied[^:]*' "$out/cu/$k.plan" | sed 's/ *applied//' | tr '\n' ' ')
  for v in naive opt; do
    src=examples/$k.cu; [ $v = opt ] && src=$out/cu/$k.cu
    b=$(timeout 300 ./carve bench "$src" --kernel $k --verify --verify-blocks ${VERIFY_BLOCKS:-2} --baseline --reps 50 --format json 2>>"$out/bench.err")
    echo "{\"kernel\": \"$k\", \"variant\": \"$v\", \"passes\": \"$passes\", \"bench\": ${b:-null}}" >> "$out/yang10.jsonl"
  done
done
python3 - "$out/yang10.jsonl" <<'PY'
import json, sys, math
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows: by.setdefault(r['kernel'], {})[r.get('variant', '-')] = r
print(f"{'kernel':12} {'naive ms':>9} {'opt ms':>9} {'speedup':>8} {'baseline':>9} {'base ms':>9} {'opt/base':>8} verify  passes")
sp = []
for k, d in by.items():
    n, o = (d.get('naive') or {}).get('bench'), (d.get('opt') or {}).get('bench')
    if not n or not o: print(f"{k:12} ERROR"); continue
    vs = (n.get('verify') or []) + (o.get('verify') or [])
    ok = 'FAILED' if any(x.get('ok') is False for x in vs) or not o.get('verify') else 'unknown' if any(x.get('ok') is None for x in vs) else 'ok'
    s = n['median_ms'] / o['median_ms']; sp.append(s)
    bl = o.get('baseline') or {}
    ratio = f"{100 * bl['median_ms'] / o['median_ms']:7.1f}%" if bl.get('median_ms') else '       -'
    print(f"{k:12} {n['median_ms']:9.4f} {o['median_ms']:9.4f} {s:7.2f}x {bl.get('name', '-'):>9} {bl.get('median_ms', 0):9.4f} {ratio} {ok:7}  {d['opt'].get('passes', '')}")
if sp: print(f"geometric mean of the speedups over {len(sp)} kernels: {math.exp(sum(map(math.log, sp)) / len(sp)):.2f}x (Yang et al.: 15.1x on GeForce 8800 GTX, 7.9x on GTX 280)")
PY
