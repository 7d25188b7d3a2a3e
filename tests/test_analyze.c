/* The analyzer against ground truth: the sm_90 rules measured with Nsight Compute on an H100
 * (shared/reference/anchors-analysis.md, section 1.3), the half-warp rules of the paper
 * machines (CUDA C Programming Guide 2.x, G.3.2; Yang et al. 3.2), divergence, affine forms. */
#include "../src/analysis/analysis.h"
#include "../src/report/report.h"
#include "test.h"
#include <math.h>
#include <stdlib.h>

static char diag_text[16384];

/* analyze a one-access kernel; return the stat of the access on line `line` (kind) */
static AccessStat *one(const char *src, const char *arch, int line, AccessKind kind, Analysis *a, Launch *L) {
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = f;
  diag_reset();
  Program *p = load_program_text("t.cu", src, NULL);
  AccessStat *r = NULL;
  if (p && !diag_errors) {
    Obj *k = find_kernel(p, "k");
    if (k && launch_prepare(L, p, k, NULL) == 0 && analyze(a, L, machine_find(arch), NULL) == 0)
      for (int i = 0; i < a->nacc; i++)
        if (tok_loc(a->acc[i].node->tok).line == line && a->acc[i].kind == kind) r = &a->acc[i];
  }
  if (p && !L->prog) program_free(p);
  fclose(f);
  diag_out = stderr;
  return r;
}

/* the analysis, the launch and its program */
static void finish(Analysis *a, Launch *L) {
  Program *p = L->prog;
  if (!p) return;
  analysis_free(a);
  launch_free(L);
  program_free(p);
}

static void expect_units(const char *what, const char *src, const char *arch, AccessKind kind, double want) {
  Analysis a;
  Launch L;
  memset(&L, 0, sizeof L);
  AccessStat *s = one(src, arch, 4, kind, &a, &L);
  CHECK(s != NULL, "%s: access found (%s)", what, diag_text);
  if (s) {
    double got = s->space == SPACE_GLOBAL ? (double)s->sectors / (double)s->requests : (double)s->wavefronts / (double)s->requests;
    CHECK(got == want, "%s on %s: %.3f per request, want %.3f", what, arch, got, want);
  }
  finish(&a, &L);
}

static const char *global_kernel(const char *type, const char *index, int count) {
  return fmt("#pragma carve launch k grid(4) block(64)\n#pragma carve arg a = %s[%d] : iota\n#pragma carve arg o = float[256] : zeros out\n"
             "__global__ void k(const %s *a, float *o) { int t = threadIdx.x; %s v = a[%s]; o[blockIdx.x * 64 + t] = (float)v%s; }\n",
             type, count, type, type, index, strstr(type, "4") ? ".x" : strstr(type, "2") ? ".x" : "");
}

static void test_sm90_global(void) {
  int strides[] = {1, 2, 4, 8, 16, 32};
  double want[] = {4, 8, 16, 32, 32, 32};
  for (int i = 0; i < 6; i++)
    expect_units(fmt("float a[t*%d]", strides[i]), global_kernel("float", fmt("t * %d", strides[i]), 64 * 32 + 64), "h100", ACC_LOAD, want[i]);
  expect_units("float a[t+1] (misaligned)", global_kernel("float", "t + 1", 128), "h100", ACC_LOAD, 5);
  expect_units("float2 a[t]", global_kernel("float2", "t", 64), "h100", ACC_LOAD, 8);
  expect_units("float4 a[t]", global_kernel("float4", "t", 64), "h100", ACC_LOAD, 16);
  expect_units("float4 a[2t]", global_kernel("float4", "2 * t", 128), "h100", ACC_LOAD, 32);
  expect_units("char a[t]", global_kernel("char", "t", 64), "h100", ACC_LOAD, 1);
  expect_units("a[blockIdx.x] (warp-uniform)", global_kernel("float", "blockIdx.x", 64), "h100", ACC_LOAD, 1);
  expect_units("store o[...] unit stride", global_kernel("float", "t", 64), "h100", ACC_STORE, 4);
}

static const char *shared_kernel(const char *type, const char *index, int count) {
  return fmt("#pragma carve launch k grid(1) block(32)\n#pragma carve arg o = float[32] : zeros out\n"
             "__global__ void k(float *o) { __shared__ %s s[%d]; int t = threadIdx.x;\n"
             "  %s v = s[%s];\n  o[t] = (float)v%s; }\n",
             type, count, type, index, strstr(type, "4") || strstr(type, "2") ? ".x" : "");
}

static void test_sm90_shared(void) {
  int strides[] = {1, 2, 4, 8, 16, 32, 33};
  double want[] = {1, 2, 4, 8, 16, 32, 1};
  for (int i = 0; i < 7; i++)
    expect_units(fmt("shared s[t*%d]", strides[i]), shared_kernel("float", fmt("t * %d", strides[i]), 32 * 33), "h100", ACC_LOAD, want[i]);
  expect_units("shared float2 s[t]", shared_kernel("float2", "t", 32), "h100", ACC_LOAD, 2);
  expect_units("shared float4 s[t]", shared_kernel("float4", "t", 32), "h100", ACC_LOAD, 4);
  expect_units("shared float4 s[2t]", shared_kernel("float4", "2 * t", 64), "h100", ACC_LOAD, 8);
  expect_units("shared broadcast s[0]", shared_kernel("float", "0", 32), "h100", ACC_LOAD, 1);
  /* cc 1.x: 16 banks, per half-warp: stride 2 is a 2-way conflict in each half, stride 1 free */
  expect_units("g80 shared s[t]", shared_kernel("float", "t", 32), "g80", ACC_LOAD, 2);
  expect_units("g80 shared s[2t]", shared_kernel("float", "t * 2", 64), "g80", ACC_LOAD, 4);
  expect_units("g80 shared s[t*17] (odd stride: free)", shared_kernel("float", "t * 17", 32 * 17), "g80", ACC_LOAD, 2);
}

