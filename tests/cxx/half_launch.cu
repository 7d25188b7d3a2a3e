/* __half launch values (docs/cxx.md): numbers rounded to half to nearest even, in buffers and
 * scalars, a __half2 scalar in both halves; values past 65504 are infinities in a random()
 * buffer. tests/cxx/run.sh checks that the GPU harness's host code fills the same bytes. */
#include <cuda_fp16.h>

#pragma carve launch k grid(1) block(32)
#pragma carve arg a = 0.3
#pragma carve arg a2 = -1.7
#pragma carve arg x = __half[1000] : random(5, -70000, 70000) out
#pragma carve arg y = __half2[1000] : iota(-3.3, 0.0123) out
#pragma carve arg z = __half[3000] : random(9, -0.001, 0.001) out
#pragma carve arg w = __half[100] : fill(0.1) out
__global__ void k(__half a, __half2 a2, __half *x, __half2 *y, __half *z, __half *w) {
  if (threadIdx.x == 0) w[0] = a;
  if (threadIdx.x == 1) y[0] = a2;
}
