/* C references for the bundled kernels (the .cu files in examples/): plain sequential host code
 * computing exactly what each kernel computes, in the same float type. Where nvcc contracts
 * `s += a*b` (or `a*b + c*d`) into an FMA, the reference uses fmaf at the same place so results
 * match closely: nvcc fuses the left product of `a*b + c*d` (fma(a, b, c*d)) and leaves
 * `a*b - c*d` unfused at the PTX level. Float additions are done in the kernel's order wherever
 * that order is fixed, so the remaining differences come only from contraction choices and libm.
 * See ref.h for the contract. */
#include "ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define IN_F(name)  ((const float *)ref_in(c, name))
#define OUT_F(name) ((float *)ref_out(c, name))
#define INT(name)   ((int)ref_int(c, name))

/* ---- Yang et al., PLDI 2010 ---------------------------------------------------------------- */

static void ref_mm(RefCtx *c)
{
    const float *A = IN_F("A"), *B = IN_F("B");
    float *C = OUT_F("C");
    int n = INT("n");
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            float sum = 0.0f;
            for (int i = 0; i < n; i++)
                sum = fmaf(A[y * n + i], B[i * n + x], sum);
            C[y * n + x] = sum;
        }
}

static void ref_mv(RefCtx *c)
{
    const float *A = IN_F("A"), *x = IN_F("x");
    float *y = OUT_F("y");
    int h = INT("h"), w = INT("w");
    for (int r = 0; r < h; r++) {
        float sum = 0.0f;
        for (int i = 0; i < w; i++)
            sum = fmaf(A[r * w + i], x[i], sum);
        y[r] = sum;
    }
}

static void ref_tmv(RefCtx *c)
{
    const float *A = IN_F("A"), *x = IN_F("x");
    float *y = OUT_F("y");
    int h = INT("h"), w = INT("w");
    for (int col = 0; col < w; col++) {
        float sum = 0.0f;
        for (int i = 0; i < h; i++)
            sum = fmaf(A[i * w + col], x[i], sum);
        y[col] = sum;
    }
}

static void ref_vv(RefCtx *c)   /* C starts as its initial contents: C += a b^T */
{
    const float *a = IN_F("a"), *b = IN_F("b");
    float *C = OUT_F("C");
    int h = INT("h"), w = INT("w");
    for (int r = 0; r < h; r++)
        for (int col = 0; col < w; col++)
            C[r * w + col] = fmaf(a[r], b[col], C[r * w + col]);
}

static void ref_rd(RefCtx *c)   /* stage 1 only: strided partial sums, in the kernel's order */
{
    const float *A = IN_F("A");
    float *partial = OUT_F("partial");
    int n = INT("n"), seg = INT("seg");
    for (int t = 0; t < seg; t++) {
        float sum = 0.0f;
        for (int k = t; k < n; k += seg)
            sum += A[k];
        partial[t] = sum;
    }
}

/* Forward substitution written row by row (the kernel goes column by column); each element sees
 * the same operations in the same order (k ascending), so the results are identical. */
static void ref_strsm(RefCtx *c)
{
    const float *L = IN_F("L");
    float *B = OUT_F("B");   /* starts as the right-hand sides, ends as X */
    int n = INT("n"), m = INT("m");
    for (int i = 0; i < n; i++)
        for (int k = 0; k < i; k++)
            for (int j = 0; j < m; j++)
                B[i * m + j] = fmaf(-L[i * n + k], B[k * m + j], B[i * m + j]);
}

static void ref_conv(RefCtx *c)
{
    const float *A = IN_F("A"), *F = IN_F("F");
    float *C = OUT_F("C");
    int n = INT("n"), k = INT("k"), wa = n + k - 1;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            float sum = 0.0f;
            for (int j = 0; j < k; j++)
                for (int i = 0; i < k; i++)
                    sum = fmaf(A[(y + k - 1 - j) * wa + (x + k - 1 - i)], F[j * k + i], sum);
            C[y * n + x] = sum;
        }
}

static void ref_tp(RefCtx *c)
{
    const float *A = IN_F("A");
    float *C = OUT_F("C");
    int h = INT("h"), w = INT("w");
    for (int r = 0; r < h; r++)
        for (int col = 0; col < w; col++)
            C[col * h + r] = A[r * w + col];
}

