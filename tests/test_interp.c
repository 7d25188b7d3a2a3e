/* Interpreter semantics: each case is a small kernel run on the CPU; outputs are checked
 * against values computed here with C's own (host) arithmetic, bit for bit where CUDA and
 * C agree, and against the GPU's documented behaviour where they do not. */
#include "../src/front/front.h"
#include "../src/arch/arch.h"
#include "../src/front/limits_parse.h"
#include "../src/interp/interp.h"
#include "../src/interp/half.h"
#include "../src/model/model.h"
#include "../src/gpu/gpu.h"
#include "test.h"
#include <math.h>
#include <stdlib.h>

static char diag_text[65536];

typedef struct { Program *p; Launch L; int rc; RunStats st; } Run;

/* what a run may change from the file's launch: flags (grid, block, shared, --arg), the machine */
typedef struct { LaunchOverrides ov; const char **args; int nargs; const Machine *machine; bool no_race_check; } Variant;

/* load and run a kernel source under a variant (NULL: as the file says); diagnostics are
 * captured in diag_text */
static Run *run_variant(const char *src, const char *kernel, const Variant *v) {
  static Run r;
  if (r.p) program_free(r.p);
  memset(&r, 0, sizeof r);
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  memset(diag_text, 0, sizeof diag_text);
  diag_out = f;
  diag_reset();
  r.p = load_program_text("t.cu", src, NULL);
  r.rc = 2;
  if (r.p && !diag_errors) {
    Obj *k = find_kernel(r.p, kernel);
    LaunchOverrides ov = {.dyn_shared = -1};
    ArgSpec *args[8];
    if (v) {
      ov = v->ov;
      for (int i = 0; i < v->nargs && i < 8; i++) args[i] = parse_arg_setting(r.p, v->args[i], ".");
      ov.args = args;
      ov.nargs = v->nargs;
    }
    bool args_ok = true;
    for (int i = 0; i < ov.nargs; i++) args_ok &= args[i] != NULL;
    if (k && args_ok && launch_prepare(&r.L, r.p, k, &ov) == 0) {
      RunOptions o = {.max_steps = 50000000, .no_race_check = v && v->no_race_check};
      r.L.machine = v ? v->machine : NULL;
      r.rc = interp_run(&r.L, &o, &r.st);
    }
  }
  fclose(f);
  diag_out = stderr;
  return &r;
}

static Run *run(const char *src, const char *kernel) { return run_variant(src, kernel, NULL); }

static void *out(Run *r, const char *name) {
  for (int i = 1; i < r->L.nbufs; i++)
    if (!strcmp(r->L.bufs[i].name, name)) return r->L.bufs[i].data;
  return NULL;
}

static void done(Run *r) {
  launch_free(&r->L);
  if (r->p) program_free(r->p);
  r->p = NULL;
}

#define OK(r, what) CHECK((r)->rc == 0, "%s: rc %d, diagnostics:\n%s", what, (r)->rc, diag_text)

static void test_integer_semantics(void) {
  Run *r = run(
    "#pragma carve launch k grid(1) block(1)\n"
    "#pragma carve arg o = int[16] : zeros out\n"
    "#pragma carve arg x = 1\n"
    "__global__ void k(int *o, int x) {\n"
    "  int big = 2147483647; unsigned u = 0u; int m1 = -1; unsigned one = 1u;\n"
    "  o[0] = big + x;              /* wraps on the GPU */\n"
    "  o[1] = (int)(u - one);        /* 4294967295 -> -1 */\n"
    "  o[2] = m1 < one;              /* -1 converts to unsigned: 0 */\n"
    "  o[3] = (char)200;             /* -56 */\n"
    "  o[4] = -7 / 2; o[5] = -7 % 2; /* truncation toward zero */\n"
    "  int s = 33; o[6] = x << s;    /* PTX shl clamps: 0 */\n"
    "  o[7] = -8 >> 1;               /* arithmetic shift */\n"
    "  o[8] = (unsigned char)(x * 300);\n"
    "  long long L = 1LL << 40; o[9] = (int)(L >> 38);\n"
    "  o[10] = sizeof(long) + sizeof(size_t);\n"
    "  short sh = -2; o[11] = sh * sh * 1000;\n"
    "  o[12] = (-2147483647 - 1) / -x;  /* INT_MIN / -1 wraps */\n"
    "  o[13] = 7u / 2 - 4;           /* unsigned: 4294967295 truncated to -1 */\n"
    "  o[14] = ~x; o[15] = !x + (x ? 10 : 20);\n"
    "}\n", "k");
  OK(r, "integer semantics");
  int *o = out(r, "o");
  if (o) {
    int want[16] = {(int)0x80000000u, -1, 0, -56, -3, -1, 0, -4, 44, 4, 16, 4000, (int)0x80000000u, -1, -2, 10};
    for (int i = 0; i < 16; i++) CHECK(o[i] == want[i], "integer o[%d] = %d, want %d", i, o[i], want[i]);
  }
  done(r);
}

static void test_float_semantics(void) {
  Run *r = run(
    "#pragma carve launch k grid(1) block(1)\n"
    "#pragma carve arg o = float[8] : zeros out\n"
    "#pragma carve arg d = double[4] : zeros out\n"
    "#pragma carve arg a = 1.000244140625\n"
    "#pragma carve arg c = -1.00048828125\n"
    "__global__ void k(float *o, double *d, float a, float c) {\n"
    "  o[0] = a * a + c;           /* contracted: fmaf(a, a, c) */\n"
    "  float p = a * a; o[1] = p + c;  /* separate statements: not contracted by carve */\n"
    "  o[2] = 0.1f * 3.0f;         /* float arithmetic */\n"
    "  d[0] = 0.1f * 3.0;          /* promoted to double */\n"
    "  o[3] = (int)3e10f;          /* saturates to INT_MAX, then to float */\n"
    "  o[4] = sqrtf(2.0f); o[5] = fminf(a, c); o[6] = __int_as_float(0x3f800000);\n"
    "  int ni = (int)(0.0f / 0.0f); o[7] = ni;  /* NaN converts to 0 */\n"
    "  d[1] = sqrt(2.0); d[2] = (double)a * c; d[3] = 1e300 * 1e10;\n"
    "}\n", "k");
  OK(r, "float semantics");
  float *o = out(r, "o");
  double *d = out(r, "d");
  float a = 1.000244140625f, c = -1.00048828125f;
  volatile float prod = a * a;
  if (o && d) {
    CHECK(o[0] == fmaf(a, a, c), "fma contraction: %a vs %a", o[0], fmaf(a, a, c));
    CHECK(o[1] == prod + c, "uncontracted: %a vs %a", o[1], prod + c);
    CHECK(o[0] != o[1], "the test values distinguish fused from unfused (%a)", o[0]);
    volatile float x = 0.1f, y = 3.0f;
    CHECK(o[2] == x * y, "float mul %a", o[2]);
    CHECK(d[0] == (double)0.1f * 3.0, "double promotion %a", d[0]);
    CHECK(o[3] == 2147483647.0f, "saturating conversion %f", o[3]);
    CHECK(o[4] == sqrtf(2.0f), "sqrtf");
    CHECK(o[5] == c, "fminf");
    CHECK(o[6] == 1.0f, "__int_as_float");
    CHECK(o[7] == 0.0f, "NaN to int is 0 (%f)", o[7]);
    CHECK(d[1] == sqrt(2.0) && d[2] == (double)a * c && isinf(d[3]), "double math");
  }
  done(r);
}

static void test_divergence(void) {
  Run *r = run(
    "#pragma carve launch k grid(2) block(64)\n"
    "#pragma carve arg o = int[128] : zeros out\n"
    "__global__ void k(int *o) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  int acc = 0;\n"
    "  if (t % 3 == 0) acc = 100; else if (t % 3 == 1) acc = 200; else { acc = 300; }\n"
    "  for (int i = 0; i < t % 7; i++) { if (i == 4) break; if (i % 2) continue; acc += i; }\n"
    "  int j = 0; while (j < t % 5) j++; acc += j * 1000;\n"
    "  do { acc += 7; } while (acc < 0);\n"
    "  switch (t % 4) { case 0: acc += 10000; case 1: acc += 20000; break; case 2: acc += 40000; break; default: acc -= 1; }\n"
    "  switch (t % 5) { case 0: case 1: acc += 100000; break; case 3: default: acc += 200000; }\n"
    "  if (t == 5) { o[t] = -5; return; }\n"
    "  o[t] = acc;\n"
    "}\n", "k");
  OK(r, "divergence");
  int *o = out(r, "o");
  for (int t = 0; o && t < 128; t++) {
    int acc = t % 3 == 0 ? 100 : t % 3 == 1 ? 200 : 300;
    for (int i = 0; i < t % 7; i++) { if (i == 4) break; if (i % 2) continue; acc += i; }
    int j = 0; while (j < t % 5) j++; acc += j * 1000;
    acc += 7;
    switch (t % 4) { case 0: acc += 10000; /* fall through */ case 1: acc += 20000; break; case 2: acc += 40000; break; default: acc -= 1; }
    acc += (t % 5 <= 1) ? 100000 : 200000;
    if (t == 5) acc = -5;
    CHECK(o[t] == acc, "divergence o[%d] = %d, want %d", t, o[t], acc);
  }
  done(r);
}

static void test_short_circuit(void) {
  Run *r = run(
    "#pragma carve launch k grid(1) block(64)\n"
    "#pragma carve arg a = int[32] : iota\n"
    "#pragma carve arg o = int[64] : zeros out\n"
    "#pragma carve arg n = 32\n"
    "__global__ void k(const int *a, int *o, int n) {\n"
    "  int i = threadIdx.x;\n"
    "  o[i] = (i < n && a[i] % 2 == 0) || (i >= n ? 0 : a[i] == 31);\n"
    "}\n", "k");
  OK(r, "short circuit guards the out-of-range reads");
  int *o = out(r, "o");
  for (int i = 0; o && i < 64; i++) CHECK(o[i] == (i < 32 && (i % 2 == 0 || i == 31)), "short circuit o[%d]", i);
  done(r);
}

static void test_barrier_reduction(void) {
  Run *r = run(
    "#define B 256\n"
    "#pragma carve launch k grid(3) block(B)\n"
    "#pragma carve arg in = int[3*B] : iota\n"
    "#pragma carve arg o = int[6] : zeros out\n"
    "__global__ void k(const int *in, int *o) {\n"
    "  __shared__ int s[B];\n"
    "  int t = threadIdx.x;\n"
    "  s[t] = in[blockIdx.x * B + t];\n"
    "  __syncthreads();\n"
    "  for (int h = B / 2; h > 0; h >>= 1) { if (t < h) s[t] += s[t + h]; __syncthreads(); }\n"
    "  int c = __syncthreads_count(in[blockIdx.x * B + t] % 3 == 0);\n"
    "  if (t == 0) { o[blockIdx.x] = s[0]; o[3 + blockIdx.x] = c; }\n"
    "}\n", "k");
  OK(r, "barrier reduction");
  int *o = out(r, "o");
  for (int b = 0; o && b < 3; b++) {
    int sum = 0, c = 0;
    for (int t = 0; t < 256; t++) { sum += b * 256 + t; c += (b * 256 + t) % 3 == 0; }
    CHECK(o[b] == sum, "block %d sum %d want %d", b, o[b], sum);
    CHECK(o[3 + b] == c, "syncthreads_count %d want %d", o[3 + b], c);
  }
  done(r);
}

