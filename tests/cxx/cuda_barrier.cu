/* cuda::barrier<cuda::thread_scope_block> as simpleAWBarrier writes it: a __shared__ barrier,
 * init(&bar, blockDim.x) by one thread, arrive() and wait(std::move(token)) in a device
 * function taking the barrier and a tile by reference; the print includes <cuda/barrier>. */
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#pragma carve launch block_sums grid(4) block(128) shared(40)
#pragma carve arg in = float[512] : random(7, 0, 1)
#pragma carve arg out = double[4] : zeros out

__device__ void reduce_block(cuda::barrier<cuda::thread_scope_block> &bar,
                             cg::thread_block_tile<32> &tile, double sum, double *result) {
  extern __shared__ double tmp[];
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) sum += tile.shfl_down(sum, offset);
  if (tile.thread_rank() == 0) tmp[tile.meta_group_rank()] = sum;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  if (tile.meta_group_rank() == 0) {
    double b = tile.thread_rank() < tile.meta_group_size() ? tmp[tile.thread_rank()] : 0.0;
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) b += tile.shfl_down(b, offset);
    if (tile.thread_rank() == 0) *result = b;
  }
}

__global__ void block_sums(const float *in, double *out) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  cg::sync(cta);
  reduce_block(bar, tile, in[blockIdx.x * blockDim.x + threadIdx.x], &out[blockIdx.x]);
}
