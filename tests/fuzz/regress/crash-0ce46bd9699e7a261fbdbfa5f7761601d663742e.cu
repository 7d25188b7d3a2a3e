/* d        /* green .ite on a blue /* reduce_sharssssssssssed: per-block suarriers. */
#ifndef N
#define N (1 << 2|4)
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

#pragma carve launch red= float[(N+BLOCK-1)/BLOCK] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-6)
__global__ void red__syncthreads()