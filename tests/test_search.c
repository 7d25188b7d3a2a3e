/* search: the space of a kernel, its constraints, carving (threshold, Pareto front tie-keeping
 * and strict), the model's top k, random draws, Appendix A's expected best against exhaustive
 * enumeration, the results records (round trips, a torn last line), merging and T4. */
#include "../src/search/search.h"
#include "test.h"
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- Appendix A ---- */
/* the expected minimum of n of t[0..S-1] drawn without replacement, by enumerating subsets */
static double brute_min(const double *t, int S, int n) {
  double sum = 0;
  long count = 0;
  for (unsigned mask = 0; mask < (1u << S); mask++) {
    if (__builtin_popcount(mask) != n) continue;
    double m = INFINITY;
    for (int i = 0; i < S; i++) if (mask >> i & 1 && t[i] < m) m = t[i];
    sum += m;
    count++;
  }
  return sum / (double)count;
}

static void test_sampling(void) {
  const double t[10] = {3.1, 1.2, 9.0, 2.2, 1.2, 7.5, 4.0, 5.5, 2.9, 8.1};
  for (int n = 1; n <= 10; n++) {
    double e = expected_min_sample(t, 10, n), b = brute_min(t, 10, n);
    CHECK(fabs(e - b) < 1e-9 * b, "E[min] of %d draws: %.12g, enumeration %.12g", n, e, b);
  }
  /* n = 1 is the mean; n = S is the minimum */
  double mean = 0;
  for (int i = 0; i < 10; i++) mean += t[i] / 10;
  CHECK(fabs(expected_min_sample(t, 10, 1) - mean) < 1e-12, "one draw: the mean");
  CHECK(expected_min_sample(t, 10, 10) == 1.2, "all drawn: the best");
  /* sample sizes: the smallest n reaching the fraction, from the enumerated curve */
  for (int f = 0; f < 3; f++) {
    double frac = f == 0 ? 0.5 : f == 1 ? 0.9 : 0.95;
    int n = sample_size_for(t, 10, frac), want = 10;
    for (int k = 10; k >= 1; k--) if (1.2 / brute_min(t, 10, k) >= frac) want = k;
    CHECK(n == want, "%.0f%% of the best: %d draws (enumeration %d)", 100 * frac, n, want);
  }
  /* a large space does not overflow (log-gamma): 900 values, as MRI-FHD's 896 */
  double *big = malloc(sizeof(double) * 900);
  for (int i = 0; i < 900; i++) big[i] = 1.0 + (double)((i * 7919) % 900) / 100.0;
  double e = expected_min_sample(big, 900, 58);
  CHECK(e >= 1.0 && e < 1.2 && isfinite(e), "900 values, 58 draws: %.6g", e);
  int n90 = sample_size_for(big, 900, 0.9), n95 = sample_size_for(big, 900, 0.95);
  CHECK(n90 > 1 && n95 >= n90, "sample sizes grow with the fraction: %d, %d", n90, n95);
  free(big);
}

/* ---- Pareto front ---- */
static void test_pareto(void) {
  /* (x, y): a dominates d and e strictly; b and c tie a in one metric */
  const double x[6] = {5, 5, 3, 4, 1, 2}, y[6] = {5, 3, 5, 4, 1, 6};
  bool keep[6];
  pareto_front(x, y, 6, false, keep);
  /* tie-keeping: pruned only when another point is better in both */
  CHECK(keep[0] && keep[1] && keep[2], "tie-keeping keeps the points equal to the best in one metric");
  CHECK(!keep[3] && !keep[4], "points worse in both are pruned");
  CHECK(keep[5], "the best in one metric stays");
  pareto_front(x, y, 6, true, keep);
  CHECK(keep[0] && !keep[1] && !keep[2] && keep[5], "strict: ties worse in the other metric are pruned (%d %d %d %d)", keep[0], keep[1], keep[2], keep[5]);
  /* identical points: neither dominates the other, in both modes */
  const double ix[2] = {1, 1}, iy[2] = {2, 2};
  pareto_front(ix, iy, 2, true, keep);
  CHECK(keep[0] && keep[1], "identical points both stay");
}

