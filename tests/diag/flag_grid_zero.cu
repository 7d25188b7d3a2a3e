// expect: run 2 carve: error: --grid 0: dimension x is 0; it must be positive
// flags: --grid 0
// A bad --grid is the flag's error, named by the flag (it said "dimension dimension x" at <command line>).
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a) { a[threadIdx.x] = 1; }
