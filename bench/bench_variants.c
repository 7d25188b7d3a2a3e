/* Variants per second: what a search pays per variant before any GPU or NVRTC work.
 *   front:    clone + edit + program_finish + free
 *   analyzed: the same + launch preparation + a sampled analysis (2 blocks, 2e4 warp-steps) in
 *             the variant's arena
 * The edit declares a new local at the top of the kernel (a rewrite that moves every later
 * slot). usage: bench_variants FILE KERNEL SECONDS [NAME=VALUE...]. Not a test. */
#include "../src/opt/opt.h"
#include "../src/analysis/analysis.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static Program *variant(Program *p, const char *kernel) {
  Program *v = program_clone(p);
  if (!v) return NULL;
  Obj *k = find_kernel(v, kernel);
  ProgramScope s = program_enter(v);
  Token *at = k->body->tok;
  Obj *t = rw_new_var(v, k, "carve_t", ty_int, SC_LOCAL, at);
  rw_insert_before(&k->body->stmts, rw_decl(t, rw_num(at, 1)));
  program_leave(s);
  program_finish(v);
  return v;
}

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: bench_variants FILE KERNEL SECONDS [NAME=VALUE...]\n"); return 2; }
  PPOptions pp = {.defines = (const char **)argv + 4, .n_defines = argc - 4};
  Program *p = load_program(argv[1], &pp);
  if (!p || !find_kernel(p, argv[2])) { fprintf(stderr, "bench_variants: cannot load %s\n", argv[1]); return 2; }
  double secs = atof(argv[3]);
  const Machine *m = machine_find("h100");
  for (int mode = 0; mode < 2; mode++) {
    long n = 0;
    double t0 = now(), t1 = t0;
    while (t1 - t0 < secs) {
      Program *v = variant(p, argv[2]);
      if (!v) return 1;
      if (mode) {
        ProgramScope s = program_enter(v);
        Launch L;
        if (!launch_prepare(&L, v, find_kernel(v, argv[2]), NULL)) {
          Analysis a;
          AnalyzeOptions ao = {.max_blocks = 2, .budget = 20000};
          analyze(&a, &L, m, &ao);
          analysis_free(&a);
          launch_free(&L);
        }
        program_leave(s);
      }
      program_free(v);
      n++;
      if (n % 16 == 0) t1 = now();
    }
    t1 = now();
    printf("  %s %s: %.0f variants/s (%ld in %.2f s)\n", argv[2], mode ? "clone+edit+finish+analyze+free" : "clone+edit+finish+free",
           (double)n / (t1 - t0), n, t1 - t0);
  }
  program_free(p);
  return 0;
}