/* ---- selection on a space made by hand ---- */
static void fake_variant(Space *s, int i, double eff, double util, double est, double mem, bool mem_bound) {
  Variant *v = &s->v[i];
  memset(v, 0, sizeof *v);
  snprintf(v->key, sizeof v->key, "block=%dx1", 32 * (i + 1));
  v->status = VS_OK;
  v->hash = 1000 + (uint64_t)i;
  v->m.known = true;
  v->m.efficiency = eff;
  v->m.utilization = util;
  v->m.est_ms = est;
  v->m.mem_ms = mem;
  v->m.mem_bound = mem_bound;
}


/* the Hopper front: strict dominance beyond a relative eps, in any number of objectives */
static void test_front_eps(void) {
  /* (E, U, 1/est): A; B within 1% of A in E, worse in U; C best E; D best estimate; T a tie of A
   * (its estimate 0.1% better) */
  double o[] = {1, 1, 1,   1.005, 0.5, 1,   2, 0.2, 0.5,   0.5, 0.5, 3,   1, 1, 1.001};
  bool keep[5];
  pareto_front_eps(o, 3, 5, 0.01, keep);
  CHECK(keep[0] && !keep[1] && keep[2] && keep[3] && keep[4], "eps 1%%: B pruned by A (0.5%% better E is within eps), A and T a tie: %d%d%d%d%d",
        keep[0], keep[1], keep[2], keep[3], keep[4]);
  pareto_front_eps(o, 3, 5, 0, keep);
  CHECK(!keep[0] && keep[1] && keep[2] && keep[3] && keep[4], "eps 0: T's 0.1%% better estimate prunes A; B's 0.5%% better E keeps it: %d%d%d%d%d", keep[0],
        keep[1], keep[2], keep[3], keep[4]);
  double two[] = {1, 2, 2, 1};
  pareto_front_eps(two, 2, 2, 0.01, keep);
  CHECK(keep[0] && keep[1], "a trade-off keeps both");
}

/* hopper_utilization by hand: H100, 4 schedulers, 132 SMs, 683 cycles of global latency */
static void test_hopper_util(void) {
  const Machine *m = machine_find("h100");
  CHECK(m && m->sub_partitions == 4 && m->sm_count == 132 && m->dram_latency_cycles == 683, "the H100's schedulers, SMs and latency");
  /* no barriers: 100 instructions a region, 8-warp blocks, 4 resident (two whole waves): every
   * other resident warp covers, a quarter of them on the stalled warp's scheduler */
  double u = hopper_utilization(1000, 10, 10, 256, 4, 1056, m);
  CHECK(fabs(u - 100 * (1 + 31 / 4.0) / 683) < 1e-9, "no barriers: 100 x (1 + 31/4) / 683 = 1.2811: %g", u);
  /* barriers (2 of 12 regions): Ryoo's half of the own block's warps, (8-1)/2 + 3 x 8 = 27.5 */
  u = hopper_utilization(1000, 12, 10, 256, 4, 1056, m);
  CHECK(fabs(u - 1000 / 12.0 * (1 + 27.5 / 4) / 683) < 1e-9, "barriers: 83.3 x (1 + 27.5/4) / 683 = 0.9608: %g", u);
  /* a grid of 66 blocks: half the SMs hold one block each (tail 0.5), 8 warps resident */
  u = hopper_utilization(1000, 10, 10, 256, 4, 66, m);
  CHECK(fabs(u - 100 * (1 + 7 / 4.0) / 683 * 0.5) < 1e-9, "the tail of a small grid: 100 x 2.75 / 683 x 0.5 = 0.2013: %g", u);
  /* one warp per SM: three schedulers idle */
  u = hopper_utilization(1000, 10, 10, 32, 1, 132, m);
  CHECK(fabs(u - 100 / 683.0 * 0.25) < 1e-9, "one warp: a quarter of the schedulers: 0.0366: %g", u);
  /* the tail of a last partial wave: 1.5 blocks per SM, the busiest runs 2 */
  u = hopper_utilization(1000, 10, 10, 256, 4, 198, m);
  CHECK(fabs(u - 100 * (1 + 15 / 4.0) / 683 * 0.75) < 1e-9, "1.5 blocks per SM of 2: tail 0.75 and 2 resident: %g", u);
  CHECK(hopper_utilization(1000, 0, 0, 256, 4, 66, m) == 0 && hopper_utilization(1000, 10, 10, 256, 0, 66, m) == 0, "no regions or no block: 0");
}