static float mean4(float a, float b, float c, float d) { return (a + b + c + d) * 0.25f; }
static float mean2(float a, float b) { return (a + b) * 0.5f; }

static void ref_demosaic(RefCtx *c)   /* RGGB, bilinear; raw has a 1-pixel border */
{
    const float *raw = IN_F("raw");
    float *R = OUT_F("R"), *G = OUT_F("G"), *B = OUT_F("B");
    int h = INT("h"), w = INT("w"), pw = w + 2;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const float *p = raw + (y + 1) * pw + (x + 1);
            float up = p[-pw], down = p[pw], left = p[-1], right = p[1];
            float edges = mean4(up, left, right, down);
            float corners = mean4(p[-pw - 1], p[-pw + 1], p[pw - 1], p[pw + 1]);
            float r, g, b;
            if (y % 2 == 0 && x % 2 == 0) {          /* red */
                r = *p; g = edges; b = corners;
            } else if (y % 2 == 1 && x % 2 == 1) {   /* blue */
                r = corners; g = edges; b = *p;
            } else if (y % 2 == 0) {                 /* green, red row */
                r = mean2(left, right); g = *p; b = mean2(up, down);
            } else {                                 /* green, blue row */
                r = mean2(up, down); g = *p; b = mean2(left, right);
            }
            R[y * w + x] = r;
            G[y * w + x] = g;
            B[y * w + x] = b;
        }
}

static void ref_imregionmax(RefCtx *c)
{
    const float *A = IN_F("A");
    int *C = (int *)ref_out(c, "C");
    int h = INT("h"), w = INT("w"), pw = w + 2;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const float *p = A + (y + 1) * pw + (x + 1);
            float m = p[-pw - 1];
            const float nb[7] = { p[-pw], p[-pw + 1], p[-1], p[1], p[pw - 1], p[pw], p[pw + 1] };
            for (int i = 0; i < 7; i++)
                if (nb[i] > m)
                    m = nb[i];
            C[y * w + x] = (m > *p) ? 0 : 1;
        }
}

/* ---- Ryoo, PhD thesis, UIUC 2008 ------------------------------------------------------------ */

static void ref_cp(RefCtx *c)
{
    const float *atoms = IN_F("atoms");
    float *E = OUT_F("energygrid");
    int natoms = INT("natoms"), gx = INT("gx"), gy = INT("gy");
    float gs = (float)ref_f64(c, "gridspacing"), z = (float)ref_f64(c, "z");
    for (int j = 0; j < gy; j++) {
        float y = gs * (float)j;
        for (int i = 0; i < gx; i++) {
            float x = gs * (float)i;
            float energy = 0.0f;
            for (int a = 0; a < natoms; a++) {
                const float *at = atoms + 4 * a;
                float dx = x - at[0], dy = y - at[1], dz = z - at[2];
                /* nvcc: dx*dx + dy*dy + dz*dz -> fma(dz, dz, fma(dx, dx, dy*dy)) */
                energy += at[3] / sqrtf(fmaf(dz, dz, fmaf(dx, dx, dy * dy)));
            }
            E[gx * j + i] = energy;
        }
    }
}

static void ref_sad(RefCtx *c)   /* the loop nest of Ryoo's Fig. 4.1 */
{
    const unsigned char *frame = ref_in(c, "frame"), *refr = ref_in(c, "ref");
    int *sads = (int *)ref_out(c, "sads");
    int w = INT("w"), h = INT("h"), sr = INT("sr");
    int side = 2 * sr + 1, rw = w + 2 * sr;
    for (int blockY = 0; blockY < h / 4; blockY++)
        for (int blockX = 0; blockX < w / 4; blockX++)
            for (int offY = -sr; offY <= sr; offY++)
                for (int offX = -sr; offX <= sr; offX++) {
                    int s = 0;
                    for (int pixY = 0; pixY < 4; pixY++)
                        for (int pixX = 0; pixX < 4; pixX++) {
                            int r = refr[(blockY * 4 + offY + pixY + sr) * rw
                                         + blockX * 4 + offX + pixX + sr];
                            int f = frame[(blockY * 4 + pixY) * w + blockX * 4 + pixX];
                            s += abs(r - f);
                        }
                    int blk = blockY * (w / 4) + blockX;
                    sads[(blk * side + (offY + sr)) * side + (offX + sr)] = s;
                }
}

