// expect: check 2 3:27: error: 'N' is not a constant here
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[N] : zeros out
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
