// cooperative_groups::grid_group (issue 29; reductionMultiBlockCG, binaryPartitionCG write it):
// this_grid(), thread_rank(), size(), block_rank(), num_blocks() in a grid-stride loop over four
// blocks, and grid.sync() / cg::sync(grid) in a launch of one block (a block barrier there).
#include <stdio.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define N 1000
__global__ void scale(const float *in, float *out, int n, unsigned *blocks) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) out[i] = 2.0f * in[i];
  if (grid.thread_rank() == 0) blocks[0] = grid.num_blocks();
  if (threadIdx.x == 0) blocks[1 + grid.block_rank()] = grid.block_rank() + 10;
}
__global__ void two_phase(int *a) {
  cg::grid_group grid = cg::this_grid();
  a[threadIdx.x] = threadIdx.x;
  grid.sync();
  int right = a[(threadIdx.x + 1) % blockDim.x];
  cg::sync(grid);
  a[threadIdx.x] = right;
}
int main() {
  float h_in[N], h_out[N];
  for (int i = 0; i < N; i++) h_in[i] = (float)i;
  float *in, *out;
  unsigned *blocks, h_blocks[5];
  int *a, h_a[64];
  cudaMalloc((void **)&in, N * sizeof(float));
  cudaMalloc((void **)&out, N * sizeof(float));
  cudaMalloc((void **)&blocks, 5 * sizeof(unsigned));
  cudaMalloc((void **)&a, 64 * sizeof(int));
  cudaMemcpy(in, h_in, N * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<4, 64>>>(in, out, N, blocks);
  two_phase<<<1, 64>>>(a);
  cudaMemcpy(h_out, out, N * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_blocks, blocks, 5 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_a, a, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += h_out[i] != 2.0f * i;
  int ranks = h_blocks[0] == 4 && h_blocks[1] == 10 && h_blocks[2] == 11 && h_blocks[3] == 12 && h_blocks[4] == 13;
  int shifted = 0;
  for (int i = 0; i < 64; i++) shifted += h_a[i] == (i + 1) % 64;
  printf("grid-stride %s, block ranks %s, one-block grid sync %s\n", bad ? "bad" : "ok", ranks ? "ok" : "bad", shifted == 64 ? "ok" : "bad");
  return 0;
}