#define PIx2 6.2831853071795864769f

/* 2pi * (kx*x + ky*y + kz*z) as nvcc evaluates it */
static float exp_arg(float kx, float ky, float kz, float x, float y, float z)
{
    return PIx2 * fmaf(kz, z, fmaf(kx, x, ky * y));
}

/* mriq and mrifhd use sinf/cosf: the interpreter calls the host libm like this reference, but a
 * GPU's sinf/cosf differ by an ulp or two and the kernels' contraction choices may differ, so
 * these cases get a looser tolerance (1e-4). */
static void ref_mriq(RefCtx *c)
{
    const float *kx = IN_F("kx"), *ky = IN_F("ky"), *kz = IN_F("kz");
    const float *x = IN_F("x"), *y = IN_F("y"), *z = IN_F("z");
    const float *phiR = IN_F("phiR"), *phiI = IN_F("phiI");
    float *Qr = OUT_F("Qr"), *Qi = OUT_F("Qi");
    int numK = INT("numK"), numX = INT("numX");
    for (int v = 0; v < numX; v++) {
        float qr = 0.0f, qi = 0.0f;
        for (int k = 0; k < numK; k++) {
            float phiMag = fmaf(phiR[k], phiR[k], phiI[k] * phiI[k]);
            float e = exp_arg(kx[k], ky[k], kz[k], x[v], y[v], z[v]);
            qr = fmaf(phiMag, cosf(e), qr);
            qi = fmaf(phiMag, sinf(e), qi);
        }
        Qr[v] = qr;
        Qi[v] = qi;
    }
}

static void ref_mrifhd(RefCtx *c)   /* Ryoo's Fig. 4.6, accumulating into the output buffers */
{
    const float *kx = IN_F("kx"), *ky = IN_F("ky"), *kz = IN_F("kz");
    const float *x = IN_F("x"), *y = IN_F("y"), *z = IN_F("z");
    const float *phiR = IN_F("phiR"), *phiI = IN_F("phiI"), *dR = IN_F("dR"), *dI = IN_F("dI");
    float *rFHD = OUT_F("rFHD"), *iFHD = OUT_F("iFHD");
    int numK = INT("numK"), numX = INT("numX");
    for (int k = 0; k < numK; k++) {
        float realRhoPhi = fmaf(phiR[k], dR[k], phiI[k] * dI[k]);
        float imagRhoPhi = phiR[k] * dI[k] - phiI[k] * dR[k];
        for (int v = 0; v < numX; v++) {
            float e = exp_arg(kx[k], ky[k], kz[k], x[v], y[v], z[v]);
            float cosArg = cosf(e), sinArg = sinf(e);
            rFHD[v] += realRhoPhi * cosArg - imagRhoPhi * sinArg;
            iFHD[v] += fmaf(imagRhoPhi, cosArg, realRhoPhi * sinArg);
        }
    }
}

/* ---- Cornelis, master's thesis, VUB 2010, and the classic examples ------------------------ */

static void ref_scan(RefCtx *c)   /* per-tile exclusive scan; integers, so order is irrelevant */
{
    int grid[3], block[3];
    ref_grid(c, grid, block);
    const int *in = ref_in(c, "in");
    int *out = (int *)ref_out(c, "out"), *sums = (int *)ref_out(c, "sums");
    int n = INT("n"), tile = block[0];
    for (int b = 0; b < grid[0]; b++) {
        int run = 0;
        for (int t = 0; t < tile; t++) {
            int i = b * tile + t;
            out[i] = run;
            run += (i < n) ? in[i] : 0;
        }
        sums[b] = run;
    }
}

static void ref_histogram(RefCtx *c)
{
    const unsigned char *data = ref_in(c, "data");
    unsigned int *bins = (unsigned int *)ref_out(c, "bins");
    int n = INT("n");
    for (int i = 0; i < n; i++)
        bins[data[i]]++;
}

