/* A cooperative groups shuffle of a vector, as shfl_scan's shfl_intimage_rows writes
 * `result.y = tile.shfl_xor(result.y, 1);` on a uint4 (cooperative groups shuffle any type):
 * each component shuffled. Printed as written; every value checked by assert. */
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#pragma carve launch k grid(1) block(64)
#pragma carve arg a = unsigned[256] : random(3, 0, 100000)
#pragma carve arg b = float[64] : zeros out
__global__ void k(const unsigned *a, float *b) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  unsigned t = threadIdx.x;
  uint4 v = make_uint4(a[4 * t], a[4 * t + 1], a[4 * t + 2], a[4 * t + 3]);
  uint4 x = tile.shfl_xor(v, 1);
  unsigned o = t ^ 1;
  assert(x.x == a[4 * o] && x.y == a[4 * o + 1] && x.z == a[4 * o + 2] && x.w == a[4 * o + 3]);
  float2 f = make_float2(t * 0.5f, -1.0f * t);
  float2 g = tile.shfl_down(f, 2);
  unsigned src = tile.thread_rank() + 2 < 32 ? t + 2 : t;
  assert(g.x == src * 0.5f && g.y == -1.0f * src);
  b[t] = g.x + x.w;
}
