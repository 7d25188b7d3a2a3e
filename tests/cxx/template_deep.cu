// A template instantiated 1000 levels deep (nvcc's and clang's -ftemplate-depth default is
// 1024): carve made at most 32 (issue 26, item 9). nvcc inlines the chain of calls.
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
template <int N> __device__ int f(int x) { return f<N - 1>(x) + 1; }
template <> __device__ int f<0>(int x) { return x; }
__global__ void k(int *a) { a[threadIdx.x] = f<1000>(threadIdx.x); }