/* The kernel's interleaved tree, level by level, so the float sums are bit-identical. */
static void ref_reduce_shared(RefCtx *c)
{
    int grid[3], block[3];
    ref_grid(c, grid, block);
    const float *in = IN_F("in");
    float *partial = OUT_F("partial");
    int n = INT("n"), bs = block[0];
    float *s = malloc((size_t)bs * sizeof *s);
    if (!s)
        abort();
    for (int b = 0; b < grid[0]; b++) {
        for (int t = 0; t < bs; t++)
            s[t] = (b * bs + t < n) ? in[b * bs + t] : 0.0f;
        for (int stride = 1; stride < bs; stride *= 2)
            for (int t = 0; t + stride < bs; t += 2 * stride)
                s[t] += s[t + stride];
        partial[b] = s[0];
    }
    free(s);
}

/* Sizes are small so each case runs quickly in the interpreter, and deliberately not multiples of
 * the block size where the kernel has bounds checks, so the checks are exercised. */
static void ref_stencil(RefCtx *c) {
  const float *in = ref_in(c, "in");
  float *out = ref_out(c, "out");
  long long n = ref_int(c, "n");
  static const float w[7] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};
  for (long long g = 0; g < n; g++) {
    float acc = 0.0f;
    for (int k = 0; k < 7; k++) acc = fmaf(w[k], in[g + k], acc);
    out[g] = acc;
  }
}

static void ref_warpsum(RefCtx *c) {
  const int *x = ref_in(c, "x");
  int *sums = ref_out(c, "sums");
  size_t n = ref_count(c, "x");
  for (size_t w = 0; w < n / 32; w++) {
    int s = 0;
    for (int l = 0; l < 32; l++) s += x[w * 32 + l];
    sums[w] = s;
  }
}

const RefCase ref_cases[] = {
    { "mm.cu",            "mm",            "N=50",                   ref_mm,            1e-5 },
    { "mm_acc.cu",        "mm_acc",        "N=50",                   ref_mm,            1e-5 },
    { "mv.cu",            "mv",            "H=300 W=200",            ref_mv,            1e-5 },
    { "tmv.cu",           "tmv",           "H=200 W=300",            ref_tmv,           1e-5 },
    { "vv.cu",            "vv",            "H=40 W=50",              ref_vv,            1e-5 },
    { "rd.cu",            "rd",            "N=100000 SEG=1000",      ref_rd,            1e-6 },
    { "strsm.cu",         "strsm",         "N=64 M=80",              ref_strsm,         1e-5 },
    { "conv.cu",          "conv",          "N=40 K=5",               ref_conv,          1e-5 },
    { "tp.cu",            "tp",            "H=40 W=70",              ref_tp,            0 },
    { "demosaic.cu",      "demosaic",      "H=38 W=50",              ref_demosaic,      1e-6 },
    { "imregionmax.cu",   "imregionmax",   "H=40 W=50",              ref_imregionmax,   0 },
    { "cp.cu",            "cp",            "GX=40 GY=30 NATOMS=200", ref_cp,            1e-5 },
    { "sad.cu",           "sad",           "W=32 H=24 SR=8",         ref_sad,           0 },
    { "mriq.cu",          "mriq",          "NX=500 NK=300",          ref_mriq,          1e-4 },
    { "mrifhd.cu",        "mrifhd",        "NX=500 NK=300",          ref_mrifhd,        1e-4 },
    { "scan.cu",          "scan",          "N=1000",                 ref_scan,          0 },
    { "scan.cu",          "scan",          "N=3000 TILE=64",         ref_scan,          0 },
    { "histogram.cu",     "histogram",     "N=10000",                ref_histogram,     0 },
    { "reduce_shared.cu", "reduce_shared", "N=10000",                ref_reduce_shared, 1e-6 },
    { "reduce_shared.cu", "reduce_shared", "N=1000 BLOCK=64",        ref_reduce_shared, 1e-6 },
    { "stencil.cu",       "stencil1d",     "N=1000",                 ref_stencil,       1e-6 },
    { "warpsum.cu",       "warpsum",       "",                       ref_warpsum,       0 },
    {0}
};
