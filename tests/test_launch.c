/* The launch pass (src/opt/pass_launch.c): each refusal with a small kernel, the guards that let
 * a shape which does not divide the original's threads through, the model choosing a shape (and
 * keeping the original's), --set launch.X=V, and the launch the output writes. */
#include "opt_test.h"
#include "test.h"
#include <stdlib.h>
#include <unistd.h>

/* one-dimensional: out[i] = 2*in[i] over N elements, the launch 64 a block */
#define HEAD1 "#pragma carve launch k grid((N+63)/64) block(64)\n#pragma carve arg in = float[N] : random(1)\n" \
              "#pragma carve arg out = float[N] : zeros out\n#pragma carve arg n = N\n"
/* two-dimensional: 16x16 blocks over a W x H image */
#define HEAD2 "#pragma carve launch k grid((W+15)/16, (H+15)/16) block(16, 16)\n#pragma carve arg in = float[W*H] : random(1)\n" \
              "#pragma carve arg out = float[W*H] : zeros out\n#pragma carve arg w = W\n#pragma carve arg h = H\n"

static Opt run_src(const char *src, const char **defs, int ndefs, const char **sets, int nsets, bool estimate, char **path) {
  *path = write_tmp(src);
  /* the pass's own recognition (its guards as written): without canon, which would make an
   * early return a guard */
  OptOptions o = {.only = "launch", .skip = "canon", .sets = sets, .nsets = nsets, .estimate = estimate, .mutation_pass = -1};
  return run_opt(*path, "k", defs, ndefs, &o);
}

static void test_refusals(void) {
  static const struct { const char *src, *sets[3], *why; Legality l; } cases[] = {
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  __shared__ float s[64];\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) { s[0] = in[i]; out[i] = s[0]; } }\n", {"launch.x=128"}, "it uses shared memory", NOT_APPLICABLE},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  __syncthreads();\n  if (i < n) out[i] = in[i]; }\n", {"launch.x=128"}, "synchronizes the block", NOT_APPLICABLE},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  float v = i < n ? in[i] : 0.0f;\n  v += __shfl_down_sync(0xffffffff, v, 1);\n  if (i < n) out[i] = v; }\n", {"launch.x=128"}, "warp-level", NOT_APPLICABLE},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) out[i] = in[i] + threadIdx.x; }\n", {"launch.x=128"}, "threadIdx.x is read outside a global index", NOT_APPLICABLE},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) out[i] = in[i] * blockDim.x; }\n", {"launch.x=128"}, "blockDim.x is read outside", NOT_APPLICABLE},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 64 * gridDim.x)\n"
     "    out[i] = in[i]; }\n", {"launch.x=128"}, "gridDim.x", NOT_APPLICABLE},
    {HEAD1 "__device__ float lane(void) { return threadIdx.x % 32; }\n__global__ void k(const float *in, float *out, int n) {\n"
     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = in[i] + lane(); }\n", {"launch.x=128"}, "a device function reads threadIdx.x",
     NOT_APPLICABLE},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  __threadfence();\n  if (i < n) out[i] = in[i]; }\n", {"launch.x=128"}, "memory fences", NOT_APPLICABLE},
    /* no guard: 128 does not divide the original's 192 threads */
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = in[i]; }\n",
     {"launch.x=128"}, "no guard on the global index", ILLEGAL},
    /* a load before the guard: threads beyond the original's would read past the buffer */
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  float v = in[i];\n"
     "  if (i < n) out[i] = v; }\n", {"launch.x=128"}, "no guard on the global index", ILLEGAL},
    /* a guard that lets more threads through than the original has */
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n + 100) out[i % n] = in[i % n]; }\n", {"launch.x=128"}, "lets threads up to 291 through", ILLEGAL},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) out[i] = in[i]; }\n", {"launch.x=128", "launch.y=2"}, "no global index along y", NOT_APPLICABLE},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) out[i] = in[i]; }\n", {"launch.x=16"}, "whole warps of 32 up to 1024", ILLEGAL},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) out[i] = in[i]; }\n", {"launch.x=1024", "launch.minblocks=4"}, "4 blocks of 1024 threads do not fit", ILLEGAL},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) out[i] = in[i]; }\n", {0}, "is the launch's own", NOT_APPLICABLE},
    {HEAD2 "__global__ void k(const float *in, float *out, int w, int h) {\n  int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  int y = blockIdx.y * blockDim.y + threadIdx.y;\n  if (x < w && y < h) out[y * w + x] = in[y * w + x]; }\n", {"launch.x=1024", "launch.y=2"},
     "whole warps of 32 up to 1024", ILLEGAL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *defs[] = {"N=192", "W=64", "H=64"};
    int nsets = 0;
    while (nsets < 3 && cases[i].sets[nsets]) nsets++;
    char *path;
    Opt r = run_src(cases[i].src, defs, 3, (const char **)cases[i].sets, nsets, false, &path);
    const PlanStep *st = step(&r.plan, "launch");
    CHECK(r.rc == 0 && st && !st->applied && st->legality == cases[i].l && strstr(st->why, cases[i].why), "launch refuses case %zu (%s): %s", i,
          cases[i].why, st ? st->why : r.plan.error);
    CHECK(r.rc == 0 && r.plan.nchain == 0, "case %zu: the program is unchanged", i);
    done(&r);
    unlink(path);
  }
}

