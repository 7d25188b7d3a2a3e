#!/bin/bash
# Ryoo's Tables 6.2 and 6.3 (PhD 2008; shared/reference/seed-ryoo.md 5.3-5.4) for the bundled MM,
# CP, SAD and MRI-FHD on this machine's GPU, one kernel per call, resumable across calls.
#
#   bench/ryoo-tables.sh KERNEL [DIR]          on the GPU machine (after make carve): the
#                                              exhaustive ground truth of KERNEL's space, resumed
#                                              from DIR/KERNEL.jsonl, stopped before LIMIT seconds;
#                                              once complete, carving, the model's top 5 and random
#                                              sampling judged against it; prints the table rows
#   bench/ryoo-tables.sh --repeat KERNEL [DIR] three more carving tunes of KERNEL: timing only
#                                              (static metrics and verifications reused from
#                                              DIR/KERNEL.jsonl): the configurations they pick
#   bench/ryoo-tables.sh --table [DIR]         the tables from what DIR holds (no GPU needed)
#   bench/ryoo-tables.sh --replay [FILE.jsonl ...]   no GPU: each ground truth judged by `carve tune
#                                              --replay` (the Hopper front, Ryoo's fronts, the
#                                              model's top k; Kernel Tuner's P), one table row each
#                                              (default: docs/data/tune-replay-2026-11-27/*.jsonl and
#                                              docs/data/tune-unseen-h100-2026-11-27/*.jsonl)
#
# DIR defaults to build/ryoo (ignored by git: it stays on a warm device machine between calls; a
# fresh machine needs it carried). With $OUT set (the device tool), DIR is also copied there.
# Environment: LIMIT (seconds this call may take, default 540: the device allows 600), CARVE
# (default ./carve), GPUS (--gpus), TUNE_FLAGS (added to every tune).
#
# The spaces (documented in docs/tune.md, "Ryoo's tables"): carve's own for each kernel at the
# example's default size, with two cuts that keep them in reach of one device call:
#   mm      --passes tile --blocks orig   the tile pass's 540 configurations (block tile, thread
#                                         tile, k step, prefetch, launch bounds, vector loads) and
#                                         the untiled original: Ryoo's MM space (tile/block size,
#                                         rectangular tile, unroll, prefetch, spilling) in carve's
#                                         terms; the launch-shape axes of the untiled kernel left out
#                                         (the tile pass sets the block itself)
#   cp      --skip split                  launch shapes x vector x camping (split's 8 lane
#                                         configurations would multiply the space by 9)
#   sad     (the whole space)             launch shapes x vector x unroll
#   mrifhd  (the whole space)             launch shapes x scalar x vector
set -u
carve=${CARVE:-./carve}
limit=${LIMIT:-540}
gpus=${GPUS:+--gpus $GPUS}
extra=${TUNE_FLAGS:-}

space_flags() {
  case $1 in
    mm) echo "--passes tile --blocks orig" ;;
    cp) echo "--skip split" ;;
    sad|mrifhd) echo "" ;;
    *) echo "ryoo-tables: no space defined for '$1' (mm, cp, sad, mrifhd)" >&2; return 1 ;;
  esac
}

copy_out() { if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then cp -r "$dir" "$OUT/" 2>/dev/null; fi; }

# the ground truth's summary holds "ground_truth" once every distinct valid variant is timed
complete() { [ -s "$1" ] && grep -q '"ground_truth"' "$1"; }

# one kernel: exhaustive (resumed), then the other strategies from the same results
run_kernel() {
  local k=$1 flags R start left
  flags="$(space_flags "$k") $extra" || return 2
  R="$dir/$k.jsonl"
  start=$(date +%s)
  export CARVE_CACHE_DIR="$dir/cache"
  echo "== $k: exhaustive ground truth ($flags), resumed from $R; $limit s for this call" >&2
  # --time stops starting harness batches; timeout is the hard stop (records stay whole)
  timeout -s KILL $((limit - 20)) "$carve" tune examples/$k.cu $flags --strategy exhaustive --results "$R" --time $((limit - 90)) $gpus \
    --progress --format json -o "$dir/$k.best.cu" > "$dir/$k.exhaustive.json" 2> "$dir/$k.exhaustive.err"
  echo "   exit $?; $(( $(date +%s) - start )) s; $(grep -c '"type": "time"' "$R" 2>/dev/null) variants timed so far" >&2
  tail -3 "$dir/$k.exhaustive.err" | tr '\r' '\n' | tail -2 | sed 's/^/   /' >&2
  if ! complete "$dir/$k.exhaustive.json"; then
    echo "$k: the ground truth is not complete yet: run 'bench/ryoo-tables.sh $k' again (it resumes)"
    copy_out
    return 3
  fi
  for s in "carving" "carving --strict" "carving --simple-util" "model --budget 5" "random --budget 10 --seed 1"; do
    name=$(echo "$s" | sed 's/ --budget.*//; s/carving --strict/strict/; s/carving --simple-util/simple/')
    "$carve" tune examples/$k.cu $flags --strategy $s --results "$R" $gpus --format json > "$dir/$k.$name.json" 2>> "$dir/$k.strategies.err" ||
      echo "$k: --strategy $s failed (exit $?)" >&2
  done
  "$carve" tune examples/$k.cu $flags --strategy exhaustive --results "$R" --t4 "$dir/$k.t4.json" --format json > /dev/null 2>&1
  if [ "$k" = mm ] && [ -s "$dir/mm.best.cu" ]; then   # the tuned mm against carve optimize's output, each beside cuBLAS
    "$carve" optimize examples/mm.cu -o "$dir/mm.optimized.cu" 2> "$dir/mm.optimized.err"
    "$carve" bench "$dir/mm.optimized.cu" --baseline --format json > "$dir/mm.optimized.bench.json" 2>> "$dir/mm.optimized.err"
    "$carve" bench "$dir/mm.best.cu" --baseline --format json > "$dir/mm.best.bench.json" 2> "$dir/mm.best.err"
  fi
  copy_out
  table "$k"
}

