// expect: run 1 7:3: error: out-of-bounds shared write of 4 bytes: element 32 of 'a' (32 elements)
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = float[32] : zeros out
__global__ void k(float *out) {
  __shared__ float a[32];
  __shared__ float b[32];
  a[threadIdx.x + 1] = 1.0f;
  b[threadIdx.x] = 2.0f;
  __syncthreads();
  out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}
