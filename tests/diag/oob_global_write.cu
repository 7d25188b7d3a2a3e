// expect: run 1 5:3: error: out-of-bounds global write of 4 bytes: element 20 of 'out' (20 elements)
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = float[20] : zeros out
__global__ void k(float *out) {
  out[threadIdx.x] = 1.0f;
}