# three carving tunes from copies of the results without their times: only timing repeats
repeat_kernel() {
  local k=$1 flags R
  flags="$(space_flags "$k") $extra" || return 2
  R="$dir/$k.jsonl"
  [ -s "$R" ] || { echo "ryoo-tables: no $R: run 'bench/ryoo-tables.sh $k' first" >&2; return 2; }
  export CARVE_CACHE_DIR="$dir/cache"
  # records written by another carve build are not trusted (tune computes and verifies them
  # again): refresh them once, untimed, so the three repeats time only
  local t0=$SECONDS
  timeout -s KILL $(( limit / 2 )) "$carve" tune examples/$k.cu $flags --strategy model --budget 1 --no-bench \
    --results "$R" > /dev/null 2> "$dir/$k.refresh.err" || echo "$k: refresh failed (exit $?)" >&2
  local left=$(( limit - 30 - (SECONDS - t0) ))
  for i in 1 2 3; do
    grep -v '"type": "time"' "$R" > "$dir/$k.repeat$i.jsonl"
    timeout -s KILL $(( left / 3 )) "$carve" tune examples/$k.cu $flags --strategy carving --results "$dir/$k.repeat$i.jsonl" $gpus \
      --format json > "$dir/$k.repeat$i.json" 2> "$dir/$k.repeat$i.err" || echo "$k: repeat $i failed (exit $?)" >&2
  done
  copy_out
  table "$k"
}

table() {
  command -v python3 > /dev/null || { echo "ryoo-tables: python3 missing: the summaries are $dir/*.json"; return 0; }
  python3 - "$dir" "$@" <<'PY'
import json, os, sys
d, kernels = sys.argv[1], sys.argv[2:]
def load(p):
    try:
        with open(p) as f:
            lines = f.read().strip().splitlines()
        return json.loads(lines[-1]) if lines else None
    except (OSError, ValueError):
        return None
def times(k):
    t = {}
    try:
        for l in open(f"{d}/{k}.jsonl"):
            if '"type": "time"' in l:
                r = json.loads(l)
                if r["status"] == "ok": t[r["key"]] = r["median_ms"]
    except (OSError, ValueError):
        pass
    return t
def pct(x): return f"{100 * x:.1f}%"
print("\n### Ryoo's Table 6.2 on this GPU: optimization carving against the exhaustive ground truth\n")
print("| kernel | space (points) | violate a constraint | distinct valid | carving selected | never timed (of valid; of all points) | evaluation: selected / all | time saved | best survivor vs exhaustive best | exhaustive best |")
print("|---|---|---|---|---|---|---|---|---|---|")
for k in kernels:
    c = load(f"{d}/{k}.carving.json")
    if not c or "ground_truth" not in c: print(f"| {k} | (ground truth not complete) |||||||||"); continue
    g = c["ground_truth"]
    print(f"| {k} | {c['space']} | {c['constrained']} | {c['valid']} | {c['selected']} | {pct(c['reduction'])}; {pct(1 - c['selected'] / c['space'])} | "
          f"{c['selected_eval_s']:.1f} s / {g['all_eval_s']:.1f} s | {pct(g['time_reduction'])} | {pct(g['best_vs_exhaustive'])} | {g['best_ms']:.4f} ms ({g['best_key']}) |")
print("\n### Ryoo's Table 6.3: random sampling (Appendix A, without replacement) and the other strategies\n")
print("| kernel | carving selected | random sample of that size: expected best vs best | random n for 90% | for 95% | strict front: n, best | eq. 6.1: n, best | model top 5 vs best | 10 random draws vs best |")
print("|---|---|---|---|---|---|---|---|---|")
for k in kernels:
    c = load(f"{d}/{k}.carving.json")
    if not c or "ground_truth" not in c: continue
    g = c["ground_truth"]
    o = {s: load(f"{d}/{k}.{s}.json") for s in ("strict", "simple", "model", "random")}
    def best(s):
        x = o[s]
        return pct(x["ground_truth"]["best_vs_exhaustive"]) if x and "ground_truth" in x else "-"
    def n(s): return str(o[s]["selected"]) if o[s] else "-"
    print(f"| {k} | {c['selected']} | {pct(g['random_same_n_vs_best'])} ({g['random_same_n_ms']:.4f} ms) | {g['random_n_90']} | {g['random_n_95']} | "
          f"{n('strict')}, {best('strict')} | {n('simple')}, {best('simple')} | {best('model')} | {best('random')} |")
o, b = load(f"{d}/mm.optimized.bench.json"), load(f"{d}/mm.best.bench.json")
if o and b:
    def cb(x): return x.get("baseline", {}).get("median_ms", 0)
    print("\n### mm: the tuned kernel against carve optimize's output, each beside cuBLAS\n")
    print("| kernel | median ms | cuBLAS ms | time / cuBLAS |")
    print("|---|---|---|---|")
    for name, x in (("carve optimize", o), ("carve tune (exhaustive best)", b)):
        print(f"| {name} | {x['median_ms']:.4f} | {cb(x):.4f} | {x['median_ms'] / cb(x) if cb(x) else 0:.2f}x |")
rep = [(k, [load(f"{d}/{k}.repeat{i}.json") for i in (1, 2, 3)]) for k in kernels]
rep = [(k, r) for k, r in rep if all(x and x.get("best") for x in r)]
if rep:
    print("\n### Three repeated carving tunes (verification reused, timing repeated)\n")
    print("| kernel | picks (their median in that tune) | spread of the picks' times | the picks in the ground truth: spread |")
    print("|---|---|---|---|")
    for k, r in rep:
        t = [x["best"]["median_ms"] for x in r]
        gt = times(k)
        gtt = [gt[x["best"]["key"]] for x in r if x["best"]["key"] in gt]
        gts = f"{100 * (max(gtt) / min(gtt) - 1):.2f}%" if len(gtt) == 3 else "-"
        print(f"| {k} | " + "; ".join(f"{x['best']['key']} ({x['best']['median_ms']:.4f} ms)" for x in r) + f" | {100 * (max(t) / min(t) - 1):.2f}% | {gts} |")
PY
}

