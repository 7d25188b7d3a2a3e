// expect: run 2 carve: error: --block 32,-2: dimension y is -2; it must be positive
// flags: --block 32,-2
// A bad --block is named by the flag, with the dimension at fault.
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a) { a[threadIdx.x] = 1; }
