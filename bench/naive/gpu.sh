#!/bin/bash
# bench/naive/gpu.sh [CARVE] [OUTDIR]: the naive corpus on a GPU machine. Optimizes every kernel of
# bench/naive at its file's size (in parallel, one process a core), then times each kernel of a
# covered class (products, mat-vecs) naive and optimized with `carve bench --verify` (cuBLAS or
# the copy beside it, as the file's `#pragma carve baseline` says), one at a time on the GPU.
# Writes OUTDIR/opt/FILE.KERNEL.{cu,plan} and OUTDIR/bench/FILE.KERNEL.{naive,opt}.json, and a
# summary table OUTDIR/summary.txt (naive ms, optimized ms, baseline ms, passes kept).
carve=${1:-./carve}
out=${2:-naive-gpu}
dir=$(dirname "$0")
mkdir -p "$out/opt" "$out/bench"
list=$(for f in "$dir"/*.cu; do for k in $(grep -oE '^#pragma carve launch [A-Za-z0-9_]+' "$f" | awk '{print $4}'); do echo "$f $k"; done; done)
jobs=$(nproc 2>/dev/null || echo 2)
echo "$list" | xargs -P "$jobs" -L 1 sh -c 'b=$(basename "$0" .cu); '"$carve"' optimize "$0" --kernel "$1" -o '"$out"'/opt/$b.$1.cu 2> '"$out"'/opt/$b.$1.plan'
kept() { grep -E "^carve optimize: [a-z]+ +applied, verified" "$1" | awk '{print $3}' | tr '\n' ','; }
printf '%-14s %-14s %10s %10s %10s  %s\n' file kernel naive_ms opt_ms base_ms kept > "$out/summary.txt"
for cls in tile split; do
  echo "$list" | while read -r f k; do
    b=$(basename "$f" .cu)
    grep -qE "^carve optimize: $cls +applied, verified" "$out/opt/$b.$k.plan" 2>/dev/null || continue
    "$carve" bench "$f" --kernel "$k" --verify --format json > "$out/bench/$b.$k.naive.json" 2>/dev/null
    "$carve" bench "$out/opt/$b.$k.cu" --kernel "$k" --verify --format json > "$out/bench/$b.$k.opt.json" 2>/dev/null
    ms() { grep -oE '"median_ms": [0-9.e+-]+' "$1" | head -1 | awk '{print $2}'; }
    bms() { grep -oE '"baseline"[^}]*"median_ms": [0-9.e+-]+' "$1" | grep -oE '[0-9.e+-]+$' | head -1; }
    printf '%-14s %-14s %10s %10s %10s  %s\n' "$b" "$k" "$(ms "$out/bench/$b.$k.naive.json")" "$(ms "$out/bench/$b.$k.opt.json")" \
      "$(bms "$out/bench/$b.$k.naive.json")" "$(kept "$out/opt/$b.$k.plan")" >> "$out/summary.txt"
  done
done
cat "$out/summary.txt"