static void test_atomics(void) {
  Run *r = run(
    "#pragma carve launch k grid(4) block(128)\n"
    "#pragma carve arg h = unsigned int[8] : zeros out\n"
    "#pragma carve arg m = int[4] : fill(-1000) out\n"
    "#pragma carve arg f = float[1] : zeros out\n"
    "__global__ void k(unsigned int *h, int *m, float *f) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  atomicAdd(&h[t % 8], 1u);\n"
    "  atomicMax(&m[0], t); atomicMin(&m[1], -t);\n"
    "  atomicInc((unsigned int *)&m[2], 9u);\n"
    "  int old, assumed; do { assumed = m[3]; old = atomicCAS(&m[3], assumed, assumed + 2); } while (old != assumed);\n"
    "  atomicAdd(f, 0.5f);\n"
    "}\n", "k");
  OK(r, "atomics");
  unsigned *h = out(r, "h");
  int *m = out(r, "m");
  float *f = out(r, "f");
  for (int i = 0; h && i < 8; i++) CHECK(h[i] == 64, "histogram bin %d = %u", i, h[i]);
  if (m) {
    CHECK(m[0] == 511, "atomicMax over 512 threads: %d", m[0]);
    CHECK(m[1] == -1000, "atomicMin(-t) never goes below the initial -1000: %d", m[1]);
    /* atomicInc wraps at 9: start (unsigned)-1000 >= 9 -> 0, then counts 0..9 */
    unsigned v = (unsigned)-1000;
    for (int i = 0; i < 512; i++) v = v >= 9u ? 0 : v + 1;
    CHECK((unsigned)m[2] == v, "atomicInc %u want %u", (unsigned)m[2], v);
    CHECK(m[3] == -1000 + 2 * 512, "atomicCAS loop %d", m[3]);
  }
  if (f) CHECK(*f == 256.0f, "float atomicAdd %f", *f);
  done(r);
}

static void test_warp_intrinsics(void) {
  Run *r = run(
    "#pragma carve launch k grid(1) block(64)\n"
    "#pragma carve arg o = int[64] : zeros out\n"
    "#pragma carve arg b = unsigned int[8] : zeros out\n"
    "__global__ void k(int *o, unsigned int *b) {\n"
    "  int t = threadIdx.x, lane = t % 32;\n"
    "  int v = t;\n"
    "  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);\n"
    "  int x = __shfl_xor_sync(0xffffffff, t, 1);\n"
    "  int up = __shfl_up_sync(0xffffffff, t, 3);\n"
    "  int bc = __shfl_sync(0xffffffff, t * 10, 7, 8);\n"
    "  o[t] = (lane == 0 ? v : 0) + x * 100000;\n"
    "  unsigned all = __ballot_sync(0xffffffff, 1);\n"
    "  if (t == 1) { b[0] = all; }\n"
    "  unsigned bal = __ballot_sync(0xffffffff, lane % 3 == 0);\n"
    "  if (lane % 2) { if (t == 33) b[1] = __activemask(); }\n"
    "  if (t == 0) { b[2] = bal; b[3] = __popc(bal); b[4] = __clz(1); b[5] = __ffs(8); b[6] = __brev(1u); }\n"
    "  if (t == 40) b[7] = up * 1000 + bc;\n"
    "}\n", "k");
  OK(r, "warp intrinsics");
  int *o = out(r, "o");
  unsigned *b = out(r, "b");
  if (o && b) {
    int s0 = 0, s1 = 0;
    for (int i = 0; i < 32; i++) { s0 += i; s1 += 32 + i; }
    CHECK(o[0] == s0 + 1 * 100000, "shfl_down sum warp 0: %d", o[0]);
    CHECK(o[32] == s1 + 33 * 100000, "shfl_down sum warp 1: %d", o[32]);
    CHECK(o[5] == 4 * 100000, "shfl_xor: %d", o[5]);
    unsigned bal = 0;
    for (int i = 0; i < 32; i++) if (i % 3 == 0) bal |= 1u << i;
    CHECK(b[0] == 0xffffffffu, "ballot all %08x", b[0]);
    CHECK(b[1] == 0x2u, "activemask inside 'if (t == 33)' has only lane 1: %08x", b[1]);
    CHECK(b[2] == bal && b[3] == 11, "ballot %08x popc %u", b[2], b[3]);
    CHECK(b[4] == 31 && b[5] == 4 && b[6] == 0x80000000u, "clz %u ffs %u brev %08x", b[4], b[5], b[6]);
    /* t = 40: lane 8; up by 3 -> lane 5 -> t 37; width-8 broadcast of lane 7 of segment 8..15 -> t 47 */
    CHECK(b[7] == 37u * 1000 + 470, "shfl_up and width-8 shfl: %u", b[7]);
  }
  done(r);
}

static void test_functions_structs(void) {
  Run *r = run(
    "struct P { float x; int n; };\n"
    "typedef struct P P;\n"
    "__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n"
    "__device__ P make(float x, int n) { P p; p.x = x; p.n = n; return p; }\n"
    "__device__ void bump(int *p) { *p += 5; }\n"
    "__device__ float4 scale(float4 v, float s) { return make_float4(v.x * s, v.y * s, v.z * s, v.w * s); }\n"
    "__constant__ float coef[4] = {1.5f, -2.0f, 3.0f, 0.25f};\n"
    "__device__ int counter = 7;\n"
    "#pragma carve launch k grid(1) block(32)\n"
    "#pragma carve arg o = float[32] : zeros out\n"
    "#pragma carve arg v = float4[32] : iota out\n"
    "__global__ void k(float *o, float4 *v) {\n"
    "  int t = threadIdx.x;\n"
    "  int local[4] = {t, t + 1};\n"
    "  int x = local[1] + local[3];\n"
    "  bump(&x);\n"
    "  P p = make(coef[t % 4], fact(t % 6));\n"
    "  float4 w = scale(v[t], 2.0f);\n"
    "  v[t] = w;\n"
    "  o[t] = p.x * p.n + x + counter;\n"
    "}\n", "k");
  OK(r, "functions, structs, vectors, constants");
  float *o = out(r, "o");
  float *v = out(r, "v");
  float coef[4] = {1.5f, -2.0f, 3.0f, 0.25f};
  int fact[6] = {1, 1, 2, 6, 24, 120};
  for (int t = 0; o && t < 32; t++) {
    float want = coef[t % 4] * (float)fact[t % 6] + (float)(t + 1 + 0 + 5) + 7.0f;
    CHECK(o[t] == want, "o[%d] = %g want %g", t, o[t], want);
    for (int c = 0; c < 4; c++) CHECK(v[4 * t + c] == 2.0f * (float)(4 * t + c), "float4 v[%d].%d", t, c);
  }
  done(r);
}

static void test_dynamic_shared(void) {
  Run *r = run(
    "#pragma carve launch k grid(2) block(64) shared(64 * sizeof(float))\n"
    "#pragma carve arg o = float[128] : zeros out\n"
    "__global__ void k(float *o) {\n"
    "  extern __shared__ float buf[];\n"
    "  int t = threadIdx.x;\n"
    "  buf[t] = t * 2.0f;\n"
    "  __syncthreads();\n"
    "  o[blockIdx.x * 64 + t] = buf[63 - t];\n"
    "}\n", "k");
  OK(r, "dynamic shared memory");
  float *o = out(r, "o");
  for (int i = 0; o && i < 128; i++) CHECK(o[i] == 2.0f * (float)(63 - i % 64), "dyn shared o[%d]", i);
  done(r);
}

static void test_preprocessor(void) {
  Run *r = run(
    "#define SQ(x) ((x) * (x))\n"
    "#define CAT(a, b) a##b\n"
    "#define STR(x) #x\n"
    "#define SUM(...) sum3(__VA_ARGS__)\n"
    "#define IDX(r, c) ((r) * W + (c))\n"
    "#define W 4\n"
    "#if defined(W) && W > 2 && !defined(NOPE)\n"
    "#define GOOD 1\n"
    "#elif 1\n"
    "#define GOOD 2\n"
    "#else\n"
    "#error no\n"
    "#endif\n"
    "#ifdef NOPE\n#error not defined\n#endif\n"
    "__device__ int sum3(int a, int b, int c) { return a + b + c; }\n"
    "#pragma carve launch k grid(1) block(1)\n"
    "#pragma carve arg o = int[8] : zeros out\n"
    "__global__ void k(int *o) {\n"
    "  int CAT(my, var) = SQ(3 + 1);\n"
    "  o[0] = myvar; o[1] = SUM(1, 2, 3); o[2] = IDX(2, 3); o[3] = GOOD;\n"
    "  o[4] = sizeof(STR(hello)); o[5] = __LINE__;\n"
    "}\n", "k");
  OK(r, "preprocessor");
  int *o = out(r, "o");
  if (o) {
    CHECK(o[0] == 16 && o[1] == 6 && o[2] == 11 && o[3] == 1, "macros %d %d %d %d", o[0], o[1], o[2], o[3]);
    CHECK(o[4] == 6, "stringize: sizeof \"hello\" = %d", o[4]);
    CHECK(o[5] == 23, "__LINE__ = %d", o[5]);
  }
  done(r);
}

/* ---- the detectors ---- */
static void expect_fault(const char *what, const char *src, const char *needle, int line) {
  Run *r = run(src, "k");
  CHECK(r->rc == 1, "%s: exit 1 for a fault (rc %d)\n%s", what, r->rc, diag_text);
  CHECK(strstr(diag_text, needle) != NULL, "%s: message contains '%s'; got:\n%s", what, needle, diag_text);
  char loc[32];
  snprintf(loc, sizeof loc, "t.cu:%d:", line);
  CHECK(strstr(diag_text, loc) != NULL, "%s: located at %s; got:\n%s", what, loc, diag_text);
  done(r);
}

