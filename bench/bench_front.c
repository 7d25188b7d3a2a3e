/* Front-end speed: parse a generated file of many kernels (with macros, device functions and
 * host code beside them) and report lines and megabytes per second. Not a test. */
#include "../src/front/front.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  int copies = argc > 1 ? atoi(argv[1]) : 2000;
  Buf b = {0};
  buf_puts(&b, "#define IDX(r, c, w) ((r) * (w) + (c))\n#define TILE 16\ntypedef float real;\n");
  int lines = 3;
  for (int i = 0; i < copies; i++) {
    buf_printf(&b,
      "__device__ real f%d(real a, real b) { return a * b + (real)%d; }\n"
      "__global__ void k%d(const real *A, const real *B, real *C, int n) {\n"
      "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
      "  __shared__ real tile[TILE][TILE + 1];\n"
      "  if (x < n && y < n) {\n"
      "    real s = 0.0f;\n"
      "    for (int i = 0; i < n; i++) s += f%d(A[IDX(y, i, n)], B[IDX(i, x, n)]);\n"
      "    tile[threadIdx.y][threadIdx.x] = s;\n"
      "    __syncthreads();\n"
      "    C[IDX(y, x, n)] = tile[threadIdx.x][threadIdx.y];\n"
      "  }\n"
      "}\n"
      "void host%d(float *d) { dim3 g(1, 1); k%d<<<g, 1>>>(d, d, d, 1); cudaDeviceSynchronize(); }\n",
      i, i, i, i, i, i);
    lines += 13;
  }
  double t0 = now();
  diag_out = stderr;
  Program *p = load_program_text("bench.cu", b.s, NULL);
  double t1 = now();
  int nk = 0;
  for (Obj *f = p ? p->funcs : NULL; f; f = f->next) nk += f->is_kernel;
  double mb = (double)b.len / 1e6;
  printf("parse: %d lines, %.2f MB, %d kernels in %.3f s: %.0f lines/s, %.1f MB/s\n", lines, mb, nk, t1 - t0,
         (double)lines / (t1 - t0), mb / (t1 - t0));
  buf_free(&b);
  return (p && nk == copies && diag_errors == 0) ? 0 : 1;
}