/* Kernel Tuner's P: 0 random search's expected best, 1 the optimum */
static void test_score_p(void) {
  CHECK(fabs(score_p(6, 10, 5) - 0.8) < 1e-12 && score_p(5, 10, 5) == 1 && score_p(10, 10, 5) == 0 && fabs(score_p(12, 10, 5) + 0.4) < 1e-12,
        "P = (10 - t) / (10 - 5): 0.8, 1, 0, -0.4");
  CHECK(score_p(5, 5, 5) == 0, "random already at the optimum: 0");
  /* four times 1..4 ms: random's expected best of 2 is (3x1 + 2x2 + 1x3) / 6 = 5/3 */
  double t[] = {4, 2, 1, 3};
  double e = expected_min_sample(t, 4, 2);
  CHECK(fabs(e - 5 / 3.0) < 1e-12 && fabs(score_p(2, e, 1) + 0.5) < 1e-12, "E[min of 2] = 5/3; a best of 2 ms scores -0.5: %g", e);
}

/* the Hopper front in search_select: the estimate breaks ties and keeps what it alone ranks first */
static void test_select_hopper(void) {
  Space s;
  memset(&s, 0, sizeof s);
  s.in.m = machine_find("h100");
  s.nv = 5;
  s.v = calloc(5, sizeof(Variant));
  double threads = 256.0 * 1056;
  for (int i = 0; i < 5; i++) {
    fake_variant(&s, i, 0, 0, 1, 1, false);
    VariantMetrics *m = &s.v[i].m;
    m->threads = 256; m->blocks_per_sm = 4; m->instr = 1000; m->regions = m->long_regions = 10;
  }
  s.v[0].m.est_ms = 2.0;                                  /* ties of 2 in E and U(H), slower: pruned by the estimate */
  s.v[1].m.est_ms = 1.5;
  s.v[2].m.est_ms = 1.0;                                  /* the tie the estimate keeps */
  s.v[3].m.instr = 500; s.v[3].m.est_ms = 3.0;             /* twice the Efficiency, half U(H): on the front */
  s.v[4].m.instr = 2000; s.v[4].m.regions = s.v[4].m.long_regions = 40; s.v[4].m.est_ms = 0.5;   /* worse in both, the best estimate */
  for (int i = 0; i < 5; i++) s.v[i].m.efficiency = 1.0 / (s.v[i].m.instr * threads);
  CarveOptions co = {.strategy = STRAT_CARVING, .front = FRONT_HOPPER, .threshold = 1.25, .eps = 0.01};
  Selection sel = search_select(&s, &co);
  CHECK(sel.n == 3 && sel.idx[0] == 4 && sel.idx[1] == 2 && sel.idx[2] == 3, "survivors 4, 2, 3 ranked by the estimate: %d [%d %d %d]", sel.n,
        sel.idx[0], sel.n > 1 ? sel.idx[1] : -1, sel.n > 2 ? sel.idx[2] : -1);
  CHECK(sel.n == 3 && sel.kept[0] == KEPT_ESTIMATE && sel.kept[1] == KEPT_FRONT && sel.kept[2] == KEPT_FRONT && sel.pruned_by_estimate == 2,
        "kept by: the estimate (4), the front (2, 3); the estimate pruned 2 of the front: %d", sel.pruned_by_estimate);
  selection_free(&sel);
  co.front = FRONT_RYOO;
  for (int i = 0; i < 5; i++) s.v[i].m.utilization = 1;
  sel = search_select(&s, &co);
  CHECK(sel.n == 5 && sel.kept[0] == KEPT_FRONT, "Ryoo's front with equal U keeps all five (ties kept): %d", sel.n);
  selection_free(&sel);
  free(s.v);
}

