// expect: run 1 6:22: error: out-of-bounds global read of 4 bytes: element 16 of 'in' (16 elements)
#pragma carve launch k grid(1) block(32)
#pragma carve arg in = float[16] : iota
#pragma carve arg out = float[32] : zeros out
__global__ void k(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x];
}
