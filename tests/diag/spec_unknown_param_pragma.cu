// expect: check 2 4:19: error: kernel 'k' has no parameter named 'm'
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
#pragma carve arg m = 3
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
