// cooperative_groups::thread_group, a block or a tile known when the program runs
// (simpleCooperativeGroups' sumReduction): the same device function reduces over the block and
// over tiles of 16 (issue 29; it read every group as the block before: an out-of-bounds write).
#include <stdio.h>
#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ int sumReduction(thread_group g, int *x, int val) {
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    x[lane] = val;
    g.sync();
    if (lane < i) val += x[lane + i];
    sync(g);
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
int main() {
  int *out, h[5];
  cudaMalloc((void **)&out, sizeof h);
  sums<<<1, 64, 64 * sizeof(int)>>>(out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("block sum %s, tile sums %s\n", h[0] == 63 * 64 / 2 ? "ok" : "bad",
         h[1] == 120 && h[2] == 120 && h[3] == 120 && h[4] == 120 ? "ok" : "bad");
  return 0;
}
