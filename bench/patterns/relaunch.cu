/* relaunch: global synchronization by kernel relaunch, WORK operations per launch.
 *
 * Thesis: Cornelis (VUB 2010), Ch. 5 "Synchronization Points", §5.2 second and third kernels
 * (read global, m operations, write; relaunched until n = 100 operations are done; the third
 * kernel stages the data through shared memory), Fig. 5.2: "100 kernels with one statement is
 * almost 100 times slower than 1 kernel with 100 statements"; shared staging made little
 * difference. 8,388,608 elements.
 *
 * What is measured: ONE launch of the kernel that does WORK = m operations per element. The
 * thesis's experiment is a sequence of OPS / WORK launches (n = OPS = 100 operations in all, the
 * output of one launch the input of the next); carve bench times one launch, so the sweep runner
 * (or the reader) multiplies: T_total(WORK) = (OPS / WORK) * t_launch(WORK). The sweep values
 * divide OPS = 100, so the number of launches is exact. An operation is OPW (default 1) dependent
 * FMAs x = x * 0.999 + 0.001, the same operation as barrier_frequency.cu, so the two chapters'
 * synchronization costs compare directly.
 *   relaunch         x = in[i]; WORK operations; out[i] = x
 *   relaunch_shared  the same with the element staged through shared memory (store, barrier,
 *                    load at the start; store, barrier, load at the end), the thesis's third kernel;
 *                    BLOCK sizes its shared array and must equal blockDim.x
 *
 * Sweep: WORK = 1 2 4 5 10 20 25 50 100 (launches per 100 operations: 100 50 25 20 10 5 4 2 1).
 *
 * Model (derived; the thesis gives the curve and the ~100x ratio):
 *   t_launch(WORK) ~ t_ovh + max(t_RW, WORK * t_op)
 *   T_total(WORK)  = (OPS / WORK) * t_launch(WORK)
 * t_RW = 8N bytes / BW (N = 16 Mi: 128 MiB, ~47 us at 2.85 TB/s), t_op = N * OPW / (132 SMs x 128
 * lanes x 1.98 GHz) ~ 0.5 us, t_ovh = launch overhead + ramp (a few us between back-to-back
 * launches). Memory-bound for WORK up to ~t_RW / t_op ~ 90, so T_total(1) / T_total(100) ~ 100
 * (the thesis's ratio), minus what the L2 keeps between launches (it holds 50 MB of the 128 MiB).
 * relaunch_shared predicted equal to relaunch within a few %: the staging adds one STS, LDS and
 * barrier per element, far below t_RW.
 */
#ifndef WORK
#define WORK 1
#endif
#ifndef OPS
#define OPS 100 /* operations in the whole sequence; only documents the launch count */
#endif
#ifndef OPW
#define OPW 1
#endif
#ifndef N
#define N (1 << 24)
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

/* one operation: OPW dependent FMAs */
#define OP(x)                              \
    for (int w_ = 0; w_ < OPW; w_++)       \
        x = x * 0.999f + 0.001f;

#pragma carve launch relaunch grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
__global__ void relaunch(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        for (int k = 0; k < WORK; k++) {
            OP(x)
        }
        out[i] = x;
    }
}

#pragma carve launch relaunch_shared grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
__global__ void relaunch_shared(const float *in, float *out, int n)
{
    __shared__ float s[BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    float x = s[threadIdx.x];
    for (int k = 0; k < WORK; k++) {
        OP(x)
    }
    s[threadIdx.x] = x;
    __syncthreads();
    if (i < n)
        out[i] = s[threadIdx.x];
}
