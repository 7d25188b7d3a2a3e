/* estimate_kernel as a search calls it: hundreds of times on one loaded program, printing
 * nothing on standard output, exiting never, allocating nothing it does not free, reporting
 * faults and errors in the result. Built and run by tests/estimate_api_cli.sh. */
#include "../src/model/estimate.h"
#include "../src/report/report.h"
#include <string.h>

static int pass, fail;
#define CHECK(c, ...) do { if (c) pass++; else { fail++; fprintf(stderr, "estimate-api: FAIL: " __VA_ARGS__); fputc('\n', stderr); } } while (0)

static Program *load(const char *file, const char *define) {
  PPOptions pp = {0};
  const char *defs[] = {define};
  pp.defines = defs;
  pp.n_defines = define ? 1 : 0;
  return load_program(file, &pp);
}

/* one program, many estimates with different register counts: the same answer for the same
 * question, occupancy never rising with registers, no memory kept between calls */
static void search(const Machine *m) {
  Program *p = load("examples/mm.cu", "N=64");
  Obj *k = p ? find_kernel(p, NULL) : NULL;
  CHECK(k, "examples/mm.cu loads");
  if (!k) return;
  Ceilings ce = ceilings_for(m, NULL);
  EstimateResult first;
  CHECK(estimate_kernel(p, k, NULL, m, &(EstimateOptions){.regs = 32, .ceilings = &ce}, &first) == 0, "first estimate");
  size_t process = arena_bytes(NULL), program = arena_bytes(p->arena);
  int last_warps = 1 << 30, same = 0, monotone = 0, n = 0;
  for (int i = 0; i < 200; i++) {
    int regs = 16 + i;
    EstimateResult r;
    int rc = estimate_kernel(p, k, NULL, m, &(EstimateOptions){.regs = regs, .ceilings = &ce}, &r);
    if (rc == 0 && regs == 32) same += r.e.total == first.e.total && r.e.bottleneck == first.e.bottleneck && !strcmp(r.kernel, "mm");
    if (rc == 0) { monotone += r.oc.warps_per_sm <= last_warps; last_warps = r.oc.warps_per_sm; n++; }
    estimate_free(&r);
  }
  CHECK(same == 1, "register count 32 estimated again gives the first answer");
  CHECK(n == 200 && monotone == 200, "occupancy never rises with registers (%d of %d)", monotone, n);
  CHECK(arena_bytes(NULL) == process, "the process arena did not grow (%zu -> %zu bytes)", process, arena_bytes(NULL));
  CHECK(arena_bytes(p->arena) == program, "the program's arena did not grow (%zu -> %zu bytes)", program, arena_bytes(p->arena));
  program_free(p);
  /* the result outlives its program: strings are the result's own */
  CHECK(!strcmp(first.file, "examples/mm.cu") && !strcmp(first.kernel, "mm"), "file and kernel after program_free");
  int hot = 0;
  for (int i = 0; i < first.e.nhot; i++) hot += first.e.hot[i].what ? (int)strlen(first.e.hot[i].what) > 0 : 1;
  CHECK(hot == first.e.nhot, "hot spots readable after program_free");
  FILE *null = fopen("/dev/null", "w");
  estimate_print_text(&first, null);
  estimate_print_json(&first, null);
  fclose(null);
  estimate_free(&first);
}

/* a kernel that faults and a launch that cannot be made: reported in the status, not by exiting */
static void failures(const Machine *m) {
  Program *p = load("tests/diag/oob_global_read.cu", NULL);
  Obj *k = p ? find_kernel(p, NULL) : NULL;
  CHECK(k, "tests/diag/oob_global_read.cu loads");
  if (!k) return;
  EstimateResult r;
  for (int i = 0; i < 20; i++) {
    int rc = estimate_kernel(p, k, NULL, m, &(EstimateOptions){.regs = 32}, &r);
    CHECK(rc == 1 && r.status == 1, "a faulting kernel: status 1 (got %d)", rc);
    estimate_free(&r);
  }
  LaunchOverrides ov = {.has_block = true, .block = {4096, 1, 1}, .dyn_shared = -1};
  int rc = estimate_kernel(p, k, &ov, m, NULL, &r);
  CHECK(rc == 2 && r.status == 2, "a block of 4096 threads: status 2 (got %d)", rc);
  estimate_free(&r);
  program_free(p);
}

int main(void) {
  diag_out = fopen("/dev/null", "w");   /* the faults' diagnostics are not what is tested */
  const Machine *m = machine_find("h100");
  search(m);
  failures(m);
  fclose(diag_out);
  arena_free_all();
  /* the only line on standard output: estimate_kernel printed nothing there */
  printf("estimate-api: %d passed, %d failed\n", pass, fail);
  return fail != 0;
}