static void test_paper_machines(void) {
  /* transactions per warp request (two half-warps) */
  expect_units("gt200 float a[t]: one 64 B transaction per half-warp", global_kernel("float", "t", 64), "gt200", ACC_LOAD, 2);
  expect_units("gt200 float a[t+1]: 128 B for the first half-warp, 64 B + 32 B for the second (it crosses a segment)", global_kernel("float", "t + 1", 128), "gt200", ACC_LOAD, 3);
  expect_units("gt200 float a[2t]: 128 B per half-warp", global_kernel("float", "t * 2", 128), "gt200", ACC_LOAD, 2);
  expect_units("gt200 float a[16t]: two threads per 128 B segment", global_kernel("float", "t * 16", 64 * 16), "gt200", ACC_LOAD, 16);
  expect_units("gt200 float a[32t]: one per thread", global_kernel("float", "t * 32", 64 * 32), "gt200", ACC_LOAD, 32);
  expect_units("g80 float a[t]: coalesced", global_kernel("float", "t", 64), "g80", ACC_LOAD, 2);
  expect_units("g80 float a[t+1]: misaligned, one per thread", global_kernel("float", "t + 1", 128), "g80", ACC_LOAD, 32);
  expect_units("g80 a[blockIdx.x]: no broadcast on cc 1.0", global_kernel("float", "blockIdx.x", 64), "g80", ACC_LOAD, 32);
  expect_units("c1060 float a[t]", global_kernel("float", "t", 64), "c1060", ACC_LOAD, 2);
  /* the bytes moved by the cc 1.2 misaligned case: 128 + 64 + 32 per warp */
  Analysis a;
  Launch L;
  memset(&L, 0, sizeof L);
  AccessStat *s = one(global_kernel("float", "t + 1", 128), "gt200", 4, ACC_LOAD, &a, &L);
  CHECK(s && s->moved == s->requests * 224, "gt200 misaligned moves 224 bytes per warp (%llu per %llu)", s ? (unsigned long long)s->moved : 0ull,
        s ? (unsigned long long)s->requests : 0ull);
  finish(&a, &L);
}

static void test_affine_and_divergence(void) {
  Analysis a;
  Launch L;
  memset(&L, 0, sizeof L);
  const char *src = "#define W 64\n#pragma carve launch k grid(2, 2) block(16, 16)\n#pragma carve arg a = float[4096] : iota\n"
                    "__global__ void k(float *a, int n) { int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                    "  if (threadIdx.x % 2) a[y * W + x] += 1.0f; else a[x * W + y] -= 2.0f; }\n"
                    "#pragma carve arg n = 3\n";
  one(src, "h100", 5, ACC_LOAD, &a, &L);
  CHECK(a.nacc >= 2, "two accesses found (%d): %s", a.nacc, diag_text);
  bool found_row = false, found_col = false;
  for (int i = 0; i < a.nacc; i++) {
    AccessStat *s = &a.acc[i];
    if (s->index && !strcmp(s->index, "64*blockDim.y*blockIdx.y + blockDim.x*blockIdx.x + 64*threadIdx.y + threadIdx.x")) found_row = s->have_stride && s->stride == 1;
    if (s->index && !strcmp(s->index, "64*blockDim.x*blockIdx.x + blockDim.y*blockIdx.y + 64*threadIdx.x + threadIdx.y")) found_col = s->have_stride && s->stride == 64;
  }
  CHECK(found_row, "row access: affine form and unit stride");
  CHECK(found_col, "column access: affine form and stride 64");
  CHECK(a.nbr == 1 && a.br[0].divergent == a.br[0].evals && a.br[0].evals > 0, "the parity branch diverges in every warp");
  CHECK(a.nbr == 1 && a.br[0].taken * 2 == a.br[0].active, "half the lanes take it");
  CHECK(a.nbr == 1 && a.br[0].thread_dependent, "the parity branch is thread-dependent");
  finish(&a, &L);
  memset(&L, 0, sizeof L);
  one("#pragma carve launch k grid(2) block(64)\n#pragma carve arg a = float[128] : iota out\n#pragma carve arg n = 5\n"
      "__global__ void k(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; int u = blockIdx.x * 2;\n"
      "  for (int j = 0; j < n; j++) if (u > 1) a[i] += 1.0f; }\n", "h100", 5, ACC_LOAD, &a, &L);
  int uniform = 0;
  for (int i = 0; i < a.nbr; i++) uniform += !a.br[i].thread_dependent && !a.br[i].divergent;
  CHECK(a.nbr == 2 && uniform == 2, "a loop on a parameter and a branch on blockIdx are uniform (%d of %d)", uniform, a.nbr);
  finish(&a, &L);
}

/* CuMAPz (Kim and Shrivastava), section 5.5: float s_in[16][16] with a 16x16 block on a cc 1.x
 * machine (16 banks, half-warps) */
static const char *cumapz_kernel(const char *decl, const char *index, int bx, int by) {
  return fmt("#pragma carve launch k grid(1) block(%d, %d)\n#pragma carve arg o = float[256] : zeros out\n"
             "__global__ void k(float *o) { %s int tx = threadIdx.x, ty = threadIdx.y;\n"
             "  float v = s_in%s;\n  o[ty * %d + tx] = v; }\n", bx, by, decl, index, bx);
}