static void test_detectors(void) {
  expect_fault("global out of bounds",
    "#pragma carve launch k grid(1) block(64)\n#pragma carve arg a = float[60] : zeros\n#pragma carve arg o = float[64] : zeros out\n"
    "__global__ void k(const float *a, float *o) {\n  int i = threadIdx.x;\n  o[i] = a[i];\n}\n",
    "out-of-bounds global read of 4 bytes: element 60 of 'a' (60 elements) in block (0,0,0) thread (60,0,0)", 6);
  expect_fault("negative index",
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = int[32] : zeros\n#pragma carve arg o = int[32] : zeros out\n"
    "__global__ void k(int *a, int *o) {\n  int i = threadIdx.x;\n  o[i] = a[i - 1];\n}\n",
    "element -1 of 'a'", 6);
  expect_fault("shared out of bounds",
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg o = int[32] : zeros out\n"
    "__global__ void k(int *o) {\n  __shared__ int s[16];\n  s[threadIdx.x] = 1;\n  o[threadIdx.x] = 0;\n}\n",
    "out-of-bounds shared write", 5);
  expect_fault("race",
    "#pragma carve launch k grid(1) block(64)\n#pragma carve arg o = int[64] : zeros out\n"
    "__global__ void k(int *o) {\n  __shared__ int s[64];\n  s[threadIdx.x] = threadIdx.x;\n  o[threadIdx.x] = s[63 - threadIdx.x];\n}\n",
    "shared-memory race: this write of byte 128 and a read by warp 0", 5);
  CHECK(strstr(diag_text, "t.cu:6:20: note: the other access of the race") != NULL, "race note names the read:\n%s", diag_text);
  expect_fault("divergent barrier in a warp",
    "#pragma carve launch k grid(1) block(64)\n#pragma carve arg o = int[64] : zeros out\n"
    "__global__ void k(int *o) {\n  if (threadIdx.x % 2) {\n    __syncthreads();\n  }\n  o[threadIdx.x] = 1;\n}\n",
    "__syncthreads reached by only part of a warp", 5);
  expect_fault("different barriers in different warps",
    "#pragma carve launch k grid(1) block(64)\n#pragma carve arg o = int[64] : zeros out\n"
    "__global__ void k(int *o) {\n  if (threadIdx.x < 32) {\n    __syncthreads();\n  } else {\n    __syncthreads();\n  }\n  o[threadIdx.x] = 1;\n}\n",
    "divergent __syncthreads", 7);
  expect_fault("division by zero",
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg o = int[32] : zeros out\n"
    "__global__ void k(int *o) {\n  int d = threadIdx.x - 3;\n  o[threadIdx.x] = 100 / d;\n}\n",
    "integer division by zero in block (0,0,0) thread (3,0,0)", 5);
  /* the step limit stops the run (status 2), never a fault: the kernel may be correct and long */
  {
    Run *r = run("#pragma carve launch k grid(1) block(32)\n#pragma carve arg o = int[32] : zeros out\n"
                 "__global__ void k(int *o) {\n  int i = 0;\n  while (o[0] == 0) i++;\n  o[1] = i;\n}\n", "k");
    CHECK(r->rc == 2, "step limit: status 2, not a fault (rc %d)\n%s", r->rc, diag_text);
    CHECK(strstr(diag_text, "carve: stopped: step limit ") && strstr(diag_text, "reached in kernel 'k' (raise with --max-steps)"),
          "step limit: says stopped and how to go on; got:\n%s", diag_text);
    CHECK(!strstr(diag_text, "error:"), "step limit: no error reported; got:\n%s", diag_text);
    CHECK(strstr(diag_text, "t.cu:5:") != NULL, "step limit: says where it was; got:\n%s", diag_text);
    done(r);
  }
  expect_fault("misaligned",
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg o = char[256] : zeros out\n"
    "__global__ void k(char *o) {\n  int *p = (int *)(o + 1);\n  p[threadIdx.x] = 1;\n}\n",
    "misaligned global write of 4 bytes", 5);
  /* no false positive: a warp-synchronous exchange inside one warp, and a correct two-phase exchange */
  Run *r = run("#pragma carve launch k grid(1) block(64)\n#pragma carve arg o = int[64] : zeros out\n"
               "__global__ void k(int *o) {\n  __shared__ int s[64];\n  s[threadIdx.x] = threadIdx.x;\n  __syncthreads();\n"
               "  int v = s[63 - threadIdx.x];\n  __syncthreads();\n  s[threadIdx.x] = v;\n  o[threadIdx.x] = s[threadIdx.x ^ 1 ^ 0] * 0 + v;\n}\n", "k");
  CHECK(r->rc == 0, "no race reported for a barrier-separated exchange:\n%s", diag_text);
  done(r);
}

static void test_early_exit_barrier(void) {
  /* threads that returned do not block a later barrier (sm_70+ behaviour), but live ones must arrive */
  Run *r = run("#pragma carve launch k grid(1) block(64)\n#pragma carve arg o = int[64] : zeros out\n#pragma carve arg n = 40\n"
               "__global__ void k(int *o, int n) {\n  __shared__ int s[64];\n  int t = threadIdx.x;\n  if (t >= n) return;\n"
               "  s[t] = t;\n  __syncthreads();\n  o[t] = s[n - 1 - t];\n}\n", "k");
  OK(r, "early exit before a barrier");
  int *o = out(r, "o");
  for (int t = 0; o && t < 64; t++) CHECK(o[t] == (t < 40 ? 39 - t : 0), "early exit o[%d]=%d", t, o[t]);
  done(r);
}

/* the initializers are a contract with the GPU harness and with users' data: pin the values the
 * formula in docs/launch-spec.md gives (computed independently, in Python) */
static void test_generators_pinned(void) {
  CHECK(random_bits(1, 0) == 0xd28f049168bdd34cull, "random_bits(1, 0)");
  CHECK(random_bits(7, 12345) == 0x2a46df98d1825351ull, "random_bits(7, 12345)");
  Run *r = run("#pragma carve launch k grid(1) block(1)\n#pragma carve arg f = float[8] : random(3, -1, 1) out\n"
               "#pragma carve arg i = int[4] : random(9, 10, 100) out\n#pragma carve arg v = float4[2] : iota(1, 2) out\n"
               "__global__ void k(float *f, int *i, float4 *v) { }\n", "k");
  OK(r, "generators");
  float *f = out(r, "f");
  int *i = out(r, "i");
  float *v = out(r, "v");
  uint32_t bits;
  if (f) { memcpy(&bits, &f[5], 4); CHECK(bits == 0x3f5ca903u, "random(3, -1, 1) element 5 bits %08x", bits); }
  if (i) CHECK(i[2] == 31, "random(9, 10, 100) element 2 = %d", i[2]);
  if (v) CHECK(v[0] == 1 && v[1] == 3 && v[4] == 9 && v[7] == 15, "iota(1, 2) fills float4 components in order");
  done(r);
}


/* ---- hostile input: nesting limits (limits_parse.h) and the interpreter's stacks ---- */

/* source text built from repeated pieces: head, `piece` n times (separated by sep), tail */
static char *repeat(const char *head, const char *piece, const char *sep, int n, const char *tail) {
  size_t len = strlen(head) + (size_t)n * (strlen(piece) + strlen(sep)) + strlen(tail) + 1;
  char *b = malloc(len), *q = b;
  q += sprintf(q, "%s", head);
  for (int i = 0; i < n; i++) q += sprintf(q, "%s%s", i ? sep : "", piece);
  sprintf(q, "%s", tail);
  return b;
}

#define KHEAD(threads) "#pragma carve launch k grid(1) block(" #threads ")\n#pragma carve arg a = int[" #threads "] : zeros out\n" \
                       "__global__ void k(int *a) {\n"

/* a source the front end must refuse with a located error (exit 2), not a crash */
static void expect_refused(const char *what, char *src, const char *needle, int line) {
  Run *r = run(src, "k");
  CHECK(r->rc == 2, "%s: refused with exit 2 (rc %d)", what, r->rc);
  CHECK(strstr(diag_text, needle) != NULL, "%s: message contains '%s'; got:\n%.600s", what, needle, diag_text);
  char loc[32];
  snprintf(loc, sizeof loc, "t.cu:%d:", line);
  CHECK(strstr(diag_text, loc) != NULL, "%s: located at %s; got:\n%.600s", what, loc, diag_text);
  done(r);
  free(src);
}

static void expect_all(Run *r, const char *what, int threads, int want) {
  OK(r, what);
  int *a = out(r, "a");
  for (int t = 0; a && t < threads; t++)
    if (a[t] != want) { CHECK(a[t] == want, "%s: a[%d] = %d, want %d", what, t, a[t], want); break; }
}

static void test_depth_limits(void) {
  /* the deepest sum the parser accepts (its tree: the assignment, 9998 additions, a leaf) runs,
   * in warps one after another and in warps that wait at barriers (their own stacks) */
  char *src = repeat(KHEAD(64) "  a[threadIdx.x] = ", "1", " + ", LIMIT_EXPR_DEPTH - 1, ";\n}\n");
  Run *r = run(src, "k");
  expect_all(r, "9999-term sum", 64, LIMIT_EXPR_DEPTH - 1);
  /* the printer recurses through the same tree: its output loads again and prints the same */
  Buf once = {0}, twice = {0};
  if (r->p) print_program(&once, r->p);
  done(r);
  Program *again = once.s ? load_program_text("p.cu", once.s, NULL) : NULL;
  CHECK(again != NULL, "the printed 9999-term sum loads again");
  if (again) { print_program(&twice, again); program_free(again); }
  CHECK(once.s && twice.s && !strcmp(once.s, twice.s), "print of print is print at the depth limit");
  buf_free(&once); buf_free(&twice);
  free(src);
  src = repeat(KHEAD(128) "  __syncthreads();\n  a[threadIdx.x] = ", "1", " + ", LIMIT_EXPR_DEPTH - 1, ";\n  __syncthreads();\n}\n");
  r = run(src, "k");
  expect_all(r, "9999-term sum between barriers, 4 warps", 128, LIMIT_EXPR_DEPTH - 1);
  done(r);
  free(src);
  /* the deepest statements around the deepest expression: both limits at once */
  char *inner = repeat("", "1", " + ", LIMIT_EXPR_DEPTH - 1, ";\n}\n");
  char *head = repeat(KHEAD(32), "if (threadIdx.x < 64) ", "", LIMIT_STMT_NESTING - 1, "a[threadIdx.x] = ");
  src = malloc(strlen(head) + strlen(inner) + 1);
  sprintf(src, "%s%s", head, inner);
  r = run(src, "k");
  expect_all(r, "1023 nested ifs around a 9999-term sum", 32, LIMIT_EXPR_DEPTH - 1);
  done(r);
  free(src); free(head); free(inner);
  /* float a*b + c chains (contracted to FMAs) and member/index chains take more stack per level */
  src = repeat("#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = int[32] : zeros out\n"
               "__global__ void k(int *a) {\n  float b = 1.0f; a[threadIdx.x] = (int)(", "b * b", " + ", LIMIT_EXPR_DEPTH - 3, ");\n}\n");
  r = run(src, "k");
  expect_all(r, "FMA chain at the depth limit", 32, LIMIT_EXPR_DEPTH - 3);
  done(r);
  free(src);
  src = repeat("struct S { struct S *p; int v; };\n" KHEAD(32) "  struct S s; s.p = &s; s.v = 7; a[threadIdx.x] = s.p",
               "[0].p", "", LIMIT_EXPR_DEPTH / 2 - 4, "->v;\n}\n");
  r = run(src, "k");
  expect_all(r, "member and index chain at the depth limit", 32, 7);
  done(r);
  free(src);

  /* the reproducers of issue #11: each one a located error now */
  expect_refused("100000-term sum", repeat(KHEAD(32) "  a[threadIdx.x] = ", "1", " + ", 100000, ";\n}\n"),
                 "error: expression nested too deeply (limit 10000, LIMIT_EXPR_DEPTH, docs/limits.md)", 4);
  expect_refused("100000-element comma list", repeat(KHEAD(32) "  a[threadIdx.x] = (", "1", ", ", 100000, ");\n}\n"),
                 "error: expression nested too deeply (limit 10000, LIMIT_EXPR_DEPTH, docs/limits.md)", 4);
  char *b1 = repeat("", "{", "", 12500, "a[0] = 1;"), *b2 = repeat("", "}", "", 12500, "\n}\n");
  src = malloc(strlen(b1) + strlen(b2) + 200);
  sprintf(src, KHEAD(32) "%s%s", b1, b2);
  expect_refused("12500 nested braces, closed", src, "error: statements nested too deeply (limit 1024, LIMIT_STMT_NESTING, docs/limits.md)", 4);
  free(b1); free(b2);
  expect_refused("33750 '!'", repeat(KHEAD(32) "  a[threadIdx.x] = ", "!", "", 33750, "0;\n}\n"),
                 "error: expression nested too deeply (limit 256, LIMIT_EXPR_NESTING, docs/limits.md)", 4);
  expect_refused("35000 nested ifs", repeat(KHEAD(32), "if (1) ", "", 35000, "a[0] = 1;\n}\n"),
                 "error: statements nested too deeply (limit 1024, LIMIT_STMT_NESTING, docs/limits.md)", 4);
  expect_refused("35000 nested fors", repeat(KHEAD(32), "for (;;) ", "", 35000, "a[0] = 1;\n}\n"),
                 "error: statements nested too deeply (limit 1024, LIMIT_STMT_NESTING, docs/limits.md)", 4);
  expect_refused("nested casts", repeat(KHEAD(32) "  a[threadIdx.x] = ", "(int)", "", 5000, "1;\n}\n"),
                 "error: expression nested too deeply (limit 256, LIMIT_EXPR_NESTING, docs/limits.md)", 4);
  expect_refused("nested ?: in the else arm", repeat(KHEAD(32) "  a[threadIdx.x] = ", "a[0] ? 1 :", " ", 5000, " 0;\n}\n"),
                 "error: expression nested too deeply (limit 256, LIMIT_EXPR_NESTING, docs/limits.md)", 4);
  expect_refused("nested initializer braces", repeat(KHEAD(32) "  int x[1] = ", "{", "", 5000, "1}};\n}\n"), "error: ", 4);
  expect_refused("array declarator", repeat(KHEAD(32) "  int x", "[1]", "", 5000, ";\n}\n"),
                 "error: array declarator nested too deeply (limit 256, LIMIT_EXPR_NESTING, docs/limits.md)", 4);
  expect_refused("parenthesized declarator", repeat(KHEAD(32) "  int ", "(", "", 5000, "x;\n}\n"),
                 "error: declarator nested too deeply (limit 256, LIMIT_EXPR_NESTING, docs/limits.md)", 4);
  /* a tree typed in parts before it is complete: add_type bounds its own recursion */
  expect_refused("cast of a 100000-term sum", repeat(KHEAD(32) "  a[threadIdx.x] = (int)(", "1", " + ", 100000, ");\n}\n"),
                 "error: expression nested too deeply (limit 10000, LIMIT_EXPR_DEPTH, docs/limits.md)", 4);
  expect_refused("array size of 100000 terms", repeat(KHEAD(32) "  int x[", "1", " + ", 100000, "];\n}\n"),
                 "error: expression nested too deeply (limit 10000, LIMIT_EXPR_DEPTH, docs/limits.md)", 4);

  /* recursion through deep code can outgrow any stack: the guard stops it with a location */
  src = repeat("#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = int[32] : zeros out\n"
               "__device__ int f(int n) {\n  return n == 0 ? 0 : f(n - 1)", " + 1", "", 5000, ";\n}\n"
               "__global__ void k(int *a) {\n  a[threadIdx.x] = f(60);\n}\n");
  expect_fault("recursion through a deep expression", src, "code nested too deeply to interpret", 4);
  free(src);
}

