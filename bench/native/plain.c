/* The bundled kernels written as plain C loops (bench/native.sh): one thread's work in the
 * order the native engine runs the threads (blocks in order, threads of a block in order),
 * the arithmetic as a C programmer writes it, compiled with `cc -O2`, on one core.
 * usage: plain KERNEL SIZE -> prints the seconds of the computation (inputs made before). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static float *rnd(long n, unsigned seed) {
  float *a = malloc(sizeof(float) * (size_t)n);
  srand(seed);
  for (long i = 0; i < n; i++) a[i] = (float)rand() / (float)RAND_MAX;
  return a;
}

/* examples/mm.cu: grid (n/16, n/16), block (16, 16) */
static void mm(const float *A, const float *B, float *C, int n) {
  for (int by = 0; by < (n + 15) / 16; by++)
    for (int bx = 0; bx < (n + 15) / 16; bx++)
      for (int ty = 0; ty < 16; ty++)
        for (int tx = 0; tx < 16; tx++) {
          int idx = bx * 16 + tx, idy = by * 16 + ty;
          if (idx < n && idy < n) {
            float sum = 0.0f;
            for (int i = 0; i < n; i++) sum += A[idy * n + i] * B[i * n + idx];
            C[idy * n + idx] = sum;
          }
        }
}

/* examples/mv.cu: one thread per row, block 256 */
static void mv(const float *A, const float *x, float *y, int h, int w) {
  for (int i = 0; i < h; i++) {
    float sum = 0.0f;
    for (int j = 0; j < w; j++) sum += A[i * w + j] * x[j];
    y[i] = sum;
  }
}

/* examples/tp.cu: grid (h/16, w/16), block (16, 16) */
static void tp(const float *A, float *C, int h, int w) {
  for (int by = 0; by < (w + 15) / 16; by++)
    for (int bx = 0; bx < (h + 15) / 16; bx++)
      for (int ty = 0; ty < 16; ty++)
        for (int tx = 0; tx < 16; tx++) {
          int idx = bx * 16 + tx, idy = by * 16 + ty;
          if (idx < h && idy < w) C[idy * h + idx] = A[idx * w + idy];
        }
}

/* examples/mriq.cu: one thread per voxel, a loop over the k-space samples */
static void mriq(const float *kx, const float *ky, const float *kz, const float *phiR, const float *phiI, const float *x, const float *y,
                 const float *z, float *qr, float *qi, int nx, int nk) {
  for (int t = 0; t < nx; t++) {
    float r = 0.0f, im = 0.0f;
    for (int k = 0; k < nk; k++) {
      float mag = phiR[k] * phiR[k] + phiI[k] * phiI[k];
      float arg = 6.2831853071795864769f * (kx[k] * x[t] + ky[k] * y[t] + kz[k] * z[t]);
      r += mag * cosf(arg);
      im += mag * sinf(arg);
    }
    qr[t] = r;
    qi[t] = im;
  }
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: plain mm|mv|tp|mriq SIZE [SIZE2]\n"); return 2; }
  int n = atoi(argv[2]), m = argc > 3 ? atoi(argv[3]) : n;
  double t0, t1;
  if (!strcmp(argv[1], "mm")) {
    float *A = rnd((long)n * n, 1), *B = rnd((long)n * n, 2), *C = calloc((size_t)n * n, 4);
    t0 = now(); mm(A, B, C, n); t1 = now();
    printf("%.6f %g\n", t1 - t0, C[n + 1]);
  } else if (!strcmp(argv[1], "mv")) {
    float *A = rnd((long)n * m, 1), *x = rnd(m, 2), *y = calloc((size_t)n, 4);
    t0 = now(); mv(A, x, y, n, m); t1 = now();
    printf("%.6f %g\n", t1 - t0, y[1]);
  } else if (!strcmp(argv[1], "tp")) {
    float *in = rnd((long)n * m, 1), *out = calloc((size_t)n * m, 4);
    t0 = now(); tp(in, out, n, m); t1 = now();
    printf("%.6f %g\n", t1 - t0, out[1]);
  } else if (!strcmp(argv[1], "mriq")) {
    float *kx = rnd(m, 1), *ky = rnd(m, 2), *kz = rnd(m, 3), *pr = rnd(m, 4), *pi = rnd(m, 8), *x = rnd(n, 5), *y = rnd(n, 6), *z = rnd(n, 7);
    float *qr = calloc((size_t)n, 4), *qi = calloc((size_t)n, 4);
    t0 = now(); mriq(kx, ky, kz, pr, pi, x, y, z, qr, qi, n, m); t1 = now();
    printf("%.6f %g\n", t1 - t0, qr[1]);
  } else { fprintf(stderr, "plain: unknown kernel %s\n", argv[1]); return 2; }
  return 0;
}