static void test_cumapz_banks(void) {
  /* a warp is two half-warps; each is one wavefront when conflict-free */
  expect_units("CuMAPz s_in[ty][tx]: conflict-free", cumapz_kernel("__shared__ float s_in[16][16];", "[ty][tx]", 16, 16), "c1060", ACC_LOAD, 2);
  expect_units("CuMAPz s_in[tx][ty]: 16-way conflict", cumapz_kernel("__shared__ float s_in[16][16];", "[tx][ty]", 16, 16), "c1060", ACC_LOAD, 32);
  expect_units("CuMAPz s_in[16][17] padded: conflict-free", cumapz_kernel("__shared__ float s_in[16][17];", "[tx][ty]", 16, 16), "c1060", ACC_LOAD, 2);
  /* MatMul with blockDim.x = 8: a half-warp spans two rows of a 16-wide tile, threads 0 and 8 share a bank */
  expect_units("CuMAPz MatMul blockDim.x = 8: 2-way conflict", cumapz_kernel("__shared__ float s_in[16][16];", "[ty][tx]", 8, 16), "c1060", ACC_LOAD, 4);
  /* on sm_90 (32 banks, whole warps) a warp covers two rows: word 16*tx + ty puts 8 words in each of 4 banks */
  expect_units("sm_90 s_in[tx][ty] 16x16: 8-way", cumapz_kernel("__shared__ float s_in[16][16];", "[tx][ty]", 16, 16), "h100", ACC_LOAD, 8);
}

/* global atomics: requests on the busiest 128-byte line, extrapolated to the grid */
static double atomic_line_requests(const char *body) {
  char src[1024];
  snprintf(src, sizeof src, "#pragma carve launch k grid(64) block(256)\n#pragma carve arg bins = unsigned int[16384] : zeros out\n"
                            "__global__ void k(unsigned int *bins) {\n  int g = blockIdx.x * blockDim.x + threadIdx.x;\n  %s\n}\n", body);
  Analysis a;
  Launch L;
  memset(&L, 0, sizeof L);
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = f;
  diag_reset();
  Program *p = load_program_text("t.cu", src, NULL);
  double r = -1;
  Obj *k = p && !diag_errors ? find_kernel(p, "k") : NULL;
  if (k && launch_prepare(&L, p, k, NULL) == 0) {
    if (analyze(&a, &L, machine_find("h200"), NULL) == 0) r = a.atomic_line_requests;
    analysis_free(&a);
    launch_free(&L);
  }
  program_free(p);
  fclose(f);
  diag_out = stderr;
  return r;
}

static void test_atomic_lines(void) {
  /* every warp of every block adds to 8 bins on one line: 64 blocks x 8 warps requests on it */
  double hot = atomic_line_requests("atomicAdd(&bins[g % 8], 1u);");
  CHECK(hot == 512, "one hot line: %g warp-requests (want 64 x 8)", hot);
  /* each warp its own 32 bins: one request per line */
  double own = atomic_line_requests("atomicAdd(&bins[g], 1u);");
  CHECK(own == 1, "private lines: %g request on the busiest (want 1)", own);
  /* each block its own bin: the 8 warps of a block on one line, other blocks elsewhere */
  double per_block = atomic_line_requests("atomicAdd(&bins[blockIdx.x * 32], 1u);");
  CHECK(per_block == 8, "a line per block: %g requests (want 8)", per_block);
  /* one bin per block: 32 neighbouring blocks share each line, though the sample never holds two */
  double neighbours = atomic_line_requests("atomicAdd(&bins[blockIdx.x], 1u);");
  CHECK(neighbours == 256, "a bin per block: %g requests on a line (want 32 blocks x 8 warps)", neighbours);
}


/* ---- facts: the loop tree, accesses and forms of one program generation ---- */

/* load a program quietly (diagnostics into diag_text) */
static Program *load_quiet(const char *src) {
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = f;
  diag_reset();
  Program *p = load_program_text("t.cu", src, NULL);
  fclose(f);
  diag_out = stderr;
  return p && !diag_errors ? p : NULL;
}

static Program *load_example(const char *file) {
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = f;
  diag_reset();
  Program *p = load_program(fmt("examples/%s", file), NULL);
  fclose(f);
  diag_out = stderr;
  return p;
}

/* the access on `line` whose array is `name` (first found) */
static const Access *access_on(const Facts *f, int line, const char *name) {
  for (int i = 0; i < facts_naccesses(f); i++) {
    const Access *a = facts_access(f, i);
    if (tok_loc(a->node->tok).line == line && a->base && !strcmp(a->base->name, name)) return a;
  }
  return NULL;
}

static const char *form_text(const Access *a) {
  const char *t = a ? affine_text(&a->index) : NULL;
  return t ? t : "(none)";
}

