/* aos_soa: array of structures versus structure of arrays.
 *
 * Thesis: Cornelis (VUB 2010), Ch. 4 "Parallel Data Access", §4.3.1 "Array of Structures"
 * (AOS_T = {int a, b, c}, 12 B, "never possible to read ... in a coalesced fashion"; SOA_T holds
 * three int pointers) and Table 4.3: 8,388,608 elements, 8500GT 182 -> 31 ms (5.9x),
 * GTX280 5 -> 1.8 ms (2.8x).
 *
 * What is measured: two kernels doing the same work on N records, reading the first FIELDS of the
 * fields a, b, c of record i and writing one int per record:
 *   aos  records in one array of 12-B structs: s[i].a, s[i].b, s[i].c  (lanes 12 B apart)
 *   soa  three separate int arrays a[i], b[i], c[i]                     (lanes 4 B apart)
 * The thesis kernel's body is not given; reading all three fields (FIELDS = 3) is its case,
 * FIELDS = 1, 2 show what changes when a kernel uses only part of each record.
 * (The AoS buffer is passed as int[3N] and cast to AOS_T*: carve launch specs cannot declare a
 * buffer of a struct type, see the report; the device code is the thesis's struct access.)
 *
 * Sweep: FIELDS = 1 2 3, for each kernel.
 *
 * Model (sm_90: 32-B sectors, whole-warp 128-B requests, L1 keeps the lines between the field
 * loads of one thread):
 *   aos: each field load of a warp spans 384 B (12 sectors/request, 128-B aligned); a 12-B stride
 *        touches every sector of that span, so DRAM reads are 12N bytes whatever FIELDS is;
 *        the b and c loads hit L1. L1 requests x sectors = FIELDS x 12.
 *   soa: 4 sectors/request, DRAM reads 4N * FIELDS bytes.
 *   Both write 4N bytes. Bandwidth-bound time: t_aos = 16N/BW, t_soa = (4 FIELDS + 4)N/BW,
 *   so aos/soa = 2.0, 1.33, 1.0 for FIELDS = 1, 2, 3 (N = 16 Mi, BW 2.85 TB/s: t_aos ~ 94 us,
 *   t_soa ~ 47, 71, 94 us). The thesis's 2.8x at FIELDS = 3 does not carry over: CC 1.3 moved
 *   192 B per half-warp field load for 64 B used (3x), CC 1.1 issued 16 transactions (5.9x);
 *   Hopper's L1 merges the three field loads of a record into the same fetched sectors.
 */
#ifndef FIELDS
#define FIELDS 3
#endif
#ifndef N
#define N (1 << 24) /* 16 Mi records: 192 MiB as AoS (2x the thesis's 8,388,608) */
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

typedef struct {
    int a;
    int b;
    int c;
} AOS_T;

#pragma carve launch aos grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg records = int[3 * N] : random(1)
#pragma carve arg out = int[N] : zeros out
#pragma carve arg n = N
__global__ void aos(const int *records, int *out, int n)
{
    const AOS_T *s = (const AOS_T *)records;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int r = s[i].a;
#if FIELDS >= 2
        r += 3 * s[i].b;
#endif
#if FIELDS >= 3
        r += 5 * s[i].c;
#endif
        out[i] = r;
    }
}

#pragma carve launch soa grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg a = int[N] : random(1)
#pragma carve arg b = int[N] : random(2)
#pragma carve arg c = int[N] : random(3)
#pragma carve arg out = int[N] : zeros out
#pragma carve arg n = N
__global__ void soa(const int *a, const int *b, const int *c, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int r = a[i];
#if FIELDS >= 2
        r += 3 * b[i];
#endif
#if FIELDS >= 3
        r += 5 * c[i];
#endif
        out[i] = r;
    }
}
