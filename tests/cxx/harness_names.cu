/* A kernel file whose names are the ones a generated harness uses for itself (stats, Stats,
 * write_file, read_file, CK, reps, times, carve_fill) and a kernel named grid in a namespace: the harness
 * (`carve bench --emit`) must still compile (tests/cxx/run.sh, where nvcc exists). */
#pragma carve launch harness::grid grid(2) block(64) shared(256)
#pragma carve arg in = float[128] : iota
#pragma carve arg out = float[2] : zeros out
struct Stats { float sum; };
__device__ float stats(Stats s) { return s.sum; }
__device__ float write_file(float x) { return x; }
__device__ int read_file, CK, reps, times, carve_fill;
namespace harness { __global__ void grid(const float *in, float *out) {
  extern __shared__ float block[];
  block[threadIdx.x] = write_file(in[blockIdx.x * 64 + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    Stats s = {0};
    for (int i = 0; i < 64; i++) s.sum += block[i];
    out[blockIdx.x] = stats(s) + (float)(read_file + CK + reps + times);
  }
}
}