static void test_facts_examples(void) {
  /* mm: one counted loop to a run-time bound; A walks it with stride 1, B with stride n */
  Program *p = load_example("mm.cu");
  CHECK(p != NULL, "mm.cu loads: %s", diag_text);
  if (p) {
    Obj *k = find_kernel(p, "mm");
    Facts *f = facts_new(p, k);
    CHECK(facts_nloops(f) == 1, "mm: one loop (%d)", facts_nloops(f));
    const Loop *l = facts_loop(f, 0);
    CHECK(l && l->iv && !strcmp(l->iv->name, "i") && l->step_op == ND_ADD && l->step == 1 && l->cmp == ND_LT && l->trip == -1 &&
              l->start_known && l->start == 0 && !l->has_exit && !l->writes_memory,
          "mm: i from 0 by 1 while i < n, trip unknown at compile time");
    const Access *A = access_on(f, 29, "A"), *B = access_on(f, 29, "B"), *C = access_on(f, 30, "C");
    CHECK(A && B && C && A->loop == 0 && B->loop == 0 && C->loop == -1, "mm: A and B in the loop, C after it");
    CHECK(A && A->space == SPACE_GLOBAL && A->load && !A->store && C && C->store && !C->load, "mm: loads of A, a store to C, global");
    CHECK(A && !strcmp(form_text(A), "blockDim.y*blockIdx.y*n + n*threadIdx.y + i"), "mm: A's index %s", form_text(A));
    int64_t ca = 0, cb = 0;
    CHECK(A && affine_var_coefficient(&A->index, l->iv, &ca) && ca == 1, "mm: A's stride in i is 1 (%lld)", (long long)ca);
    CHECK(B && !affine_var_coefficient(&B->index, l->iv, &cb), "mm: B's stride in i is n, known only at run time");
    Obj *sum = NULL, *idx = NULL;
    for (Obj *v = k->locals; v; v = v->next_local) { if (!strcmp(v->name, "sum")) sum = v; if (!strcmp(v->name, "idx")) idx = v; }
    CHECK(sum && idx && facts_loop_writes(f, 0, sum) == 1 && facts_loop_writes(f, 0, l->iv) == 1 && facts_loop_writes(f, 0, idx) == 0,
          "mm: the loop writes sum and i once, not idx");
    CHECK(l && facts_loop_invariant(f, 0, l->bound) && !facts_loop_invariant(f, 0, A->node), "mm: n is invariant, A[..i] is not");
    facts_free(f);
    program_free(p);
  }
  /* tp_shared: two loops of TILE/8 = 4 trips around a barrier; the tile is shared */
  p = load_example("tp_shared.cu");
  if (p) {
    Facts *f = facts_new(p, find_kernel(p, "tp_shared"));
    CHECK(facts_nloops(f) == 2 && facts_loop(f, 0)->trip == 4 && facts_loop(f, 1)->trip == 4 && facts_loop(f, 0)->step == 8,
          "tp_shared: two loops of 4 trips, step 8");
    CHECK(facts_nbarriers(f) == 1 && facts_barrier(f, 0)->loop == -1 && facts_loop(f, 0)->barriers == 0, "tp_shared: one barrier, between the loops");
    int shared = 0;
    for (int i = 0; i < facts_naccesses(f); i++) shared += facts_access(f, i)->space == SPACE_SHARED;
    CHECK(shared == 2, "tp_shared: two shared accesses (%d)", shared);
    facts_free(f);
    program_free(p);
  }
  /* stencil: k from -R to R is 7 trips; w is constant memory, s shared with stride 1 in k */
  p = load_example("stencil.cu");
  if (p) {
    Facts *f = facts_new(p, find_kernel(p, "stencil1d"));
    const Loop *l = facts_nloops(f) == 1 ? facts_loop(f, 0) : NULL;
    CHECK(l && l->trip == 7 && l->start == -3 && l->cmp == ND_LE, "stencil: 7 trips from -3 (%lld)", l ? (long long)l->trip : -2ll);
    const Access *w = access_on(f, 22, "w"), *s = access_on(f, 22, "s");
    int64_t c = 0;
    CHECK(w && w->space == SPACE_CONST && s && s->space == SPACE_SHARED && s->loop == 0, "stencil: w constant, s shared, in the loop");
    CHECK(s && l && affine_var_coefficient(&s->index, l->iv, &c) && c == 1, "stencil: s[l + k] has stride 1 in k (%s)", form_text(s));
    facts_free(f);
    program_free(p);
  }
  /* conv: nested loops to run-time bounds; reduce_shared: stride *= 2 up to blockDim.x */
  p = load_example("conv.cu");
  if (p) {
    Facts *f = facts_new(p, find_kernel(p, "conv"));
    CHECK(facts_nloops(f) == 2 && facts_loop(f, 1)->parent == 0 && facts_loop(f, 1)->depth == 1 && facts_loop_within(f, 1, 0) &&
              !facts_loop_within(f, 0, 1),
          "conv: the i loop nests in the j loop");
    facts_free(f);
    program_free(p);
  }
  p = load_example("reduce_shared.cu");
  if (p) {
    Facts *f = facts_new(p, find_kernel(p, "reduce_shared"));
    const Loop *l = facts_nloops(f) == 1 ? facts_loop(f, 0) : NULL;
    CHECK(l && l->iv && l->step_op == ND_MUL && l->step == 2 && l->trip == -1 && l->barriers == 1, "reduce_shared: stride *= 2, a barrier inside");
    facts_free(f);
    program_free(p);
  }
}

typedef struct { Facts *f; int n; } FactsQuery;
static void query_accesses(void *ud) { FactsQuery *q = ud; q->n = facts_naccesses(q->f); }

/* the first declaration of `name` in fn */
typedef struct { const char *name; Node *found; } FindDecl;
static bool find_decl(Node *n, void *ctx) {
  FindDecl *x = ctx;
  if (!x->found && n->kind == ND_DECL && !strcmp(n->var->name, x->name)) x->found = n;
  return !x->found;
}

/* facts belong to one generation: a rewrite and program_finish make them stale (the old cache,
 * keyed by the kernel's Obj, kept answering for the tree before the rewrite) */