/* ---- launch configurations: overflow-safe products, the machine's limits ---- */
static const char *shared_kernel =
  "#pragma carve launch k grid(1) block(32) shared(1024)\n#pragma carve arg a = int[32] : zeros out\n"
  "__global__ void k(int *a) {\n  extern __shared__ int s[];\n  if (threadIdx.x >= 32) return;\n  s[threadIdx.x] = 1;\n  a[threadIdx.x] = s[threadIdx.x];\n}\n";

static void expect_config(const char *what, const Variant *v, int rc, const char *needle) {
  Run *r = run_variant(shared_kernel, "k", v);
  CHECK(r->rc == rc, "%s: exit %d (got %d)\n%s", what, rc, r->rc, diag_text);
  if (needle) CHECK(strstr(diag_text, needle) != NULL, "%s: message contains '%s'; got:\n%s", what, needle, diag_text);
  done(r);
}

static void test_launch_config(void) {
  Variant v = {.ov = {.has_block = true, .block = {INT64_MAX, 2, 2}, .dyn_shared = -1}};
  expect_config("block product overflows", &v, 2, "block (9223372036854775807,2,2) has more threads than CUDA allows (1 to 1024");
  v.ov.block[0] = -2; v.ov.block[1] = -2; v.ov.block[2] = 1;
  expect_config("negative block dimensions", &v, 2, "every dimension must be at least 1");
  v = (Variant){.ov = {.has_grid = true, .grid = {0, 1, 1}, .dyn_shared = -1}};
  expect_config("empty grid", &v, 2, "every dimension must be at least 1");
  v = (Variant){.ov = {.has_block = true, .block = {2048, 1, 1}, .dyn_shared = -1}};
  expect_config("2048 threads", &v, 2, "block of 2048 threads: CUDA allows 1 to 1024");
  /* shared memory per block: the H100's 227 KiB with opt-in (sharedMemPerBlockOptin 232448) */
  v = (Variant){.ov = {.dyn_shared = 232448}};
  expect_config("227 KiB of shared memory on the H100", &v, 0, NULL);
  v.ov.dyn_shared = 228 * 1024;
  expect_config("228 KiB on the H100", &v, 2, "at most 232448");
  v.ov.dyn_shared = INT64_MAX - 8;
  expect_config("shared size that wraps", &v, 2, "at most 232448");
  /* other machines' limits, from the machine table */
  const Machine *g80 = machine_find("g80");
  CHECK(g80 != NULL, "the G80 is in the machine table");
  v = (Variant){.ov = {.dyn_shared = 16384}, .machine = g80};
  expect_config("16 KiB on the G80", &v, 0, NULL);
  v.ov.dyn_shared = 16385;
  expect_config("16 KiB + 1 on the G80", &v, 2, "a block on the NVIDIA GeForce 8800 GTX (G80) can have at most 16384");
  v = (Variant){.ov = {.has_block = true, .block = {1024, 1, 1}, .dyn_shared = -1}, .machine = g80};
  expect_config("1024 threads on the G80", &v, 2, "block of 1024 threads: CUDA allows 1 to 512");
  v.machine = machine_find("h200");
  expect_config("1024 threads on the H200", &v, 0, NULL);
}

/* ---- --arg values: no silent coercion ---- */
static const char *arg_kernel =
  "#pragma carve launch k grid(1) block(1)\n#pragma carve arg a = long long[4] : zeros out\n"
  "#pragma carve arg i = 1\n#pragma carve arg u = 1\n#pragma carve arg f = 1\n#pragma carve arg b = 1\n"
  "__global__ void k(long long *a, int i, unsigned u, float f, bool b) {\n  a[0] = i; a[1] = u; a[2] = (long long)(f * 4); a[3] = b + 1;\n}\n";

static void expect_arg(const char *setting, const char *needle, long long want, int slot) {
  Variant v = {.ov = {.dyn_shared = -1}, .args = &setting, .nargs = 1};
  Run *r = run_variant(arg_kernel, "k", &v);
  if (needle) {
    CHECK(r->rc == 2, "--arg %s: refused (rc %d)", setting, r->rc);
    CHECK(strstr(diag_text, needle) != NULL, "--arg %s: message contains '%s'; got:\n%s", setting, needle, diag_text);
  } else {
    OK(r, setting);
    long long *a = out(r, "a");
    if (a) CHECK(a[slot] == want, "--arg %s: a[%d] = %lld, want %lld", setting, slot, a[slot], want);
  }
  done(r);
}

static void test_arg_binding(void) {
  expect_arg("i=1e400", "value inf for parameter 'i' of type 'int' is not finite", 0, 0);
  expect_arg("i=2.7", "value 2.7 for parameter 'i' of type 'int' is not an integer", 0, 0);
  expect_arg("i=2147483648", "value 2147483648 does not fit parameter 'i' of type 'int'", 0, 0);
  expect_arg("i=2147483648.0", "value 2147483648 for parameter 'i' of type 'int' is out of its range", 0, 0);
  expect_arg("i=-2147483649.0", "is out of its range", 0, 0);
  expect_arg("u=-1.0", "value -1 for parameter 'u' of type 'unsigned int' is out of its range", 0, 0);
  expect_arg("f=1e39", "value 1e+39 for parameter 'f' of type 'float' is out of its range", 0, 0);
  expect_arg("i=3.0", NULL, 3, 0);
  expect_arg("i=-2147483648.0", NULL, -2147483647LL - 1, 0);
  expect_arg("u=4294967295.0", NULL, 4294967295LL, 1);
  expect_arg("f=2.5", NULL, 10, 2);
  expect_arg("b=7", NULL, 2, 3);   /* converted as C converts to bool */
}

/* ---- the generators are defined for every input (fill.inc is also the harness's code) ---- */
static void test_generators_defined(void) {
  Run *r = run("#pragma carve launch k grid(1) block(1)\n"
               "#pragma carve arg a = long long[4] : iota(9223372036854775807, 9223372036854775807) out\n"
               "#pragma carve arg r = int[4] : random(1, 0.2, 0.7) out\n"
               "__global__ void k(long long *a, int *r) { }\n", "k");
  OK(r, "iota at the edge of long long");
  long long *a = out(r, "a");
  int *q = out(r, "r");
  /* START and STEP saturate to INT64_MAX; START + k*STEP wraps modulo 2^64 as the element does */
  if (a) CHECK(a[0] == INT64_MAX && a[1] == -2 && a[2] == INT64_MAX - 2 && a[3] == -4, "iota(INT64_MAX, INT64_MAX): %lld %lld %lld %lld",
               a[0], a[1], a[2], a[3]);
  /* an integer range that truncates to nothing gives LO, not a division by zero */
  if (q) CHECK(q[0] == 0 && q[3] == 0, "random(1, 0.2, 0.7) on ints: %d %d", q[0], q[3]);
  done(r);
}

/* ---- lanes of one warp storing different values to one shared address (issue #14) ---- */
static void test_intra_warp_race(void) {
  expect_fault("one warp, one address, different values",
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = int[32] : zeros out\n"
    "__global__ void k(int *a) {\n  __shared__ int s[32];\n  if (threadIdx.x == 3 || threadIdx.x == 5) s[0] = threadIdx.x;\n  a[threadIdx.x] = 0;\n}\n",
    "shared-memory race: threads (3,0,0) and (5,0,0) of block (0,0,0), in one warp, store different values to byte 0", 5);
  expect_fault("struct copies to one shared address",
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = int[32] : zeros out\n"
    "__global__ void k(int *a) {\n  __shared__ int2 s[4];\n  int2 v = make_int2(threadIdx.x, 1);\n  s[threadIdx.x / 16] = v;\n  a[threadIdx.x] = 0;\n}\n",
    "threads (0,0,0) and (1,0,0) of block (0,0,0), in one warp, store different values to byte 0", 6);
  /* the same value from every lane is fine, and --no-race turns the check off */
  const char *same = "#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = int[32] : zeros out\n"
                     "__global__ void k(int *a) {\n  __shared__ int s[32];\n  s[0] = 42;\n  a[threadIdx.x] = s[0];\n}\n";
  Run *r = run(same, "k");
  expect_all(r, "every lane stores the same value", 32, 42);
  done(r);
  Variant v = {.ov = {.dyn_shared = -1}, .no_race_check = true};
  r = run_variant("#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = int[32] : zeros out\n"
                  "__global__ void k(int *a) {\n  __shared__ int s[32];\n  s[0] = threadIdx.x;\n  a[threadIdx.x] = 0;\n}\n", "k", &v);
  CHECK(r->rc == 0, "--no-race: no intra-warp race reported:\n%s", diag_text);
  done(r);
}


