// cxx-flags: -I tests/cxx/inc
/* A kernel file as benchmark suites write them: system headers and the project's own header,
 * all with angle brackets; the project header is found with -I tests/cxx/inc. */
#include <cstdio>
#include <cuda_runtime.h>
#include <saxpy_util.h>

#pragma carve launch saxpy grid(4) block(SAXPY_BLOCK)
#pragma carve arg n = 500
#pragma carve arg a = 2.0f
#pragma carve arg x = float[512] : iota
#pragma carve arg y = float[512] : fill(1) out
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = axpy1(a, x[i], y[i]);
}
