/* Resource queries per second: NVRTC in-process (what carving will use) on distinct variants
 * of a kernel, and the cache hit on a repeated one. Not a test. */
#include "../src/model/model.h"
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  diag_out = stderr;
  double t0 = now();
  int known = 0;
  Program *p = NULL;
  for (int i = 0; i < n; i++) {
    char *src = fmt("__global__ void k(const float *a, float *b, int n) {\n  float s = 0;\n#pragma unroll %d\n"
                    "  for (int j = 0; j < n; j++) s += a[j * %d + threadIdx.x];\n  b[threadIdx.x] = s;\n}\n", i + 1, i + 1);
    p = load_program_text("v.cu", src, NULL);
    Resources r = kernel_resources(p, find_kernel(p, "k"), "sm_90");
    if (!r.known) { printf("nvrtc: unavailable (%s)\n", r.why); return 0; }
    known++;
  }
  double t1 = now();
  Resources r = kernel_resources(p, find_kernel(p, "k"), "sm_90");
  double t2 = now();
  printf("nvrtc: %d distinct variants in %.2f s: %.1f compiles/s (%.0f ms each); cached query %.3f ms; last: %d registers\n", known,
         t1 - t0, known / (t1 - t0), 1e3 * (t1 - t0) / known, 1e3 * (t2 - t1), r.regs);
  return 0;
}
