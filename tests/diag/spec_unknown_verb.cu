// expect: check 2 2:15: error: unknown '#pragma carve lanch'
#pragma carve lanch k grid(1) block(32)
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
