/* The split pass beyond one accumulation along x: several accumulations in one loop (mv2, two
 * mat-vecs over one matrix), lanes along y (tmv: a column walk kept coalesced, partial sums
 * through shared memory, every thread reaching the barrier), and the refusals with reasons. */
#include "opt_test.h"
#include "test.h"
#include <stdlib.h>
#include <unistd.h>

static const PlanStep *split_step(const Plan *p) { return step(p, "split"); }

static bool kept(const Opt *r) { return r->rc == 0 && kept_step(split_step(&r->plan)); }

static char *source_of(const Opt *r, const char *file, const char *kernel) {
  Buf b = {0};
  opt_emit_source(&b, &r->plan, file, kernel);
  return b.s;
}

/* is a __syncthreads() statement one of the kernel body's own statements (not under an if)? */
static bool barrier_at_top(Program *p, const char *kernel) {
  Obj *k = find_kernel(p, kernel);
  for (Node *s = k ? k->body->stmts : NULL; s; s = s->next)
    if (s->kind == ND_EXPR_STMT && s->lhs->kind == ND_CALL && s->lhs->builtin == BI_SYNCTHREADS) return true;
  return false;
}

/* mv2: both sums split across a warp, each reduced by its own shuffles */
static void test_mv2(void) {
  const char *sizes[][2] = {{"H=256", "W=256"}, {"H=200", "W=333"}};
  for (int z = 0; z < 2; z++) {
    OptOptions o = {.only = "split", .mutation_pass = -1};
    Opt r = run_opt("examples/mv2.cu", "mv2", sizes[z], 2, &o);
    const PlanStep *s = split_step(&r.plan);
    CHECK(kept(&r) && all_sizes_ok(s), "mv2 %s %s: split and verified at reduced, ragged and full sizes (%s)", sizes[z][0], sizes[z][1],
          s ? (s->applied ? s->verify.size[1].detail : s->why) : r.plan.error);
    CHECK(s && strstr(s->did, "the sums into 's', 't'"), "both accumulators named (%s)", s ? s->did : "");
    CHECK(s && s->verify.size[0].compared == 64 * 64 + 4 * 64, "reduced size: A, x, z, y and u compared (%lld)",
          s ? (long long)s->verify.size[0].compared : -1LL);
    char *src = source_of(&r, "examples/mv2.cu", "mv2");
    CHECK(src && strstr(src, "s += __shfl_down_sync(group, s, 16u, 32)") && strstr(src, "t += __shfl_down_sync(group, t, 16u, 32)") &&
          strstr(src, "t += __shfl_down_sync(group, t, 1u, 32)"), "each accumulator has its own shuffle tree:\n%s", src ? src : "");
    Program *q = src ? load_program_text("out.cu", src, NULL) : NULL;
    CHECK(q && q->errors == 0, "the output parses again");
    if (q) program_free(q);
    free(src);
    done(&r);
  }
  /* the two sums written without the local, and along y */
  char *text = fmt("#ifndef N\n#define N 300\n#endif\n#pragma carve launch k grid((N+63)/64) block(64)\n"
                   "#pragma carve arg A = float[N*N] : random(1)\n#pragma carve arg x = float[N] : random(2)\n#pragma carve arg z = float[N] : random(3)\n"
                   "#pragma carve arg y = float[N] : random(4) out\n#pragma carve arg u = float[N] : random(5) out\n#pragma carve arg n = N\n#pragma carve tol rel(1e-5)\n"
                   "__global__ void k(const float *A, const float *x, const float *z, float *y, float *u, int n) {\n"
                   "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n  if (r < n) {\n    float s = 0, t = 0;\n"
                   "    for (int i = 0; i < n; i++) { s += A[r * n + i] * x[i]; t += A[r * n + i] * z[i]; }\n    y[r] = s; u[r] = t;\n  }\n}\n");
  char *path = write_tmp(text);
  const char *d[] = {"N=300"};
  for (int along = 0; along < 2; along++)
    for (int L = 4; L <= 32; L *= 2) {
      const char *sets[] = {fmt("split.lanes=%d", L), fmt("split.along=%d", along)};
      OptOptions o = {.only = "split", .sets = sets, .nsets = 2, .mutation_pass = -1};
      Opt r = run_opt(path, "k", d, 1, &o);
      const PlanStep *s = split_step(&r.plan);
      CHECK(kept(&r) && all_sizes_ok(s), "two sums without a local, %d lanes along %s: verified (%s)", L, along ? "y" : "x",
            s ? (s->applied ? s->verify.size[1].detail : s->why) : r.plan.error);
      done(&r);
    }
  unlink(path);
}

