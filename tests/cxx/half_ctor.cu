/* __half and __half2 constructed as fp16ScalarProduct writes them: half2 value(0.f, 0.f), from floats
 * and from __half values (cuda_fp16.hpp's constructors; printed as __halves2half2). */
#include <cuda_fp16.h>
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = float[64] : zeros out
__global__ void k(float *out) {
  half2 value(0.5f, 1.5f);
  __half h(2.0f);
  half2 w(h, h);
  value = value * w + value;
  out[2 * threadIdx.x] = __low2float(value);
  out[2 * threadIdx.x + 1] = __high2float(value) + __half2float(h);
}
