// expect: check 2 2:2: error: #error reached the end
// setup: { printf '__global__ void k(float *o) { int '; head -c 200 /dev/zero | tr '\0' '('; printf y; head -c 200 /dev/zero | tr '\0' ')'; echo ' = 3; o[0] = y; }'; echo '#error reached the end'; } >deep.cu
// file: $TMP/deep.cu
// 200 parentheses around a declarator: parsed once per level (it took 2^depth steps: 30 levels filled 20 GB).
