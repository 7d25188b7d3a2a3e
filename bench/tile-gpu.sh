#!/bin/bash
# The tile pass's variants of examples/mm.cu on the GPU (run on the device machine): for each size
# and each (tile, thread, bk), `carve optimize --passes tile --set ...` (generated in parallel),
# then `carve bench --verify --baseline` (cuBLAS sgemm, FP32 without TF32) and `carve estimate`;
# plus, per variant, the shared-memory load widths ptxas chose (LDS.128/64/32 in the SASS) and its
# async copies (LDGSTS). Output: $OUT/tile.jsonl and a table. SIZES, CONFIGS
# ("tile,thread,bk[,prefetch,minblocks,vec] ...") and EXTRA (more optimize flags) select; prefetch
# is a number (0 none, 1 registers, 2 registers and two shared buffers, 3 and 4 async copies in
# 2 and 3 shared stages) or the name of an async mode: cp2 (3) or cp3 (4). For example
#   CONFIGS="128,8,8 128,8,8,cp2 128,8,8,cp3" SIZES="1024 2048 4096" bench/tile-gpu.sh
out=${OUT:-.}
make -s -j16 carve || exit 2
export CARVE_CALIBRATION=${CARVE_CALIBRATION:-$out/calibration.json}
[ -f "$CARVE_CALIBRATION" ] || ./carve calibrate --out "$CARVE_CALIBRATION" >/dev/null 2>&1 || echo "calibration failed"
sizes=${SIZES:-2048}
configs=${CONFIGS:-"128,8,8 128,8,16 64,8,8 64,4,8 64,4,16 32,4,8 128,4,8"}
file=${FILE:-examples/mm.cu}
mkdir -p "$out/var"
: > "$out/tile.jsonl"
for n in $sizes; do
  for c in $configs; do
    IFS=, read t r k p m v <<< "$c"
    case $p in cp2) p=3 ;; cp3) p=4 ;; esac
    ( ./carve optimize "$file" -DN=$n --passes tile --no-estimate --no-verify --set tile.tile=$t --set tile.thread=$r --set tile.bk=$k \
        ${p:+--set tile.prefetch=$p} ${m:+--set tile.minblocks=$m} ${v:+--set tile.vec=$v} $EXTRA -o "$out/var/mm_${n}_${c//,/_}.cu" 2>> "$out/var/plans.txt" ) &
  done
  ./carve bench "$file" -DN=$n --baseline --reps 20 --format json > "$out/var/naive_$n.json" 2>>"$out/var/bench.err" &
  wait
  if [ -n "$ALIGN" ]; then   # experiment: the same kernels with 16-byte aligned shared tiles
    for f in "$out"/var/mm_${n}_*.cu; do sed 's/__shared__ float/__shared__ __align__(16) float/' "$f" > "${f%.cu}_al.cu"; done
  fi
  for c in $configs ${ALIGN:+$(for c in $configs; do echo ${c}_al; done)}; do
    src=$out/var/mm_${n}_${c//,/_}.cu
    [ -f "$src" ] || { echo "{\"n\": $n, \"config\": \"$c\", \"error\": \"optimize\"}" >> "$out/tile.jsonl"; continue; }
    b=$(timeout 300 ./carve bench "$src" --verify --verify-blocks 2 --baseline --reps 50 --format json 2>>"$out/var/bench.err")
    e=$(./carve estimate "$src" --format json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["estimate"]["seconds"] * 1e3)' 2>/dev/null)
    lds=$(nvcc -arch=sm_90 -cubin -o /tmp/t.cubin -x cu "$src" 2>/dev/null && cuobjdump -sass /tmp/t.cubin | grep -oE 'LDS[.A-Z0-9]*|LDGSTS[.A-Z0-9]*' | sort | uniq -c | tr '\n' ' ')
    regs=$(cuobjdump -res-usage /tmp/t.cubin 2>/dev/null | grep -o 'REG:[0-9]*' | head -1)
    echo "{\"n\": $n, \"config\": \"$c\", \"estimate_ms\": ${e:--1}, \"lds\": \"$lds\", \"regs\": \"$regs\", \"bench\": ${b:-null}}" >> "$out/tile.jsonl"
  done
done
python3 - "$out/tile.jsonl" <<'PY'
import json, sys
print(f"{'n':>5} {'tile,thr,bk':>12} {'ms':>8} {'est ms':>8} {'cuBLAS':>8} {'% cuBLAS':>8} {'TFLOP/s':>8} {'verify':>6} regs  LDS")
for l in open(sys.argv[1]):
    r = json.loads(l); b = r.get('bench') or {}
    if 'error' in r or not b: print(f"{r['n']:5} {r['config']:>12} ERROR"); continue
    bl = b.get('baseline', {}); v = b.get('verify', [])
    ok = 'ok' if v and all(x['ok'] for x in v) else ('none' if not v else 'FAILED')
    pct = 100 * bl['median_ms'] / b['median_ms'] if bl.get('median_ms') else 0
    tf = 2 * r['n'] ** 3 / (b['median_ms'] * 1e-3) / 1e12
    print(f"{r['n']:5} {r['config']:>12} {b['median_ms']:8.4f} {r['estimate_ms']:8.4f} {bl.get('median_ms', 0):8.4f} {pct:8.1f} {tf:8.1f} {ok:>6} {r['regs']} {r['lds']}")
PY