/* ---- C++ (docs/cxx.md): each result checked against C arithmetic here ---- */
static void test_cxx_templates(void) {
  Run *r = run(
    "#pragma carve launch sum<64, float> grid(4) block(64)\n"
    "#pragma carve arg in = float[256] : iota(0, 0.5)\n#pragma carve arg a = float[4] : zeros out\n"
    "template <typename T> __device__ T twice(T v) { return v + v; }\n"
    "template <int BS, typename T = float>\n"
    "__global__ void sum(const T *in, T *a) {\n"
    "  __shared__ T s[BS];\n"
    "  s[threadIdx.x] = in[blockIdx.x * BS + threadIdx.x];\n"
    "  __syncthreads();\n"
    "  for (int k = BS / 2; k > 0; k >>= 1) { if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k]; __syncthreads(); }\n"
    "  if (threadIdx.x == 0) a[blockIdx.x] = twice(s[0]) + twice<int>(BS);\n"
    "}\n", "sum<64, float>");
  OK(r, "template reduction");
  float *a = out(r, "a");
  for (int b = 0; a && b < 4; b++) {
    float want = 0;
    for (int i = 0; i < 64; i++) want += (float)(b * 64 + i) * 0.5f;
    CHECK(a[b] == 2 * want + 128, "sum<64, float> block %d: %g, want %g", b, a[b], 2 * want + 128);
  }
  CHECK(r->p && find_kernel(r->p, "sum<64,float>") && !find_kernel(r->p, "sum"), "the instance is the kernel, found with or without spaces");
  done(r);
  /* if constexpr: the branch not taken is not compiled (here it would not be for int) */
  r = run(
    "#pragma carve launch k<8, int> grid(1) block(8)\n#pragma carve arg a = int[8] : iota out\n"
    "template <int N, typename T> __global__ void k(T *a) {\n"
    "  if constexpr (N > 4) { a[threadIdx.x] *= N; } else { a[threadIdx.x] = a[threadIdx.x].x; }\n"
    "  if constexpr (N < 4) a[0] = a.y; else if (threadIdx.x == 1) a[1] = -1;\n"
    "  do { if constexpr (sizeof(T) == 8) a[2] = a->z; } while (0);\n}\n", "k<8, int>");
  OK(r, "if constexpr");
  int *c = out(r, "a");
  for (int i = 0; c && i < 8; i++) CHECK(c[i] == (i == 1 ? -1 : 8 * i), "if constexpr: a[%d] = %d", i, c[i]);
  done(r);
  /* a value parameter sizes arrays and unrolls loops; deduction through T* and const T& */
  r = run(
    "#pragma carve launch k<3> grid(1) block(4)\n#pragma carve arg a = int[4] : iota out\n"
    "template <typename T> __device__ void bump(T *p, const T &by) { *p += by; }\n"
    "template <unsigned N> __global__ void k(int *a) {\n"
    "  int t[N];\n  for (unsigned i = 0; i < N; i++) t[i] = i;\n"
    "  bump(&a[threadIdx.x], t[N - 1] * 10);\n}\n", "k<3>");
  OK(r, "value parameter and deduction");
  int *v = out(r, "a");
  for (int i = 0; v && i < 4; i++) CHECK(v[i] == i + 20, "k<3>: a[%d] = %d, want %d", i, v[i], i + 20);
  done(r);
}

static void test_cxx_names_values(void) {
  Run *r = run(
    "#pragma carve launch geo::k grid(1) block(8)\n#pragma carve arg a = float[8] : iota out\n"
    "namespace geo {\nstruct P { float x, y; };\n"
    "namespace detail { __device__ void swap(float &a, float &b) { float t = a; a = b; b = t; } }\n"
    "constexpr int sq(int v) { return v * v; }\n"
    "__global__ void k(float *a) {\n"
    "  P p = {a[threadIdx.x], 2.0f};\n  detail::swap(p.x, p.y);\n"
    "  auto &slot = a[threadIdx.x];\n  const auto s = sq(3);\n  float arr[sq(2)];\n"
    "  arr[3] = p.y;\n  slot = p.x * s + arr[3];\n}\n}\n", "k");
  OK(r, "namespaces, references, auto, constexpr");
  float *a = out(r, "a");
  for (int i = 0; a && i < 8; i++) CHECK(a[i] == 18.0f + i, "a[%d] = %g, want %g", i, a[i], 18.0f + i);
  done(r);
  r = run(
    "#pragma carve launch k grid(2, 3) block(4, 2)\n#pragma carve arg a = int[48] : zeros out\n"
    "__device__ unsigned at(uint3 b, dim3 g) { return b.y * g.x + b.x; }\n"
    "__global__ void k(int *a) {\n  dim3 t(4, 2);\n  uint3 i = threadIdx;\n  dim3 d = dim3(5);\n"
    "  a[at(blockIdx, gridDim) * t.x * t.y + i.y * blockDim.x + i.x] = at(blockIdx, gridDim) * 100 + d.x + d.y + d.z;\n}\n", "k");
  OK(r, "dim3 and uint3 values");
  int *v = out(r, "a");
  for (int i = 0; v && i < 48; i++) CHECK(v[i] == (i / 8) * 100 + 7, "dim3: a[%d] = %d, want %d", i, v[i], (i / 8) * 100 + 7);
  done(r);
}

static void test_cxx_assert_extern_shared(void) {
  expect_fault("assert",
    "#pragma carve launch k grid(1) block(64)\n#pragma carve arg a = float[64] : zeros out\n#pragma carve arg n = 40\n"
    "__global__ void k(float *a, int n) {\n  a[threadIdx.x] = 1.0f;\n  assert(threadIdx.x < n && \"in range\");\n}\n",
    "assertion 'threadIdx.x < n && \"in range\"' failed in block (0,0,0) thread (40,0,0)", 6);
  /* assert(!"why") fails where it is reached: the literal is a non-null pointer */
  expect_fault("assert(!\"why\")",
    "#pragma carve launch k grid(1) block(64)\n#pragma carve arg a = float[64] : zeros out\n"
    "__global__ void k(float *a) {\n  if (threadIdx.x == 50)\n    assert(!\"unreachable\");\n  a[threadIdx.x] = 1.0f;\n}\n",
    "assertion '!\"unreachable\"' failed in block (0,0,0) thread (50,0,0)", 5);
  Run *r = run(
    "#pragma carve launch k grid(1) block(32) shared(128)\n#pragma carve arg a = int[32] : iota out\n"
    "extern __shared__ int dyn[];\n"
    "__device__ int mirror(int i) { return dyn[31 - i]; }\n"
    "__global__ void k(int *a) {\n  dyn[threadIdx.x] = a[threadIdx.x];\n  __syncthreads();\n  assert(dyn[0] == 0);\n  a[threadIdx.x] = mirror(threadIdx.x);\n}\n", "k");
  OK(r, "file-scope extern __shared__");
  int *v = out(r, "a");
  for (int i = 0; v && i < 32; i++) CHECK(v[i] == 31 - i, "extern shared: a[%d] = %d", i, v[i]);
  done(r);
}


/* __half arithmetic (src/interp/half.c) against the compiler's own binary16 where it has one
 * (GCC's _Float16: one rounding of the float result, correct for + - * /; fma through
 * binary128, where a*b + c of halves is exact), and every bit pattern round-trips */
