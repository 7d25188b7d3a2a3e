#!/bin/sh
# make bench: speed figures (not tests). Each line is one measurement; docs/results.md keeps them.
set -e
echo "== interpreter: mm 512x512 (examples/mm.cu -D N=512), one core"
./carve run examples/mm.cu -D N=512 | sed -n '2p'
echo "== interpreter: reduce_shared with barriers (N=4194304)"
./carve run examples/reduce_shared.cu -D N=4194304 | sed -n '2p'
echo "== front end: a generated file of 2000 kernels"
build/bench/bench_front 2000
echo "== analyzer: one kernel, whole command (parse, inputs, sampled run, report)"
for k in tp mm tp_shared conv reduce_shared; do
  /usr/bin/time -f "  $k: %e s" ./carve analyze examples/$k.cu > /dev/null
done
echo "== resources through NVRTC (in-process)"
build/bench/bench_nvrtc 10