/* tmv along y: block (bw, lanes), the column walk stays coalesced, the barrier outside the guard */
static void test_tmv_y(void) {
  const char *sizes[][2] = {{"H=256", "W=256"}, {"H=77", "W=333"}, {"H=300", "W=61"}};
  static const int width[] = {128, 128, 64, 32};   /* bx = 128 halved until bx * lanes <= 1024 */
  for (int z = 0; z < 3; z++)
    for (int li = 0; li < 4; li++) {
      int L = 4 << li;
      const char *sets[] = {fmt("split.lanes=%d", L), "split.along=1"};
      OptOptions o = {.only = "split", .sets = sets, .nsets = 2, .mutation_pass = -1};
      Opt r = run_opt("examples/tmv.cu", "tmv", sizes[z], 2, &o);
      const PlanStep *s = split_step(&r.plan);
      CHECK(kept(&r) && all_sizes_ok(s), "tmv %s %s, %d lanes along y: verified (%s)", sizes[z][0], sizes[z][1], L,
            s ? (s->applied ? s->verify.size[1].detail : s->why) : r.plan.error);
      CHECK(r.rc == 0 && r.plan.block[0] == width[li] && r.plan.block[1] == L && r.plan.block[0] * r.plan.block[1] <= 1024,
            "block %lldx%lld for %d lanes", (long long)r.plan.block[0], (long long)r.plan.block[1], L);
      CHECK(r.rc == 0 && r.plan.result && barrier_at_top(r.plan.result, "tmv"), "the barrier is a statement of the kernel's body, reached by every thread");
      if (z == 0 && L == 8) {
        char *src = source_of(&r, "examples/tmv.cu", "tmv");
        CHECK(src && strstr(src, "for (int i = lane; i < h; i += 8)") && strstr(src, "__shared__ float part_sum[8][128];") &&
              strstr(src, "}\n  part_sum[lane][threadIdx.x] = sum;\n  __syncthreads();") && strstr(src, "if (lane == 0)") &&
              strstr(src, "block(128, 8, 1)"), "the walk strides by lanes, every thread stores its partial, then the barrier:\n%s", src ? src : "");
        free(src);
      }
      done(&r);
    }
}

/* the guard given as an early return, and declarations the tail reads */
static void test_y_shapes(void) {
  static const char *cases[] = {
    /* `if (c) return;` becomes a guard around the rest */
    "__global__ void k(const float *A, const float *x, float *y, int h, int w) {\n  int c = blockIdx.x * blockDim.x + threadIdx.x;\n  if (c >= w) return;\n"
    "  float s = 0.0f;\n  for (int i = 0; i < h; i++) s += A[i * w + c] * x[i];\n  y[c] = s;\n}\n",
    /* the tail reads a declaration made inside the guard; the accumulator is declared before it */
    "__global__ void k(const float *A, const float *x, float *y, int h, int w) {\n  int c = blockIdx.x * blockDim.x + threadIdx.x;\n  float s = 0.0f;\n"
    "  if (c < w) {\n    int o = c * 2;\n    float b = x[0] * 0.5f;\n    for (int i = 0; i < h; i += 2) s += A[i * w + c] * x[i];\n    y[o / 2] = s + b;\n  }\n}\n",
    /* no guard at all, the loop at the top level (the column clamped instead) */
    "__global__ void k(const float *A, const float *x, float *y, int h, int w) {\n  int c = min(blockIdx.x * blockDim.x + threadIdx.x, w - 1);\n"
    "  float s = 0.0f;\n  for (int i = 1; i < h; i++) s += A[i * w + c] * x[i];\n  y[c] = s;\n}\n",
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    char *text = fmt("#ifndef W\n#define W 320\n#endif\n#ifndef H\n#define H 100\n#endif\n#pragma carve launch k grid((W+63)/64) block(64)\n"
                     "#pragma carve arg A = float[H*W] : random(1)\n#pragma carve arg x = float[H] : random(2)\n#pragma carve arg y = float[W] : random(3) out\n"
                     "#pragma carve arg h = H\n#pragma carve arg w = W\n#pragma carve tol rel(1e-5)\n%s", cases[c]);
    char *path = write_tmp(text);
    const char *d[] = {"W=320", "H=100"};
    const char *sets[] = {"split.lanes=16", "split.along=1"};
    OptOptions o = {.only = "split", .sets = sets, .nsets = 2, .mutation_pass = -1};
    Opt r = run_opt(path, "k", d, 2, &o);
    const PlanStep *s = split_step(&r.plan);
    CHECK(kept(&r) && all_sizes_ok(s), "y case %zu: verified (%s)", c, s ? (s->applied ? s->verify.size[1].detail : s->why) : r.plan.error);
    CHECK(r.rc == 0 && r.plan.result && barrier_at_top(r.plan.result, "k"), "y case %zu: the barrier outside any guard", c);
    done(&r);
    unlink(path);
  }
}

