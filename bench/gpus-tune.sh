#!/bin/bash
# carve tune on several GPUs of one host (issue 17): the bundled mm space (Ryoo's table space:
# --passes tile --blocks orig, n = 2048) tuned exhaustively with one worker per GPU and with one
# worker on one GPU, then a tune with one worker killed midway and resumed.
#
#   bench/gpus-tune.sh speed [DIR]   both tunes from the same start (static metrics and the
#                                    interpreter's verifications of DIR/mm.jsonl kept, its times
#                                    dropped): wall time of each, the speedup, each GPU's idle
#                                    share while the tune ran (nvidia-smi utilization.gpu sampled
#                                    every 200 ms), the best variant of each
#   bench/gpus-tune.sh warm [DIR]    the same two tunes again with the build cache the cold ones
#                                    filled (a re-tune: every harness from the cache, no nvcc)
#   bench/gpus-tune.sh kill [DIR]    a tune over every GPU; when KILL_AT (default 40%) of the
#                                    variants are timed, one worker (GPU 0's) is killed with
#                                    SIGKILL; the others finish; a resume completes the space;
#                                    every variant timed exactly once
#
# DIR (default build/ryoo) must hold mm.jsonl (bench/ryoo-tables.sh's results, or a --no-bench
# tune's) and the compile cache; with $OUT set (the device tool) the results are copied there.
# GPUS (default: every GPU nvidia-smi lists, comma-separated) picks the GPUs; TWO_LIMIT and
# ONE_LIMIT bound each tune of `speed` (seconds, default 560: the tune stops starting batches 40 s
# before; a tune cut short says so and its wall time is not a complete tune's).
set -u
phase=${1:-speed}
dir=${2:-build/ryoo}
carve=${CARVE:-./carve}
flags="--passes tile --blocks orig"
export CARVE_CACHE_DIR="$dir/cache"
gpus=${GPUS:-$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | paste -sd, -)}
[ -n "$gpus" ] || { echo "gpus-tune: skipped (no GPU: nvidia-smi lists none)"; exit 0; }
first=${gpus%%,*}
[ -s "$dir/mm.jsonl" ] || { echo "gpus-tune: no $dir/mm.jsonl (run the --no-bench tune first)" >&2; exit 2; }
out=$dir/gpus
mkdir -p "$out"
echo "gpus-tune: $phase on GPUs $gpus ($(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | tr -s ' ' | paste -sd';'))"

# a tune from the common start, nvidia-smi sampling the GPUs meanwhile; prints its wall time.
# COLD=1: the build cache ($dir/cache/builds, harnesses by source hash) emptied first
tune_from_start() {   # NAME GPULIST SECONDS COLD
  local name=$1 list=$2 limit=$3
  [ "${4:-1}" = 1 ] && rm -rf "$dir/cache/builds"
  grep -v '"type": "time"' "$dir/mm.jsonl" > "$out/$name.jsonl"
  nvidia-smi --query-gpu=index,utilization.gpu --format=csv,noheader,nounits -lms 200 > "$out/$name.smi" 2>/dev/null &
  local smi=$! t0 t1 rc
  t0=$(date +%s.%N)
  timeout -s KILL "$limit" "$carve" tune examples/mm.cu $flags --strategy exhaustive --results "$out/$name.jsonl" --gpus "$list" \
    --time $((limit - 40)) --progress --format json > "$out/$name.json" 2> "$out/$name.err"
  rc=$?
  t1=$(date +%s.%N)
  kill $smi 2>/dev/null; wait $smi 2>/dev/null
  echo "$name $list $rc $t0 $t1" >> "$out/walls"
  echo "  $name (GPUs $list): exit $rc, $(python3 -c "print(f'{$t1 - $t0:.1f}')") s"
}

