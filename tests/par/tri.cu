/* A thread per column j1 computing the upper triangle (j2 >= j1) of A^T B, with no mirror: the
 * lower triangle keeps the output's old contents, so a parallelized variant that drops the
 * loop's lower-bound test, or shifts the y index, writes elements the original never did. A
 * statement beside the loop writes the column's diagonal flag. (pass parallel: tests/test_opt.c) */
#ifndef M
#define M 64
#endif
#ifndef N
#define N 32
#endif
#pragma carve launch tri grid((M+127)/128) block(128)
#pragma carve arg out = float[M*M] : zeros out
#pragma carve arg flag = int[M] : zeros out
#pragma carve arg a = float[N*M] : random(1)
#pragma carve arg b = float[N*M] : random(2)
#pragma carve tol rel(1e-5)
__global__ void tri(float *out, int *flag, const float *a, const float *b)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < M) {
        flag[j1] = j1 + 1;
        for (int j2 = j1; j2 < M; j2++) {
            float s = 0.0f;
            for (int i = 0; i < N; i++)
                s += a[i * M + j1] * b[i * M + j2];
            out[j1 * M + j2] = s;
        }
    }
}
