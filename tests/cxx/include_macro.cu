// cxx-flags: -I tests/cxx/inc
/* #include MACRO (C11 6.10.2p4), as boost's config does `#include BOOST_USER_CONFIG`: the
 * macro expands to <NAME> (searched in -I) or to "NAME" (searched beside the file, then -I). */
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = float[32] : random(2, -1, 1)
#pragma carve arg b = float[32] : zeros out
#define SCALE_HEADER <scale_cfg.h>
#include SCALE_HEADER
#define QUOTED_HEADER "inc/scale_cfg.h"
#include QUOTED_HEADER
#ifndef CFG_SCALE
#error the header named by the macro was not read
#endif
__global__ void k(const float *a, float *b) {
  float x = a[threadIdx.x];
  b[threadIdx.x] = CFG_SCALE * x;
  assert(b[threadIdx.x] == 3.0f * x);
}
