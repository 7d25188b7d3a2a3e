/* 3-D convolution, spelling b: a CUDA-tutorial kernel on a 3-D grid, one thread per output, a
 * K x K x K filter array in loops, an early return at the border, tile constants for the block,
 * the volume's size a compile-time constant (a pitch n*n passed at run time makes the index a
 * product of four symbols, beyond the affine forms carve's analysis keeps). */
#ifndef N
#define N 256
#endif
#define K 3
#define BX 32
#define BY 4
#define BZ 2
#pragma carve launch conv3d_k grid(N/BX, N/BY, N/BZ) block(BX, BY, BZ)
#pragma carve arg in = float[N*N*N] : random(1)
#pragma carve arg w = float[K*K*K] : random(2)
#pragma carve arg out = float[N*N*N] : zeros out
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*K*K*K*N*N*N) bytes(8.0*N*N*N)
#pragma carve baseline copy(N*N*N*4)
__global__ void conv3d_k(const float *in, const float *w, float *out)
{
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    int z = blockIdx.z * BZ + threadIdx.z;
    if (x < 1 || y < 1 || z < 1 || x >= N - 1 || y >= N - 1 || z >= N - 1) return;
    float s = 0.0f;
    for (int dz = 0; dz < K; dz++)
        for (int dy = 0; dy < K; dy++)
            for (int dx = 0; dx < K; dx++)
                s += w[(dz * K + dy) * K + dx] * in[((z + dz - 1) * N + (y + dy - 1)) * N + (x + dx - 1)];
    out[(z * N + y) * N + x] = s;
}
