// cooperative_groups' coalesced groups (issue 29; warpAggregatedAtomicsCG and binaryPartitionCG
// write them): coalesced_threads() in a divergent branch, its thread_rank, size and shfl (a
// warp-aggregated atomic increment), labeled_partition and binary_partition of a tile, and
// cg::reduce over a partition, each checked against the host's answer.
#include <stdio.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
#define N 256
__device__ int agg_inc(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int res = 0;
  if (active.thread_rank() == 0) res = atomicAdd(counter, active.size());
  res = active.shfl(res, 0);
  return res + active.thread_rank();
}
__global__ void filter(int *dst, int *nres, const int *src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0) dst[agg_inc(nres)] = src[i];
}
__global__ void buckets(const int *src, int *count, int *sizes) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group same = cg::labeled_partition(active, src[i] % 4);
  if (same.thread_rank() == 0) atomicAdd(&count[src[i] % 4], same.size());
  sizes[i] = same.size();
}
__global__ void odd_even(const int *src, int *sums) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int e = src[i];
  auto sub = cg::binary_partition(tile, e & 1);
  int s = cg::reduce(sub, e, cg::plus<int>());
  if (sub.thread_rank() == 0) atomicAdd(&sums[e & 1], s);
  cg::sync(tile);
}
int main() {
  int h_src[N], h_dst[N], h_sizes[N], h_n = 0, h_count[4] = {0}, h_sums[2] = {0};
  for (int i = 0; i < N; i++) h_src[i] = (i * 37 + 11) % 19 - 6;
  int *src, *dst, *n, *count, *sizes, *sums;
  cudaMalloc((void **)&src, N * sizeof(int));
  cudaMalloc((void **)&dst, N * sizeof(int));
  cudaMalloc((void **)&sizes, N * sizeof(int));
  cudaMalloc((void **)&n, sizeof(int));
  cudaMalloc((void **)&count, 4 * sizeof(int));
  cudaMalloc((void **)&sums, 2 * sizeof(int));
  cudaMemcpy(src, h_src, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(n, &h_n, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(count, h_count, 4 * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(sums, h_sums, 2 * sizeof(int), cudaMemcpyHostToDevice);
  filter<<<2, 128>>>(dst, n, src, N);
  cudaMemcpy(&h_n, n, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_dst, dst, N * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++) h_src[i] = h_src[i] < 0 ? -h_src[i] : h_src[i];
  cudaMemcpy(src, h_src, N * sizeof(int), cudaMemcpyHostToDevice);
  buckets<<<2, 128>>>(src, count, sizes);
  odd_even<<<2, 128>>>(src, sums);
  cudaMemcpy(h_count, count, 4 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_sizes, sizes, N * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_sums, sums, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  /* the host's answers: the positive values (each once, in any order), the bucket counts, each
   * thread's bucket size within its warp, the sums of odd and even values */
  int want_n = 0, hist[20] = {0}, got_hist[20] = {0}, want_count[4] = {0}, want_sums[2] = {0};
  int sizes_ok = 1;
  for (int i = 0; i < N; i++) {
    int v = (i * 37 + 11) % 19 - 6;
    if (v > 0) want_n++, hist[v]++;
    want_count[h_src[i] % 4]++;
    want_sums[h_src[i] & 1] += h_src[i];
    int same = 0;
    for (int k = i / 32 * 32; k < i / 32 * 32 + 32; k++) same += h_src[k] % 4 == h_src[i] % 4;
    sizes_ok &= h_sizes[i] == same;
  }
  int filter_ok = h_n == want_n;
  for (int i = 0; i < h_n && i < N; i++)
    if (h_dst[i] > 0 && h_dst[i] < 20) got_hist[h_dst[i]]++;
  for (int v = 0; v < 20; v++) filter_ok &= got_hist[v] == hist[v];
  int count_ok = 1;
  for (int b = 0; b < 4; b++) count_ok &= h_count[b] == want_count[b];
  printf("aggregated atomics %s (%d of %d), labeled_partition %s, sizes %s, binary_partition reduce %s (%d %d)\n",
         filter_ok ? "ok" : "bad", h_n, want_n, count_ok ? "ok" : "bad", sizes_ok ? "ok" : "bad",
         h_sums[0] == want_sums[0] && h_sums[1] == want_sums[1] ? "ok" : "bad", h_sums[0], h_sums[1]);
  return 0;
}
