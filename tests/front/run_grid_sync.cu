// A grid-wide sync across blocks (issue 29; reductionMultiBlockCG and simpleAWBarrier write it):
// the blocks of the launch run together, so each block's partial sum, written before
// grid.sync(), is read by block 0 after it, and the total, written by block 0 before the second
// cg::sync(grid), is read by every block after it; the data of another block, read across the
// barrier, and each block's own shared memory stay apart.
#include <stdio.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define N 1000
#define BLOCKS 6
__global__ void normalize(float *v, float *partial, int n) {
  __shared__ float s[64];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block cta = cg::this_thread_block();
  float sum = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) sum += v[i];
  s[threadIdx.x] = sum;
  cta.sync();
  for (int o = 32; o > 0; o /= 2) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    cta.sync();
  }
  if (threadIdx.x == 0) partial[1 + blockIdx.x] = s[0];
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    float t = 0;
    for (int b = 0; b < gridDim.x; b++) t += partial[1 + b];
    partial[0] = t;
  }
  cg::sync(grid);
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v[i] = v[i] / partial[0];
}
int main() {
  float h[N], p[1 + BLOCKS], total = 0;
  for (int i = 0; i < N; i++) h[i] = (float)(i % 7 + 1), total += h[i];
  float *v, *partial;
  cudaMalloc((void **)&v, N * sizeof(float));
  cudaMalloc((void **)&partial, (1 + BLOCKS) * sizeof(float));
  cudaMemcpy(v, h, N * sizeof(float), cudaMemcpyHostToDevice);
  normalize<<<BLOCKS, 64>>>(v, partial, N);
  cudaMemcpy(h, v, N * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(p, partial, (1 + BLOCKS) * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += h[i] != (float)(i % 7 + 1) / p[0];
  printf("total %s (%g, want %g), normalized %s\n", p[0] == total ? "ok" : "bad", p[0], total,
         bad ? "bad" : "ok");
  return 0;
}
