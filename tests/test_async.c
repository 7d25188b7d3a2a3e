/* Async copies (<cuda_pipeline_primitives.h>): the front end's builtins, the interpreter's
 * semantics (a copy lands only at the __pipeline_wait_prior that covers its group; its
 * destination counts as written from issue to wait for the race detector), located faults,
 * zfill, the analyzer's sectors and wavefronts, the model's instruction count, printing. */
#include "../src/analysis/analysis.h"
#include "../src/model/metrics.h"
#include "test.h"
#include <math.h>
#include <stdlib.h>

static char diag_text[65536];

typedef struct { Program *p; Launch L; int rc; RunStats st; } Run;

/* load and run a kernel source (every block); diagnostics are captured in diag_text */
static Run *run_opts(const char *src, const char *kernel, bool poison, bool races) {
  static Run r;
  if (r.p) { launch_free(&r.L); program_free(r.p); }
  memset(&r, 0, sizeof r);
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  memset(diag_text, 0, sizeof diag_text);
  diag_out = f;
  diag_reset();
  r.p = load_program_text("t.cu", src, NULL);
  r.rc = 2;
  if (r.p && !diag_errors) {
    Obj *k = find_kernel(r.p, kernel);
    if (k && launch_prepare(&r.L, r.p, k, NULL) == 0) {
      RunOptions o = {.max_steps = 50000000, .poison_shared = poison, .no_race_check = !races};
      r.rc = interp_run(&r.L, &o, &r.st);
    }
  }
  fclose(f);
  diag_out = stderr;
  return &r;
}
static Run *run(const char *src, const char *kernel) { return run_opts(src, kernel, false, true); }

static void done(Run *r) {
  if (!r->p) return;
  launch_free(&r->L);
  program_free(r->p);
  r->p = NULL;
}

static void *out(Run *r, const char *name) {
  for (int i = 1; i < r->L.nbufs; i++)
    if (!strcmp(r->L.bufs[i].name, name)) return r->L.bufs[i].data;
  return NULL;
}

static char *slurp(const char *path) {
  size_t n;
  char *s = read_file(path, &n);
  if (!s) { fprintf(stderr, "cannot read %s\n", path); exit(1); }
  return s;
}

/* src with its only occurrence of `from` replaced by `to` (malloc'ed) */
static char *edit(const char *src, const char *from, const char *to) {
  const char *at = strstr(src, from);
  CHECK(at && !strstr(at + 1, from), "'%s' occurs once in the kernel", from);
  if (!at) return strdup(src);
  size_t a = (size_t)(at - src), nf = strlen(from), nt = strlen(to), n = strlen(src);
  char *s = malloc(n - nf + nt + 1);
  memcpy(s, src, a);
  memcpy(s + a, to, nt);
  memcpy(s + a + nt, at + nf, n - a - nf + 1);
  return s;
}

/* the line `needle` is on in src (1-based) */
static int line_of(const char *src, const char *needle) {
  const char *at = strstr(src, needle);
  int line = 1;
  for (const char *c = src; at && c < at; c++) line += *c == '\n';
  return at ? line : -1;
}

#define MM "tests/async/mm_pipeline.cu"
enum { N = 64 };

/* C = A·B as the kernel computes it: acc += a*b contracted to fmaf, k in order */
static int mm_wrong(Run *r) {
  const float *A = out(r, "A"), *B = out(r, "B"), *C = out(r, "C");
  if (!A || !B || !C) return -1;
  int wrong = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0;
      for (int k = 0; k < N; k++) acc = fmaf(A[i * N + k], B[k * N + j], acc);
      wrong += !(fabsf(C[i * N + j] - acc) <= 1e-5f * fabsf(acc));
    }
  return wrong;
}

