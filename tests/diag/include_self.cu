// expect: check 2 2:10: error: #include nested too deeply
#include "include_self.cu"
__global__ void k(int *a) {
  a[0] = 1;
}
