#!/bin/bash
# Run the anti-pattern sweeps of sweeps.txt on the GPU: emit every variant's harness with carve,
# build them in parallel, time each (median of 10 launches, CUDA events), optionally read ncu
# counters. Output: one JSON line per point in $OUT/patterns.jsonl.
# usage: bench/patterns/sweep.sh [--ncu] [FILTER]   (FILTER: a regex on "file kernel")
set -u
ncu=0; [ "${1:-}" = --ncu ] && { ncu=1; shift; }
filter=${1:-.}
out=${OUT:-.}
work=$(mktemp -d)
make -s -j16 carve || exit 2
points=()
while read -r file kernel macro values; do
  case "$file" in ''|\#*) continue;; esac
  echo "$file $kernel" | grep -Eq "$filter" || continue
  for v in $values; do
    d=$work/${kernel}_$v
    ./carve bench bench/patterns/$file --kernel "$kernel" -D "$macro=$v" --reps 10 --emit "$d" >/dev/null 2>"$d.err" || { echo "emit failed: $file $kernel $macro=$v: $(head -2 "$d.err")"; continue; }
    points+=("$file $kernel $macro $v $d")
  done
done < bench/patterns/sweeps.txt
printf '%s\n' "${points[@]}" | awk '{print $5}' | xargs -P 16 -I{} sh -c 'sh {}/build.sh > {}/build.log 2>&1 || echo "build failed: {}"'
: > "$out/patterns.jsonl"
metrics=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for p in "${points[@]}"; do
  set -- $p
  [ -x "$5/harness" ] || continue
  res=$(timeout 60 "$5/harness" 10 "" 0 2>/dev/null | tail -1)
  [ -n "$res" ] || { echo "run failed: $p"; continue; }
  extra=""
  if [ $ncu = 1 ]; then
    csv=$(timeout 120 ncu --csv --clock-control none --metrics $metrics -k "regex:^$2\$" -c 1 "$5/harness" 0 2>/dev/null)
    extra=$(echo "$csv" | python3 -c '
import sys, csv
rows = list(csv.reader(sys.stdin))
h = None; vals = {}
for r in rows:
    if "Metric Name" in r: h = r; continue
    if h and len(r) == len(h):
        d = dict(zip(h, r))
        try: vals[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
        except ValueError: pass
print(", \"ncu\": {" + ", ".join("\"%s\": %g" % kv for kv in vals.items()) + "}" if vals else "")')
  fi
  echo "{\"file\": \"$1\", \"kernel\": \"$2\", \"macro\": \"$3\", \"value\": $4, \"run\": $res$extra}" >> "$out/patterns.jsonl"
done
echo "patterns: $(wc -l < "$out/patterns.jsonl") points"
