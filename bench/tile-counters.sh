#!/bin/bash
# Nsight Compute's counters for the tile variants that bench/tile-rank.sh gen wrote (device
# machine): `carve bench --ncu` per file into $OUT/counters.jsonl, and the SASS of each
# (nvcc -cubin; cuobjdump -sass) into $OUT/sass.tar.gz. Compare with the estimate here:
# python3 bench/tile-terms.py DIR $OUT/counters.jsonl. FILES selects (default DIR/mm_2048_*.cu).
out=${OUT:-.}; dir=${1:?directory}
make -s -j16 carve || exit 2
files=${FILES:-$(ls "$dir"/mm_2048_*.cu)}
s=$(mktemp -d)
( for f in $files; do b=$(basename "$f" .cu)
    nvcc -arch=sm_90 -O3 -cubin -o "$s/$b.cubin" "$f" 2>/dev/null && cuobjdump -sass "$s/$b.cubin" > "$s/$b.sass"; rm -f "$s/$b.cubin"
  done ) &
: > "$out/counters.jsonl"
for f in $files; do
  b=$(timeout 120 ./carve bench "$f" --ncu --reps 5 --format json 2>/dev/null)
  echo "{\"file\": \"$(basename "$f")\", \"bench\": ${b:-null}}" >> "$out/counters.jsonl"
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); n=(d["bench"] or {}).get("ncu",{}); print(d["file"], n.get("warp_instructions"), n.get("duration_ns"), n.get("issue_active_pct"), n.get("stall_long_scoreboard_pct"), n.get("stall_barrier_pct"), n.get("stall_short_scoreboard_pct"), n.get("stall_mio_throttle_pct"), n.get("stall_wait_pct"), n.get("stall_math_throttle_pct"))' "$(tail -1 "$out/counters.jsonl")"
done
wait
tar -C "$s" -czf "$out/sass.tar.gz" .
