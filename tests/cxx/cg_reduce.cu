/* A template reduction with cooperative groups, as the CUDA samples' reduction kernels and
 * the CUDA Programming Guide write it: the block and its 32-thread tiles, tile shuffles,
 * cg::reduce, the block's rank and sync. */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#pragma carve launch reduce_cg<256, float> grid(16) block(256)
#pragma carve arg in = float[4000] : random(11, -1, 1)
#pragma carve arg out = float[16] : zeros out
#pragma carve arg n = 4000
#pragma carve tol rel(1e-5)

template <typename T>
__device__ T tile_sum(cg::thread_block_tile<32> tile, T v) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
  return v;
}

template <int BS, typename T>
__global__ void reduce_cg(const T *in, T *out, int n) {
  __shared__ T partial[BS / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * BS + block.thread_rank();
  T v = i < n ? in[i] : T(0);
  v = tile_sum(tile, v);
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    T w = tile.thread_rank() < BS / 32 ? partial[tile.thread_rank()] : T(0);
    w = cg::reduce(tile, w, cg::plus<T>());
    if (tile.thread_rank() == 0) out[blockIdx.x] = w;
  }
}
