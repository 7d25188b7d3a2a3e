/* The GPU harness of a launch a host program recorded carries the __constant__ and __device__
 * contents the program set with cudaMemcpyToSymbol: the launch is prepared from the recording
 * (its LaunchOverrides hold the bytes), the interpreter runs it with them, and the generated
 * harness copies the differing bytes of each variable to its symbol before the kernel runs.
 * Where nvcc is installed the harness is compiled (`nvcc -c`). */
#include "test.h"
#include "../src/gpu/gpu.h"
#include <stdlib.h>
#include <unistd.h>

static const char *prog_text =
  "#include <stdio.h>\n"
  "__constant__ float coef[4] = {1, 1, 1, 1};\n"
  "__constant__ int unused = 7;\n"
  "namespace k { __device__ int bias; }\n"
  "__global__ void poly(const float *x, float *y, int n) {\n"
  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
  "  if (i < n) y[i] = coef[0] + x[i] * (coef[1] + x[i] * (coef[2] + x[i] * coef[3])) + k::bias;\n"
  "}\n"
  "int main(void) {\n"
  "  float c[4] = {0.5f, -2, 0.25f, 3};\n"
  "  int b = 1000;\n"
  "  cudaMemcpyToSymbol(coef, c + 1, 2 * sizeof(float), sizeof(float));\n"   /* coef[1], coef[2] only */
  "  cudaMemcpyToSymbol(k::bias, &b, sizeof b);\n"
  "  float hx[64], hy[64], *x, *y;\n"
  "  for (int i = 0; i < 64; i++) hx[i] = i * 0.5f;\n"
  "  cudaMalloc(&x, sizeof hx); cudaMalloc(&y, sizeof hy);\n"
  "  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);\n"
  "  poly<<<2, 32>>>(x, y, 64);\n"
  "  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);\n"
  "  printf(\"%g\\n\", hy[2]);\n"
  "  return 0;\n"
  "}\n";

static bool has(const char *s, const char *what) { return s && strstr(s, what); }

/* carve tune's harness holds each variant in a namespace: the headers their builtins need come
 * once, before every namespace (a header included inside cv_0 declared __pipeline_memcpy_async
 * as cv_0's, and a batch with two cp.async variants did not compile: every batch of mm's table
 * space with a prefetch-3/4 tile was split in halves down to single variants) */
static void test_multi_headers(void) {
  Program *p = load_program("tests/async/mm_pipeline.cu", NULL);
  CHECK(p != NULL, "mm_pipeline loads");
  if (!p) return;
  Launch L0, L1;
  LaunchOverrides ov = {0};
  ov.dyn_shared = -1;
  Obj *k = find_kernel(p, "mm_pipeline");
  bool ok = k && launch_prepare(&L0, p, k, &ov) == 0 && launch_prepare(&L1, p, k, &ov) == 0;
  CHECK(ok, "two launches prepare");
  if (!ok) { program_free(p); return; }
  Launch *lv[2] = {&L0, &L1};
  Buf m = {0};
  harness_generate_multi(&m, &L0, lv, 2, NULL);
  const char *inc = strstr(m.s, "#include <cuda_pipeline_primitives.h>"), *ns = strstr(m.s, "namespace cv_0");
  CHECK(inc && ns && inc < ns, "the pipeline header comes before the variants' namespaces");
  CHECK(inc && !strstr(inc + 1, "#include <cuda_pipeline_primitives.h>"), "and only once");
  Buf again = {0};
  print_program(&again, p); /* the printer's options are arguments: nothing left switched off */
  CHECK(again.s && strstr(again.s, "#include <cuda_pipeline_primitives.h>"), "the printer prints includes again afterwards");
  buf_free(&again);
  const char *nvcc = system("command -v nvcc >/dev/null 2>&1") == 0 ? "nvcc" : access("/usr/local/cuda/bin/nvcc", X_OK) == 0 ? "/usr/local/cuda/bin/nvcc" : NULL;
  if (nvcc) {
    char dir[] = "/tmp/carve-multitest-XXXXXX";
    if (mkdtemp(dir)) {
      FILE *f = fopen(fmt("%s/m.cu", dir), "w");
      if (f) { fwrite(m.s, 1, m.len, f); fclose(f); }
      int c = system(fmt("%s -arch=sm_90 -c -o %s/m.o %s/m.cu 2>%s/err", nvcc, dir, dir, dir));
      CHECK(c == 0, "nvcc compiles two cp.async variants in one harness (see %s/err)", dir);
      if (c == 0) (void)system(fmt("rm -rf %s", dir));
    }
  } else printf("test_symbols: nvcc: skipped (no CUDA toolkit)\n");
  buf_free(&m);
  launch_free(&L0);
  launch_free(&L1);
  program_free(p);
}