/* a launch with no launch line (host code, flags) is written back by the output; flags over a
 * launch line cannot be, nor a launch another pass reshaped first */
static void test_launch_origin(void) {
  char *path = write_tmp("__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "  if (i < n) out[i] = in[i]; }\n");
  const char *defs[] = {"N=256"};
  PPOptions pp = {.defines = defs, .n_defines = 1};
  diag_reset();
  Program *p = load_program(path, &pp);
  /* what carve optimize passes for a launch a host program made: its grid and block as flags */
  const char *args[] = {"in=float[256]:random(1)", "out=float[256]:zeros out", "n=256"};
  OptInput in = {.path = path, .pp = pp, .kernel = "k", .grid = "4", .block = "64", .arg_texts = args, .nargs = 3, .m = machine_find("h100")};
  OptOptions o = {.only = "launch", .sets = (const char *[]){"launch.x=128"}, .nsets = 1, .mutation_pass = -1};
  Plan plan;
  int rc = p ? optimize(p, &in, &o, &plan) : 2;
  const PlanStep *st = rc == 0 ? step(&plan, "launch") : NULL;
  /* the output writes the new launch (the program's launches wrapped, or a #pragma carve launch
   * line for flags): the pass applies, verified */
  CHECK(st && st->applied && st->verified && plan.grid[0] == 2 && plan.block[0] == 128 && st->cover[0] == 128,
        "a launch from host code or flags is reshaped (64 -> 128 threads, grid 4 -> 2): %s, grid %lld block %lld", st ? st->why : plan.error,
        (long long)plan.grid[0], (long long)plan.block[0]);
  if (rc == 0) plan_free(&plan);
  /* after another pass reshaped it (vector: 2 threads merged, grid 4 -> 2), not again */
  OptOptions o2 = {.only = "vector,launch", .sets = (const char *[]){"launch.x=128"}, .nsets = 1, .mutation_pass = -1};
  rc = p ? optimize(p, &in, &o2, &plan) : 2;
  const PlanStep *sv = rc == 0 ? step(&plan, "vector") : NULL;
  st = rc == 0 ? step(&plan, "launch") : NULL;
  CHECK(sv && sv->applied && st && !st->applied && strstr(st->why, "an earlier pass reshaped the launch"),
        "a launch from flags that vector reshaped is not reshaped again: %s", st ? st->why : plan.error);
  if (rc == 0) plan_free(&plan);
  program_free(p);
  unlink(path);

  /* flags over the file's launch line */
  const char *d1[] = {"N=192"};
  path = write_tmp(HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "  if (i < n) out[i] = in[i]; }\n");
  diag_reset();
  p = load_program(path, &(PPOptions){.defines = d1, .n_defines = 1});
  OptInput fl = {.path = path, .pp = {.defines = d1, .n_defines = 1}, .kernel = "k", .grid = "6", .block = "32", .m = machine_find("h100")};
  rc = p ? optimize(p, &fl, &o, &plan) : 2;
  st = rc == 0 ? step(&plan, "launch") : NULL;
  CHECK(st && !st->applied && strstr(st->why, "override the file's"), "--block over the launch line is refused: %s", st ? st->why : plan.error);
  if (rc == 0) plan_free(&plan);
  program_free(p);
  unlink(path);

  /* vector merges threads first (the grid shrinks): the launch pass leaves that shape alone */
  const char *d2[] = {"H=64", "W=64"};
  OptOptions vo = {.only = "vector,launch", .sets = (const char *[]){"launch.x=32", "launch.y=8"}, .nsets = 2, .mutation_pass = -1};
  Opt r = run_opt("examples/demosaic.cu", "demosaic", d2, 2, &vo);
  st = step(&r.plan, "launch");
  CHECK(applied(&r.plan, "vector") && st && !st->applied && strstr(st->why, "an earlier pass reshaped the launch"), "after vector: %s",
        st ? st->why : r.plan.error);
  done(&r);
}

