// expect: check 2 3:35: error: random range is empty: HI must be greater than LO
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = float[32] : random(1, 5, 5) out
__global__ void k(float *a) {
  a[threadIdx.x] += 1.0f;
}