static void test_facts_generations(void) {
  Program *p = load_quiet("#pragma carve launch k grid(2) block(64)\n#pragma carve arg a = float[128] : zeros out\n"
                          "__global__ void k(float *a) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  a[i] = 1.0f;\n}\n");
  CHECK(p != NULL, "generation kernel loads: %s", diag_text);
  if (!p) return;
  Obj *k = find_kernel(p, "k");
  Facts *f = facts_new(p, k);
  CHECK(facts_naccesses(f) == 1 && !strcmp(form_text(facts_access(f, 0)), "blockDim.x*blockIdx.x + threadIdx.x"), "before: %s",
        form_text(facts_access(f, 0)));
  /* a clone alive beside it, rewritten: i = 2 * threadIdx.x */
  Program *c = program_clone(p);
  Obj *kc = c ? find_kernel(c, "k") : NULL;
  CHECK(kc != NULL, "the clone has the kernel");
  if (!kc) { facts_free(f); program_free(c); program_free(p); return; }
  Facts *fc = facts_new(c, kc);
  FindDecl d = {"i", NULL};
  walk(kc->body, find_decl, NULL, &d);
  ProgramScope sc = program_enter(c);
  Node *two = new_node(ND_NUM, d.found->tok), *tid = new_node(ND_SPECIAL, d.found->tok), *mul = new_node(ND_MUL, d.found->tok);
  two->ival = 2; two->ty = ty_int;
  tid->sreg = SR_TID; tid->dim = 0; tid->ty = ty_uint;
  mul->lhs = two; mul->rhs = tid; mul->ty = ty_uint;
  d.found->decl_init = mul;
  program_leave(sc);
  program_finish(c);
  CHECK(!facts_current(fc) && facts_current(f), "the clone's facts are stale, the original's current");
  FILE *df = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = df;
  FactsQuery q = {fc, -1};
  bool answered = carve_pcall(query_accesses, &q);
  fclose(df);
  diag_out = stderr;
  CHECK(!answered && strstr(diag_text, "renew"), "a query on stale facts is an internal error: %s", diag_text);
  fc = facts_renew(fc);
  CHECK(facts_current(fc) && !strcmp(form_text(facts_access(fc, 0)), "2*threadIdx.x"), "the clone renewed: %s", form_text(facts_access(fc, 0)));
  CHECK(!strcmp(form_text(facts_access(f, 0)), "blockDim.x*blockIdx.x + threadIdx.x"), "the original unchanged: %s", form_text(facts_access(f, 0)));
  /* the original rewritten in place: the same kernel Obj, a new definition of i */
  FindDecl e = {"i", NULL};
  walk(k->body, find_decl, NULL, &e);
  sc = program_enter(p);
  Node *seven = new_node(ND_NUM, e.found->tok), *add = new_node(ND_ADD, e.found->tok);
  seven->ival = 7; seven->ty = ty_int;
  add->lhs = e.found->decl_init; add->rhs = seven; add->ty = ty_int;
  e.found->decl_init = add;
  program_leave(sc);
  program_finish(p);
  CHECK(!facts_current(f), "in-place rewrite: stale");
  f = facts_renew(f);
  CHECK(!strcmp(form_text(facts_access(f, 0)), "blockDim.x*blockIdx.x + threadIdx.x + 7"), "renewed after the in-place rewrite: %s",
        form_text(facts_access(f, 0)));
  facts_free(fc);
  facts_free(f);
  program_free(c);
  program_free(p);
}

/* deep nesting: 200000 blocks around a loop (a rewrite can make it; the parser limits source
 * nesting). The walks are iterative: no recursion to overflow, no node dropped. */
static void test_facts_deep(void) {
  Program *p = load_quiet("#pragma carve launch k grid(1) block(32)\n#pragma carve arg o = float[8] : zeros out\n"
                          "__global__ void k(float *o) {\n  for (int i = 0; i < 8; i++) o[i] = 1.0f;\n}\n");
  CHECK(p != NULL, "deep kernel loads: %s", diag_text);
  if (!p) return;
  Obj *k = find_kernel(p, "k");
  ProgramScope sc = program_enter(p);
  Node *inner = k->body->stmts;
  for (int i = 0; i < 200000; i++) {
    Node *b = new_node(ND_BLOCK, inner->tok);
    b->stmts = inner;
    inner = b;
  }
  k->body->stmts = inner;
  program_leave(sc);
  program_finish(p);
  Facts *f = facts_new(p, k);
  const Loop *l = facts_nloops(f) == 1 ? facts_loop(f, 0) : NULL;
  CHECK(l && l->trip == 8 && l->depth == 0, "the loop under 200000 blocks: 8 trips");
  CHECK(facts_naccesses(f) == 1 && facts_access(f, 0)->loop == 0 && !strcmp(form_text(facts_access(f, 0)), "i"), "its store o[i] in it");
  facts_free(f);
  program_free(p);
}

/* a body of 5000 statements: the old unreached walk kept 4096 pending nodes and dropped the rest */
static void test_unreached_all(void) {
  Buf b = {0};
  buf_puts(&b, "#pragma carve launch k grid(1) block(32)\n#pragma carve arg o = float[5000] : zeros out\n#pragma carve arg n = 0\n"
               "__global__ void k(float *o, int n) {\n");
  for (int i = 0; i < 5000; i++) buf_printf(&b, "  if (n > 0) o[%d] = 1.0f;\n", i);
  buf_puts(&b, "}\n");
  Analysis a;
  Launch L;
  memset(&L, 0, sizeof L);
  one(b.s, "h100", 1, ACC_STORE, &a, &L);
  buf_free(&b);
  CHECK(a.nunreached == 5000, "every unreached store listed: %d of 5000", a.nunreached);
  CHECK(a.nunreached == 5000 && strstr(a.unreached[4999], "o[4999]"), "in source order, the last one last");
  finish(&a, &L);
  /* an atomic that ran reached its element: neither is listed */
  memset(&L, 0, sizeof L);
  one("#pragma carve launch k grid(1) block(64)\n#pragma carve arg d = int[64] : iota\n#pragma carve arg bins = unsigned int[64] : zeros out\n"
      "__global__ void k(const int *d, unsigned int *bins) {\n  atomicAdd(&bins[d[threadIdx.x]], 1u);\n}\n", "h100", 5, ACC_ATOMIC, &a, &L);
  CHECK(a.nacc == 2 && a.nunreached == 0, "a reached atomic: nothing unreached (%d)", a.nunreached);
  finish(&a, &L);
}

