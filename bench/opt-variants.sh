#!/bin/bash
# The variants of one pass, measured and estimated (run on the device machine): for each kernel,
# the naive file and `carve optimize --no-estimate --set PASS.PARAM=V` for every value, each
# timed by `carve bench --verify --baseline` and predicted by `carve estimate`; then Spearman's
# rho between predicted and measured times per kernel. Output: $OUT/variants.jsonl and a table.
out=${OUT:-.}
make -s -j16 carve || exit 2
export CARVE_CALIBRATION=${CARVE_CALIBRATION:-$out/calibration.json}
[ -f "$CARVE_CALIBRATION" ] || ./carve calibrate --out "$CARVE_CALIBRATION" >/dev/null 2>&1 || echo "calibration failed"
: > "$out/variants.jsonl"
mkdir -p "$out/var"
one() {  # kernel-file label [optimize flags...]
  f=$1 label=$2; shift 2
  src=$f
  if [ $# -gt 0 ]; then
    src=$out/var/$(basename $f .cu)_$label.cu
    ne=--no-estimate; [ "$label" = default_pipeline ] && ne=""   # the model chooses there
    ./carve optimize "$f" $ne "$@" -o "$src" 2>> "$out/var/plans.txt" || { echo "{\"file\": \"$f\", \"label\": \"$label\", \"error\": \"optimize\"}" >> "$out/variants.jsonl"; return; }
  fi
  b=$(timeout 300 ./carve bench "$src" --verify --baseline --reps 50 --format json 2>>"$out/var/bench.err")
  e=$(./carve estimate "$src" --format json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["estimate"]["seconds"] * 1e3)' 2>/dev/null)
  echo "{\"file\": \"$f\", \"label\": \"$label\", \"estimate_ms\": ${e:--1}, \"bench\": ${b:-null}}" >> "$out/variants.jsonl"
}
kernels=${KERNELS:-"imregionmax demosaic vv mv tmv rd"}
for k in $kernels; do
  f=examples/$k.cu
  one $f naive
  case $k in
  mv|tmv|rd) for L in 32 16 8 4; do one $f split$L --passes split --set split.lanes=$L; done ;;
  *) for F in 2 4 8; do one $f vector$F --passes vector --set vector.factor=$F; done
     one $f vector4_nosplit --passes vector --set vector.factor=4 --set vector.split=0 ;;
  esac
  one $f default_pipeline --passes scalar,split,stage,vector,unroll,camping
done
python3 - "$out/variants.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def rank(xs):
    o = sorted(range(len(xs)), key=lambda i: xs[i]); r = [0]*len(xs)
    for k, i in enumerate(o): r[i] = k
    return r
def spearman(a, b):
    n = len(a)
    if n < 3: return float('nan')
    ra, rb = rank(a), rank(b)
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(ra, rb)) / (n * (n * n - 1))
by = {}
print(f"{'kernel':12} {'variant':18} {'ms':>8} {'est ms':>8} {'baseline':>9} {'% of base':>9} {'verify':>6}")
for r in rows:
    b = r.get('bench') or {}
    if 'error' in r or not b: print(f"{r['file']:12} {r['label']:18} ERROR"); continue
    bl = b.get('baseline', {}); v = b.get('verify', [])
    ok = 'ok' if v and all(x['ok'] for x in v) else ('none' if not v else 'FAILED')
    pct = 100 * bl['median_ms'] / b['median_ms'] if bl.get('median_ms') else 0
    name = r['file'].split('/')[-1][:-3]
    print(f"{name:12} {r['label']:18} {b['median_ms']:8.4f} {r['estimate_ms']:8.4f} {bl.get('name','-'):>9} {pct:9.1f} {ok:>6}")
    if r['label'] != 'default_pipeline': by.setdefault(name, []).append((r['estimate_ms'], b['median_ms']))
for k, xs in by.items():
    print(f"spearman {k}: {spearman([a for a, _ in xs], [b for _, b in xs]):.2f} over {len(xs)} variants")
PY
