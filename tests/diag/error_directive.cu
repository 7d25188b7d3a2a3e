// expect: check 2 4:2: error: #error N must be a multiple of 32
#define N 100
#if N % 32 != 0
#error N must be a multiple of 32
#endif
__global__ void k(int *a) {
  a[0] = N;
}