static void test_select(void) {
  Space s;
  memset(&s, 0, sizeof s);
  s.nv = 6;
  s.v = calloc(6, sizeof(Variant));
  fake_variant(&s, 0, 1.0, 1.0, 2.0, 1.0, false);   /* on the front */
  fake_variant(&s, 1, 0.5, 0.5, 1.0, 1.0, false);   /* dominated, but the model's best */
  fake_variant(&s, 2, 2.0, 0.2, 3.0, 1.0, false);   /* on the front */
  fake_variant(&s, 3, 3.0, 3.0, 4.0, 9.0, true);    /* dominates all, but memory-bound and 9x slower in memory */
  fake_variant(&s, 4, 1.0, 1.0, 5.0, 1.0, false);   /* a tie with 0 */
  fake_variant(&s, 5, 9.0, 9.0, 0.5, 1.0, false);
  s.v[5].status = VS_DUPLICATE;                      /* not a candidate */
  CarveOptions co = {.strategy = STRAT_CARVING, .threshold = 1.25};
  Selection sel = search_select(&s, &co);
  CHECK(sel.candidates == 5, "duplicates are not candidates: %d", sel.candidates);
  CHECK(sel.after_threshold == 4, "the threshold drops the memory-bound variant: %d", sel.after_threshold);
  CHECK(sel.n == 3 && sel.idx[0] == 0 && sel.idx[1] == 2 && sel.idx[2] == 4, "the front (0, 2, 4), ranked by the estimate: %d [%d %d %d]", sel.n,
        sel.idx[0], sel.idx[1], sel.idx[2]);
  selection_free(&sel);
  co.threshold = 0;
  sel = search_select(&s, &co);
  CHECK(sel.n == 1 && sel.idx[0] == 3, "without the threshold the dominating variant is all that is left: %d", sel.n);
  selection_free(&sel);
  co = (CarveOptions){.strategy = STRAT_MODEL, .budget = 2};
  sel = search_select(&s, &co);
  CHECK(sel.n == 2 && sel.idx[0] == 1 && sel.idx[1] == 0, "model: the top 2 by estimate");
  selection_free(&sel);
  co = (CarveOptions){.strategy = STRAT_EXHAUSTIVE};
  sel = search_select(&s, &co);
  CHECK(sel.n == 5, "exhaustive: every distinct valid variant");
  selection_free(&sel);
  co = (CarveOptions){.strategy = STRAT_RANDOM, .budget = 3, .seed = 7};
  Selection a = search_select(&s, &co), b = search_select(&s, &co);
  bool same = a.n == 3 && b.n == 3, distinct = true;
  for (int i = 0; i < a.n; i++) {
    bool found = false;
    for (int j = 0; j < b.n; j++) found |= a.idx[i] == b.idx[j];
    same &= found;
    for (int j = 0; j < i; j++) distinct &= a.idx[i] != a.idx[j];
    distinct &= a.idx[i] != 5;
  }
  CHECK(same && distinct, "random: the same draws for the same seed, without replacement, no duplicates");
  selection_free(&a);
  selection_free(&b);
  free(s.v);
}

