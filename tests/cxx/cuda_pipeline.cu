/* cuda::pipeline<cuda::thread_scope_thread> in a template kernel as globalToShmemAsyncCopy writes it:
 * the print keeps make_pipeline, memcpy_async with its aligned_size_t and the pipeline methods
 * and includes <cuda/pipeline> (tests/front/run_cuda_pipeline.cu checks the values). */
#include <cuda/pipeline>
#pragma carve launch k<16> grid(2) block(16, 4)
#pragma carve arg A = float[512] : random(1, 0, 1)
#pragma carve arg C = float[128] : zeros out
template <int BS>
__global__ void k(float *__restrict__ C, const float *__restrict__ A) {
  constexpr size_t stages = 2;
  __shared__ alignas(alignof(float4)) float As[stages][4][BS];
  const auto shape4 = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int t4x = threadIdx.x * 4;
  float sum = 0;
  for (int s = 0; s < 4; s++) {
    pipe.producer_acquire();
    if (t4x < BS) cuda::memcpy_async(&As[s % stages][threadIdx.y][t4x], &A[blockIdx.x * 256 + s * 64 + threadIdx.y * BS + t4x], shape4, pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    sum += As[s % stages][threadIdx.y][threadIdx.x];
    pipe.consumer_release();
    __syncthreads();
  }
  C[blockIdx.x * 64 + threadIdx.y * BS + threadIdx.x] = sum;
}
template __global__ void k<16>(float *__restrict__, const float *__restrict__);