summary() {
  python3 - "$out" <<'PY'
import json, sys, collections
d = sys.argv[1]
walls = {}
for l in open(f"{d}/walls"):
    n, g, rc, t0, t1 = l.split()
    walls[n] = (g, int(rc), float(t1) - float(t0))
def times(n):
    t, cnt = {}, collections.Counter()
    for l in open(f"{d}/{n}.jsonl"):
        if '"type": "time"' not in l: continue
        r = json.loads(l)
        cnt[r["key"]] += 1
        if r["status"] == "ok": t[r["key"]] = r["median_ms"]
    return t, cnt
def idle(n):
    s = collections.defaultdict(list)
    try:
        for l in open(f"{d}/{n}.smi"):
            p = [x.strip() for x in l.split(",")]
            if len(p) == 2 and p[1].isdigit(): s[p[0]].append(int(p[1]))
    except OSError: pass
    return {g: 1 - sum(v) / (100 * len(v)) for g, v in s.items() if v}
for n, (g, rc, w) in walls.items():
    t, cnt = times(n)
    best = min(t, key=t.get) if t else None
    twice = sum(1 for c in cnt.values() if c > 1)
    ids = ", ".join(f"GPU {k} {100 * v:.1f}%" for k, v in sorted(idle(n).items()) if k in g.split(","))
    try: complete = "ground_truth" in json.loads(open(f"{d}/{n}.json").read().strip().splitlines()[-1])
    except (OSError, ValueError, IndexError): complete = False
    print(f"{n}: GPUs {g}, exit {rc}, wall {w:.1f} s, {'complete' if complete else 'NOT complete'}, {len(cnt)} variants with a time record ({len(t)} ok), "
          f"timed twice {twice}; idle share {ids or 'unknown'}; best {best} {t.get(best, 0):.4f} ms")
for one, two in (("one", "two"), ("one-warm", "two-warm")):
    if one not in walls or two not in walls: continue
    t1, _ = times(one); t2, _ = times(two)
    b1, b2 = min(t1, key=t1.get), min(t2, key=t2.get)
    print(f"speedup {one} -> {two} (one worker -> one per GPU): {walls[one][2] / walls[two][2]:.2f}x; "
          f"best {b1} {t1[b1]:.4f} ms vs {b2} {t2[b2]:.4f} ms ({100 * (t2[b2] / t1[b1] - 1):+.2f}%)"
          + (f"; each run's best timed in the other: {t2.get(b1, float('nan')):.4f} / {t1.get(b2, float('nan')):.4f} ms" if b1 != b2 else "; the same variant"))
PY
}

case $phase in
speed)
  rm -f "$out/walls"
  tune_from_start two "$gpus" "${TWO_LIMIT:-560}"
  tune_from_start one "$first" "${ONE_LIMIT:-560}"
  summary ;;
warm)
  tune_from_start two-warm "$gpus" "${TWO_LIMIT:-560}" 0
  tune_from_start one-warm "$first" "${ONE_LIMIT:-560}" 0
  summary ;;
kill)
  rm -rf "$dir/cache/builds"
  grep -v '"type": "time"' "$dir/mm.jsonl" > "$out/kill.jsonl"
  want=$(grep -c '"type": "verify"' "$dir/mm.jsonl")
  at=$(( want * ${KILL_AT:-40} / 100 ))
  "$carve" tune examples/mm.cu $flags --strategy exhaustive --results "$out/kill.jsonl" --gpus "$gpus" --format json \
    > "$out/kill.json" 2> "$out/kill.err" &
  tp=$!
  victim=""
  for _ in $(seq 1 2400); do
    n=$(grep -c '"type": "time"' "$out/kill.jsonl")
    if [ "$n" -ge "$at" ]; then
      # while timing, the tune's live children are its GPU workers, forked in the order of the list
      # (their CUDA_VISIBLE_DEVICES is set after fork, so /proc/PID/environ does not show it):
      # the first is the first GPU's
      for c in $(pgrep -P $tp); do
        st=$(awk '{print $3}' /proc/$c/stat 2>/dev/null)
        if [ -n "$st" ] && [ "$st" != Z ]; then victim=$c; break; fi
      done
      [ -n "$victim" ] && { kill -9 "$victim"; break; }
    fi
    kill -0 $tp 2>/dev/null || break
    sleep 0.25
  done
  before=$(grep -c '"type": "time"' "$out/kill.jsonl")
  wait $tp; rc=$?
  after=$(grep -c '"type": "time"' "$out/kill.jsonl")
  echo "  killed worker ${victim:-none} (GPU $first) at $before time records; the tune exited $rc with $after"
  timeout -s KILL 400 "$carve" tune examples/mm.cu $flags --strategy exhaustive --results "$out/kill.jsonl" --gpus "$gpus" --progress \
    --format json > "$out/resume.json" 2> "$out/resume.err"
  echo "  resume: exit $?; $(grep -c '"type": "time"' "$out/kill.jsonl") time records"
  python3 - "$out/kill.jsonl" "$out/resume.json" <<'PY'
import json, sys, collections
cnt = collections.Counter(json.loads(l)["key"] for l in open(sys.argv[1]) if '"type": "time"' in l)
s = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
print(f"  after the resume: {len(cnt)} variants timed, {sum(1 for c in cnt.values() if c > 1)} timed twice; "
      f"ground truth complete: {'ground_truth' in s}")
PY
  ;;
*) echo "usage: bench/gpus-tune.sh speed|warm|kill [DIR]" >&2; exit 2 ;;
esac
if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then tar czf "$OUT/gpus-$phase.tgz" -C "$dir" gpus; fi