/* ---- a real space ---- */
static void test_space(void) {
  SearchInput in = {.path = "examples/mm.cu", .m = machine_find("h100"), .skip = "split,vector,tile"};   /* the space this test was written for */
  const char *defs[] = {"N=128"};
  in.pp.defines = defs;
  in.pp.n_defines = 1;
  Space s;
  char err[256];
  CHECK(space_build(&in, &s, err, sizeof err) == 0, "mm's space builds: %s", err);
  bool bx = false, by = false, camping = false;
  for (int d = 0; d < s.ndims; d++) {
    bx |= !strcmp(s.dims[d].name, "block.x");
    by |= !strcmp(s.dims[d].name, "block.y");
    camping |= !strcmp(s.dims[d].name, "camping");
  }
  CHECK(bx && by && camping, "axes: block.x, block.y (2-D blocks) and the one applicable pass");
  /* by name: a pass the optimizer gains later (a "launch" pass) must not break the count */
  static const char *out[] = {"reduce: ", "scalar: ", "stage: ", "unroll: ", "split: left out", "vector: left out", "tile: left out"};
  int named = 0;
  for (size_t k = 0; k < sizeof out / sizeof *out; k++)
    for (int i = 0; i < s.nskipped; i++) named += !strncmp(s.skipped[i], out[k], strlen(out[k]));
  CHECK(named == 7, "reduce, scalar, stage and unroll do not apply to mm, split, vector and tile are left out: %d of 7 named", named);
  bool launch_said = !opt_find_pass("launch");
  for (int i = 0; i < s.nskipped; i++) launch_said |= !strncmp(s.skipped[i], "launch: the space's own launch axes", 35);
  CHECK(launch_said, "a pass named launch (it reshapes the block) is left to the space's launch axes");
  /* the key names the configuration; launch constraints are decided before building */
  int k8 = -1, k32 = -1;
  for (int i = 0; i < s.nv; i++) {
    if (!strcmp(s.v[i].key, "block=8x1 camping=off")) k8 = i;
    if (!strcmp(s.v[i].key, "block=32x8 camping=off")) k32 = i;
  }
  CHECK(k8 >= 0 && s.v[k8].status == VS_CONSTRAINT && strstr(s.v[k8].why, "multiple of the warp"), "8 threads: a warp-multiple constraint");
  CHECK(k32 >= 0 && s.v[k32].status == VS_PENDING, "32x8 is built");
  StaticOptions so = {.workers = 1, .cache_dir = ""};
  int computed = space_metrics(&s, &so);
  if (s.v[k32].status == VS_CONSTRAINT && strstr(s.v[k32].why, "no CUDA toolkit")) {
    printf("test_search: no NVRTC or nvcc here: registers assumed (--regs 32)\n");
    space_free(&s);
    in.regs = 32;
    space_build(&in, &s, err, sizeof err);
    computed = space_metrics(&s, &so);
  }
  CHECK(computed > 0 && s.v[k32].status == VS_OK, "32x8 computed (%d computed)", computed);
  CHECK(s.v[k32].m.known && s.v[k32].m.threads == 256 && s.v[k32].m.efficiency > 0 && s.v[k32].m.utilization > 0,
        "its metrics: 256 threads, Efficiency and Utilization");
  /* the same device code under another launch: a different variant (the launch is in the source) */
  int k16 = -1;
  for (int i = 0; i < s.nv; i++) if (!strcmp(s.v[i].key, "block=16x16 camping=off")) k16 = i;
  CHECK(k16 >= 0 && s.v[k16].hash != s.v[k32].hash, "launch shapes are distinct variants");
  char why[256];
  CHECK(variant_verify(&s, &s.v[k32], why, sizeof why), "32x8 verifies against the original: %s", why);
  /* records: the static record gives back the same metrics */
  Variant back = s.v[k32];
  memset(&back.m, 0, sizeof back.m);
  back.status = VS_PENDING;
  CHECK(variant_from_record(&back, variant_record(&s, &s.v[k32])), "the record reads back");
  CHECK(back.status == VS_OK && back.hash == s.v[k32].hash && back.m.regs == s.v[k32].m.regs &&
        fabs(back.m.efficiency - s.v[k32].m.efficiency) <= 1e-8 * s.v[k32].m.efficiency, "with its metrics");
  space_free(&s);
  /* a kernel correct only at its own block: every other shape is rejected */
  in.path = "tests/tune/fixed16.cu";
  in.pp.n_defines = 0;
  CHECK(space_build(&in, &s, err, sizeof err) == 0, "fixed16's space builds: %s", err);
  space_metrics(&s, &so);
  int ok = 0, rejected = 0, other = 0;
  for (int i = 0; i < s.nv; i++) {
    if (s.v[i].status != VS_OK) continue;
    bool v = variant_verify(&s, &s.v[i], why, sizeof why);
    /* "block=16x16" alone or with passes ("block=16x16 vector=on ..."): canon makes a variant
     * with passes differ from the launch-only one, so both may be in the space */
    bool own = !strncmp(s.v[i].key, "block=16x16", 11) && (s.v[i].key[11] == ' ' || !s.v[i].key[11]);
    if (v && own) ok++;
    else if (!v && !own) rejected++;
    else other++;
  }
  CHECK(ok >= 1 && rejected > 5 && other == 0, "fixed16: its own shape verifies (%d), the others are rejected (%d), no other outcome (%d)", ok,
        rejected, other);
  space_free(&s);
  /* errors: no file, no kernel */
  in.path = "tests/tune/does-not-exist.cu";
  FILE *saved = diag_out;
  diag_out = fopen("/dev/null", "w");
  CHECK(space_build(&in, &s, err, sizeof err) == 2, "a missing file is an error");
  space_free(&s);
  in.path = "examples/mm.cu";
  in.kernel = "nope";
  CHECK(space_build(&in, &s, err, sizeof err) == 2 && strstr(err, "nope"), "an unknown kernel is an error: %s", err);
  space_free(&s);
  fclose(diag_out);
  diag_out = saved;
}