static void test_pipeline(void) {
  char *src = slurp(MM);
  Run *r = run_opts(src, "mm_pipeline", true, true);
  CHECK(r->rc == 0, "the two-stage pipeline runs: rc %d\n%s", r->rc, diag_text);
  CHECK(mm_wrong(r) == 0, "the pipeline's product is right (%d elements wrong)", mm_wrong(r));
  CHECK(r->st.async_unwaited == 0 && !strstr(diag_text, "warning"), "every copy was waited for: %s", diag_text);
  done(r);

  /* the wait removed: nothing arrives (the shared memory's poison is multiplied) */
  char *nowait = edit(src, "__pipeline_wait_prior(1);", ";");
  r = run_opts(nowait, "mm_pipeline", true, false);
  int wrong = mm_wrong(r);
  CHECK(r->rc == 0 && wrong == N * N, "without the wait every element is wrong: rc %d, %d of %d wrong\n%s", r->rc, wrong, N * N, diag_text);
  CHECK(r->st.async_unwaited > 0 && strstr(diag_text, "never waited for"), "the copies never waited for are counted and warned: %llu\n%s",
        (unsigned long long)r->st.async_unwaited, diag_text);
  done(r);
  /* ... and with the race detector on, reading a copy that may land at any time is a race */
  r = run(nowait, "mm_pipeline");
  CHECK(r->rc == 1 && r->st.nfault && r->st.fault[0].kind == FAULT_RACE, "without the wait: a race (rc %d)\n%s", r->rc, diag_text);
  done(r);
  free(nowait);

  /* one stage too few waited for: the current tile is still in flight */
  char *early = edit(src, "__pipeline_wait_prior(1);", "__pipeline_wait_prior(2);");
  r = run_opts(early, "mm_pipeline", true, false);
  CHECK(r->rc == 0 && mm_wrong(r) > 0, "wait_prior(2) reads tiles in flight: rc %d, %d wrong", r->rc, mm_wrong(r));
  done(r);
  r = run(early, "mm_pipeline");
  CHECK(r->rc == 1 && r->st.nfault && r->st.fault[0].kind == FAULT_RACE, "wait_prior(2): a race (rc %d)\n%s", r->rc, diag_text);
  done(r);
  free(early);

  /* the barrier after the wait removed: another warp's copy lands while this warp reads */
  char *nobar = edit(src, "__pipeline_wait_prior(1);\n        __syncthreads();", "__pipeline_wait_prior(1);");
  r = run(nobar, "mm_pipeline");
  int read_line = line_of(nobar, "acc += As"), copy_line = line_of(nobar, "__pipeline_memcpy_async(&Bs[0]");
  CHECK(r->rc == 1 && r->st.nfault && r->st.fault[0].kind == FAULT_RACE, "no barrier after the wait: a race (rc %d)\n%s", r->rc, diag_text);
  if (r->st.nfault) {
    Fault *f = &r->st.fault[0];
    int a = f->at ? tok_loc(f->at->tok).line : -1, b = f->other ? tok_loc(f->other->tok).line : -1;
    CHECK((a == read_line && b >= copy_line - 2 && b <= copy_line) || (b == read_line && a >= copy_line - 2 && a <= copy_line + 8),
          "the race is located at the read (line %d) and a copy: lines %d and %d", read_line, a, b);
  }
  CHECK(strstr(diag_text, fmt("t.cu:%d:", read_line)) && strstr(diag_text, "async copy's write"), "the race names its line and the async copy:\n%s", diag_text);
  done(r);
  free(nobar);
  free(src);
}

/* a thread's groups: wait_prior(N) completes all but the N newest committed groups; an
 * uncommitted copy is in no group a wait covers */
