#!/bin/bash
# device: optimize holdout programs at their run sizes after this session's fixes
make -s -j16 carve cudart || exit 2
mkdir -p build/h3 build/h4
(OUT=$PWD/build/h3 SAME=1 OPT_ONLY=1 PROGDIR=bench/holdout3 LIST=$PWD/bench/holdout3/large.txt MAXSEC=30 OPT_TIMEOUT=500 PROGS="gramschmidt gesummv sgemm_colmajor conv3d adi jacobi1d" bash bench/programs-gpu.sh > build/h3/log.txt 2>&1) &
(OUT=$PWD/build/h4 SAME=1 OPT_ONLY=1 PROGDIR=bench/holdout4 LIST=$PWD/bench/holdout4/large.txt MAXSEC=30 OPT_TIMEOUT=500 PROGS="heat3d batched_mm layernorm softmax atax" bash bench/programs-gpu.sh > build/h4/log.txt 2>&1) &
wait
for f in build/h3/*.plan build/h4/*.plan; do echo "== $f"; grep -h "applied\|not kept\|whole program\|route:\|warning\|error\|made no launch\|stopped" $f | cut -c1-220 | head -12; done
ls build/h3 build/h4
tar czf $OUT/opt13.tgz build/h3 build/h4
