#!/bin/bash
# carve tune's static phase: how many variants per second get their static metrics (built by the
# optimizer, compiled by NVRTC for registers and shared memory, counted by the interpreter), with
# one worker process and with one per core; and NVRTC's own compile rate, one process and one per
# core at once (the workers are processes, each with NVRTC loaded: this is their compile path).
# usage: bench/tune_rate.sh [CARVE]   (run from the repository root after make carve)
carve=${1:-./carve}
cores=$(nproc)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
echo "machine: $cores cores, load average $(cut -d' ' -f1-3 /proc/loadavg) (other work shares them)"
rate() {   # FILE DEFINES WORKERS: variants with metrics, seconds, variants/s
  local f=$1 d=$2 w=$3 start end n
  start=$(date +%s.%N)
  "$carve" space "$f" $d --no-cache --workers "$w" --format csv > "$t/out.csv" 2>/dev/null
  end=$(date +%s.%N)
  n=$(awk -F, 'NR > 1 && ($2 == "ok" || $2 == "duplicate")' "$t/out.csv" | wc -l)   # compiled and counted (the key, first, has no comma)
  awk -v n="$n" -v s="$start" -v e="$end" -v w="$w" -v f="$f $d" 'BEGIN { printf "  %-54s workers %d: %3d variants with metrics in %6.2f s: %6.1f variants/s\n", f, w, n, e - s, n / (e - s) }'
}
echo "== static metrics per second (carve space --no-cache), one worker and one per core"
# mm's whole space (2.9 M points) is refused: the tests' space (launch shapes x camping); cp without split
for k in "examples/mm.cu|-D N=2048 --skip split,vector,tile" "examples/mm.cu|-D N=256 --skip split,vector,tile" "examples/cp.cu|--skip split" \
         "examples/sad.cu|" "examples/mrifhd.cu|" "examples/mrifhd.cu|-D NK=256"; do
  f=${k%%|*}; d=${k#*|}
  rate "$f" "$d" 1
  rate "$f" "$d" "$cores"
done
if [ -x build/bench/bench_nvrtc ]; then
  echo "== NVRTC compiles per second: one process, then $cores at once (distinct sources each)"
  build/bench/bench_nvrtc 20 | sed 's/^/  1 process: /'
  start=$(date +%s.%N)
  for i in $(seq 1 "$cores"); do build/bench/bench_nvrtc 20 > "$t/nv.$i" & done
  wait
  end=$(date +%s.%N)
  awk -v c="$cores" -v s="$start" -v e="$end" 'BEGIN { printf "  %d processes: %d compiles in %.2f s: %.1f compiles/s together\n", c, 20 * c, e - s, 20 * c / (e - s) }'
else
  echo "== NVRTC compiles per second: build/bench/bench_nvrtc missing (make build/bench/bench_nvrtc)"
fi
