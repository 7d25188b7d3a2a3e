// expect: check 2 4:10: error: the source text of the translation unit exceeds the limit of 67108864 bytes (LIMIT_SOURCE_BYTES
// setup: truncate -s 65M big.cu
// flags: -I $TMP
#include "big.cu"
__global__ void k(int *a) { a[0] = 1; }
