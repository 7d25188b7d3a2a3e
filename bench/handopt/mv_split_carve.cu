/* carve optimize examples/mv.cu --kernel mv
 *   split(lanes=32): the sum into 'sum' (line 32) split across 32 lanes joined by __shfl_down_sync; grid.x 32 -> 1024, 4 threads' work per block [verified]
 */
#pragma carve launch mv grid(1024, 1, 1) block(128, 1, 1)
#pragma carve arg A = float[4096*4096] : random(1)
#pragma carve arg x = float[4096] : random(2)
#pragma carve arg y = float[4096] : zeros out
#pragma carve arg h = 4096
#pragma carve arg w = 4096
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*4096*4096) bytes(4.0*(4096*4096 + 4096 + 4096))
#pragma carve baseline sgemv(4096, 4096)

__global__ void mv(const float *A, const float *x, float *y, int h, int w) {
  int lane = threadIdx.x % 32u;
  int idx = blockIdx.x * (blockDim.x / 32u) + threadIdx.x / 32u;
  if (idx < h) {
    float sum = 0.0f;
    for (int i = lane; i < w; i += 32)
      sum += A[idx * w + i] * x[i];
    unsigned int group = 4294967295u;
    sum += __shfl_down_sync(group, sum, 16u, 32);
    sum += __shfl_down_sync(group, sum, 8u, 32);
    sum += __shfl_down_sync(group, sum, 4u, 32);
    sum += __shfl_down_sync(group, sum, 2u, 32);
    sum += __shfl_down_sync(group, sum, 1u, 32);
    if (lane == 0) {
      y[idx] = sum;
    }
  }
}
