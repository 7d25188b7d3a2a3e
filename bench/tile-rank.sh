#!/bin/bash
# The estimate's ranking of the tile pass's variants of examples/mm.cu against the GPU (issue #13:
# Spearman >= 0.9 per size, each within 20%). Three steps, so the GPU call only times:
#   bash bench/tile-rank.sh gen DIR       (here: carve optimize writes every variant, unverified:
#                                           each was verified by carve optimize and on the GPU before)
#   bash bench/tile-rank.sh time DIR      (device machine: carve bench each, cuBLAS once a size;
#                                           $OUT/measured.jsonl)
#   bash bench/tile-rank.sh rank DIR MEASURED.jsonl   (here: carve estimate each, Spearman per size)
# SIZES and CONFIGS ("tile,thread,bk,prefetch,minblocks,vec ...") select.
set -u
cmd=${1:?gen|time|rank}; dir=${2:?directory}
sizes=${SIZES:-512 1024 2048 4096}
configs=${CONFIGS:-"32,2,8 32,2,16 32,4,8 32,4,16 64,2,8 64,4,8 64,4,16 64,8,8 64,8,16 128,4,8 128,4,16 128,8,8 128,8,16 128,8,8,0 128,8,8,2 128,8,8,1,2 64,8,8,1,2 32,4,8,1,0,1"}
case $cmd in
gen)
  mkdir -p "$dir"
  for n in $sizes; do
    for c in $configs; do
      IFS=, read t r k p m v <<< "$c"
      ./carve optimize examples/mm.cu -DN=$n --passes tile --no-estimate --no-verify --set tile.tile=$t --set tile.thread=$r --set tile.bk=$k \
        ${p:+--set tile.prefetch=$p} ${m:+--set tile.minblocks=$m} ${v:+--set tile.vec=$v} -o "$dir/mm_${n}_${c//,/_}.cu" 2>/dev/null &
    done
    wait
  done
  ls "$dir" | wc -l ;;
time)
  out=${OUT:-.}
  make -s -j16 carve || exit 2
  : > "$out/measured.jsonl"
  for n in $sizes; do
    first=1
    for f in "$dir"/mm_${n}_*.cu; do
      b=$(timeout 120 ./carve bench "$f" ${first:+--baseline} --reps ${REPS:-30} --format json 2>/dev/null)
      first=
      ms=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["median_ms"], d.get("baseline",{}).get("median_ms",""))' <<< "${b:-{\}}" 2>/dev/null)
      echo "{\"file\": \"$(basename "$f")\", \"n\": $n, \"ms\": ${ms%% *}, \"cublas_ms\": \"${ms#* }\"}" | tee -a "$out/measured.jsonl"
    done
  done ;;
rank)
  meas=${3:?measured.jsonl}
  python3 - "$dir" "$meas" <<'PY'
import json, subprocess, sys, os
sys.path.insert(0, 'bench'); from common import spearman
d, meas = sys.argv[1], sys.argv[2]
by = {}
for l in open(meas):
    r = json.loads(l)
    if not isinstance(r.get('ms'), (int, float)): continue
    f = os.path.join(d, r['file'])
    e = subprocess.run(['./carve', 'estimate', f, '--format', 'json'], capture_output=True, text=True)
    try: est = json.loads(e.stdout)['estimate']['seconds'] * 1e3
    except Exception: continue
    by.setdefault(r['n'], []).append((r['file'], r['ms'], est))
allerr = []
for n in sorted(by):
    xs = sorted(by[n], key=lambda x: x[1])
    print(f"n={n}")
    for f, ms, est in xs:
        allerr.append(abs(est / ms - 1))
        print(f"  {f:34} measured {ms:8.4f}  estimate {est:8.4f}  {100*(est/ms-1):+6.1f}%")
    rho = spearman([x[1] for x in xs], [x[2] for x in xs])
    best_est = min(xs, key=lambda x: x[2])
    print(f"  spearman {rho:.2f} over {len(xs)}; model's pick {best_est[0]} at {xs[0][1]/best_est[1]*100:.1f}% of the best measured; within 20%: {sum(abs(e/m-1) <= .2 for _, m, e in xs)}/{len(xs)}")
print(f"mean |error| {100*sum(allerr)/max(1,len(allerr)):.1f}% over {len(allerr)}")
PY
;;
esac