/* what the analysis promises: the warps and steps it ran, and the faults it found there */
static int analyze_quiet(const char *src, Analysis *a, Launch *L) {
  memset(L, 0, sizeof *L);
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = f;
  diag_reset();
  Program *p = load_program_text("t.cu", src, NULL);
  int rc = -1;
  Obj *k = p && !diag_errors ? find_kernel(p, "k") : NULL;
  if (k && launch_prepare(L, p, k, NULL) == 0) rc = analyze(a, L, machine_find("h100"), NULL);
  if (p && !L->prog) program_free(p);
  fclose(f);
  diag_out = stderr;
  return rc;
}

static void test_coverage(void) {
  /* only thread 40 of 128 writes out of bounds: warp 1 is not among the first, middle and last,
   * but a launch this small runs every warp (issue 26): the fault is found */
  const char *oob = "#pragma carve launch k grid(1) block(%d)\n#pragma carve arg out = float[128] : zeros out\n"
                    "__global__ void k(float *out) {\n  int t = threadIdx.x;\n  int i = t == 40 ? 1000 : t;\n  out[i] = 1.0f;\n}\n";
  Analysis a;
  Launch L;
  int rc = analyze_quiet(fmt(oob, 128), &a, &L);
  CHECK(rc == 1 && a.faults >= 1 && a.nfault >= 1 && a.fault_rec[0].thread[0] == 40 && !a.complete && !a.sampled,
        "128 threads, one block: every warp run, thread 40's fault found (rc %d)", rc);
  CHECK(a.warps_per_block == 4 && a.warps_run_per_block == 4, "it ran 4 of 4 warps (%d of %d)", a.warps_run_per_block, a.warps_per_block);
  finish(&a, &L);
  /* a large launch is sampled: blocks and warps skipped, and it says so */
  const char *oob20 = "#pragma carve launch k grid(20) block(128)\n#pragma carve arg out = float[2560] : zeros out\n"
                      "__global__ void k(float *out) {\n  int t = threadIdx.x;\n  int i = t == 40 ? 100000 : blockIdx.x * 128 + t;\n  out[i] = 1.0f;\n}\n";
  rc = analyze_quiet(oob20, &a, &L);
  CHECK(rc == 0 && a.faults == 0 && !a.complete && a.sampled, "20 blocks: no fault seen, sampled and incomplete (rc %d)", rc);
  CHECK(a.warps_per_block == 4 && a.warps_run_per_block == 3 && a.blocks_run == 8 && a.step_cap > 0 && a.nunreached == 0,
        "it ran 3 of 4 warps of 8 blocks (%d of %d, %llu blocks)", a.warps_run_per_block, a.warps_per_block, (unsigned long long)a.blocks_run);
  finish(&a, &L);
  /* 96 threads: three warps, all run: the fault is found and recorded */
  rc = analyze_quiet(fmt(oob, 96), &a, &L);
  CHECK(rc == 1 && a.fault == 1 && a.faults >= 1 && !a.complete && strstr(diag_text, "out-of-bounds"), "96 threads: the fault is found (rc %d): %s", rc,
        diag_text);
  finish(&a, &L);
  /* a clean kernel run whole: complete */
  rc = analyze_quiet("#pragma carve launch k grid(2) block(64)\n#pragma carve arg out = float[128] : zeros out\n"
                     "__global__ void k(float *out) {\n  out[blockIdx.x * 64 + threadIdx.x] = 1.0f;\n}\n", &a, &L);
  CHECK(rc == 0 && a.complete && a.faults == 0 && a.warps_run_per_block == 2, "every warp of every block ran: complete");
  finish(&a, &L);
  /* a loop longer than a warp's share of the budget: the cap was hit, not complete */
  rc = analyze_quiet("#pragma carve launch k grid(1) block(32)\n#pragma carve arg out = float[32] : zeros out\n#pragma carve arg n = 1000000\n"
                     "__global__ void k(float *out, int n) {\n  float s = 0;\n  for (int i = 0; i < n; i++) s += i;\n  out[threadIdx.x] = s;\n}\n",
                     &a, &L);
  CHECK(rc == 0 && a.warps_truncated == 1 && !a.complete, "the step cap stopped the warp: incomplete (%llu truncated)",
        (unsigned long long)a.warps_truncated);
  finish(&a, &L);
}

/* ---- findings ranked by what they cost (issue 16) ---- */
typedef struct { Analysis a; Launch L; ReportCost rc; Findings fs; bool ok; } Costed;

static void costed(Costed *c, Program *p) {
  memset(c, 0, sizeof *c);
  Obj *k = p ? find_kernel(p, NULL) : NULL;
  if (!k) { CHECK(0, "no kernel: %s", diag_text); if (p) program_free(p); return; }
  if (launch_prepare(&c->L, p, k, NULL) || analyze(&c->a, &c->L, machine_find("h100"), NULL)) {
    CHECK(0, "launch/analysis failed: %s", diag_text);
    launch_free(&c->L);
    program_free(p);
    return;
  }
  c->ok = report_cost_compute(&c->a, &c->rc) == 0;
  CHECK(c->ok, "the estimate gives the findings' costs");
  c->fs = findings_collect(&c->a, &c->rc);
}

