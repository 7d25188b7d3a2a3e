/* Declared alignment (__align__(N), _Alignas, alignas): the front end records it, the printer
 * writes it back, and the shared-memory layout gives a variable its type's alignment or the
 * declared one and no more, so carve's layout makes no promise nvcc does not: a 16-byte async
 * copy into a float array nvcc may place at any multiple of 4 faults in carve too. */
#include "../src/front/front.h"
#include "../src/interp/interp.h"
#include "test.h"

static char diag_text[16384];

/* load src with diagnostics captured in diag_text */
static Program *load(const char *src) {
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  memset(diag_text, 0, sizeof diag_text);
  diag_out = f;
  diag_reset();
  Program *p = load_program_text("t.cu", src, NULL);
  fclose(f);
  diag_out = stderr;
  if (p && diag_errors) { program_free(p); return NULL; }
  return p;
}

typedef struct { const char *name; int offset; } Find;
static bool find_decl(Node *n, void *ctx) {
  Find *f = ctx;
  if (n->kind == ND_DECL && n->var && !strcmp(n->var->name, f->name)) f->offset = n->var->offset;
  return true;
}
/* the offset of kernel k's __shared__ variable `name` (-1: none) */
static int shared_offset(Program *p, const char *name) {
  Find f = {name, -1};
  walk(find_kernel(p, "k")->body, find_decl, NULL, &f);
  return f.offset;
}

static const char *decls =
    "__device__ __align__(16) float g[3];\n"
    "__global__ void k(float *o) {\n"
    "  __shared__ float x[3];\n  __shared__ float y[4];\n  __shared__ __align__(16) float s[8];\n"
    "  _Alignas(8) __shared__ float t[2];\n  alignas(float4) __shared__ float u[4];\n"
    "  o[threadIdx.x] = x[0] + y[0] + s[0] + t[0] + u[0] + g[0];\n}\n";

static void test_print(void) {
  Program *p = load(decls);
  CHECK(p != NULL, "declared alignments parse: %s", diag_text);
  if (!p) return;
  Buf b = {0}, b2 = {0};
  print_program(&b, p);
  CHECK(strstr(b.s, "__shared__ float x[3];") && strstr(b.s, "__shared__ float y[4];") && strstr(b.s, "__shared__ __align__(16) float s[8];") &&
            strstr(b.s, "__shared__ __align__(8) float t[2];") && strstr(b.s, "__shared__ __align__(16) float u[4];") &&
            strstr(b.s, "__device__ __align__(16) float g[3];"),
        "the printer writes each declared alignment (and none where none was declared):\n%s", b.s);
  Program *q = load(b.s);
  if (q) print_program(&b2, q);
  CHECK(q && b2.s && !strcmp(b.s, b2.s), "print of print is the same");
  /* natural alignment unless declared: x 0..12, y at 12 (4 bytes suffice), s at 32 (16), t at 64 (8), u at 80 (16) */
  int ox = shared_offset(p, "x"), oy = shared_offset(p, "y"), os = shared_offset(p, "s"), ot = shared_offset(p, "t"), ou = shared_offset(p, "u");
  CHECK(ox == 0 && oy == 12 && os == 32 && ot == 64 && ou == 80, "shared offsets %d %d %d %d %d (0 12 32 64 80)", ox, oy, os, ot, ou);
  program_free(q);
  program_free(p);
  buf_free(&b);
  buf_free(&b2);
}

/* a 16-byte async copy into y: misaligned where nvcc may put y (4 bytes past x); declared
 * __align__(16), it lands */
static int copy_run(const char *align, RunStats *st) {
  char src[1024];
  snprintf(src, sizeof src,
           "#include <cuda_pipeline.h>\n#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = float[128] : random(1)\n"
           "#pragma carve arg o = float[128] : zeros out\n"
           "__global__ void k(const float *a, float *o) {\n  __shared__ float x[3];\n  __shared__ %sfloat y[128];\n"
           "  int t = threadIdx.x;\n  if (t == 0) x[0] = 1;\n  __pipeline_memcpy_async(&y[4 * t], &a[4 * t], 16);\n  __pipeline_commit();\n"
           "  __pipeline_wait_prior(0);\n  __syncthreads();\n  for (int i = 0; i < 4; i++) o[4 * t + i] = y[4 * t + i] * x[0];\n}\n",
           align);
  Program *p = load(src);
  if (!p) return -1;
  Launch L;
  int rc = -1;
  if (launch_prepare(&L, p, find_kernel(p, "k"), NULL) == 0) {
    FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
    memset(diag_text, 0, sizeof diag_text);
    diag_out = f;
    RunOptions o = {.max_steps = 1000000};
    rc = interp_run(&L, &o, st);
    fclose(f);
    diag_out = stderr;
    if (rc == 0) {
      const float *a = (const float *)L.bufs[1].data, *out = (const float *)L.bufs[2].data;
      for (int i = 0; i < 128; i++) if (a[i] != out[i]) rc = 3;
    }
    launch_free(&L);
  }
  program_free(p);
  return rc;
}

static void test_async_alignment(void) {
  RunStats st;
  int rc = copy_run("", &st);
  CHECK(rc == 1 && strstr(diag_text, "misaligned") && strstr(diag_text, ":10:"), "a 16-byte copy into a float array 4 bytes past another: a located fault (%s)",
        diag_text);
  rc = copy_run("__align__(16) ", &st);
  CHECK(rc == 0, "declared __align__(16), the copies land: rc %d %s", rc, diag_text);
}

static void test_bad_alignment(void) {
  Program *p = load("__global__ void k(float *o) {\n  __shared__ __align__(12) float s[3];\n  o[0] = s[0];\n}\n");
  CHECK(!p && strstr(diag_text, "t.cu:2:14: error: requested alignment 12 is not a power of two"), "__align__(12): a located error (%s)", diag_text);
}

int main(void) {
  test_print();
  test_async_alignment();
  test_bad_alignment();
  return TEST_SUMMARY("align");
}
