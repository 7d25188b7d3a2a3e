#!/bin/bash
# carve optimize examples/mm.cu as it decides (the estimate picks the block tile), at each size,
# against cuBLAS sgemm (FP32, no TF32) in the same process; run on the device machine.
# Output: $OUT/mm-sizes.jsonl and a table. SIZES selects.
out=${OUT:-.}
make -s -j16 carve || exit 2
export CARVE_CALIBRATION=${CARVE_CALIBRATION:-$out/calibration.json}
[ -f "$CARVE_CALIBRATION" ] || ./carve calibrate --out "$CARVE_CALIBRATION" >/dev/null 2>&1 || echo "calibration failed"
mkdir -p "$out/var"
: > "$out/mm-sizes.jsonl"
for n in ${SIZES:-512 1024 2048 4096}; do
  ./carve optimize examples/mm.cu -DN=$n --no-verify --explain -o "$out/var/mm_opt_$n.cu" 2> "$out/var/plan_$n.txt" &
done
wait
for n in ${SIZES:-512 1024 2048 4096}; do
  b=$(timeout 300 ./carve bench "$out/var/mm_opt_$n.cu" --verify --verify-blocks 2 --baseline --reps 50 --format json 2>>"$out/var/bench.err")
  plan=$(grep -o 'tile=[0-9]*,thread=[0-9]*,bk=[0-9]*,prefetch=[0-9]*' "$out/var/plan_$n.txt" | head -1)
  echo "{\"n\": $n, \"plan\": \"$plan\", \"bench\": ${b:-null}}" >> "$out/mm-sizes.jsonl"
done
python3 - "$out/mm-sizes.jsonl" <<'PY'
import json, sys
print(f"{'n':>5} {'as carve optimize decides':>36} {'ms':>8} {'cuBLAS':>8} {'% cuBLAS':>8} {'TFLOP/s':>8} verify")
for l in open(sys.argv[1]):
    r = json.loads(l); b = r.get('bench') or {}
    if not b: print(f"{r['n']:5} ERROR"); continue
    bl = b.get('baseline', {}); v = b.get('verify', [])
    ok = 'ok' if v and all(x['ok'] for x in v) else ('none' if not v else 'FAILED')
    pct = 100 * bl['median_ms'] / b['median_ms'] if bl.get('median_ms') else 0
    print(f"{r['n']:5} {r['plan']:>36} {b['median_ms']:8.4f} {bl.get('median_ms', 0):8.4f} {pct:8.1f} {2*r['n']**3/(b['median_ms']*1e-3)/1e12:8.1f} {ok}")
PY
