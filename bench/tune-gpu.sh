#!/bin/bash
# Ryoo's Tables 6.2 and 6.3 on this GPU, for the bundled MM, CP, SAD and MRI-FHD: every distinct
# valid variant of carve tune's space timed once (the exhaustive ground truth, in one results file
# per kernel), then carving, the model's top 5 and random sampling judged against it from the same
# file (nothing timed twice). Prints a markdown table; the JSON summaries and the results files stay
# in OUT. Needs a GPU, nvcc and python3 (for the table).
# usage: bench/tune-gpu.sh [OUT_DIR]       (from the repository root after make carve)
#   KERNELS="mm cp" to choose; REPEAT=1 to run carving three times from fresh results files (the
#   configurations chosen should agree within 1%); GPUS=0,1 for a worker per GPU.
set -u
carve=${CARVE:-./carve}
out=${1:-tune-gpu-$(date -u +%Y%m%d-%H%M)}
mkdir -p "$out"
kernels=${KERNELS:-mm cp sad mrifhd}
gpus=${GPUS:+--gpus $GPUS}
flags=${TUNE_FLAGS:-}          # e.g. "--skip split,vector -D N=1024": passed to every tune
limit=${TUNE_TIMEOUT:-0}       # seconds for each kernel's exhaustive run (0: none); it resumes later
to() { if [ "$limit" -gt 0 ]; then timeout "$limit" "$@"; else "$@"; fi; }
export CARVE_CACHE_DIR="${CARVE_CACHE_DIR:-$out/cache}"
nvidia-smi -L 2>/dev/null | head -1 | sed 's/^/device: /'
for k in $kernels; do
  R="$out/$k.jsonl"
  echo "== $k: exhaustive (the ground truth)" >&2
  to "$carve" tune examples/$k.cu $flags --strategy exhaustive --results "$R" $gpus ${PROGRESS:+--progress} --format json -o "$out/$k.best.cu" > "$out/$k.exhaustive.json" || echo "$k: exhaustive failed or stopped (exit $?)" >&2
  for s in carving model random; do
    "$carve" tune examples/$k.cu $flags --strategy $s --results "$R" $gpus --format json > "$out/$k.$s.json" || echo "$k: $s failed (exit $?)" >&2
  done
  "$carve" tune examples/$k.cu $flags --strategy carving --strict --results "$R" $gpus --format json > "$out/$k.strict.json" || true
  "$carve" tune examples/$k.cu $flags --strategy carving --simple-util --results "$R" $gpus --format json > "$out/$k.simple.json" || true
  "$carve" tune examples/$k.cu $flags --strategy exhaustive --results "$R" --t4 "$out/$k.t4.json" --format json > /dev/null || true
  if [ "${REPEAT:-0}" = 1 ]; then
    for i in 1 2 3; do
      "$carve" tune examples/$k.cu $flags --strategy carving --results "$out/$k.repeat$i.jsonl" $gpus --format json > "$out/$k.repeat$i.json" || true
    done
  fi
done
# the tuned mm against carve optimize's output and cuBLAS (carve bench --baseline)
if echo " $kernels " | grep -q " mm "; then
  "$carve" optimize examples/mm.cu -o "$out/mm.optimized.cu" 2> /dev/null
  "$carve" bench "$out/mm.optimized.cu" --baseline --format json > "$out/mm.optimized.bench.json" 2>/dev/null
  [ -f "$out/mm.best.cu" ] && "$carve" bench "$out/mm.best.cu" --baseline --format json > "$out/mm.best.bench.json" 2>/dev/null
fi
command -v python3 >/dev/null || { echo "python3 missing: the summaries are in $out/*.json"; exit 0; }
python3 - "$out" $kernels <<'PY'
import json, os, sys
out, kernels = sys.argv[1], sys.argv[2:]
def load(p):
    try:
        with open(p) as f: return json.loads(f.read().strip().splitlines()[-1])
    except Exception: return None
print("\n### carve tune on this GPU: Ryoo's Table 6.2 (carving)\n")
print("| kernel | space | constrained | distinct valid | selected | space reduction | selected eval. | all eval. | time saved | best survivor vs exhaustive best | best |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for k in kernels:
    d = load(f"{out}/{k}.carving.json")
    if not d: print(f"| {k} | (no result) |"); continue
    g = d.get("ground_truth", {})
    print(f"| {k} | {d['space']} | {d['constrained']} | {d['valid']} | {d['selected']} | {100*d['reduction']:.0f}% | {d['selected_eval_s']:.1f} s | "
          f"{g.get('all_eval_s', 0):.1f} s | {100*g.get('time_reduction', 0):.0f}% | {100*g.get('best_vs_exhaustive', 0):.1f}% | {g.get('best_ms', 0):.4f} ms ({g.get('best_key', '?')}) |")
print("\n### Ryoo's Table 6.3 (random sampling, Appendix A: expected best of n draws without replacement)\n")
print("| kernel | best time | carving selections | random sample of that size: expected best | relative to best | sample for 90% | for 95% |")
print("|---|---|---|---|---|---|---|")
for k in kernels:
    d = load(f"{out}/{k}.carving.json")
    g = d.get("ground_truth") if d else None
    if not g: print(f"| {k} | (no ground truth) |"); continue
    print(f"| {k} | {g['best_ms']:.4f} ms | {d['selected']} | {g['random_same_n_ms']:.4f} ms | {100*g['random_same_n_vs_best']:.1f}% | {g['random_n_90']} | {g['random_n_95']} |")
print("\n### the other strategies against the same ground truth\n")
print("| kernel | strategy | selected | best selected vs exhaustive best |")
print("|---|---|---|---|")
for k in kernels:
    for s in ("strict", "simple", "model", "random"):
        d = load(f"{out}/{k}.{s}.json")
        if not d: continue
        g = d.get("ground_truth", {})
        name = {"strict": "carving, strict front", "simple": "carving, eq. 6.1", "model": "model top 5", "random": "random 10"}[s]
        print(f"| {k} | {name} | {d['selected']} | {100*g.get('best_vs_exhaustive', 0):.1f}% |")
rep = [(k, [load(f"{out}/{k}.repeat{i}.json") for i in (1, 2, 3)]) for k in kernels]
rep = [(k, r) for k, r in rep if all(x and x.get("best") for x in r)]
if rep:
    print("\n### three carving tunes from fresh results files\n")
    print("| kernel | chosen (ms) | spread |")
    print("|---|---|---|")
    for k, r in rep:
        t = [x["best"]["median_ms"] for x in r]
        print(f"| {k} | " + ", ".join(f"{x['best']['key']} ({x['best']['median_ms']:.4f})" for x in r) + f" | {100*(max(t)/min(t)-1):.2f}% |")
o, b = load(f"{out}/mm.optimized.bench.json"), load(f"{out}/mm.best.bench.json")
if o and b:
    def cb(x): return x.get("baseline", {}).get("median_ms", 0)
    print("\n### mm: tuned against carve optimize's output and cuBLAS\n")
    print("| kernel | median ms | cuBLAS ms | time / cuBLAS |")
    print("|---|---|---|---|")
    for name, x in (("carve optimize", o), ("carve tune (best)", b)):
        print(f"| {name} | {x['median_ms']:.4f} | {cb(x):.4f} | {x['median_ms']/cb(x) if cb(x) else 0:.2f}x |")
PY