static void test_groups(void) {
  Run *r = run(
    "#include <cuda_pipeline_primitives.h>\n"
    "#pragma carve launch k grid(1) block(32)\n"
    "#pragma carve arg a = int[128] : iota\n"
    "#pragma carve arg o = int[160] : zeros out\n"
    "__global__ void k(const int *a, int *o) {\n"
    "  __shared__ int s[128];\n"
    "  int t = threadIdx.x;\n"
    "  for (int g = 0; g < 4; g++) s[g * 32 + t] = -1;\n"
    "  for (int g = 0; g < 3; g++) { __pipeline_memcpy_async(&s[g * 32 + t], &a[g * 32 + t], 4); __pipeline_commit(); }\n"
    "  __pipeline_memcpy_async(&s[96 + t], &a[96 + t], sizeof(int));\n"      /* never committed */
    "  __pipeline_wait_prior(2);\n"
    "  for (int g = 0; g < 4; g++) o[g * 32 + t] = s[g * 32 + t];\n"
    "  __pipeline_wait_prior(0);\n"
    "  o[128 + t] = s[32 + t] + s[64 + t] + s[96 + t];\n"
    "}\n", "k");
  int *o = out(r, "o");
  CHECK(r->rc == 0 && o, "groups: rc %d\n%s", r->rc, diag_text);
  if (o) {
    int bad = 0;
    for (int t = 0; t < 32; t++) {
      bad += o[t] != t;                                   /* group 0 complete */
      bad += o[32 + t] != -1 || o[64 + t] != -1 || o[96 + t] != -1;   /* groups 1, 2 and the open one not */
      bad += o[128 + t] != (32 + t) + (64 + t) - 1;       /* wait_prior(0): the committed ones only */
    }
    CHECK(bad == 0, "wait_prior completes exactly the older committed groups (%d wrong)", bad);
  }
  CHECK(r->st.async_unwaited == 32 && strstr(diag_text, "t.cu:10:") && strstr(diag_text, "never waited for"),
        "the uncommitted copies are never performed and warned at their line: %llu\n%s", (unsigned long long)r->st.async_unwaited, diag_text);
  done(r);
}

/* zfill: the last zfill bytes are zeros and are not read: a ragged end needs no guard */
static void test_zfill(void) {
  Run *r = run(
    "#include <cuda_pipeline.h>\n"
    "#pragma carve launch k grid(1) block(4)\n"
    "#pragma carve arg a = float[10] : iota\n"
    "#pragma carve arg o = float[16] : zeros out\n"
    "__global__ void k(const float *a, float *o) {\n"
    "  __shared__ float s[16];\n"
    "  int t = threadIdx.x;\n"
    "  for (int j = 0; j < 4; j++) s[4 * t + j] = -1.0f;\n"
    "  __syncthreads();\n"
    "  int left = 10 - 4 * t; if (left < 0) left = 0; if (left > 4) left = 4;\n"
    "  __pipeline_memcpy_async(&s[4 * t], a + 4 * t, 16, (4 - left) * sizeof(float));\n"
    "  __pipeline_commit();\n"
    "  __pipeline_wait_prior(0);\n"
    "  __syncthreads();\n"
    "  for (int j = 0; j < 4; j++) o[4 * t + j] = s[4 * t + j];\n"
    "}\n", "k");
  float *o = out(r, "o");
  CHECK(r->rc == 0 && o, "zfill: rc %d\n%s", r->rc, diag_text);
  if (o) {
    int bad = 0;
    for (int i = 0; i < 16; i++) bad += o[i] != (i < 10 ? (float)i : 0.0f);
    CHECK(bad == 0, "zfill: 10 copied, 6 zeros (%d wrong: o[10] %g, o[15] %g)", bad, o[10], o[15]);
  }
  done(r);
}

static void expect_fault(const char *what, const char *body, FaultKind kind, const char *needle) {
  Run *r = run(fmt("#include <cuda_pipeline.h>\n"
                   "#pragma carve launch k grid(1) block(32)\n"
                   "#pragma carve arg a = float[64] : iota\n"
                   "#pragma carve arg o = float[64] : zeros out\n"
                   "__global__ void k(const float *a, float *o) {\n"
                   "  __shared__ float s[64];\n"
                   "  int t = threadIdx.x;\n"
                   "%s\n"
                   "  __pipeline_commit(); __pipeline_wait_prior(0); __syncthreads();\n"
                   "  o[t] = s[t];\n"
                   "}\n", body), "k");
  CHECK(r->rc == 1 && r->st.nfault && r->st.fault[0].kind == kind && strstr(diag_text, "t.cu:8:") && strstr(diag_text, needle),
        "%s: rc %d, want a %s fault at line 8 saying '%s':\n%s", what, r->rc, fault_kind_name(kind), needle, diag_text);
  done(r);
}