static uint16_t lcg16(uint64_t *s) { *s = *s * 6364136223846793005ull + 1442695040888963407ull; return (uint16_t)(*s >> 33); }
static void test_half_arith(void) {
  int bad = 0;
  for (uint32_t h = 0; h < 65536; h++) {
    uint16_t back = half_from_double(half_to_double((uint16_t)h));
    bool nan = ((h >> 10) & 0x1f) == 0x1f && (h & 0x3ff);
    if (nan ? back != 0x7fff : back != h) bad++;
  }
  CHECK(bad == 0, "half: %d of 65536 bit patterns do not round-trip through double", bad);
  CHECK(half_from_double(65519.99) == 0x7bff && half_from_double(65520.0) == 0x7c00 && half_from_double(0x1p-25) == 0 &&
        half_from_double(0x1.0000000000001p-25) == 1 && half_from_double(-0.0) == 0x8000, "half: overflow, ties, subnormals, -0");
#ifdef __FLT16_MAX__
  uint64_t seed = 12345;
  int mism[5] = {0};
  for (int i = 0; i < 200000; i++) {
    uint16_t a = lcg16(&seed), b = lcg16(&seed), c = lcg16(&seed);
    _Float16 x, y, z, r[5];
    memcpy(&x, &a, 2); memcpy(&y, &b, 2); memcpy(&z, &c, 2);
    r[0] = x + y; r[1] = x - y; r[2] = x * y; r[3] = x / y;
    r[4] = (_Float16)((__float128)x * (__float128)y + (__float128)z);
    uint64_t got[5] = {half_op(HOP_ADD, a, b, 0), half_op(HOP_SUB, a, b, 0), half_op(HOP_MUL, a, b, 0), half_op(HOP_DIV, a, b, 0), half_fma(a, b, c)};
    for (int k = 0; k < 5; k++) {
      uint16_t want;
      memcpy(&want, &r[k], 2);
      bool wnan = r[k] != r[k];
      if (wnan ? got[k] != 0x7fff : got[k] != want) mism[k]++;
    }
    double d = (double)(int16_t)lcg16(&seed) * ldexp(1.0, (int)(lcg16(&seed) % 60) - 40) * (1 + lcg16(&seed) / 65536.0);
    _Float16 hd = (_Float16)d;
    uint16_t wd;
    memcpy(&wd, &hd, 2);
    if (half_from_double(d) != wd) mism[0]++;
  }
  CHECK(!mism[0] && !mism[1] && !mism[2] && !mism[3] && !mism[4], "half vs _Float16 on 200000 random operands: add/convert %d, sub %d, mul %d, div %d, fma %d mismatches",
        mism[0], mism[1], mism[2], mism[3], mism[4]);
#endif
  /* in a kernel: operators, intrinsics, half2, conversions, shuffles of halves */
  Run *r = run(
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg x = float[32] : iota(-3, 0.3)\n"
    "#pragma carve arg o = float[32] : zeros out\n#pragma carve arg hb = __half[32] : zeros out\n"
    "__global__ void k(const float *x, float *o, __half *hb) {\n"
    "  __half h = __float2half(x[threadIdx.x]);\n  __half two = 2.0f;\n"
    "  __half r = h * two + __hfma(h, h, __float2half(0.1f));\n  r = -r;\n  r += h;\n"
    "  half2 p = __floats2half2_rn(x[threadIdx.x], 1.5f);\n  p = __hmul2(p, p);\n"
    "  hb[threadIdx.x] = __shfl_down_sync(0xffffffffu, r, 1);\n"
    "  float f = __half2float(r) + __low2float(p) + __high2float(p);\n  o[threadIdx.x] = h > two ? f : -f;\n}\n", "k");
  OK(r, "half kernel");
  float *o = out(r, "o");
  uint16_t *hb = out(r, "hb");
  for (int t = 0; o && hb && t < 32; t++) {
    float xf = -3.0f + 0.3f * (float)t;
    uint16_t h = half_from_double(xf), two = half_from_double(2.0);
    uint16_t rr = (uint16_t)half_op(HOP_ADD, half_op(HOP_MUL, h, two, 0), half_fma(h, h, half_from_double(0.1f)), 0);
    rr = (uint16_t)half_op(HOP_ADD, rr ^ 0x8000u, h, 0);
    uint16_t p2 = (uint16_t)half_op(HOP_MUL, h, h, 0), p2y = (uint16_t)half_op(HOP_MUL, half_from_double(1.5), half_from_double(1.5), 0);
    float f = (float)half_to_double(rr) + (float)half_to_double(p2) + (float)half_to_double(p2y);
    float want = half_to_double(h) > 2.0 ? f : -f;
    if (o[t] != want) { CHECK(o[t] == want, "half kernel: o[%d] = %.9g, want %.9g", t, o[t], want); break; }
  }
  done(r);
  /* c ? h1 : h2 keeps the halves' bits (no integer promotion through float) */
  r = run("#pragma carve launch k grid(1) block(2)\n#pragma carve arg h = unsigned short[2] : iota(15360, 4660)\n"
          "#pragma carve arg o = __half[2] : zeros out\n"
          "__device__ __half pick(__half a, __half b, bool first) { return first ? a : b; }\n"
          "__global__ void k(const __half *h, __half *o) { o[threadIdx.x] = pick(h[0], h[1], threadIdx.x == 0); }\n", "k");
  OK(r, "half conditional");
  uint16_t *ho = out(r, "o");
  CHECK(ho && ho[0] == 15360 && ho[1] == 15360 + 4660, "half conditional: %04x %04x, want 3c00 4e34", ho ? ho[0] : 0, ho ? ho[1] : 0);
  done(r);
  /* min, max and abs of halves are those of their values (as floats), not of their bits */
  r = run("#pragma carve launch k grid(1) block(1)\n#pragma carve arg o = float[3] : zeros out\n"
          "__global__ void k(float *o) { __half a = 2.5f, b = -3.5f; o[0] = max(a, b); o[1] = min(a, b); o[2] = abs(b); }\n", "k");
  OK(r, "half min/max/abs");
  float *mo = out(r, "o");
  CHECK(mo && mo[0] == 2.5f && mo[1] == -3.5f && mo[2] == 3.5f, "half min/max/abs: %g %g %g", mo ? mo[0] : 0, mo ? mo[1] : 0, mo ? mo[2] : 0);
  done(r);
  /* half2 members and __half22float2 */
  r = run("#pragma carve launch k grid(1) block(4)\n#pragma carve arg o = float[8] : zeros out\n"
          "__global__ void k(float *o) {\n  half2 h = __floats2half2_rn(threadIdx.x * 0.1f, 3.0f);\n  float2 f = __half22float2(h);\n"
          "  __half lo = h.x;\n  o[2 * threadIdx.x] = f.x + __half2float(lo);\n  o[2 * threadIdx.x + 1] = f.y + __half2float(h.y);\n}\n", "k");
  OK(r, "half2 members");
  float *o2 = out(r, "o");
  for (int t = 0; o2 && t < 4; t++) {
    float lo = (float)half_to_double(half_from_double((float)t * 0.1f));
    CHECK(o2[2 * t] == 2 * lo && o2[2 * t + 1] == 6.0f, "half2: o[%d] = %g %g, want %g 6", 2 * t, o2[2 * t], o2[2 * t + 1], 2 * lo);
  }
  done(r);
  r = run(
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg x = float[32] : iota(-3, 0.3)\n"
    "#pragma carve arg o = float[32] : zeros out\n#pragma carve arg hb = __half[32] : zeros out\n"
    "__global__ void k(const float *x, float *o, __half *hb) {\n"
    "  __half h = __float2half(x[threadIdx.x]);\n  __half two = 2.0f;\n"
    "  __half r = h * two + __hfma(h, h, __float2half(0.1f));\n  r = -r;\n  r += h;\n"
    "  hb[threadIdx.x] = __shfl_down_sync(0xffffffffu, r, 1);\n}\n", "k");
  OK(r, "half shuffle");
  hb = out(r, "hb");
  /* lane t holds lane t+1's r (the last lane its own) */
  for (int t = 0; o && hb && t < 31; t++) {
    float xn = -3.0f + 0.3f * (float)(t + 1);
    uint16_t h = half_from_double(xn), two = half_from_double(2.0);
    uint16_t rr = (uint16_t)half_op(HOP_ADD, half_op(HOP_MUL, h, two, 0), half_fma(h, h, half_from_double(0.1f)), 0);
    rr = (uint16_t)half_op(HOP_ADD, rr ^ 0x8000u, h, 0);
    if (hb[t] != rr) { CHECK(hb[t] == rr, "half shuffle: hb[%d] = %04x, want %04x", t, hb[t], rr); break; }
  }
  done(r);
}


static void test_cooperative_groups(void) {
  /* integer sums are exact: every block's total, through tiles, shared memory and cg::reduce */
  Run *r = run(
    "#pragma carve launch k<128> grid(4) block(128)\n#pragma carve arg in = int[512] : iota(-100, 3)\n"
    "#pragma carve arg a = int[12] : zeros out\n"
    "namespace cg = cooperative_groups;\n"
    "template <int BS> __global__ void k(const int *in, int *a) {\n"
    "  __shared__ int part[BS / 16];\n"
    "  cg::thread_block b = cg::this_thread_block();\n"
    "  auto t = cg::tiled_partition<16>(b);\n"
    "  int v = in[blockIdx.x * BS + b.thread_rank()];\n"
    "  for (int o = t.size() / 2; o > 0; o /= 2) v += t.shfl_xor(v, o);\n"
    "  if (t.thread_rank() == 0) part[t.meta_group_rank()] = v;\n"
    "  cg::sync(b);\n"
    "  if (b.thread_rank() < 32) {\n"
    "    cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);\n"
    "    int x = w.thread_rank() < BS / 16 ? part[w.thread_rank()] : 0;\n"
    "    int s = cg::reduce(w, x, cg::plus<int>());\n"
    "    int lo = cg::reduce(w, w.thread_rank() < BS / 16 ? x : 1 << 30, cg::less<int>());\n"
    "    int hi = cg::reduce(w, x, cg::greater<int>());\n"
    "    if (w.thread_rank() == 0) { a[blockIdx.x * 3] = s; a[blockIdx.x * 3 + 1] = lo; a[blockIdx.x * 3 + 2] = hi; }\n"
    "  }\n}\n", "k<128>");
  OK(r, "cooperative groups: block, tiles of 16 and 32, reduce");
  int *a = out(r, "a");
  for (int blk = 0; a && blk < 4; blk++) {
    int sum = 0, lo = 1 << 30, hi = -(1 << 30);
    for (int t = 0; t < 8; t++) {
      int ts = 0;
      for (int i = 0; i < 16; i++) ts += -100 + 3 * (blk * 128 + t * 16 + i);
      sum += ts; lo = ts < lo ? ts : lo; hi = ts > hi ? ts : hi;
    }
    hi = hi > 0 ? hi : 0;   /* lanes 8..31 contribute 0 to greater */
    CHECK(a[blk * 3] == sum && a[blk * 3 + 1] == lo && a[blk * 3 + 2] == hi, "block %d: sum %d min %d max %d, want %d %d %d",
          blk, a[blk * 3], a[blk * 3 + 1], a[blk * 3 + 2], sum, lo, hi);
  }
  done(r);
  /* a float reduce is the xor butterfly: its order of additions, the same value in every lane */
  r = run(
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg in = float[32] : random(5, -1, 1)\n"
    "#pragma carve arg a = float[32] : zeros out\nusing namespace cooperative_groups;\n"
    "__global__ void k(const float *in, float *a) {\n"
    "  thread_block_tile<32> t = tiled_partition<32>(this_thread_block());\n"
    "  a[t.thread_rank()] = reduce(t, in[t.thread_rank()], plus<float>());\n}\n", "k");
  OK(r, "float reduce");
  float *in = NULL;
  for (int i = 1; i < r->L.nbufs; i++) if (!strcmp(r->L.bufs[i].name, "in")) in = (float *)(void *)r->L.bufs[i].data;
  float *fa = out(r, "a");
  if (in && fa) {
    float v[32], nv[32];
    memcpy(v, in, sizeof v);
    for (int o = 16; o >= 1; o /= 2) { for (int l = 0; l < 32; l++) nv[l] = v[l] + v[l ^ o]; memcpy(v, nv, sizeof v); }
    int bad = 0;
    for (int l = 0; l < 32; l++) bad += fa[l] != v[0] || v[l] != v[0];
    CHECK(bad == 0, "float reduce: lane 0 %.9g, want %.9g in every lane (%d differ)", fa[0], v[0], bad);
  }
  done(r);
  expect_fault("reduce by part of a tile",
    "#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = int[32] : zeros out\nnamespace cg = cooperative_groups;\n"
    "__global__ void k(int *a) {\n  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
    "  if (threadIdx.x < 20) a[threadIdx.x] = cg::reduce(t, 1, cg::plus<int>());\n}\n",
    "cooperative_groups::reduce: only some threads of the tile of 32 call it", 6);
}

/* ---------------- host programs ---------------- */
typedef struct { int rc; HostResult r; char out[8192]; } HostRun;

/* load a program and run its main; its standard output and carve's diagnostics are captured */
static HostRun *host(const char *src, const char *const *argv, int argc) {
  static HostRun h;
  static Program *p;
  if (p) { program_free(p); p = NULL; }
  host_result_free(&h.r);
  memset(&h, 0, sizeof h);
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  FILE *o = fmemopen(h.out, sizeof h.out - 1, "w");
  memset(diag_text, 0, sizeof diag_text);
  diag_out = f;
  diag_reset();
  p = load_program_text("h.cu", src, NULL);
  h.rc = -1;
  if (p) {
    static const char *none[] = {"h"};
    HostOptions ho = {.argc = argv ? argc : 1, .argv = argv ? (const char **)argv : none, .record = true, .out = o, .max_steps = 10000000,
                      .kernel_opt = {.max_steps = 50000000}};
    h.rc = host_run(p, &ho, &h.r);
  }
  fclose(o);
  fclose(f);
  diag_out = stderr;
  return &h;
}

