// cuda::pipeline<cuda::thread_scope_thread> as globalToShmemAsyncCopy writes it (issue 29): three
// stages in flight (producer_acquire, cuda::memcpy_async of a cuda::aligned_size_t float4,
// producer_commit), consumer_wait for the oldest, consumer_release; every stage's data must
// arrive whole (a fourth argument once read as a zero-fill lost each copy's last byte).
#include <stdio.h>
#include <cuda/pipeline>
#define STAGES 3
#define STEPS 8
__global__ void staged(const float *in, float *out) {
  __shared__ alignas(16) float buf[STAGES][64];
  const auto shape4 = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int t4 = threadIdx.x * 4, loaded = 0;
  float sum = 0;
  for (int s = 0; s < STEPS; s++) {
    for (; loaded < s + STAGES; loaded++) {
      pipe.producer_acquire();
      if (loaded < STEPS && t4 < 64)
        cuda::memcpy_async(&buf[loaded % STAGES][t4], &in[loaded * 64 + t4], shape4, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    __syncthreads();
    sum += buf[s % STAGES][threadIdx.x] * (s + 1);
    pipe.consumer_release();
    __syncthreads();
  }
  out[threadIdx.x] = sum;
}
int main() {
  float h_in[STEPS * 64], h_out[64];
  for (int i = 0; i < STEPS * 64; i++) h_in[i] = 1.0f + (float)(i % 13);
  float *in, *out;
  cudaMalloc((void **)&in, sizeof h_in);
  cudaMalloc((void **)&out, sizeof h_out);
  cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  staged<<<1, 64>>>(in, out);
  cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    float want = 0;
    for (int s = 0; s < STEPS; s++) want += h_in[s * 64 + t] * (s + 1);
    bad += h_out[t] != want;
  }
  printf("pipelined stages %s (%d of 64 wrong)\n", bad ? "bad" : "ok", bad);
  return 0;
}
