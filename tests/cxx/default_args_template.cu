/* default arguments in templates: the instance prints as an explicit specialization without them
 * (C++ forbids them there), the template declaration keeps them. */
#pragma carve launch k<4> grid(1) block(4)
#pragma carve arg a = int[4] : zeros out
#pragma carve arg p = int[1] : zeros
template <int N> __device__ int f(int x, int y = N) { return x + y; }
template <int N> __global__ void k(int *a, int *p = NULL) { a[threadIdx.x] = f<N>(threadIdx.x) + (p != NULL); }