/* the guards that stop threads beyond the original's, with a shape that does not divide them */
static void test_guards(void) {
  static const struct { const char *src, *sets[2], *did; } cases[] = {
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n"
     "  out[i] = 2.0f * in[i]; }\n", {"launch.x=128"}, "stop at i >= n"},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  int i = threadIdx.x + blockDim.x * blockIdx.x;\n  int two = 2;\n"
     "  if (n <= i || n < 0) return;\n  out[i] = two * in[i]; }\n", {"launch.x=256"}, "stop at n <= i"},
    {HEAD1 "__global__ void k(const float *in, float *out, int n) {\n  if (blockIdx.x * blockDim.x + threadIdx.x < n)\n"
     "    out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x]; }\n", {"launch.x=128"}, "stop at"},
    {HEAD2 "__global__ void k(const float *in, float *out, int w, int h) {\n  int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  int y = blockIdx.y * blockDim.y + threadIdx.y;\n  if (x < w)\n    if (y <= h - 1) out[y * w + x] = in[y * w + x] + 1.0f; }\n",
     {"launch.x=128", "launch.y=8"}, "stop at x < w"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *defs[] = {"N=192", "W=100", "H=36"};
    char *path;
    Opt r = run_src(cases[i].src, defs, 3, (const char **)cases[i].sets, cases[i].sets[1] ? 2 : 1, false, &path);
    const PlanStep *st = step(&r.plan, "launch");
    CHECK(kept_step(st) && all_sizes_ok(st) && strstr(st->did, cases[i].did), "guard case %zu: applied and verified at every size: %s", i,
          st ? (st->applied ? st->did : st->why) : r.plan.error);
    done(&r);
    unlink(path);
  }
}

/* the model: mv's 32 blocks of 128 leave most SMs idle, smaller blocks spread them (the estimate
 * picks 32 threads); launched at 32 a block already, mv keeps its shape */
static void test_model_chooses(void) {
  const char *defs[] = {"H=4096", "W=4096"};
  OptOptions o = {.only = "launch", .estimate = true, .mutation_pass = -1};
  Opt r = run_opt("examples/mv.cu", "mv", defs, 2, &o);
  const PlanStep *st = step(&r.plan, "launch");
  CHECK(kept_step(st) && st->ncand_params == 2 && st->ncand > 6, "mv: the estimate chooses among the shapes (%d tried)", st ? st->ncand : 0);
  CHECK(r.rc == 0 && r.plan.block[0] == 32 && r.plan.block[1] == 1 && r.plan.grid[0] == 128, "mv: block 128 -> %lld, grid %lld",
        (long long)r.plan.block[0], (long long)r.plan.grid[0]);
  double best = -1;
  int legal = 0;
  for (int i = 0; st && i < st->ncand; i++) {
    if (st->cand_ms[i] <= 0) continue;
    legal++;
    if (best < 0 || st->cand_ms[i] < best) best = st->cand_ms[i];
  }
  CHECK(st && legal == 5 && best == st->est_after_ms && st->est_after_ms < st->est_before_ms,
        "mv: 5 other one-dimensional shapes (32 to 1024), the fastest kept: %d, %.4f ms of %.4f -> %.4f", legal, best, st ? st->est_before_ms : 0,
        st ? st->est_after_ms : 0);
  done(&r);

  /* mv's row walk launched 32 a block on 64 blocks: every larger block leaves more SMs idle */
  char *path = write_tmp("#pragma carve launch mv grid((H+31)/32) block(32)\n#pragma carve arg A = float[H*W] : random(1)\n"
                         "#pragma carve arg x = float[W] : random(2)\n#pragma carve arg y = float[H] : zeros out\n#pragma carve arg h = H\n"
                         "#pragma carve arg w = W\n#pragma carve tol rel(1e-5)\n__global__ void mv(const float *A, const float *x, float *y, int h, int w) {\n"
                         "  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n  if (idx < h) {\n    float sum = 0.0f;\n"
                         "    for (int i = 0; i < w; i++) sum += A[idx * w + i] * x[i];\n    y[idx] = sum;\n  }\n}\n");
  const char *dk[] = {"H=2048", "W=512"};
  r = run_opt(path, "mv", dk, 2, &o);
  st = step(&r.plan, "launch");
  CHECK(st && st->applied && st->unprofitable && st->ncand > 0, "mv at 32 a block: the estimate finds no shape faster (%s)", st ? st->did : r.plan.error);
  bool none_faster = st && st->ncand > 0;
  legal = 0;
  for (int i = 0; st && i < st->ncand; i++) {
    if (st->cand_ms[i] <= 0) continue;
    legal++;
    if (st->cand_ms[i] <= st->est_before_ms) none_faster = false;
  }
  CHECK(none_faster && legal == 5, "every other shape (%d) is estimated slower than the original's %.4f ms", legal, st ? st->est_before_ms : 0);
  CHECK(r.rc == 0 && r.plan.block[0] == 32 && r.plan.result == r.p, "mv keeps its block of 32 (%lld)", (long long)r.plan.block[0]);
  unlink(path);
  done(&r);
}

