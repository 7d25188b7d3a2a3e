// expect: check 2 3:35: error: random takes a seed, or a seed and both LO and HI
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = float[32] : random(1, 5) out
__global__ void k(float *a) {
  a[threadIdx.x] += 1.0f;
}
