/* The analyzer against ground truth: the sm_90 rules measured with Nsight Compute on an H100
 * (shared/reference/anchors-analysis.md, section 1.3), the half-warp rules of the paper
 * machines (CUDA C Programming Guide 2.x, G.3.2; Yang et al. 3.2), divergence, affine forms. */
#include "../src/analysis/analysis.h"
#include "test.h"
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
  fclose(f);
  diag_out = stderr;
  return r;
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
  if (L.prog) { analysis_free(&a); launch_free(&L); }
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
  if (L.prog) { analysis_free(&a); launch_free(&L); }
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
  if (L.prog) { analysis_free(&a); launch_free(&L); }
  memset(&L, 0, sizeof L);
  one("#pragma carve launch k grid(2) block(64)\n#pragma carve arg a = float[128] : iota out\n#pragma carve arg n = 5\n"
      "__global__ void k(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; int u = blockIdx.x * 2;\n"
      "  for (int j = 0; j < n; j++) if (u > 1) a[i] += 1.0f; }\n", "h100", 5, ACC_LOAD, &a, &L);
  int uniform = 0;
  for (int i = 0; i < a.nbr; i++) uniform += !a.br[i].thread_dependent && !a.br[i].divergent;
  CHECK(a.nbr == 2 && uniform == 2, "a loop on a parameter and a branch on blockIdx are uniform (%d of %d)", uniform, a.nbr);
  if (L.prog) { analysis_free(&a); launch_free(&L); }
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

int main(void) {
  test_atomic_lines();
  test_cumapz_banks();
  test_sm90_global();
  test_sm90_shared();
  test_paper_machines();
  test_affine_and_divergence();
  return TEST_SUMMARY("analyze");
}
