// expect: run 2 carve: error: --arg h=99999999999999999999: integer literal is too large to be represented in any integer type
// flags: --arg h=99999999999999999999
// A flag's value is a literal like the source's (issue #11 item 8: it ran with h = -1).
#pragma carve launch k grid(1) block(1)
#pragma carve arg a = long[1] : zeros out
#pragma carve arg h = 1
__global__ void k(long *a, long h) { a[0] = h; }
