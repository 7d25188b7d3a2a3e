#!/bin/bash
# Ryoo's Tables 6.2 and 6.3 for every bundled kernel in one go, on a GPU machine without a limit
# on a command's time: bench/ryoo-tables.sh (the spaces, the strategies, the table) for each
# kernel in turn, then the tables. Where a command may run 10 minutes at most (the device tool),
# run bench/ryoo-tables.sh KERNEL once per call instead: it resumes.
# usage: bench/tune-gpu.sh [OUT_DIR]     (from the repository root after make carve)
#   KERNELS="mm cp" to choose; REPEAT=1 adds three repeated carving tunes per kernel;
#   GPUS=0,1 a worker per GPU; TUNE_FLAGS passed to every tune.
set -u
out=${1:-tune-gpu-$(date -u +%Y%m%d-%H%M)}
kernels=${KERNELS:-mm cp sad mrifhd}
export LIMIT=${LIMIT:-86400}
for k in $kernels; do
  bash bench/ryoo-tables.sh "$k" "$out" > /dev/null || echo "$k: not complete (exit $?)" >&2
  [ "${REPEAT:-0}" = 1 ] && { bash bench/ryoo-tables.sh --repeat "$k" "$out" > /dev/null || echo "$k: repeats failed" >&2; }
done
bash bench/ryoo-tables.sh --table "$out"