static void test_faults(void) {
  expect_fault("size 32", "  __pipeline_memcpy_async(&s[0], &a[0], 32);", FAULT_RUNTIME_ERROR, "must be 4, 8 or 16");
  expect_fault("size 12", "  __pipeline_memcpy_async(&s[0], &a[0], 12);", FAULT_RUNTIME_ERROR, "must be 4, 8 or 16");
  expect_fault("zfill > size", "  __pipeline_memcpy_async(&s[4 * (t & 15)], &a[4 * (t & 15)], 16, 20);", FAULT_RUNTIME_ERROR, "zfill 20");
  expect_fault("misaligned destination", "  __pipeline_memcpy_async(&s[1], &a[0], 16);", FAULT_MISALIGNED, "misaligned shared write");
  expect_fault("misaligned source", "  __pipeline_memcpy_async(&s[0], &a[2], 16);", FAULT_MISALIGNED, "misaligned __pipeline_memcpy_async source");
  expect_fault("source out of bounds", "  __pipeline_memcpy_async(&s[t], &a[t + 40], 4);", FAULT_OUT_OF_BOUNDS, "element 64 of 'a'");
  expect_fault("destination out of bounds", "  __pipeline_memcpy_async(&s[t + 40], &a[t], 4);", FAULT_OUT_OF_BOUNDS, "out-of-bounds shared");
  expect_fault("global destination", "  __pipeline_memcpy_async(&o[t], &a[t], 4);", FAULT_MEMORY_SPACE, "must be shared memory");
  expect_fault("shared source", "  __shared__ float u[64]; __pipeline_memcpy_async(&s[t], &u[t], 4);", FAULT_MEMORY_SPACE, "must be global memory");
  expect_fault("two lanes, one destination", "  __pipeline_memcpy_async(&s[0], &a[t], 4);", FAULT_RACE, "copy different data");
  /* zfill of the whole copy reads nothing: a source past the end is no fault */
  Run *r = run("#include <cuda_pipeline.h>\n#pragma carve launch k grid(1) block(1)\n#pragma carve arg a = float[4] : iota\n"
               "#pragma carve arg o = float[4] : zeros out\n"
               "__global__ void k(const float *a, float *o) {\n  __shared__ float s[4];\n"
               "  __pipeline_memcpy_async(s, a + 4, 16, 16); __pipeline_commit(); __pipeline_wait_prior(0);\n  o[0] = s[0] + 1;\n}\n", "k");
  float *o = out(r, "o");
  CHECK(r->rc == 0 && o && o[0] == 1.0f, "zfill 16 reads nothing: rc %d\n%s", r->rc, diag_text);
  done(r);
}

static void expect_error(const char *what, const char *call, const char *needle) {
  Run *r = run(fmt("#include <cuda_pipeline_primitives.h>\n"
                   "__global__ void k(const float *a, float *o) {\n"
                   "  __shared__ float s[64];\n"
                   "  %s;\n"
                   "}\n", call), "k");
  CHECK(r->rc == 2 && strstr(diag_text, "t.cu:4:") && strstr(diag_text, needle), "%s: want an error at line 4 saying '%s':\n%s", what, needle, diag_text);
  done(r);
}

