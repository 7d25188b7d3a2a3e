// expect: run 1 7:20: error: out-of-bounds global read of 4 bytes: element -1 of 'in' (32 elements)
#pragma carve launch k grid(1) block(32)
#pragma carve arg in = float[32] : iota
#pragma carve arg out = float[32] : zeros out
__global__ void k(const float *in, float *out) {
  int i = threadIdx.x;
  out[i] = in[i] - in[i - 1];
}
