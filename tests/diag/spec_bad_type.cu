// expect: check 2 3:23: error: unknown type name 'flaot'
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = flaot[32] : zeros out
__global__ void k(float *a) {
  a[threadIdx.x] = 1.0f;
}