static void test_host_programs(void) {
  /* a program: allocation, copies, a launch with dim3, the result back, printf, exit status */
  const char *prog =
    "#include <stdio.h>\n#include <stdlib.h>\n"
    "__global__ void sq(const int *a, int *b, int n) {\n"
    "  int i = blockIdx.y * gridDim.x * blockDim.x + blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) b[i] = a[i] * a[i];\n}\n"
    "int main(int argc, char **argv) {\n"
    "  int n = argc > 1 ? atoi(argv[1]) : 100;\n"
    "  int *h = (int *)malloc(n * sizeof(int));\n"
    "  for (int i = 0; i < n; i++) h[i] = i - 50;\n"
    "  int *a, *b;\n"
    "  cudaMalloc(&a, n * sizeof(int)); cudaMalloc(&b, n * sizeof(int));\n"
    "  cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice);\n"
    "  dim3 grid(2, 2), block(32);\n"
    "  for (int rep = 0; rep < 5; rep++) sq<<<grid, block>>>(a, b, n);\n"
    "  sq<<<4, 32>>>(a, b, n);\n"
    "  cudaMemcpy(h, b, n * sizeof(int), cudaMemcpyDeviceToHost);\n"
    "  long s = 0;\n  for (int i = 0; i < n; i++) s += h[i];\n"
    "  printf(\"sum %ld\\n\", s);\n"
    "  return s == 83350 ? 7 : 1;\n}\n";
  HostRun *h = host(prog, NULL, 0);
  /* sum over i of (i - 50)^2 for i < 100: 83350 (computed by hand: 2 * sum k^2, k <= 49, + 50^2) */
  CHECK(h->rc == 0 && h->r.exit_code == 7, "host: runs and returns main's value (rc %d, exit %d)\n%s", h->rc, h->r.exit_code, diag_text);
  CHECK(!strcmp(h->out, "sum 83350\n"), "host: the program's output: '%s'", h->out);
  CHECK(h->r.launches == 6 && h->r.nrec == 2, "host: 6 launches, 2 distinct (got %d, %d)", h->r.launches, h->r.nrec);
  if (h->r.nrec == 2) {
    RecordedLaunch *r0 = &h->r.rec[0];
    CHECK(r0->count == 5 && r0->grid[0] == 2 && r0->grid[1] == 2 && r0->block[0] == 32 && r0->block[1] == 1, "host: the dim3 launch recorded once, 5 times");
    CHECK(r0->site.line == 15 && r0->first == 1, "host: recorded where it was made (line %d)", r0->site.line);
    CHECK(r0->ov.nargs == 3 && r0->ov.args[0]->init == INIT_BYTES && r0->ov.args[0]->count == 100 && r0->ov.args[2]->scalar.i == 100,
          "host: buffers and scalars as the program gave them");
    const int *bytes = (const int *)r0->ov.args[0]->bytes;
    CHECK(bytes && bytes[0] == -50 && bytes[99] == 49, "host: the buffer's contents at the launch");
    CHECK(h->r.rec[1].grid[0] == 4 && h->r.rec[1].grid[1] == 1, "host: an integer grid");
  }
  static const char *args[] = {"h", "10"};
  h = host(prog, args, 2);
  CHECK(h->rc == 0 && !strcmp(h->out, "sum 20785\n"), "host: argv reaches main ('%s')", h->out);

  /* a kernel fault: located in the kernel, the launch named, status 1 */
  h = host("__global__ void k(float *x) { x[threadIdx.x + 1] = 1; }\n"
           "int main() {\n  float *d;\n  cudaMalloc(&d, 32 * sizeof(float));\n  k<<<1, 32>>>(d);\n  return 0;\n}\n", NULL, 0);
  CHECK(h->rc == 1, "host fault: status 1 (%d)", h->rc);
  CHECK(strstr(diag_text, "h.cu:1:31: error: out-of-bounds global write of 4 bytes: element 32 of 'd' (32 elements)") != NULL,
        "host fault: in the kernel, the buffer named as the program names it:\n%s", diag_text);
  CHECK(strstr(diag_text, "h.cu:5:3: note: in this launch of 'k'") != NULL, "host fault: at the launch:\n%s", diag_text);

  /* use after free, host deref of device memory, memcpy past a block */
  h = host("int main() {\n  int *p = (int *)malloc(8);\n  free(p);\n  return p[1];\n}\n", NULL, 0);
  CHECK(h->rc == 1 && strstr(diag_text, "h.cu:4:10: error: read of freed memory ('8-byte block', malloc at h.cu:2)"), "use after free:\n%s", diag_text);
  h = host("int main() {\n  char a[4];\n  char *p = (char *)malloc(3);\n  memcpy(p, a, 4);\n  return 0;\n}\n", NULL, 0);
  CHECK(h->rc == 1 && strstr(diag_text, "h.cu:4:3: error: out-of-bounds host write of 1 bytes: element 3 of '3-byte block'"), "memcpy past a block:\n%s", diag_text);
  h = host("int main() {\n  float *d;\n  cudaMalloc(&d, 64);\n  float h[16];\n  cudaMemcpy(d, h, 64, cudaMemcpyDeviceToHost);\n  return 0;\n}\n", NULL, 0);
  CHECK(h->rc == 1 && strstr(diag_text, "cudaMemcpy with cudaMemcpyDeviceToHost: the destination is device memory"), "cudaMemcpy direction:\n%s", diag_text);

  /* deterministic: rand is glibc's (srand(1) first values), events and time a simulated clock */
  h = host("#include <stdio.h>\nint main() {\n  printf(\"%d %d\\n\", rand(), rand());\n"
           "  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);\n  cudaEventRecord(a);\n"
           "  for (int i = 0; i < 1000; i++) { }\n  cudaEventRecord(b);\n  float ms; cudaEventElapsedTime(&ms, a, b);\n"
           "  printf(\"%d\\n\", ms > 0 && ms < 1);\n  return 0;\n}\n", NULL, 0);
  CHECK(h->rc == 0 && !strcmp(h->out, "1804289383 846930886\n1\n"), "rand and events: '%s'\n%s", h->out, diag_text);

  /* the step limit in host code stops the program, status 2 */
  h = host("int main() {\n  int x = 0;\n  while (x == 0) { }\n  return 0;\n}\n", NULL, 0);
  CHECK(h->rc == 2 && strstr(diag_text, "carve: stopped: step limit 10000000 reached in the host function 'main' (raise with --max-steps)")
        && strstr(diag_text, "h.cu:3:"), "host step limit:\n%s", diag_text);
}

static void test_step_limit_scaling(void) {
  Launch L = {0};
  for (int d = 0; d < 3; d++) L.grid[d] = L.block[d] = 1;
  CHECK(launch_step_limit(&L, 0) == 2000000000ull, "a small launch: the fixed 2e9");
  CHECK(launch_step_limit(&L, 77) == 77, "--max-steps given: that");
  L.grid[0] = 128; L.grid[1] = 128; L.block[0] = 16; L.block[1] = 16;   /* examples/mm.cu at N=2048 */
  CHECK(launch_step_limit(&L, 0) == 131072ull * 1000000ull, "a large launch: 10^6 per warp (%llu)", (unsigned long long)launch_step_limit(&L, 0));
  L.host_code = true;
  CHECK(launch_step_limit(&L, 0) == 100000000000ull, "a host program: 10^11");
}

/* ---- __half launch values, string literals, extern __shared__, spec typedefs, ptxas logs ---- */
/* __half launch values are numbers rounded to half (docs/cxx.md), not bit patterns */
static void test_half_launch_values(void) {
  const char *src =
    "#pragma carve launch k grid(1) block(4)\n#pragma carve arg a = 0.5\n#pragma carve arg a2 = 1.5\n"
    "#pragma carve arg x = __half[4] : iota(1, 0.5)\n#pragma carve arg y = __half2[2] : fill(3)\n"
    "#pragma carve arg r = __half[64] : random(7, 2, 4)\n#pragma carve arg o = float[8] : zeros out\n"
    "__global__ void k(const __half a, __half2 a2, const __half *x, const __half2 *y, const __half *r, float *o) {\n"
    "  int i = threadIdx.x;\n  o[i] = __half2float(x[i]);\n"
    "  if (i == 0) { o[4] = __half2float(a); o[5] = __low2float(a2) + 10 * __high2float(a2); o[6] = __low2float(y[1]) + 10 * __high2float(y[1]); }\n"
    "  if (i == 1) { float lo = 9, hi = 0; for (int j = 0; j < 64; j++) { lo = fminf(lo, __half2float(r[j])); hi = fmaxf(hi, __half2float(r[j])); } o[7] = lo * 10 + hi; }\n"
    "}\n";
  Run *r = run(src, "k");
  OK(r, "half launch values");
  float *o = out(r, "o");
  if (o) {
    for (int i = 0; i < 4; i++) CHECK(o[i] == 1 + 0.5f * (float)i, "iota(1, 0.5) of __half: x[%d] = %g", i, (double)o[i]);
    CHECK(o[4] == 0.5f, "arg a = 0.5 of __half: %g", (double)o[4]);
    CHECK(o[5] == 16.5f, "arg a2 = 1.5 of __half2, both halves: %g", (double)o[5]);
    CHECK(o[6] == 33.0f, "fill(3) of __half2, both halves: %g", (double)o[6]);
    CHECK(o[7] >= 24 && o[7] < 44 && o[7] != floorf(o[7]), "random(7, 2, 4) of __half in [2, 4): min*10 + max = %g", (double)o[7]);
  }
  done(r);
  const char *big = "a=70000";
  Variant v = {.ov = {.dyn_shared = -1}, .args = &big, .nargs = 1};
  r = run_variant(src, "k", &v);
  CHECK(r->rc == 2 && strstr(diag_text, "value 70000 for parameter 'a' of type 'const __half' is out of its range"),
        "a __half value past 65504: refused (rc %d): %s", r->rc, diag_text);
  done(r);
}

/* a string literal is a non-null pointer in device code: true in conditions, distinct from
 * another literal; reading its characters is a fault, not a silent 0 */
static void test_string_literal_nonnull(void) {
  Run *r = run("#pragma carve launch k grid(1) block(4)\n#pragma carve arg o = int[4] : zeros out\n"
               "__global__ void k(int *o) {\n  const char *s = \"abc\";\n"
               "  o[threadIdx.x] = (\"x\" ? 1 : 0) + (s != 0) * 10 + (!\"y\") * 100 + (\"a\" == \"b\") * 1000;\n"
               "  if (\"z\") o[threadIdx.x] += 10000;\n  if (o[threadIdx.x] && \"why\") o[threadIdx.x] += 100000;\n}\n", "k");
  OK(r, "string literals in conditions");
  int *o = out(r, "o");
  for (int t = 0; o && t < 4; t++) CHECK(o[t] == 110011, "string literals: o[%d] = %d, want 110011", t, o[t]);
  done(r);
  expect_fault("a string literal's characters", "#pragma carve launch k grid(1) block(1)\n#pragma carve arg o = int[1] : zeros out\n"
               "__global__ void k(int *o) { const char *s = \"abc\"; o[0] = s[1]; }\n", "out-of-bounds constant read of 1 bytes", 3);
}

/* a file-scope extern __shared__ array, used in the kernel or in a function it calls, is the
 * dynamic area: a launch giving it 0 bytes is warned about */
