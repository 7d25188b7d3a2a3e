#!/bin/sh
# make bench: speed figures (not tests). Each line is one measurement; docs/results.md keeps them.
set -e
echo "== interpreter: mm 512x512 (examples/mm.cu -D N=512), one core"
./carve run examples/mm.cu -D N=512 --engine interp | sed -n '2p'
echo "== interpreter: reduce_shared with barriers (N=4194304)"
./carve run examples/reduce_shared.cu -D N=4194304 --engine interp | sed -n '2p'
sh bench/native.sh ./carve
echo "== front end: a generated file of 2000 kernels"
build/bench/bench_front 2000
echo "== variants per second (programs as values: clone, edit, layout, analyze, free), one core"
build/bench/bench_variants examples/mm.cu mm 2 N=64
build/bench/bench_variants examples/demosaic.cu demosaic 2 H=64 W=64
echo "== analyzer: one kernel, whole command (parse, inputs, sampled run, report)"
for k in tp mm tp_shared conv reduce_shared; do
  /usr/bin/time -f "  $k: %e s" ./carve analyze examples/$k.cu > /dev/null
done
echo "== resources through NVRTC (in-process)"
build/bench/bench_nvrtc 10
echo "== estimate: one kernel, whole command (resources from the NVRTC cache after the first run)"
for k in tp mm tp_shared conv reduce_shared scan; do
  ./carve estimate examples/$k.cu > /dev/null 2>&1
  /usr/bin/time -f "  $k: %e s" ./carve estimate examples/$k.cu > /dev/null
done
echo "== estimate: the 27 family variants ranked (bench/families), whole command"
/usr/bin/time -f "  27 variants: %e s" sh -c './carve estimate --rank bench/families/mm_*.cu > /dev/null; ./carve estimate --rank bench/families/tp_*.cu > /dev/null; ./carve estimate --rank bench/families/reduce_*.cu > /dev/null; ./carve estimate --rank bench/families/scan_*.cu > /dev/null; ./carve estimate --rank bench/families/stencil_*.cu > /dev/null'
if command -v python3 >/dev/null 2>&1; then
  cal=docs/data/calibration-h200-2026-11-22.json
  echo "== estimate accuracy against the stored H200 measurements (docs/validation.md)"
  python3 bench/families/rank.py bench/families/measured-h200.jsonl $cal | sed -n '/Spearman/,$p'
  python3 bench/validate_estimate.py docs/data/suite-h200-2026-11-22.jsonl $cal | tail -1
  python3 bench/holdout/compare.py | tail -1 | sed 's/^/holdout, recorded before measuring: /'
  python3 bench/holdout/compare.py --now | tail -1 | sed 's/^/holdout, current model: /'
  python3 bench/holdout/compare.py bench/holdout2/predicted-h200.jsonl bench/holdout2/measured-h200.jsonl | tail -1 | sed 's/^/holdout round 2, recorded before measuring: /'
  python3 bench/holdout/compare.py --now bench/holdout2/predicted-h200.jsonl bench/holdout2/measured-h200.jsonl | tail -1 | sed 's/^/holdout round 2, current model: /'
  python3 bench/model_terms.py docs/data/counters-h200-2026-11-22.jsonl $cal | sed -n '/^| term/,$p'
else
  echo "== estimate accuracy: skipped (no python3)"
fi
