// expect: run 2 2:535: error: constant expression nested too deeply (limit 256, LIMIT_EXPR_NESTING
// setup: { echo '#pragma carve launch k grid(1) block(1)'; printf '#pragma carve arg n = '; head -c 100000 /dev/zero | sed 's/./- /g'; echo 1; echo '__global__ void k(int n) {}'; } >deep.cu
// file: $TMP/deep.cu
// 100000 minus signs in a launch specification: bounded, not a stack overflow.
