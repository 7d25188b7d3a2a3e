// x += A y with the sum starting at the element (PolyBench's mvt, as spelled in a register): split
// gives every lane a start of 0 and adds the element once after the combine. Used by the mutation
// test (tests/test_opt.c): a split where every lane starts at the element is caught.
#ifndef N
#define N 256
#endif
#pragma carve launch xstart grid((N + 127) / 128) block(128)
#pragma carve arg a = float[N*N] : random(1)
#pragma carve arg x = float[N] : random(2) out
#pragma carve arg y = float[N] : random(3)
#pragma carve arg n = N
#pragma carve tol rel(1e-5)

__global__ void xstart(const float *a, float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    for (int j = 0; j < n; j++) v += a[i * n + j] * y[j];
    x[i] = v;
  }
}
