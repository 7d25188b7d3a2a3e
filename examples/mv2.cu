/* mv2: two naive matrix-vector products over one matrix in one kernel, y = A * x and
 * u = A * z (A is H x W, row-major; x and z have W elements, y and u have H).
 *
 * Source: the fused pair of mat-vecs of BiCG-type solvers (BiCG needs q = A*p and s = A^T*r
 * each step; PolyBench's `bicg` kernel computes both in one sweep of A), in the form of Yang et
 * al., PLDI 2010 (Fig. 2b's naive mv, one thread per row), with both products taken over the
 * same rows so one read of A serves two outputs. Written for carve (issue #13) as the naive
 * kernel a first port of such a solver step would contain.
 *
 * Naive because: one thread per row, global memory only. Thread idx walks row idx of A, so at
 * each step the threads of a warp read addresses W floats apart (uncoalesced, as in mv); x[i]
 * and z[i] are broadcasts re-read by every thread. The two sums share each element of A: two
 * separate sgemv calls would read the matrix twice. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif

#pragma carve launch mv2 grid((H+127)/128) block(128)
#pragma carve arg A = float[H*W] : random(1)
#pragma carve arg x = float[W] : random(2)
#pragma carve arg z = float[W] : random(3)
#pragma carve arg y = float[H] : zeros out
#pragma carve arg u = float[H] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-5)
#pragma carve work flops(4.0*H*W) bytes(4.0*(H*W + 2.0*W + 2.0*H))
#pragma carve baseline sgemv2(H, W)
__global__ void mv2(const float *A, const float *x, const float *z, float *y, float *u, int h, int w)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* row of A */
    if (idx < h) {
        float s = 0.0f, t = 0.0f;
        for (int i = 0; i < w; i++) {
            float a = A[idx * w + i];
            s += a * x[i];
            t += a * z[i];
        }
        y[idx] = s;
        u[idx] = t;
    }
}
