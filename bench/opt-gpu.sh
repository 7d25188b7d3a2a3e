#!/bin/bash
# carve optimize on a GPU (run on the device machine): for each bundled kernel a pass of part 1
# applies to, the naive kernel and carve's verified output, each timed with its library or copy
# baseline in the same run, and the estimate of both. Output: $OUT/opt.jsonl, a table on stdout.
out=${OUT:-.}
make -s -j16 carve || exit 2
export CARVE_CALIBRATION=$out/calibration.json
./carve calibrate --out "$CARVE_CALIBRATION" >/dev/null 2>&1 || echo "calibration failed"
: > "$out/opt.jsonl"
mkdir -p "$out/cu"
run() {  # label file kernel [defines...]
  label=$1 f=$2 k=$3; shift 3
  defs=""; for d in "$@"; do defs="$defs -D $d"; done
  ./carve optimize "$f" --kernel "$k" $defs --explain -o "$out/cu/$label.cu" 2> "$out/cu/$label.plan" || { echo "{\"label\": \"$label\", \"error\": \"optimize\"}" >> "$out/opt.jsonl"; return; }
  for v in naive opt; do
    src=$f; [ $v = opt ] && src=$out/cu/$label.cu
    b=$(timeout 300 ./carve bench "$src" --kernel "$k" $defs --verify --baseline --reps 50 --format json 2>>"$out/bench.err")
    e=$(./carve estimate "$src" --kernel "$k" $defs --format json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["estimate"]["seconds"] * 1e3)' 2>/dev/null)
    echo "{\"label\": \"$label\", \"variant\": \"$v\", \"estimate_ms\": ${e:--1}, \"bench\": ${b:-null}}" >> "$out/opt.jsonl"
  done
}
run tp examples/tp.cu tp
run mv examples/mv.cu mv
run mm_acc examples/mm_acc.cu mm_acc
run mrifhd examples/mrifhd.cu mrifhd
run mriq examples/mriq.cu mriq
run imregionmax examples/imregionmax.cu imregionmax
run sad examples/sad.cu sad
run demosaic examples/demosaic.cu demosaic
run vv examples/vv.cu vv
# the row walk staged anyway (the model says no; measured to check it): --no-estimate
./carve optimize examples/mv.cu --no-estimate -o "$out/cu/mv_forced.cu" 2>/dev/null
for v in forced; do
  b=$(timeout 300 ./carve bench "$out/cu/mv_$v.cu" --kernel mv --verify --baseline --reps 50 --format json 2>>"$out/bench.err")
  echo "{\"label\": \"mv\", \"variant\": \"$v\", \"estimate_ms\": -1, \"bench\": ${b:-null}}" >> "$out/opt.jsonl"
done
# transpose against cublasSgeam: the same kernels with the baseline swapped
sed 's/baseline copy(.*)/baseline sgeam(4096, 4096)/' examples/tp.cu > "$out/cu/tp_geam_naive.cu"
sed 's/baseline copy(.*)/baseline sgeam(4096, 4096)/' "$out/cu/tp.cu" > "$out/cu/tp_geam_opt.cu"
for v in naive opt; do
  b=$(timeout 300 ./carve bench "$out/cu/tp_geam_$v.cu" --kernel tp --verify --baseline --reps 50 --format json 2>>"$out/bench.err")
  echo "{\"label\": \"tp_geam\", \"variant\": \"$v\", \"estimate_ms\": -1, \"bench\": ${b:-null}}" >> "$out/opt.jsonl"
done
python3 - "$out/opt.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"{'kernel':10} {'variant':6} {'ms':>9} {'est ms':>9} {'baseline':>9} {'base ms':>9} {'% of base':>9} {'verify':>7}")
for r in rows:
    b = r.get('bench') or {}
    if 'error' in r or not b: print(f"{r['label']:10} {r.get('variant','-'):6} ERROR"); continue
    bl = b.get('baseline', {})
    v = b.get('verify', [])
    ok = 'ok' if v and all(x['ok'] for x in v) else ('none' if not v else 'FAILED')
    pct = 100 * bl['median_ms'] / b['median_ms'] if bl.get('median_ms') else 0
    print(f"{r['label']:10} {r['variant']:6} {b['median_ms']:9.4f} {r['estimate_ms']:9.4f} {bl.get('name','-'):>9} {bl.get('median_ms',0):9.4f} {pct:9.1f} {ok:>7}")
PY
