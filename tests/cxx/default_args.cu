/* C++ default arguments as shfl_scan writes them (a kernel's `int *partial_sums = NULL`) and on
 * device functions: each call that leaves one out gets the default; the print keeps them. */
#pragma carve launch k grid(1) block(4)
#pragma carve arg a = int[4] : zeros out
#pragma carve arg partial = int[1] : zeros
__device__ int f(int x, int y = 10, int z = 2 * 50) { return x + y + z; }
__global__ void k(int *a, int *partial = NULL) {
  a[threadIdx.x] = f(threadIdx.x) + f(1, 2) + f(1, 2, 3) + (partial == NULL);
}
