/* the reduce pass: the naive atomic sum and the shared-memory trees rewritten and verified (at
 * reduced, ragged and full sizes), the launch shrunk by `merge`, the shuffles and the atomics
 * a block issues counted by running the result, and the kernels it must not take refused with
 * their reason. */
#include "opt_test.h"
#include "test.h"
#include <stdlib.h>

/* the reduce pass alone, at size define n (NULL: the file's), with its parameter settings */
static Opt reduce_opt(const char *path, const char *kernel, const char *n, const char **sets, int nsets) {
  const char *defs[1] = {n};
  OptOptions o = {.only = "reduce", .mutation_pass = -1, .sets = sets, .nsets = nsets};
  return run_opt(path, kernel, defs, n ? 1 : 0, &o);
}
static const PlanStep *reduce_step(const Plan *p) { return step(p, "reduce"); }

static int count(const char *s, const char *what) {
  int n = 0;
  for (const char *p = s; p && (p = strstr(p, what)); p += strlen(what)) n++;
  return n;
}

/* the atomics (lanes) and 16-byte loads the result issues, per block */
typedef struct { int64_t atomics, vec_loads; } Count;
static void on_access(void *ctx, Node *at, int space, AccessKind kind, int size, const uint64_t *addr, Mask m, int64_t block, int warp) {
  Count *c = ctx;
  int lanes = __builtin_popcountll((unsigned long long)m);
  if (kind == ACC_ATOMIC) c->atomics += lanes;
  if (kind == ACC_LOAD && size == 16) c->vec_loads += lanes;
}
static bool run_counting(Program *p, const char *kernel, Count *c, int64_t *blocks) {
  memset(c, 0, sizeof *c);
  Launch L;
  if (launch_prepare(&L, p, find_kernel(p, kernel), NULL)) return false;
  Hooks h = {.ctx = c, .access = on_access};
  RunOptions ro = {.hooks = &h};
  RunStats st;
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  int rc = interp_run(&L, &ro, &st);
  diag_out = saved;
  fclose(null);
  *blocks = L.grid[0] * L.grid[1] * L.grid[2];
  launch_free(&L);
  return rc == 0;
}

/* every size verification ran passed (reduce_shared's ragged size is skipped: BLOCK shrinks with it) */
static bool sizes_run_ok(const PlanStep *s) {
  return s && s->verify.nsizes >= 4 && s->verify.size[0].ok && s->verify.size[1].ok && s->verify.size[2].ok && s->verify.size[3].ok;   /* and the signed-data run */
}

static void test_sum(void) {
  /* ragged: 100003 is a multiple of no block, chunk or vector width */
  const char *sets[] = {"reduce.merge=16", "reduce.level=1"};
  Opt r = reduce_opt("examples/sum.cu", "sum", "N=100003", sets, 2);
  const PlanStep *s = reduce_step(&r.plan);
  CHECK(r.rc == 0 && kept_step(s), "sum.cu is rewritten and verified: %s", s ? s->why : r.plan.error);
  CHECK(sizes_run_ok(s), "sum.cu verified at the reduced, ragged and full (ragged N) sizes");
  CHECK(r.plan.grid[0] == (391 + 15) / 16, "the grid shrinks by merge: 391 -> %lld", (long long)r.plan.grid[0]);
  Buf b = {0};
  opt_emit_source(&b, &r.plan, "examples/sum.cu", "sum");
  const char *body = b.s ? strstr(b.s, "__global__") : NULL;
  CHECK(body && count(body, "__shfl_down_sync") == 5 + 3, "five shuffle steps in the warp and three across 8 warps");
  CHECK(b.s && count(b.s, "atomicAdd(") == 1 && strstr(b.s, "float4"), "one atomicAdd in the source, float4 loads");
  CHECK(b.s && strstr(b.s, "i < n"), "the original guard kept for the tail");
  buf_free(&b);
  Count c;
  int64_t blocks = 0;
  CHECK(run_counting(r.plan.result, "sum", &c, &blocks), "the result runs");
  CHECK(c.atomics == blocks, "one atomic per block: %lld atomics, %lld blocks", (long long)c.atomics, (long long)blocks);
  /* 100003 elements: every block but the last reads float4s (6 full chunks of 16*256) */
  CHECK(c.vec_loads == (blocks - 1) * 256 * 4, "vector loads in the full blocks: %lld", (long long)c.vec_loads);
  done(&r);

  const char *warp[] = {"reduce.merge=8", "reduce.level=0"};
  r = reduce_opt("examples/sum.cu", "sum", "N=100003", warp, 2);
  s = reduce_step(&r.plan);
  CHECK(kept_step(s) && sizes_run_ok(s), "level=warp verified: %s", s ? s->why : "");
  CHECK(run_counting(r.plan.result, "sum", &c, &blocks) && c.atomics == blocks * 8, "one atomic per warp: %lld for %lld blocks", (long long)c.atomics,
        (long long)blocks);
  done(&r);

  const char *scalar[] = {"reduce.vec=1"};
  r = reduce_opt("examples/sum.cu", "sum", "N=100003", scalar, 1);
  s = reduce_step(&r.plan);
  CHECK(kept_step(s) && sizes_run_ok(s), "vec=1 verified");
  CHECK(run_counting(r.plan.result, "sum", &c, &blocks) && c.vec_loads == 0, "vec=1 has no vector load");
  done(&r);
}

