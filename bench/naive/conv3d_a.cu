/* 3-D convolution (3x3x3), spelling a: a PolyBench-style port, one thread per (j, k) of plane i,
 * the plane passed as an argument (the host loops over i, one launch per plane: the spec times
 * one of them, i = NI/2). Scalar coefficients, the border test as one guard. */
#ifndef NI
#define NI 256
#endif
#ifndef NJ
#define NJ 256
#endif
#ifndef NK
#define NK 256
#endif
#pragma carve launch conv3d grid((NK+31)/32, (NJ+7)/8) block(32, 8)
#pragma carve arg A = float[NI*NJ*NK] : random(1)
#pragma carve arg B = float[NI*NJ*NK] : zeros out
#pragma carve arg i = NI/2
#pragma carve tol rel(1e-5)
#pragma carve work flops(53.0*NJ*NK) bytes(12.0*NJ*NK)
#pragma carve baseline copy(3*NJ*NK*4)
__global__ void conv3d(float *A, float *B, int i)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    float c11 = +2.0f, c12 = -3.0f, c13 = +4.0f;
    float c21 = +5.0f, c22 = +6.0f, c23 = +7.0f;
    float c31 = -8.0f, c32 = -9.0f, c33 = +10.0f;
    if ((i < (NI - 1)) && (j < (NJ - 1)) && (k < (NK - 1)) && (i > 0) && (j > 0) && (k > 0)) {
        B[i * (NK * NJ) + j * NK + k] =
              c11 * A[(i - 1) * (NK * NJ) + (j - 1) * NK + (k - 1)] + c12 * A[(i - 1) * (NK * NJ) + (j - 1) * NK + k] + c13 * A[(i - 1) * (NK * NJ) + (j - 1) * NK + (k + 1)]
            + c21 * A[(i - 1) * (NK * NJ) + j * NK + (k - 1)] + c22 * A[(i - 1) * (NK * NJ) + j * NK + k] + c23 * A[(i - 1) * (NK * NJ) + j * NK + (k + 1)]
            + c31 * A[(i - 1) * (NK * NJ) + (j + 1) * NK + (k - 1)] + c32 * A[(i - 1) * (NK * NJ) + (j + 1) * NK + k] + c33 * A[(i - 1) * (NK * NJ) + (j + 1) * NK + (k + 1)]
            + c12 * A[i * (NK * NJ) + (j - 1) * NK + k] + c21 * A[i * (NK * NJ) + j * NK + (k - 1)] + c22 * A[i * (NK * NJ) + j * NK + k]
            + c23 * A[i * (NK * NJ) + j * NK + (k + 1)] + c32 * A[i * (NK * NJ) + (j + 1) * NK + k]
            + c11 * A[(i + 1) * (NK * NJ) + (j - 1) * NK + (k - 1)] + c13 * A[(i + 1) * (NK * NJ) + (j - 1) * NK + (k + 1)]
            + c22 * A[(i + 1) * (NK * NJ) + j * NK + k]
            + c31 * A[(i + 1) * (NK * NJ) + (j + 1) * NK + (k - 1)] + c33 * A[(i + 1) * (NK * NJ) + (j + 1) * NK + (k + 1)];
    }
}