static void costed_free(Costed *c) {
  if (!c->L.prog) return;
  Program *p = c->L.prog;
  findings_free(&c->fs);
  report_cost_free(&c->rc);
  analysis_free(&c->a);
  launch_free(&c->L);
  program_free(p);
}

static const Finding *finding_on(const Costed *c, const char *category, int line) {
  for (int i = 0; i < c->fs.n; i++)
    if (!strcmp(c->fs.f[i].category, category) && tok_loc(c->fs.f[i].at->tok).line == line) return &c->fs.f[i];
  return NULL;
}

static void test_findings_cost(void) {
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = f;
  /* a warp reduction: a shuffle tree, one lane per warp stores, one thread's atomic, a ?: */
  Costed c;
  costed(&c, load_program_text("t.cu",
      "#pragma carve launch k grid(512) block(256)\n#pragma carve arg x = float[131072] : random(1)\n#pragma carve arg out = float[1] : zeros out\n"
      "__global__ void k(const float *x, float *out) {\n"                                          /* 4 */
      "  __shared__ float s[8]; int i = blockIdx.x * 256 + threadIdx.x;\n"                          /* 5 */
      "  float v = (threadIdx.x & 1) ? x[i] : -x[i];\n"                                             /* 6 */
      "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"                /* 7 */
      "  if ((threadIdx.x & 31) == 0) s[threadIdx.x / 32] = v;\n"                                   /* 8 */
      "  __syncthreads();\n"                                                                        /* 9 */
      "  if (threadIdx.x == 0) { float t = 0; for (int w = 0; w < 8; w++) t += s[w]; atomicAdd(out, t); }\n"   /* 10 */
      "}\n", NULL));
  if (c.ok) {
    CHECK(c.a.nbr >= 3, "the branches ran (%d)", c.a.nbr);
    for (int line = 6; line <= 10; line++) CHECK(!finding_on(&c, "divergence", line), "no divergence finding for the idiom on line %d", line);
    CHECK(fabs(report_overlap_total(c.rc.e.t) - c.rc.e.total) <= 1e-9 * c.rc.e.total, "the limits combine as estimate_time does: %g vs %g",
          report_overlap_total(c.rc.e.t), c.rc.e.total);
  }
  costed_free(&c);
  /* examples/warpsum.cu: a shuffle reduction and `if ((threadIdx.x & 31) == 0) sums[i / 32] = v;`,
   * the whole kernel (a small one: the store is a large part of it) */
  costed(&c, load_program("examples/warpsum.cu", NULL));
  if (c.ok) {
    CHECK(c.a.nbr >= 1, "warpsum's branches ran");
    CHECK(!finding_on(&c, "divergence", 13), "a lane-0 store of a warp's sum is no divergence finding");
    Findings all = findings_collect(&c.a, NULL);
    const Finding *d = NULL;
    for (int i = 0; i < all.n; i++) if (!strcmp(all.f[i].category, "divergence")) d = &all.f[i];
    CHECK(d && d->level == 1 && strstr(d->remedy, "one lane per warp"), "uncosted, it is a note with the idiom's remedy: %s", d ? d->remedy : "none");
    findings_free(&all);
  }
  costed_free(&c);
  /* divergence that costs: each half of a warp runs its own long loop */
  costed(&c, load_program_text("t.cu",
      "#pragma carve launch k grid(1024) block(256)\n#pragma carve arg x = float[262144] : random(1) out\n"
      "__global__ void k(float *x) { int i = blockIdx.x * 256 + threadIdx.x; float v = x[i];\n"        /* 3 */
      "  if (threadIdx.x & 1) {\n"                                                                    /* 4 */
      "    for (int j = 0; j < 64; j++) v = v * 1.0001f + sinf(v);\n"                                 /* 5 */
      "  } else {\n"
      "    for (int j = 0; j < 64; j++) v = v * 0.9999f - cosf(v);\n"
      "  }\n  x[i] = v; }\n", NULL));
  if (c.ok) {
    const Finding *d = finding_on(&c, "divergence", 4);
    CHECK(d && d->share >= 0.10 && d->level == 2, "the costly divergent branch is a warning with its share (%g)", d ? d->share : -1);
    CHECK(d && d->saving_s > 0 && d->limit, "and a saving in seconds at a named limit");
    CHECK(c.fs.n > 0 && c.fs.f[0].category == d->category && c.fs.f[0].at == d->at, "and it ranks first (%s)", c.fs.n ? c.fs.f[0].category : "-");
  }
  costed_free(&c);
  /* the ranking: saving never increases down the list */
  PPOptions pp = {.defines = (const char *[]){"N=64"}, .n_defines = 1};
  costed(&c, load_program("examples/mm.cu", &pp));
  if (c.ok) {
    for (int i = 1; i < c.fs.n; i++)
      if (c.fs.f[i].share >= 0) CHECK(c.fs.f[i - 1].share >= 0 && c.fs.f[i - 1].saving_s >= c.fs.f[i].saving_s, "ranked by saving at %d", i);
    /* mm -D N=64: B[i*n+idx] is read by the 16 rows of a 16x16 block; 3 sampled warps see 6 */
    bool found = false;
    for (int i = 0; i < c.a.nacc; i++) {
      AccessStat *s = &c.a.acc[i];
      if (s->kind != ACC_LOAD || strcmp(s->array, "B")) continue;
      bool whole;
      double r = access_reuse(s, &whole);
      found = true;
      CHECK(whole && fabs(r - 16.0) < 1e-9, "B's reuse within a block is 16 over a whole block (%g, %s)", r, whole ? "whole" : "sampled");
      CHECK(fabs((double)s->lanes / (double)s->distinct - 6.0) < 1e-9, "the 3 sampled warps alone see 6 (%g)", (double)s->lanes / (double)s->distinct);
    }
    CHECK(found, "mm's load of B");
    /* uncosted (at N=64 it saves under 0.5% and is left out): the message says 16 and why */
    Findings all = findings_collect(&c.a, NULL);
    const Finding *r = NULL;
    for (int i = 0; i < all.n; i++) if (!strcmp(all.f[i].category, "reuse")) r = &all.f[i];
    CHECK(r && strstr(r->msg, "read 16.0 times") && strstr(r->msg, "every warp of block 0"), "the reuse finding says 16, over a whole block: %s", r ? r->msg : "none");
    CHECK(!finding_on(&c, "reuse", 29), "with its cost (under 0.5%%) it is left out");
    findings_free(&all);
  }
  costed_free(&c);
  fclose(f);
  diag_out = stderr;
}

