// expect: check 2 2:29: error: grid dimension x is 0; it must be positive
#pragma carve launch k grid(0) block(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
