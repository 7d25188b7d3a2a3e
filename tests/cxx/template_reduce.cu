/* A block reduction as CUDA samples and libraries write it: the block size and the element
 * type are template parameters, a device function template is called with its arguments
 * deduced and written, and the launch names the instance. */
#pragma carve launch block_sum<256, float> grid(8) block(256)
#pragma carve arg in = float[2000] : random(3, -1, 1)
#pragma carve arg out = float[8] : zeros out
#pragma carve arg n = 2000
#pragma carve tol rel(1e-5)

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

template <int BS, typename T = float>
__global__ void block_sum(const T *in, T *out, int n) {
  __shared__ T partial[BS / 32];
  int i = blockIdx.x * BS + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < BS / 32 ? partial[threadIdx.x] : T(0);
    v = warp_sum<T>(v);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}

/* an explicit instantiation, as a library exports one: loaded as a second kernel */
template __global__ void block_sum<128, double>(const double *, double *, int);
