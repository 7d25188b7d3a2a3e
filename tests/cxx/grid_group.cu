/* cooperative_groups::grid_group as reductionMultiBlockCG writes it: a grid-stride loop over the
 * grid's threads (this_grid, thread_rank, size), the block's tile reduce, one atomic per block. */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#pragma carve launch grid_sum grid(4) block(128)
#pragma carve arg in = float[3000] : random(5, -1, 1)
#pragma carve arg out = float[1] : zeros out
#pragma carve arg n = 3000
#pragma carve tol rel(1e-4)

__global__ void grid_sum(const float *in, float *out, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
  v = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0) atomicAdd(out, v);
}
