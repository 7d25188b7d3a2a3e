// expect: check 2 3:33: error: unknown initializer 'ones' (expected zeros, fill, iota, random or file)
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : ones
__global__ void k(int *a) {
  a[threadIdx.x] += 1;
}
