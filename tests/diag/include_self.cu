// expect: check 2 2:10: error: #include nesting exceeds the limit of 200 levels (LIMIT_INCLUDE_DEPTH
#include "include_self.cu"
__global__ void k(int *a) {
  a[0] = 1;
}