/* ---- results files ---- */
static void test_results(void) {
  char dir[] = "/tmp/carve-test-search-XXXXXX";
  CHECK(mkdtemp(dir) != NULL, "a temporary directory");
  char *path = fmt("%s/r.jsonl", dir);
  TimeRecord t = {.hash = 0xabcdef0123456789ull, .median_ms = 1.25, .min_ms = 1.2, .max_ms = 1.5, .ntimes = 3, .times = {1.2, 1.25, 1.5}};
  snprintf(t.key, sizeof t.key, "block=32x8 \"quoted\"");
  snprintf(t.status, sizeof t.status, "ok");
  char *line = time_record(&t);
  TimeRecord u;
  CHECK(time_from_record(&u, line) && u.hash == t.hash && u.ntimes == 3 && u.times[2] == 1.5 && !strcmp(u.key, t.key) && u.median_ms == 1.25,
        "a time record reads back: %s", line);
  /* a file killed mid-write: the torn last line is ignored and closed before the next record */
  FILE *f = fopen(path, "w");
  fprintf(f, "%s\n{\"type\": \"time\", \"key\": \"torn", line);
  fclose(f);
  Results r;
  char why[256];
  CHECK(results_open(&r, path, why, sizeof why), "opens: %s", why);
  CHECK(r.nt == 1 && results_time(&r, t.hash), "the whole record is read, the torn one not (%d)", r.nt);
  t.hash = 42;
  CHECK(results_append(&r, time_record(&t)), "appends");
  results_close(&r);
  CHECK(results_open(&r, path, why, sizeof why) && r.nt == 2 && results_time(&r, 42), "the appended record starts its own line (%d)", r.nt);
  results_close(&r);
  /* merge: each line once */
  const char *ins[2] = {path, path};
  char *out = fmt("%s/m.jsonl", dir);
  CHECK(results_merge(ins, 2, out, why, sizeof why) == 0, "merges: %s", why);
  CHECK(results_open(&r, out, why, sizeof why) && r.nt == 2, "a line in both inputs is kept once (%d)", r.nt);
  results_close(&r);
  remove(path);
  remove(out);
  rmdir(dir);
}

/* ---- the worker pool: a child that dies costs its item only ---- */
typedef struct { int taken[16], died[16]; char why[16][96]; } PoolSeen;
static char *pool_work(Space *s, int item, void *ctx) {
  if (item == 3) _exit(7);   /* this worker dies on item 3 */
  return fmt("item %d squared %d", item, item * item);
}
static void pool_take(Space *s, int item, const char *line, void *ctx) {
  PoolSeen *p = ctx;
  int i, sq;
  if (sscanf(line, "item %d squared %d", &i, &sq) == 2 && i == item && sq == i * i) p->taken[item]++;
}
static void pool_died(Space *s, int item, const char *why, void *ctx) {
  PoolSeen *p = ctx;
  p->died[item]++;
  snprintf(p->why[item], sizeof p->why[item], "%s", why);
}

