// expect: run 1 6:3: error: out-of-bounds shared write of 4 bytes
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = float[32] : zeros out
__global__ void k(float *out) {
  __shared__ float tile[32];
  tile[threadIdx.x + 1] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