/* refusals, each with its reason */
static void test_refusals(void) {
  static const struct { const char *src; const char *set, *why; bool tol; } cases[] = {
    /* an accumulator read inside the loop */
    {"float s = 0.0f; for (int j = 0; j < n; j++) s += b[j] * s;", NULL, "'s' is read inside the loop", true},
    {"float s = 0.0f, t = 0.0f; for (int j = 0; j < n; j++) { s += b[j]; t += s; }", NULL, "'s' is read inside the loop", true},
    {"float s = 0.0f; for (int j = 0; j < n; j++) { float v = b[j] + s; s += v; }", NULL, "'s' is read inside the loop", true},
    /* a loop-carried value that is not an accumulation */
    {"float s = 0.0f, p = 0.0f; for (int j = 0; j < n; j++) { s += b[j] * p; p = b[j]; }", NULL, "not one accumulation", true},
    {"float s = 0.0f; for (int j = 0; j < n; j++) { s += b[j]; s *= 0.5f; }", NULL, "not one accumulation", true},
    /* an accumulator that starts at a value with a side effect: every lane would run it (a start
     * free of side effects is split: each lane starts at 0 and the start is added once) */
    {"float s = (float)(n++); for (int j = 0; j < n; j++) s += b[j];", NULL, "side effects", true},
    /* an accumulator declared in the loop is not carried */
    {"for (int j = 0; j < n; j++) { float s = 0.0f; s += b[j]; a[i] = s; }", NULL, "declared before the loop", true},
    /* along y: the kernel reads threadIdx.y */
    {"float s = 0.0f; for (int j = threadIdx.y; j < n; j++) s += b[j];", "split.along=1", "threadIdx.y", true},
    /* along y: a return inside the guard would keep threads from the barrier */
    {"float s = 0.0f; if (i < n) { if (i == 3) return; for (int j = 0; j < n; j++) s += b[j]; a[i] = s; }", "split.along=1", "barrier", true},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    char *text = fmt("#ifndef N\n#define N 300\n#endif\n#pragma carve launch k grid((N+63)/64) block(64)\n"
                     "#pragma carve arg b = float[N] : random(1, 0, 8)\n#pragma carve arg a = float[N] : random(2) out\n#pragma carve arg n = N\n#pragma carve tol rel(1e-5)\n"
                     "__global__ void k(const float *b, float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n%s\n%s }\n", cases[c].src,
                     strstr(cases[c].src, "a[i]") ? "" : "if (i < n) a[i] = s;");
    char *path = write_tmp(text);
    const char *d[] = {"N=300"};
    const char *sets[] = {cases[c].set};
    /* split's own refusals: canon would make case 8's early return a guard split takes */
    OptOptions o = {.only = "split", .skip = "canon", .sets = sets, .nsets = cases[c].set != NULL, .mutation_pass = -1};
    Opt r = run_opt(path, "k", d, 1, &o);
    const PlanStep *s = split_step(&r.plan);
    CHECK(r.rc == 0 && s && !s->applied && strstr(s->why, cases[c].why), "refusal %zu: not applied because %s (%s)", c, cases[c].why,
          s ? s->why : r.plan.error);
    done(&r);
    unlink(path);
  }
  /* a floating-point sum without a tolerance: reassociated, so it is held to the reassociation
   * bound on its own data (2*n*eps*S, the original rerun on magnitudes and ones) and kept */
  char *text = "#pragma carve launch k grid(4) block(64)\n#pragma carve arg b = float[256] : random(1)\n#pragma carve arg a = float[256] : random(2) out\n"
               "__global__ void k(const float *b, float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; float s = 0.0f;\n"
               "  for (int j = 0; j < 256; j++) s += b[j] * b[(j + i) % 256]; a[i] = s; }\n";
  char *path = write_tmp(text);
  for (int along = 0; along < 2; along++) {
    const char *sets[] = {along ? "split.along=1" : "split.along=0"};
    OptOptions o = {.only = "split", .sets = sets, .nsets = 1, .mutation_pass = -1};
    Opt r = run_opt(path, "k", NULL, 0, &o);
    const PlanStep *s = split_step(&r.plan);
    CHECK(r.rc == 0 && s && s->applied && !s->rejected && s->verified, "no tolerance, along %s: the reassociated sum is verified within the bound (%s)",
          along ? "y" : "x", s ? s->verify.size[0].detail : r.plan.error);
    done(&r);
  }
  unlink(path);
}

/* the estimate chooses lanes and where they sit: every candidate estimated */
static void test_model_choice(void) {
  const char *d[] = {"H=1024", "W=1024"};
  OptOptions o = {.only = "split", .estimate = true, .no_findings = true, .mutation_pass = -1};
  Opt r = run_opt("examples/tmv.cu", "tmv", d, 2, &o);
  const PlanStep *s = split_step(&r.plan);
  int estimated = 0, along_y = 0;
  for (int i = 0; s && i < s->ncand; i++) {
    estimated += s->cand_ms[i] > 0;
    along_y += s->cand_value2[i] == 1 && s->cand_ms[i] > 0;
  }
  CHECK(s && s->ncand_params == 2 && s->ncand == 8 && estimated == 8 && along_y == 4, "tmv: 4 lanes values x 2 layouts estimated (%d of %d)", estimated,
        s ? s->ncand : 0);
  CHECK(kept(&r), "tmv: the chosen split is kept and verified (%s)", s ? (s->applied ? s->did : s->why) : r.plan.error);
  done(&r);
}

int main(void) {
  test_mv2();
  test_tmv_y();
  test_y_shapes();
  test_refusals();
  test_model_choice();
  return TEST_SUMMARY("split");
}