static void test_pool(void) {
  Space s;
  memset(&s, 0, sizeof s);
  int items[10];
  for (int i = 0; i < 10; i++) items[i] = i;
  PoolSeen seen = {{0}, {0}, {{0}}};
  Pool pl = {3, pool_work, pool_take, pool_died, &seen, 0};
  int n = pool_run(&s, &pl, items, 10);
  bool once = true;
  for (int i = 0; i < 10; i++) once &= i == 3 ? seen.taken[i] == 0 && seen.died[i] == 1 : seen.taken[i] == 1 && seen.died[i] == 0;
  CHECK(n == 10 && once, "every item answered once, the one a worker died on charged to the death (%d answered)", n);
  CHECK(strstr(seen.why[3], "the worker died (exit 7)") != NULL, "the death says how: %s", seen.why[3]);
  CHECK(pool_workers(0) >= 1 && pool_workers(1000) == SEARCH_MAX_WORKERS, "workers: one per core by default, at most %d", SEARCH_MAX_WORKERS);
}

/* ---- verify records and the results index ---- */
static void test_records(void) {
  Variant v;
  memset(&v, 0, sizeof v);
  v.hash = 0x1234;
  snprintf(v.key, sizeof v.key, "block=32x8 unroll=on");
  Results r;
  char why[256];
  CHECK(results_open(&r, NULL, why, sizeof why), "a results set without a file");
  VerifyRecord vr;
  CHECK(!results_verify(&r, v.hash, &vr), "nothing verified yet");
  results_append(&r, verify_record(&v, false, "verification: ragged size (N=61): C[3] differs", 1.5));
  results_append(&r, verify_record(&v, true, "", 0.5));   /* a second record of the same source: the first stands */
  CHECK(results_verify(&r, v.hash, &vr) && !vr.ok && strstr(vr.why, "C[3] differs") && vr.verify_s == 1.5, "the first verify record is read back: %s", vr.why);
  /* the static records of a large space are found by (space, key) without a scan */
  Space s;
  memset(&s, 0, sizeof s);
  s.fingerprint = 77;
  s.kernel = "k";
  Variant *vs = xmalloc(sizeof(Variant) * 5000);
  s.v = vs;
  s.nv = 5000;
  for (int i = 0; i < 5000; i++) {
    snprintf(vs[i].key, sizeof vs[i].key, "block=%dx1 unroll=off", i);
    vs[i].status = VS_CONSTRAINT;
    snprintf(vs[i].why, sizeof vs[i].why, "constraint %d", i);
    results_append(&r, variant_record(&s, &vs[i]));
  }
  const char *hit = results_static(&r, 77, "block=4321x1 unroll=off");
  CHECK(hit && strstr(hit, "constraint 4321"), "a static record by its key among 5000");
  CHECK(!results_static(&r, 78, "block=4321x1 unroll=off"), "not another space's");
  free(vs);
  results_close(&r);
}

/* ---- launch shapes kept by --blocks ---- */
static void test_blocks(void) {
  SearchInput in = {.path = "examples/mm.cu", .m = machine_find("h100"), .only = "camping", .blocks = "orig"};
  const char *defs[] = {"N=128"};
  in.pp.defines = defs;
  in.pp.n_defines = 1;
  Space s;
  char err[256];
  CHECK(space_build(&in, &s, err, sizeof err) == 0 && s.nshapes == 1 && s.shapes[0].block[0] == 16 && s.shapes[0].block[1] == 16,
        "--blocks orig: the original's shape alone (%d shapes) %s", s.nshapes, err);
  /* a variant's hash (which keys its verification and its time) knows the --arg settings */
  StaticOptions so = {.workers = 1, .cache_dir = ""};
  in.regs = 32;
  space_free(&s);
  space_build(&in, &s, err, sizeof err);
  space_metrics(&s, &so);
  uint64_t h1 = s.v[0].hash;
  space_free(&s);
  const char *args[] = {"n=64"};
  in.arg_texts = args;
  in.nargs = 1;
  space_build(&in, &s, err, sizeof err);
  space_metrics(&s, &so);
  CHECK(h1 && s.v[0].hash && s.v[0].hash != h1 && !strcmp(s.v[0].key, "block=16x16 camping=off"), "--arg n=64: another hash for the same source (%s)", s.v[0].key);
  in.arg_texts = NULL;
  in.nargs = 0;
  space_free(&s);
  in.blocks = "32x8,64";
  CHECK(space_build(&in, &s, err, sizeof err) == 0 && s.nshapes == 3, "--blocks 32x8,64: those and the original's (%d shapes) %s", s.nshapes, err);
  space_free(&s);
  in.blocks = "32x";
  CHECK(space_build(&in, &s, err, sizeof err) == 2 && strstr(err, "--blocks"), "a malformed --blocks is an error: %s", err);
  space_free(&s);
}

