// Device code has no variable-length arrays (nvcc: none either)
#pragma carve launch k grid(1) block(32)
#pragma carve arg x = float[32] : zeros out
#pragma carve arg n = 4
__global__ void k(float *x, int n) {
  float t[n];
  t[0] = 1;
  x[0] = t[0];
}
