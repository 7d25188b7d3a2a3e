#!/bin/bash
# holdout4 after this session's fixes: optimize at the small size s2, run at the GPU size
R=$PWD
(OUT=$OUT/h4 PROGDIR=bench/holdout4 LIST=$R/docs/data/holdout4-h200-2026-11-28/h4.txt bash bench/programs-gpu.sh) 2>&1 | tail -12
for f in $OUT/h4/*.plan; do echo "== $f"; grep -h "applied, verified\|not kept\|whole program\|route:\|sizes\|warning" $f | cut -c1-200 | head -8; done
for f in $OUT/h4/*.log; do echo "$f: $(grep -i 'pass\|fail' $f | head -2 | tr '\n' ' ')"; done
cd $OUT && tar czf h4.tgz h4 && rm -rf h4