/* ---- a host program's recorded launch ---- */
static void test_host(void) {
  FILE *saved = diag_out;
  diag_out = fopen("/dev/null", "w");
  SearchInput in = {.path = "tests/host/vadd.cu", .m = machine_find("h100"), .only = "vector", .regs = 32};
  Space s;
  char err[256];
  CHECK(space_build(&in, &s, err, sizeof err) == 0, "vadd.cu (a main, no launch spec) has a space: %s", err);
  CHECK(s.host && !strcmp(s.kernel, "vadd") && s.nshapes == 1 && s.orig_grid[0] == 20 && s.orig_block[0] == 256,
        "its launch is the program's: vadd<<<20, 256>>>, the only shape");
  CHECK(strstr(s.launch_note, "launch 1 of 1 distinct") && strstr(s.launch_note, "block shape stays"), "and it says so: %s", s.launch_note);
  uint64_t fp = s.fingerprint;
  int vec = -1;
  for (int i = 0; i < s.nv; i++) if (!strcmp(s.v[i].key, "block=256x1 vector=on vector.factor=2 vector.split=1")) vec = i;
  char why[256] = "";
  /* the reshaped launch (grid 20 -> 10) is the variant's own spec: verified, not rejected */
  CHECK(vec >= 0 && variant_verify(&s, &s.v[vec], why, sizeof why), "a vector variant of the program's launch verifies: %s", why);
  space_free(&s);
  CHECK(space_build(&in, &s, err, sizeof err) == 0 && s.fingerprint == fp, "the same launch, the same fingerprint (records are reused)");
  space_free(&s);
  const char *args[] = {"3000"};
  in.prog_args = args;
  in.nprog_args = 1;
  CHECK(space_build(&in, &s, err, sizeof err) == 0 && s.orig_grid[0] == 12 && s.fingerprint != fp, "the program's arguments change its launch: grid %lld",
        (long long)s.orig_grid[0]);
  space_free(&s);
  SearchInput k = {.path = "tests/host/kernels.cu", .m = machine_find("h100"), .launch_no = 3, .regs = 32};
  CHECK(space_build(&k, &s, err, sizeof err) == 0 && !strcmp(s.kernel, "saxpy") && strstr(s.launch_note, "launch 3 of 4"), "--launch 3: saxpy: %s", err);
  space_free(&s);
  k.launch_no = 0;
  k.kernel = "histogram";
  CHECK(space_build(&k, &s, err, sizeof err) == 0 && strstr(s.launch_note, "launch 4 of 4"), "--kernel histogram: its first launch: %s", s.launch_note);
  space_free(&s);
  k.kernel = NULL;
  k.launch_no = 9;
  CHECK(space_build(&k, &s, err, sizeof err) == 2 && strstr(err, "made 4 distinct launches"), "--launch 9: %s", err);
  space_free(&s);
  SearchInput bad = {.path = "tests/host/bad/oob.cu", .m = machine_find("h100"), .regs = 32};
  CHECK(space_build(&bad, &s, err, sizeof err) == 2 && strstr(err, "did not run to its end"), "a program that faults: %s", err);
  space_free(&s);
  fclose(diag_out);
  diag_out = saved;
}

int main(void) {
  diag_out = stderr;
  test_sampling();
  test_pareto();
  test_select();
  test_front_eps();
  test_hopper_util();
  test_score_p();
  test_select_hopper();
  test_space();
  test_results();
  test_pool();
  test_records();
  test_blocks();
  test_host();
  return TEST_SUMMARY("test_search");
}