# the replay tables: one row per ground truth, each cell "timed; never timed of all points; best /
# optimum; P" (docs/tune.md, "Carving on the H100, from stored timings")
replay_table() {
  command -v python3 > /dev/null || { echo "ryoo-tables: skipped (no python3)"; return 0; }
  local f
  for f in "$@"; do "$carve" tune --replay "$f" --format json || return 2; done | python3 -c '
import json, sys
print("| kernel | points | violate a constraint | distinct valid | " + " | ".join(["carving, Hopper front", "Ryoo (ties kept)", "Ryoo strict", "Ryoo eq. 6.1", "model top 5", "model top n (carving n)"]) + " | kept by the estimate / pruned by it | optimum |")
print("|---" * 11 + "|")
for l in sys.stdin:
    d = json.loads(l)
    k = d["file"].split("/")[-1].rsplit(".", 1)[0]
    cells = ["%d; %.1f%%; %.1f%%; P %.2f" % (s["timed"], 100 * s["never_timed_points"], 100 * s["best_vs_optimum"], s["p"]) for s in d["strategies"]]
    est = sum(1 for x in d["survivors"] if x["kept_by"] == "estimate")
    print("| %s | %d | %d | %d | %s | %d / %d | %.4f ms |" % (k, d["points"], d["constrained"], d["valid"], " | ".join(cells), est, d["pruned_by_estimate"], d["optimum"]["ms"]))
'
}

mode=run
case ${1:-} in
  --replay) shift; if [ $# = 0 ]; then set -- docs/data/tune-replay-2026-11-27/*.jsonl docs/data/tune-unseen-h100-2026-11-27/*.jsonl; fi
            replay_table "$@"; exit $? ;;
  --table) mode=table; shift ;;
  --repeat) mode=repeat; shift ;;
  ""|-h|--help) sed -n '2,38p' "$0"; exit 0 ;;
esac
if [ $mode = table ]; then
  dir=${1:-build/ryoo}
  ks=""
  for k in mm cp sad mrifhd; do [ -f "$dir/$k.jsonl" ] && ks="$ks $k"; done
  [ -n "$ks" ] || { echo "ryoo-tables: nothing in $dir" >&2; exit 2; }
  table $ks
  exit 0
fi
k=${1:?usage: bench/ryoo-tables.sh [--repeat] KERNEL [DIR]}
dir=${2:-build/ryoo}
mkdir -p "$dir"
command -v nvidia-smi > /dev/null && nvidia-smi -L 2> /dev/null | head -1 | sed 's/^/device: /' >&2
if [ $mode = repeat ]; then repeat_kernel "$k"; else run_kernel "$k"; fi
