/* shared_wide: bank conflicts of 64-bit and 128-bit shared-memory accesses versus stride.
 *
 * Thesis: Cornelis (VUB 2010), Ch. 4 "Parallel Data Access", §4.1-4.2 (banks, conflicts,
 * broadcast; Listing 4.2 and Table 4.2 use 32-bit floats only). The wide accesses are the sm_90
 * extension: a warp's 8-B access is served per half-warp and a 16-B access per quarter-warp, so
 * the "ideal" is 2 or 4 wavefronts and the conflict degree is counted inside those groups.
 *
 * What is measured: each block loads a 1024-element table into shared memory once; then each lane
 * reads element lane * STRIDE, ITERS times, as a pointer chase (the element holds its own index,
 * so every load depends on the previous one and the compiler can neither drop nor merge them):
 *   shared_wide8   double elements (LDS.64): index in the high 32 bits, payload float in the low
 *   shared_wide16  float4 elements (LDS.128): index as the bit pattern of .x, payload .y .z .w
 * (a volatile float4 would not compile in CUDA C++, and converting a stored value to an index
 * would add conversion-unit work; the bit reinterpretations are free.) Read-only, so all warps of
 * a block share one table: 8 KiB / 16 KiB per block; the loops' unroll pragmas keep registers
 * at <= 32 (nvcc 13.0: 14 and 18), so 8 blocks (64 warps) are resident per SM for every STRIDE.
 * BLOCK must be 256.
 *
 * Sweep: STRIDE = 1 2 3 4 5 6 7 8 12 16 17 24 32 33 for both kernels (any value 0..33 is valid;
 * 0 = all lanes on one element, a broadcast).
 *
 * Model (sm_90: 32 banks x 4 B; an 8-B access occupies 2 banks, a 16-B access 4):
 *   shared_wide8:  wavefronts per instruction = 2 * gcd(STRIDE, 16)
 *                  -> 2, 4, 2, 8, 2, 4, 2, 16, 8, 32, 2, 16, 32, 2 for the sweep above;
 *   shared_wide16: wavefronts per instruction = 4 * gcd(STRIDE, 8)
 *                  -> 4, 8, 4, 16, 4, 8, 4, 32, 16, 32, 4, 32, 32, 4;
 *   (both = the largest number of distinct 4-B words any bank holds among the warp's 32 accesses;
 *   measured on an H100: float2 / float4 stride 1 = 2 / 4, float4 stride 2 = 8.) ncu counts as
 *   "bank conflicts" only the wavefronts above the ideal 2 or 4.
 *   Shared-bandwidth-bound (1 wavefront per clock per SM; 64 warps keep it busy):
 *     t ~ t_0 + ITERS * warps_per_SM * wavefronts / f_clk: 4224 blocks = 4 waves x 132 x 8,
 *   256 warps per SM x 192 iterations = 49 K clocks per wavefront: shared_wide8 ~ 0.05 ms at
 *   stride 1 and ~0.8 ms at 32 wavefronts; shared_wide16 ~ 0.1 ms at stride 1.
 *   Bytes per wavefront are 128 in the ideal case for every width, so the conflict-free bandwidth
 *   is the same as for 32-bit accesses (shared_conflict.cu).
 */
#ifndef STRIDE
#define STRIDE 1
#endif
#ifndef ITERS
#define ITERS 192
#endif
#ifndef BLOCKS
#define BLOCKS (132 * 8 * 4) /* 4 full waves on an H100 at 8 blocks per SM */
#endif
#define BLOCK 256
/* elements in the table: must hold element 31 * STRIDE (1024 for strides up to 33) */
#define REGION (31 * (STRIDE > 33 ? STRIDE : 33) + 1)

#pragma carve launch shared_wide8 grid(BLOCKS) block(BLOCK)
#pragma carve arg in = float[REGION] : random(1)
#pragma carve arg out = float[BLOCKS * BLOCK] : zeros out
#pragma carve arg iters = ITERS
__global__ void shared_wide8(const float *in, float *out, int iters)
{
    __shared__ double s[REGION];
#pragma unroll 1
    for (int e = threadIdx.x; e < REGION; e += BLOCK) {
        long long bits = ((long long)e << 32) | (long long)(unsigned int)__float_as_int(in[e]);
        s[e] = __longlong_as_double(bits);
    }
    __syncthreads();
    int j = (threadIdx.x & 31) * STRIDE;
    float acc = 0.0f;
#pragma unroll 2
    for (int k = 0; k < iters; k++) {
        long long b = __double_as_longlong(s[j]);
        j = (int)(b >> 32);
        acc += __int_as_float((int)(b & 0xffffffffLL));
    }
    out[blockIdx.x * BLOCK + threadIdx.x] = acc + (float)j;
}

#pragma carve launch shared_wide16 grid(BLOCKS) block(BLOCK)
#pragma carve arg in = float4[REGION] : random(1)
#pragma carve arg out = float[BLOCKS * BLOCK] : zeros out
#pragma carve arg iters = ITERS
__global__ void shared_wide16(const float4 *in, float *out, int iters)
{
    __shared__ float4 s[REGION];
#pragma unroll 1
    for (int e = threadIdx.x; e < REGION; e += BLOCK) {
        float4 v = in[e];
        v.x = __int_as_float(e);
        s[e] = v;
    }
    __syncthreads();
    int j = (threadIdx.x & 31) * STRIDE;
    float acc = 0.0f;
#pragma unroll 2
    for (int k = 0; k < iters; k++) {
        float4 v = s[j];
        j = __float_as_int(v.x);
        acc += v.y + v.z + v.w;
    }
    out[blockIdx.x * BLOCK + threadIdx.x] = acc + (float)j;
}
