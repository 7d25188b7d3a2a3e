// expect: check 2 2:15: error: '#pragma carve arg' before any '#pragma carve launch'
#pragma carve arg a = int[32] : zeros
#pragma carve launch k grid(1) block(32)
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
