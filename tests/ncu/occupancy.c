/* bench --ncu's achieved occupancy against recorded Nsight Compute measurements (the CSV files in tests/ncu):
 * the prediction is the theoretical occupancy only when the grid fills the SMs to it; mv's 32
 * blocks of 128 threads on the H200's 132 SMs hold 4 warps per SM with work (6.25%), which ncu
 * measured as 6.23% (it was predicted 100%). Built and run by tests/ncu/run.sh. */
#include "../../src/report/report.h"
#include "../test.h"
#include <math.h>
#include <stdlib.h>

static void test_formula(const Machine *m) {
  Occupancy full = occupancy(m, 128, 0, 0);   /* 16 blocks of 4 warps: 64 warps, 100% */
  CHECK(full.blocks_per_sm == 16 && fabs(full.occupancy - 1) < 1e-12, "128 threads, no registers: 16 blocks, 100%% (%d, %g)", full.blocks_per_sm,
        full.occupancy);
  double few = counters_achieved_occupancy(m, full, 32, 4);
  CHECK(fabs(few - 6.25) < 1e-9, "32 blocks on 132 SMs: one block of 4 warps per SM with work, 6.25%% (%g)", few);
  double some = counters_achieved_occupancy(m, full, 2 * m->sm_count, 4);
  CHECK(fabs(some - 12.5) < 1e-9, "two blocks per SM: 12.5%% (%g)", some);
  double many = counters_achieved_occupancy(m, full, 1000 * m->sm_count, 4);
  CHECK(fabs(many - 100 * full.occupancy) < 1e-9, "a grid of many waves: the theoretical occupancy (%g)", many);
  Occupancy none = occupancy(m, 128, 0, 1 << 30);
  CHECK(none.blocks_per_sm == 0 && counters_achieved_occupancy(m, none, 32, 4) == 0, "a block that cannot run: 0");
}

static char *slurp_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  return buf;
}

/* examples/mv.cu as recorded (H = W = 4096: grid 32, block 128) against its ncu fixture */
static void test_mv(const Machine *m) {
  const char *csv = slurp_file("tests/ncu/mv-h200-2026-11-22.csv");
  CHECK(csv != NULL, "the mv fixture");
  if (!csv) return;
  double meas[CT_N];
  bool have[CT_N];
  counters_measured(csv, meas, have);
  CHECK(have[CT_OCC] && meas[CT_OCC] == 6.23, "measured achieved occupancy 6.23%% (%g)", meas[CT_OCC]);
  Program *p = load_program("examples/mv.cu", &(PPOptions){0});
  Obj *k = p ? find_kernel(p, "mv") : NULL;
  CHECK(k != NULL, "examples/mv.cu loads");
  if (!k) return;
  Launch L;
  memset(&L, 0, sizeof L);
  Ceilings ce = ceilings_for(m, "docs/data/calibration-h200-2026-11-22.json");
  CounterPrediction pr;
  int rc = launch_prepare(&L, p, k, NULL) == 0 ? counters_predict(&L, m, &ce, 0, &pr) : 2;
  CHECK(rc == 0 && L.grid[0] == 32 && L.block[0] == 128, "mv predicted at grid 32, block 128");
  if (rc == 0) {
    CounterCheck c[CT_N];
    counters_compare(&pr, meas, have, c);
    CHECK(c[CT_OCC].have_predicted && fabs(c[CT_OCC].predicted - 6.25) < 1e-9, "predicted 6.25%% (%g)", c[CT_OCC].predicted);
    CHECK(!c[CT_OCC].flagged, "within the tolerance of the measured 6.23%% (error %+.1f%%)", 100 * c[CT_OCC].error);
  }
  launch_free(&L);
  program_free(p);
}

int main(void) {
  const Machine *m = machine_find("h200");
  CHECK(m && m->sm_count == 132 && m->max_warps_per_sm == 64, "the H200: 132 SMs, 64 warps each");
  if (!m) return TEST_SUMMARY("ncu");
  test_formula(m);
  test_mv(m);
  return TEST_SUMMARY("ncu");
}
