// expect: check 2 5:10: error: cannot deduce the template argument 'N' of 'unrolled': write unrolled<...>
template <int N, typename T>
__device__ T unrolled(T x) { T s = 0; for (int i = 0; i < N; i++) s += x; return s; }
__global__ void k(float *a) {
  a[0] = unrolled(a[1]);
}
