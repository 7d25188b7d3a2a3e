// expect: check 2 3:10: error: '/dev/urandom' contains NUL bytes; not a source file
// Random bytes hold a NUL within the first chunk read (64 KiB).
#include "/dev/urandom"
__global__ void k(int *a) { a[0] = 1; }
