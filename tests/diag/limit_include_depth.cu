// expect: check 2 3:10: error: #include nesting exceeds the limit of 200 levels (LIMIT_INCLUDE_DEPTH
// A file that includes itself twice would be 2^200 files; the depth stops the first chain.
#include "limit_include_depth.cu"
#include "limit_include_depth.cu"
__global__ void k(int *a) { a[0] = 1; }