/* --set launch.X=V, and the launch the output writes */
static void test_set_and_output(void) {
  const char *defs[] = {"GX=100", "GY=40", "NATOMS=8"};
  OptOptions o = {.only = "launch", .sets = (const char *[]){"launch.x=64", "launch.y=4", "launch.minblocks=2"}, .nsets = 3, .mutation_pass = -1};
  Opt r = run_opt("examples/cp.cu", "cp", defs, 3, &o);
  const PlanStep *st = step(&r.plan, "launch");
  CHECK(kept_step(st) && all_sizes_ok(st), "cp with --set launch.x=64 launch.y=4: %s", st ? (st->applied ? st->did : st->why) : r.plan.error);
  CHECK(r.plan.block[0] == 64 && r.plan.block[1] == 4 && r.plan.grid[0] == 2 && r.plan.grid[1] == 12, "cp: block %lldx%lld grid %lldx%lld",
        (long long)r.plan.block[0], (long long)r.plan.block[1], (long long)r.plan.grid[0], (long long)r.plan.grid[1]);
  Buf b = {0};
  if (r.rc == 0) opt_emit_source(&b, &r.plan, "examples/cp.cu", "cp");
  CHECK(b.s && strstr(b.s, "#pragma carve launch cp grid(2, 12, 1) block(64, 4, 1)"), "the output's launch line:\n%s", b.s ? b.s : "");
  CHECK(b.s && strstr(b.s, "__launch_bounds__(256, 2)"), "the output's __launch_bounds__");
  /* the output is a carve input with that launch */
  Program *out = b.s ? load_program_text("cp_out.cu", b.s, NULL) : NULL;
  LaunchSpec *sp = out && !out->errors ? find_spec(out, "cp") : NULL;
  CHECK(sp && sp->block[0] == 64 && sp->block[1] == 4 && sp->grid[0] == 2 && sp->grid[1] == 12, "the output loads with the new launch");
  Obj *k = out ? find_kernel(out, "cp") : NULL;
  CHECK(k && k->launch_bounds[0] == 256 && k->launch_bounds[1] == 2, "the output's kernel has the bounds");
  program_free(out);
  buf_free(&b);
  done(&r);

  /* x alone: the model does not choose, y stays the launch's 16 */
  OptOptions ox = {.only = "launch", .estimate = true, .sets = (const char *[]){"launch.x=32"}, .nsets = 1, .mutation_pass = -1};
  r = run_opt("examples/cp.cu", "cp", defs, 3, &ox);
  st = step(&r.plan, "launch");
  CHECK(st && st->applied && st->ncand == 0 && st->param[0] == 32 && st->param[1] == 0 && strstr(st->did, "-> 32x16"), "x alone: %s",
        st ? st->did : r.plan.error);
  done(&r);

  /* minblocks alone: the block kept, the bounds written */
  OptOptions om = {.only = "launch", .sets = (const char *[]){"launch.minblocks=2"}, .nsets = 1, .mutation_pass = -1};
  r = run_opt("examples/cp.cu", "cp", defs, 3, &om);
  st = step(&r.plan, "launch");
  b = (Buf){0};
  if (r.rc == 0) opt_emit_source(&b, &r.plan, "examples/cp.cu", "cp");
  CHECK(kept_step(st) && r.plan.block[0] == 16 && r.plan.block[1] == 16 && strstr(st->did, "block 16x16 kept, __launch_bounds__(256, 2)") && b.s &&
        strstr(b.s, "__launch_bounds__(256, 2)") && strstr(b.s, "block(16, 16)"), "minblocks alone: %s", st ? st->did : r.plan.error);
  buf_free(&b);
  done(&r);

  OptOptions bad = {.only = "launch", .sets = (const char *[]){"launch.x=48"}, .nsets = 1, .mutation_pass = -1};
  r = run_opt("examples/cp.cu", "cp", defs, 3, &bad);
  CHECK(r.rc == 2 && strstr(r.plan.error, "launch.x takes one of 16, 32, 64, 128, 256, 512, 1024"), "a value off the list: %s", r.plan.error);
  done(&r);
}

int main(void) {
  test_refusals();
  test_launch_origin();
  test_guards();
  test_model_chooses();
  test_set_and_output();
  return TEST_SUMMARY("launch");
}