static void test_taken(void) {
  static const struct { const char *file, *kernel, *want; int block; } cases[] = {
    {"examples/reduce_shared.cu", "reduce_shared", "tree over s[0..256)", 0},
    {"tests/reduce/tree_seq.cu", "tree_seq", "8 steps", 0},
    {"tests/reduce/tree_idx.cu", "tree_idx", "7 steps", 0},
    {"tests/reduce/atomic_max.cu", "atomic_max", "atomicMax into out", 128},
    {"tests/reduce/atomic_int.cu", "atomic_int", "int4 loads", 256},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    Opt r = reduce_opt(cases[i].file, cases[i].kernel, i == 0 ? "N=5003" : NULL, NULL, 0);
    const PlanStep *s = reduce_step(&r.plan);
    CHECK(kept_step(s), "%s is rewritten and verified: %s", cases[i].kernel, s ? s->why : r.plan.error);
    CHECK(s && strstr(s->did, cases[i].want), "%s: %s (%s)", cases[i].kernel, cases[i].want, s ? s->did : "");
    /* reduce_shared's BLOCK is a size macro too: its ragged size (61) is no power of two and skipped */
    CHECK(s && s->verify.size[0].ok && s->verify.size[2].ok && (i == 0 || s->verify.size[1].ok), "%s verified at every size it runs", cases[i].kernel);
    Buf b = {0};
    opt_emit_source(&b, &r.plan, cases[i].file, cases[i].kernel);
    CHECK(b.s && strstr(b.s, "__shfl_down_sync"), "%s: shuffles in the output", cases[i].kernel);
    CHECK(s && (cases[i].block ? s->cover[0] == s->param[0] * cases[i].block : s->cover[0] == 0), "%s: the launch is reshaped by merge (atomics) or kept (trees)", cases[i].kernel);
    buf_free(&b);
    Count c;
    int64_t blocks;
    CHECK(run_counting(r.plan.result, cases[i].kernel, &c, &blocks) && (!cases[i].block || c.atomics == blocks), "%s: one atomic per block", cases[i].kernel);
    done(&r);
  }
}

/* tests/reduce: every file says what the pass must do with it (its "// expect:" line): the trees
 * and atomics it takes (test_taken checks more of them) and those it must refuse, with the
 * reason; and an example without an atomic */
static void test_refused(void) {
  CHECK(check_expect_dir("tests/reduce") >= 11, "tests/reduce holds its cases");
  Opt r = reduce_opt("examples/rd.cu", "rd", "N=4000", NULL, 0);
  const PlanStep *s = reduce_step(&r.plan);
  CHECK(r.rc == 0 && s && !s->applied && s->legality == NOT_APPLICABLE && strstr(s->why, "no atomic"), "rd refused: 'no atomic' (%s)",
        s ? s->why : r.plan.error);
  done(&r);
}

int main(void) {
  test_sum();
  test_taken();
  test_refused();
  return TEST_SUMMARY("reduce");
}
