#!/bin/bash
# Hardware counters for every term of `carve estimate` (run on the device machine): for every
# family variant and bundled kernel, one `carve bench --ncu` (warp instructions, issue activity,
# L2 sectors, DRAM bytes, shared wavefronts, stall reasons) into $OUT/counters.jsonl, and the SASS
# of each kernel (nvcc -cubin; cuobjdump -sass) into $OUT/sass/. Compare here with
# `python3 bench/model_terms.py $OUT/counters.jsonl`.
out=${OUT:-.}
make -s -j16 carve || exit 2
mkdir -p "$out/sass"
files=$(awk '{print "bench/families/" $2}' bench/families/families.txt)
for f in mm mv tmv vv rd strsm conv tp demosaic imregionmax cp sad mriq mrifhd scan histogram reduce_shared; do files="$files examples/$f.cu"; done
(  # SASS in the background: CPU work beside the GPU runs
  for f in $files; do
    b=$(basename "$f" .cu)
    ./carve print "$f" -o "$out/sass/$b.cu" 2>/dev/null && nvcc -arch=sm_90 -O3 -cubin -o "$out/sass/$b.cubin" "$out/sass/$b.cu" 2>/dev/null \
      && cuobjdump -sass "$out/sass/$b.cubin" > "$out/sass/$b.sass" 2>&1
    rm -f "$out/sass/$b.cubin"
  done ) &
: > "$out/counters.jsonl"
for f in $files; do
  timeout 300 ./carve bench "$f" --ncu --no-baseline --reps 5 --format json >> "$out/counters.jsonl" 2>>"$out/counters.err" \
    || echo "{\"file\": \"$f\", \"error\": $?}" >> "$out/counters.jsonl"
  echo "$(date +%T) $f" >&2
done
wait
ls "$out/sass" | wc -l
