#!/bin/bash
# The launch pass's block shapes on the GPU (run on the device machine): for each kernel, the
# shapes the pass finds legal and the estimate of each (`carve optimize --passes launch --format
# json`: the plan's chosen_by_model list, the original's estimate as estimate_before_ms), one
# variant per shape (`--set launch.x=X --set launch.y=Y --no-estimate --no-verify`, minblocks 0 as
# the estimates of the list have it; the original is the file itself), each timed with `carve bench --verify --baseline`. Prints estimate against
# measured per shape, the model's choice against the fastest measured, and Spearman's rank
# correlation per kernel. Output: $OUT/launch.jsonl, $OUT/var/ (variants, plans, errors).
#   KERNELS  bundled examples to run (default "mv mriq rd cp mm"; the pass also applies to tmv,
#            mrifhd, conv, vv, demosaic, sad, strsm, imregionmax: see docs/optimize.md)
#   DEFS     -D settings for every kernel (default none: each file's own sizes)
#   REPS     timed launches per bench (default 20)
out=${OUT:-.}
make -s -j16 carve || exit 2
export CARVE_CALIBRATION=${CARVE_CALIBRATION:-$out/calibration.json}
[ -f "$CARVE_CALIBRATION" ] || ./carve calibrate --out "$CARVE_CALIBRATION" >/dev/null 2>&1 ||
  { echo "calibration failed: the estimates use the machine description's ceilings"; unset CARVE_CALIBRATION; }
kernels=${KERNELS:-"mv mriq rd cp mm"}
reps=${REPS:-20}
defs=""; for d in $DEFS; do defs="$defs -D $d"; done
mkdir -p "$out/var"
: > "$out/launch.jsonl"
# the plans: every shape estimated (the interpreter's sampled runs, one core a kernel)
for k in $kernels; do
  ./carve optimize "examples/$k.cu" $defs --passes launch --format json -o /dev/null > "$out/var/$k.plan.json" 2> "$out/var/$k.plan.err" &
done
wait
# the shapes: "x y estimate_ms original chosen" per line
shapes() {
  python3 - "$1" <<'PY'
import json, re, sys
try: d = json.load(open(sys.argv[1]))
except Exception: sys.exit(0)
s = [x for x in d["plan"]["steps"] if x["pass"] == "launch"][0]
t = s.get("chosen_by_model", {}).get("tried", [])
if not any(c["estimate_ms"] > 0 for c in t): sys.exit(0)
chosen = (s["params"]["x"], s["params"]["y"]) if s["status"] == "applied" else None
ob = re.match(r"block (\d+)x(\d+) ->", s["why"])   # the original's block: the step's text
print(ob.group(1), ob.group(2), s["estimate_before_ms"], 1, 1 if chosen is None else 0)
for c in t:
    if c["estimate_ms"] > 0: print(c["value"], c["value2"], c["estimate_ms"], 0, 1 if chosen == (c["value"], c["value2"]) else 0)
PY
}
for k in $kernels; do
  sh=$(shapes "$out/var/$k.plan.json")
  if [ -z "$sh" ]; then echo "$k: the launch pass does not apply: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([s["why"] for s in d["plan"]["steps"] if s["pass"]=="launch"][0])' "$out/var/$k.plan.json" 2>/dev/null)"; continue; fi
  while read -r x y e o c; do   # the variants, built in parallel (no GPU needed)
    [ "$o" = 1 ] && continue
    ./carve optimize "examples/$k.cu" $defs --passes launch --no-estimate --no-verify --set launch.x=$x --set launch.y=$y \
      -o "$out/var/${k}_${x}x$y.cu" 2>> "$out/var/$k.optimize.err" &
  done <<< "$sh"
  wait
  while read -r x y e o c; do   # timed one at a time
    src=$out/var/${k}_${x}x$y.cu; [ "$o" = 1 ] && src=examples/$k.cu
    [ -f "$src" ] || { echo "{\"kernel\": \"$k\", \"x\": $x, \"y\": $y, \"error\": \"optimize\"}" >> "$out/launch.jsonl"; continue; }
    b=$(timeout 300 ./carve bench "$src" $defs --verify --verify-blocks 2 --baseline --reps $reps --format json 2>>"$out/var/bench.err")
    echo "{\"kernel\": \"$k\", \"x\": $x, \"y\": $y, \"original\": $o, \"chosen\": $c, \"estimate_ms\": $e, \"bench\": ${b:-null}}" >> "$out/launch.jsonl"
  done <<< "$sh"
done
python3 - "$out/launch.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sys.path.insert(0, 'bench'); from common import spearman
print(f"{'kernel':8} {'block':>9} {'est ms':>9} {'ms':>9} {'baseline':>9} {'verify':>7}")
for k in dict.fromkeys(r['kernel'] for r in rows):
    rs = [r for r in rows if r['kernel'] == k]
    ok = []
    for r in rs:
        b = r.get('bench') or {}
        tag = (' original' if r.get('original') else '') + (' CHOSEN' if r.get('chosen') else '')
        if 'error' in r or not b: print(f"{k:8} {r['x']:>4}x{r['y']:<4} ERROR{tag}"); continue
        v = b.get('verify', []); bl = b.get('baseline', {})
        vs = 'ok' if v and all(x['ok'] for x in v) else ('none' if not v else 'FAILED')
        print(f"{k:8} {r['x']:>4}x{r['y']:<4} {r['estimate_ms']:9.4f} {b['median_ms']:9.4f} {bl.get('median_ms', 0):9.4f} {vs:>7}{tag}")
        if vs != 'FAILED': ok.append(r)
    if len(ok) < 2: continue
    est = [r['estimate_ms'] for r in ok]; ms = [r['bench']['median_ms'] for r in ok]
    best = min(ok, key=lambda r: r['bench']['median_ms']); orig = [r for r in ok if r.get('original')]; ch = [r for r in ok if r.get('chosen')]
    line = f"{k}: Spearman {spearman(est, ms):+.3f} over {len(ok)} shapes; fastest measured {best['x']}x{best['y']} {best['bench']['median_ms']:.4f} ms"
    if orig: line += f"; original {orig[0]['x']}x{orig[0]['y']} {orig[0]['bench']['median_ms']:.4f} ms"
    if ch: line += f"; the model's choice {ch[0]['x']}x{ch[0]['y']} {ch[0]['bench']['median_ms']:.4f} ms ({orig[0]['bench']['median_ms'] / ch[0]['bench']['median_ms'] if orig else 0:.2f}x the original)"
    print(line)
PY