static void test_front(void) {
  expect_error("two arguments", "__pipeline_memcpy_async(s, a)", "takes 3 or 4 arguments, 2 given");
  expect_error("five arguments", "__pipeline_memcpy_async(s, a, 4, 0, 0)", "takes 3 or 4 arguments, 5 given");
  expect_error("an integer destination", "__pipeline_memcpy_async(3, a, 4)", "argument 1 of '__pipeline_memcpy_async' must be a pointer");
  expect_error("a float size", "__pipeline_memcpy_async(s, a, 4.0f)", "argument 3 of '__pipeline_memcpy_async' must be an integer");
  expect_error("a const destination", "__pipeline_memcpy_async(a, a, 4)", "discards the const qualifier");
  expect_error("commit with an argument", "__pipeline_commit(1)", "takes 0 arguments, 1 given");
  expect_error("wait without one", "__pipeline_wait_prior()", "takes 1 argument, 0 given");
  expect_error("wait on a pointer", "__pipeline_wait_prior(a)", "must be an integer");
  expect_error("undeclared without the builtin", "__pipeline_memcpy_async_x(s, a, 4)", "undeclared function");

  /* both headers are stood in for quietly; the printer re-emits the primitives' header and
   * keeps the calls as written (3 or 4 arguments); print of print is print */
  char *src = slurp(MM);
  char *both = fmt("#include <cuda_pipeline_primitives.h>\n%s", src);
  Run *r = run(both, "mm_pipeline");
  CHECK(r->rc == 0 && !strstr(diag_text, "warning"), "the headers load without a warning:\n%s", diag_text);
  Buf b = {0};
  if (r->p) print_program(&b, r->p);
  const char *text = b.s ? b.s : "";
  CHECK(strstr(text, "#include <cuda_pipeline_primitives.h>\n") == text, "the printed file starts with the header:\n%.200s", text);
  CHECK(strstr(text, "__pipeline_memcpy_async(&As[nxt][r][c], &A[(blockIdx.y * T + r) * n + (k + 1) * T + c], 16);") ||
        strstr(text, "__pipeline_memcpy_async(&As[nxt][r][c], &A[(blockIdx.y * 16 + r) * n + (k + 1) * 16 + c], 16);"),
        "the copy is printed back:\n%s", text);
  CHECK(strstr(text, "__pipeline_commit();") && strstr(text, "__pipeline_wait_prior(1);"), "commit and wait printed back");
  Run *r2 = run(text, "mm_pipeline");
  Buf b2 = {0};
  if (r2->p) print_program(&b2, r2->p);
  CHECK(r2->rc == 0 && b2.s && !strcmp(b2.s, text), "print of print is print, and it runs (rc %d)", r2->rc);
  buf_free(&b);
  buf_free(&b2);
  done(r2);
  r = run("#include <cuda_pipeline.h>\n#pragma carve launch k grid(1) block(4)\n#pragma carve arg a = float[16] : iota\n"
          "__global__ void k(const float *a) {\n  __shared__ float s[16];\n"
          "  __pipeline_memcpy_async(s + 4 * threadIdx.x, a + 4 * threadIdx.x, 16, 4);\n}\n", "k");
  Buf b3 = {0};
  if (r->p) print_program(&b3, r->p);
  CHECK(b3.s && strstr(b3.s, "__pipeline_memcpy_async(s + 4 * threadIdx.x, a + 4 * threadIdx.x, 16, 4);"), "zfill printed:\n%s", b3.s ? b3.s : "");
  buf_free(&b3);
  done(r);
  free(src);
}

/* the copy's load: sectors per request as for a 16-byte load from its source (8 rows of 64
 * bytes: 16 sectors); its store: 128-bit shared accesses in quarter-warp phases, 4 wavefronts
 * when each phase's 8 lanes cover 128 contiguous bytes */
static void test_analyzer(void) {
  char *src = slurp(MM);
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = f;
  diag_reset();
  Program *p = load_program_text("t.cu", src, NULL);
  Launch L = {0};
  Analysis a = {0};
  int line = line_of(src, "__pipeline_memcpy_async(&As[nxt]");
  int rc = p ? (launch_prepare(&L, p, find_kernel(p, "mm_pipeline"), NULL) ? 2 : analyze(&a, &L, machine_find("h100"), NULL)) : 2;
  fclose(f);
  diag_out = stderr;
  CHECK(rc == 0, "analyze: rc %d\n%s", rc, diag_text);
  AccessStat *ld = NULL, *st = NULL;
  for (int i = 0; i < a.nacc; i++)
    if (tok_loc(a.acc[i].node->tok).line == line) *(a.acc[i].kind == ACC_LOAD ? &ld : &st) = &a.acc[i];
  CHECK(ld && ld->space == SPACE_GLOBAL && ld->size == 16 && !strcmp(ld->array, "A"), "the copy is a 16-byte global load of A at line %d", line);
  CHECK(st && st->space == SPACE_SHARED && st->size == 16 && !strcmp(st->array, "As"), "the copy is a 16-byte shared store to As at line %d", line);
  if (ld && ld->requests)
    CHECK(ld->sectors == 16 * ld->requests && ld->min_units == 16 && ld->max_units == 16, "16 sectors per request: %llu over %llu",
          (unsigned long long)ld->sectors, (unsigned long long)ld->requests);
  if (st && st->requests)
    CHECK(st->wavefronts == 4 * st->requests && st->ideal == st->wavefronts, "4 wavefronts per request, conflict-free: %llu over %llu",
          (unsigned long long)st->wavefronts, (unsigned long long)st->requests);
  if (L.prog) { analysis_free(&a); launch_free(&L); }
  if (p) program_free(p);
  free(src);
}