/* bench --ncu's comparison on a recorded measurement: examples/mm.cu at N=2048 on the H200
 * (docs/data/suite-h200-2026-11-22.jsonl, written back as ncu's CSV in tests/ncu/) */
static void test_counters(void) {
  size_t n;
  char *csv = read_file("tests/ncu/mm-h200-2026-11-22.csv", &n);
  CHECK(csv != NULL, "the fixture");
  if (!csv) return;
  double meas[CT_N];
  bool have[CT_N];
  counters_measured(csv, meas, have);
  CHECK(have[CT_LD_SPR] && fabs(meas[CT_LD_SPR] - 1.07374e9 / 5.36871e8) < 1e-9, "measured load sectors per request %g", meas[CT_LD_SPR]);
  CHECK(have[CT_ST_SPR] && meas[CT_ST_SPR] == 4, "measured store sectors per request %g", meas[CT_ST_SPR]);
  CHECK(!have[CT_SH_LD_WPI], "no shared instructions: no ratio");
  CHECK(have[CT_DRAM] && fabs(meas[CT_DRAM] - (33660400.0 + 12383700.0)) < 1, "DRAM read + write %g", meas[CT_DRAM]);
  CHECK(have[CT_L2] && meas[CT_L2] == 32 * 132501000.0, "L2 bytes: 32 per sector %g", meas[CT_L2]);
  CHECK(have[CT_TIME] && meas[CT_TIME] == 3180000, "the time in ns %g", meas[CT_TIME]);
  CHECK(have[CT_WARP_INS] && meas[CT_WARP_INS] == 1230900000.0, "warp instructions %g", meas[CT_WARP_INS]);
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = f;
  PPOptions pp = {.defines = (const char *[]){"N=2048"}, .n_defines = 1};
  Program *p = load_program("examples/mm.cu", &pp);
  Launch L;
  memset(&L, 0, sizeof L);
  const Machine *m = machine_find("h200");
  Ceilings ce = ceilings_for(m, "docs/data/calibration-h200-2026-11-22.json");
  CounterPrediction pr;
  int rc = p && find_kernel(p, "mm") && launch_prepare(&L, p, find_kernel(p, "mm"), NULL) == 0 ? counters_predict(&L, m, &ce, 0, &pr) : 2;
  CHECK(rc == 0, "predicted: %s", diag_text);
  if (rc == 0) {
    CounterCheck k[CT_N];
    int flagged = counters_compare(&pr, meas, have, k);
    int count = 0;
    for (int c = 0; c < CT_N; c++) {
      count += k[c].flagged;
      if (k[c].have_predicted && k[c].have_measured)
        CHECK(k[c].flagged == (fabs(k[c].predicted / k[c].measured - 1) > k[c].tolerance), "%s: flag iff beyond %g", k[c].name, k[c].tolerance);
    }
    CHECK(flagged == count, "the flagged count");
    CHECK(!k[CT_LD_SPR].flagged && k[CT_LD_SPR].predicted == 2, "mm's loads: 2 sectors per request predicted and measured (%g)", k[CT_LD_SPR].predicted);
    CHECK(!k[CT_ST_SPR].flagged && k[CT_ST_SPR].predicted == 4, "mm's stores: 4 (%g)", k[CT_ST_SPR].predicted);
    CHECK(!k[CT_TIME].flagged, "the time within 30%% (%.0f ns predicted, %.0f measured)", k[CT_TIME].predicted, k[CT_TIME].measured);
    CHECK(!k[CT_SH_LD_WPI].have_predicted && !k[CT_SH_LD_WPI].have_measured, "no shared loads on either side");
    CHECK(pr.naccess == 3, "each global access predicted (%d)", pr.naccess);
    /* a measurement four times off is flagged */
    meas[CT_LD_SPR] *= 4;
    counters_compare(&pr, meas, have, k);
    CHECK(k[CT_LD_SPR].flagged && fabs(k[CT_LD_SPR].error + 0.75) < 1e-5, "4x off: flagged at -75%% (%g)", k[CT_LD_SPR].error);
    char out[8192];
    FILE *o = fmemopen(out, sizeof out - 1, "w");
    counters_print(k, &pr, false, o);
    fclose(o);
    CHECK(strstr(out, "global load sectors per request") && strstr(out, "FLAGGED"), "the text table names and flags it: %s", out);
  }
  if (L.prog) launch_free(&L);
  if (p) program_free(p);
  free(csv);
  fclose(f);
  diag_out = stderr;
}

int main(void) {
  test_counters();
  test_findings_cost();
  test_facts_examples();
  test_facts_generations();
  test_facts_deep();
  test_unreached_all();
  test_coverage();
  test_atomic_lines();
  test_cumapz_banks();
  test_sm90_global();
  test_sm90_shared();
  test_paper_machines();
  test_affine_and_divergence();
  return TEST_SUMMARY("analyze");
}
