// expect: check 2 3:10: error: '/dev/zero' contains NUL bytes; not a source file
// A device that never ends is read in bounded chunks; its first NUL byte stops it (it grew until out of memory).
#include "/dev/zero"
__global__ void k(int *a) { a[0] = 1; }
