// expect: run 2 2:22: error: no grid for kernel 'k'
#pragma carve launch k block(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
