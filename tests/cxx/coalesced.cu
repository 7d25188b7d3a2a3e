/* Coalesced groups as warpAggregatedAtomicsCG and binaryPartitionCG write them: the print keeps
 * coalesced_threads(), labeled_partition, binary_partition, shfl by rank and reduce as written
 * (tests/front/run_coalesced.cu checks the values). */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#pragma carve launch agg grid(2) block(128)
#pragma carve arg dst = int[256] : zeros out
#pragma carve arg nres = int[1] : zeros out
#pragma carve arg src = int[256] : random(3, -4, 4)
#pragma carve arg n = 256
#pragma carve launch parts grid(2) block(128)
#pragma carve arg src = int[256] : random(5, 0, 9)
#pragma carve arg sums = int[8] : zeros out

__device__ int agg_inc(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int res = 0;
  if (active.thread_rank() == 0) res = atomicAdd(counter, active.size());
  res = active.shfl(res, 0);
  return res + active.thread_rank();
}

__global__ void agg(int *dst, int *nres, const int *src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0) dst[agg_inc(nres)] = src[i];
}

__global__ void parts(const int *src, int *sums) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int e = src[threadIdx.x + blockIdx.x * blockDim.x];
  auto sub = cg::binary_partition(tile, e & 1);
  int s = cg::reduce(sub, e, cg::plus<int>());
  if (sub.thread_rank() == 0) atomicAdd(&sums[e & 1], s);
  cg::coalesced_group same = cg::labeled_partition(cg::coalesced_threads(), e % 4);
  if (same.thread_rank() == 0) atomicAdd(&sums[2 + e % 4], same.size());
  cg::sync(tile);
}
