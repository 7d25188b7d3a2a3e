/* cooperative_groups::thread_group parameters (a block or a tile, decided when run), as
 * simpleCooperativeGroups writes them; printed with the group type as written. */
#include <cooperative_groups.h>
using namespace cooperative_groups;

#pragma carve launch sums grid(1) block(64) shared(256)
#pragma carve arg out = int[5] : zeros out

__device__ int sumReduction(thread_group g, int *x, int val) {
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    x[lane] = val;
    g.sync();
    if (lane < i) val += x[lane + i];
    g.sync();
  }
  return g.thread_rank() == 0 ? val : -1;
}

__global__ void sums(int *out) {
  extern __shared__ int workspace[];
  thread_block block = this_thread_block();
  int r = sumReduction(block, workspace, block.thread_rank());
  if (block.thread_rank() == 0) out[0] = r;
  block.sync();
  thread_block_tile<16> tile = tiled_partition<16>(block);
  int offset = block.thread_rank() - tile.thread_rank();
  r = sumReduction(tile, workspace + offset, tile.thread_rank());
  if (tile.thread_rank() == 0) out[1 + block.thread_rank() / 16] = r;
}