int main(void) {
  test_multi_headers();
  Program *p = load_program_text("sym.cu", prog_text, NULL);
  CHECK(p != NULL, "the program loads");
  if (!p) return TEST_SUMMARY("test_symbols");
  char out[256] = {0};
  FILE *o = fmemopen(out, sizeof out - 1, "w");
  HostOptions ho = {.argc = 1, .argv = (const char *[]){"sym"}, .record = true, .out = o};
  HostResult r;
  int rc = host_run(p, &ho, &r);
  fclose(o);
  /* y[2] = 1 + 1 * (-2 + 1 * (0.25 + 1 * 1)) + 1000 = 1000.25 */
  CHECK(rc == 0 && !strcmp(out, "1000.25\n"), "the program sees its symbols (rc %d, output '%s')", rc, out);
  CHECK(r.nrec == 1, "one launch recorded (%d)", r.nrec);
  if (r.nrec == 1) {
    Launch L;
    CHECK(launch_prepare(&L, p, r.rec[0].kernel, &r.rec[0].ov) == 0, "the recorded launch prepares");
    RunStats st;
    RunOptions ro = {0};
    CHECK(interp_run(&L, &ro, &st) == 0, "the recorded launch runs");
    float y2;
    memcpy(&y2, L.bufs[2].data + 8, 4);
    CHECK(y2 == 1000.25f, "the interpreter runs it with the recorded symbols (y[2] = %g)", y2);
    Buf h = {0};
    /* the harness is generated before any run in carve bench; __device__ contents a kernel
     * changed would otherwise go along (this kernel changes none) */
    harness_generate(&h, &L, NULL);
    /* coef[1..2] = -2.0f (00 00 00 c0), 0.25f (00 00 80 3e) over 1.0f (00 00 80 3f): bytes 6..11
     * differ; k::bias = 1000 */
    CHECK(has(h.s, "static const unsigned char carve_h_sym_0[6] = {\n    0, 192, 0, 0, 128, 62};"), "coef's changed bytes in the harness:\n%s",
          h.s ? strstr(h.s, "carve_h_sym") : "");
    CHECK(has(h.s, "CARVE_H_CK(cudaMemcpyToSymbol(::coef, carve_h_sym_0, 6ull, 6ull));"), "copied into coef at offset 6");
    CHECK(has(h.s, "carve_h_sym_1[2] = {\n    232, 3};"), "k::bias = 1000: its two nonzero low bytes");
    CHECK(has(h.s, "CARVE_H_CK(cudaMemcpyToSymbol(::k::bias, carve_h_sym_1, 2ull, 0ull));"), "copied into k::bias, qualified");
    CHECK(!has(h.s, "::unused"), "a variable the program did not change is not copied");
    const char *copy = h.s ? strstr(h.s, "cudaMemcpyToSymbol(::coef") : NULL, *launch = h.s ? strstr(h.s, "::poly<<<") : NULL;
    CHECK(copy && launch && copy < launch, "the copies come before the first launch");
    /* the multi-variant harness (carve tune) copies them into each variant's namespace */
    Launch *lv[1] = {&L};
    Buf m = {0};
    harness_generate_multi(&m, &L, lv, 1, NULL);
    CHECK(has(m.s, "CARVE_H_CK(cudaMemcpyToSymbol(::cv_0::coef, carve_h_sym_0, 6ull, 6ull));"), "multi: copied into cv_0::coef");
    CHECK(has(m.s, "cudaMemcpyToSymbol(::cv_0::k::bias"), "multi: copied into cv_0::k::bias");
    if (system("command -v nvcc >/dev/null 2>&1") == 0) {
      char dir[] = "/tmp/carve-symtest-XXXXXX";
      if (mkdtemp(dir)) {
        const char *src = fmt("%s/h.cu", dir), *msrc = fmt("%s/m.cu", dir);
        FILE *f = fopen(src, "w"), *g = fopen(msrc, "w");
        if (f) { fwrite(h.s, 1, h.len, f); fclose(f); }
        if (g) { fwrite(m.s, 1, m.len, g); fclose(g); }
        int c1 = system(fmt("nvcc -arch=sm_90 -c -o %s/h.o %s 2>%s/err", dir, src, dir));
        int c2 = system(fmt("nvcc -arch=sm_90 -c -o %s/m.o %s 2>>%s/err", dir, msrc, dir));
        CHECK(c1 == 0 && c2 == 0, "nvcc compiles both harnesses (see %s/err)", dir);
        if (c1 == 0 && c2 == 0) (void)system(fmt("rm -rf %s", dir));
      }
    }
    buf_free(&h);
    buf_free(&m);
    launch_free(&L);
  }
  /* a launch from a specification: nothing to copy */
  Program *q = load_program_text("spec.cu",
                                 "__constant__ float s = 2;\n#pragma carve launch z grid(1) block(32)\n#pragma carve arg o = float[32] : zeros out\n"
                                 "__global__ void z(float *o) { o[threadIdx.x] = s; }\n",
                                 NULL);
  if (q) {
    Launch L;
    LaunchOverrides ov = {.dyn_shared = -1};
    CHECK(launch_prepare(&L, q, find_kernel(q, "z"), &ov) == 0, "a spec launch prepares");
    Buf h = {0};
    harness_generate(&h, &L, NULL);
    CHECK(!has(h.s, "cudaMemcpyToSymbol"), "a spec launch's harness copies no symbol");
    buf_free(&h);
    launch_free(&L);
    program_free(q);
  }
  host_result_free(&r);
  program_free(p);
  return TEST_SUMMARY("test_symbols");
}