/* the model: an async copy is one instruction (its shared store adds none); a plain copy
 * through a register is a load and a store */
static double shared_stores(const char *copy) {
  char *src = (char *)fmt("#include <cuda_pipeline.h>\n#pragma carve launch k grid(1) block(64)\n#pragma carve arg a = float[256] : iota\n"
                          "#pragma carve arg o = float[64] : zeros out\n"
                          "__global__ void k(const float *a, float *o) {\n  __shared__ float s[256];\n  int t = threadIdx.x;\n"
                          "  %s\n  __syncthreads();\n  o[t] = s[4 * t] + s[(4 * t + 5) & 255];\n}\n", copy);
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_out = f;
  diag_reset();
  Program *p = load_program_text("t.cu", src, NULL);
  Launch L = {0};
  Counts c = {0};
  double sst = -1, gld = -1;
  if (p && launch_prepare(&L, p, find_kernel(p, "k"), NULL) == 0 && count_instructions(&L, &c, 1) == 0) {
    sst = c.warp_ins[CL_SST];
    gld = c.warp_ins[CL_GLD];
  }
  counts_free(&c);
  if (L.prog) launch_free(&L);
  if (p) program_free(p);
  fclose(f);
  diag_out = stderr;
  CHECK(gld == 2, "one global-load instruction per warp (2 warps): %g\n%s", gld, diag_text);
  return sst;
}

static void test_model(void) {
  double async = shared_stores("__pipeline_memcpy_async(&s[4 * t], &a[4 * t], 16); __pipeline_commit(); __pipeline_wait_prior(0);");
  double plain = shared_stores("*(float4 *)&s[4 * t] = *(const float4 *)&a[4 * t];");
  CHECK(async == 0, "the async copy's store is no instruction: %g", async);
  CHECK(plain == 2, "a plain copy stores from a register: %g shared stores (2 warps)", plain);
}

/* the loop facts: a loop whose only writes are async copies writes memory (a shared load in it
 * is not invariant: passes must not hoist it) */
static void test_facts(void) {
  Program *p = load_program_text("t.cu", "__global__ void k(const float *a, float *o, int n) {\n  __shared__ float s[64];\n  float acc = 0;\n"
                                 "  for (int i = 0; i < n; i++) {\n    __pipeline_memcpy_async(&s[threadIdx.x], &a[i * 64 + threadIdx.x], 4);\n"
                                 "    __pipeline_commit();\n    __pipeline_wait_prior(0);\n    __syncthreads();\n    acc += s[0];\n    __syncthreads();\n  }\n"
                                 "  o[threadIdx.x] = acc;\n}\n", NULL);
  Facts *f = p ? facts_new(p, find_kernel(p, "k")) : NULL;
  bool writes = false;
  for (int i = 0; f && i < facts_nloops(f); i++) writes |= facts_loop(f, i)->writes_memory;
  CHECK(f && facts_nloops(f) == 1 && writes, "a loop holding an async copy writes memory");
  if (f) facts_free(f);
  if (p) program_free(p);
}

int main(void) {
  test_facts();
  test_pipeline();
  test_groups();
  test_zfill();
  test_faults();
  test_front();
  test_analyzer();
  test_model();
  return TEST_SUMMARY("test_async");
}
