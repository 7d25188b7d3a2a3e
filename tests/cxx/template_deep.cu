// A template instantiated 400 levels deep (nvcc's and clang's -ftemplate-depth default is
// 1024; tests/robust_cli.sh makes 1,000): carve made at most 32 (issue 26, item 9). nvcc
// inlines the chain of calls. 400 levels load in an ASan build's 8 MiB stack too (573 do).
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
template <int N> __device__ int f(int x) { return f<N - 1>(x) + 1; }
template <> __device__ int f<0>(int x) { return x; }
__global__ void k(int *a) { a[threadIdx.x] = f<400>(threadIdx.x); }