static void test_file_scope_extern_shared_warning(void) {
  const char *uses[] = {"dyn[threadIdx.x] = 1.0f; o[threadIdx.x] = dyn[threadIdx.x];", "put(1.0f); o[threadIdx.x] = 1.0f;"};
  for (int i = 0; i < 2; i++)
    for (int bytes = 0; bytes <= 128; bytes += 128) {
      char src[1024];
      snprintf(src, sizeof src, "#pragma carve launch k grid(1) block(32) shared(%d)\n#pragma carve arg o = float[32] : zeros out\n"
               "extern __shared__ float dyn[];\n__device__ void put(float v) { dyn[threadIdx.x] = v; }\n"
               "__global__ void k(float *o) { %s }\n", bytes, uses[i]);
      Run *r = run(src, "k");
      bool warned = strstr(diag_text, "warning: kernel 'k' declares extern __shared__ memory but the launch gives 0 bytes") != NULL;
      CHECK(bytes ? r->rc == 0 && !warned : r->rc == 1 && warned, "file-scope extern __shared__ (%s), shared(%d): rc %d, warned %d:\n%s",
            i ? "through a call" : "in the kernel", bytes, r->rc, warned, diag_text);
      done(r);
    }
}

/* launch specs see the file's typedefs (the parse's file scope), in pragmas and in --arg */
static void test_spec_typedefs(void) {
  const char *src = "#define N 8\ntypedef float real;\ntypedef float2 pair;\n"
                    "#pragma carve launch k grid(1) block(8)\n#pragma carve arg x = real[N] : iota(1, 2) out\n"
                    "#pragma carve arg p = pair[N] : fill(3)\n"
                    "__global__ void k(real *x, const pair *p) { x[threadIdx.x] = x[threadIdx.x] * 2 + p[threadIdx.x].y; }\n";
  Run *r = run(src, "k");
  OK(r, "typedefs in launch specs");
  float *x = out(r, "x");
  for (int i = 0; x && i < 8; i++) CHECK(x[i] == 2 * (1 + 2 * (float)i) + 3, "typedefs in launch specs: x[%d] = %g", i, (double)x[i]);
  done(r);
  const char *set = "x = real[8] : fill(5) out";
  Variant v = {.ov = {.dyn_shared = -1}, .args = &set, .nargs = 1};
  r = run_variant(src, "k", &v);
  OK(r, "a typedef in --arg");
  x = out(r, "x");
  CHECK(x && x[7] == 13, "a typedef in --arg: x[7] = %g, want 13", x ? (double)x[7] : 0.0);
  done(r);
}

/* ptxas -v reports recorded from CUDA 13.0 (NVRTC 13.0 with --ptxas-options=-v, and nvcc
 * -Xptxas -v, on a namespaced template instance with a local array, a __noinline__ function and
 * a plain kernel; an extern "C" kernel with static shared memory): NVRTC prefixes the stack line
 * with "ptxas .", which the former parser read as 0 bytes of stack and spills */
static const char *ptxas_nvrtc13 =
  "ptxas info    : 0 bytes gmem\n"
  "ptxas info    : Compiling entry function '_ZN2ns5spillILi64EEEvPKfPf' for 'sm_90'\n"
  "ptxas info    : Function properties for _ZN2ns5spillILi64EEEvPKfPf\n"
  "ptxas         .     384 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 32 registers, used 0 barriers, 384 bytes cumulative stack size\n"
  "ptxas info    : Compile time = 13.335 ms\n"
  "ptxas info    : Function properties for _ZN2ns6helperEPKfi\n"
  "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Compiling entry function '_Z2rdPf' for 'sm_90'\n"
  "ptxas info    : Function properties for _Z2rdPf\n"
  "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 8 registers, used 0 barriers\n"
  "ptxas info    : Compile time = 1.069 ms\n";
static const char *ptxas_nvcc13 =
  "ptxas info    : 0 bytes gmem\n"
  "ptxas info    : Compiling entry function '_ZN2ns5spillILi64EEEvPKfPf' for 'sm_90'\n"
  "ptxas info    : Function properties for _ZN2ns5spillILi64EEEvPKfPf\n"
  "    384 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 32 registers, used 0 barriers, 384 bytes cumulative stack size\n"
  "ptxas info    : Compile time = 12.295 ms\n"
  "ptxas info    : Function properties for _ZN2ns6helperEPKfi\n"
  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Compiling entry function '_Z2rdPf' for 'sm_90'\n"
  "ptxas info    : Function properties for _Z2rdPf\n"
  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 8 registers, used 0 barriers\n"
  "ptxas info    : Compile time = 0.948 ms\n";
static const char *ptxas_extern_c =
  "ptxas info    : 0 bytes gmem\n"
  "ptxas info    : Compiling entry function 'sm' for 'sm_90'\n"
  "ptxas info    : Function properties for sm\n"
  "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 12 registers, used 1 barriers, 1024 bytes smem\n"
  "ptxas info    : Compile time = 2.685 ms\n";

static void expect_ptxas(const char *what, const char *log, const char *kernel, const char *lowered, bool known, int regs, int stack, int smem) {
  Resources r = {0};
  bool got = ptxas_parse_log(log, kernel, lowered, &r);
  CHECK(got == known && r.known == known, "ptxas report, %s: found %d, want %d", what, got, known);
  if (known) CHECK(r.regs == regs && r.stack == stack && r.smem == smem, "ptxas report, %s: %d registers, %d stack, %d smem; want %d, %d, %d",
                   what, r.regs, r.stack, r.smem, regs, stack, smem);
}

static void test_ptxas_logs(void) {
  const char *logs[] = {ptxas_nvrtc13, ptxas_nvcc13};
  for (int i = 0; i < 2; i++) {
    const char *who = i ? "nvcc 13.0" : "NVRTC 13.0";
    expect_ptxas(fmt("%s, a template instance by its lowered name", who), logs[i], "ns::spill<64>", "_ZN2ns5spillILi64EEEvPKfPf", true, 32, 384, 0);
    expect_ptxas(fmt("%s, a plain kernel by its mangling", who), logs[i], "rd", NULL, true, 8, 0, 0);
    expect_ptxas(fmt("%s, a device function is no entry", who), logs[i], "ns::helper", "_ZN2ns6helperEPKfi", false, 0, 0, 0);
    expect_ptxas(fmt("%s, a template instance without its lowered name", who), logs[i], "ns::spill<64>", NULL, false, 0, 0, 0);
  }
  expect_ptxas("extern \"C\", static shared", ptxas_extern_c, "sm", NULL, true, 12, 0, 1024);
  expect_ptxas("PTX only (compute_90): an empty log", "", "rd", NULL, false, 0, 0, 0);
  /* without "Compiling entry function" lines, "Function properties" names the function */
  expect_ptxas("no entry lines", "ptxas info    : Function properties for _Z2rdPf\n    16 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
               "ptxas info    : Used 255 registers\n", "rd", NULL, true, 255, 16, 0);
}

/* the one comparison of GPU outputs with the interpreter's (bench --verify and carve tune) */
static void test_compare_gpu_buffer(void) {
  float ref[4] = {1.0f, 2.0f, NAN, 4.0f}, gpu[4] = {1.0f, 2.0f, NAN, 4.0f};
  Buffer b = {.name = "y", .elem_ty = ty_float, .count = 4, .bytes = sizeof ref, .data = (unsigned char *)ref};
  BufferCompare c = compare_gpu_buffer(&b, (unsigned char *)gpu, NULL, 1e-6);
  CHECK(c.ok && c.compared == 4 && !c.mismatches && c.rel_l2 == 0, "equal floats, NaN where both are NaN");
  gpu[3] = 4.5f;
  c = compare_gpu_buffer(&b, (unsigned char *)gpu, NULL, 1e-6);
  CHECK(!c.ok && !c.mismatches && c.rel_l2 > 0.1, "a float off by 0.5: beyond the tolerance (%g)", c.rel_l2);
  unsigned char mask[sizeof ref] = {0};
  memset(mask, 1, 3 * sizeof(float));
  c = compare_gpu_buffer(&b, (unsigned char *)gpu, mask, 1e-6);
  CHECK(c.ok && c.compared == 3, "only the elements the sampled blocks wrote are compared");
  gpu[2] = 3.0f;
  c = compare_gpu_buffer(&b, (unsigned char *)gpu, NULL, 1.0);
  CHECK(!c.ok && c.mismatches == 1 && c.first_bad == 2, "a number where the interpreter has NaN is a mismatch");
  /* __half: bit for bit, any NaN equal to any NaN */
  uint16_t h_ref[3] = {0x3c00, 0x7e00, 0x0001}, h_gpu[3] = {0x3c00, 0x7fff, 0x0001};
  Type half = *ty_ushort;
  half.is_half = 1;
  Buffer h = {.name = "h", .elem_ty = &half, .count = 3, .bytes = sizeof h_ref, .data = (unsigned char *)h_ref};
  c = compare_gpu_buffer(&h, (unsigned char *)h_gpu, NULL, 0);
  CHECK(c.ok && c.exact, "halves: two different NaNs are equal");
  h_gpu[2] = 0x0000;
  c = compare_gpu_buffer(&h, (unsigned char *)h_gpu, NULL, 0);
  CHECK(!c.ok && c.first_bad == 2, "halves: a subnormal flushed to zero is a mismatch");
}

/* the blocks every sampled run takes (bench --verify, verification, the model, carve tune):
 * first, last and spread; one block is the middle (bench --verify-blocks 1 divided by zero) */
static void test_sample_blocks(void) {
  int64_t b[8];
  int n = launch_sample_blocks(10, 1, b);
  CHECK(n == 1 && b[0] == 5, "one of 10: the middle (%d, %lld)", n, (long long)b[0]);
  n = launch_sample_blocks(10, 3, b);
  CHECK(n == 3 && b[0] == 0 && b[1] == 4 && b[2] == 9, "three of 10: first, middle, last");
  n = launch_sample_blocks(3, 8, b);
  CHECK(n == 3 && b[0] == 0 && b[2] == 2, "eight of 3: every block once");
  n = launch_sample_blocks(9, 8, b);
  bool rising = true;
  for (int i = 1; i < n; i++) rising &= b[i] > b[i - 1];
  CHECK(n >= 2 && b[0] == 0 && b[n - 1] == 8 && rising, "eight of 9: first and last, no repeats (%d)", n);
  CHECK(launch_sample_blocks(0, 8, b) == 0 && launch_sample_blocks(10, 0, b) == 0, "nothing of nothing");
}

int main(void) {
  test_sample_blocks();
  test_generators_pinned();
  test_integer_semantics();
  test_float_semantics();
  test_divergence();
  test_short_circuit();
  test_barrier_reduction();
  test_atomics();
  test_warp_intrinsics();
  test_functions_structs();
  test_dynamic_shared();
  test_preprocessor();
  test_detectors();
  test_early_exit_barrier();
  test_depth_limits();
  test_launch_config();
  test_arg_binding();
  test_generators_defined();
  test_intra_warp_race();
  test_cxx_templates();
  test_cxx_names_values();
  test_cxx_assert_extern_shared();
  test_half_arith();
  test_cooperative_groups();
  test_host_programs();
  test_step_limit_scaling();
  test_half_launch_values();
  test_string_literal_nonnull();
  test_file_scope_extern_shared_warning();
  test_spec_typedefs();
  test_ptxas_logs();
  test_compare_gpu_buffer();
  return TEST_SUMMARY("interp");
}
