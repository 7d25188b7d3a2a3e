/* carve: which variants to time. Ryoo's optimization carving (Ch. 5.2, 6.2): a threshold stage
 * on the first-order concern (memory-bound variants much slower in memory than the best), then
 * the Pareto front of Efficiency (eq. 5.1) x Utilization (eq. 5.2, or 6.1), or the Hopper front
 * (Efficiency x Utilization per scheduler x the estimate, docs/tune.md); the model's top k
 * by the estimate; exhaustive; random sampling (Appendix A's expected best). Only distinct valid
 * variants (status VS_OK) are candidates: duplicates of one source are timed once. */
#include "search.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void pareto_front(const double *x, const double *y, int n, bool strict, bool *keep) {
  for (int i = 0; i < n; i++) {
    keep[i] = true;
    for (int j = 0; j < n && keep[i]; j++) {
      if (j == i) continue;
      bool dominated = strict ? (x[j] >= x[i] && y[j] >= y[i] && (x[j] > x[i] || y[j] > y[i]))
                              : (x[j] > x[i] && y[j] > y[i]);
      if (dominated) keep[i] = false;
    }
  }
}

void pareto_front_eps(const double *obj, int k, int n, double eps, bool *keep) {
  for (int i = 0; i < n; i++) {
    keep[i] = true;
    const double *p = obj + (size_t)i * (size_t)k;
    for (int j = 0; j < n && keep[i]; j++) {
      if (j == i) continue;
      const double *q = obj + (size_t)j * (size_t)k;
      bool no_worse = true, better = false;
      for (int d = 0; d < k; d++) {
        if (q[d] < p[d] - eps * fabs(p[d])) no_worse = false;
        if (q[d] > p[d] + eps * fabs(p[d])) better = true;
      }
      if (no_worse && better) keep[i] = false;
    }
  }
}

/* the grid's blocks come from Efficiency (eq. 5.1: 1 / (Instr x Threads)), so a stored record
 * is enough */
double variant_hopper_util(const VariantMetrics *vm, const Machine *m) {
  double threads = vm->efficiency > 0 && vm->instr > 0 ? 1.0 / (vm->efficiency * vm->instr) : 0;
  double blocks = vm->threads > 0 ? threads / vm->threads : 0;
  return hopper_utilization(vm->instr, vm->regions, vm->long_regions, vm->threads,
                            vm->blocks_per_sm, blocks, m);
}

double score_p(double t, double random_expected, double best) {
  double span = random_expected - best;
  return span > 0 ? (random_expected - t) / span : 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* log C(a, b) */
static double log_choose(int a, int b) {
  if (b < 0 || b > a) return -INFINITY;
  return lgamma((double)a + 1) - lgamma((double)b + 1) - lgamma((double)(a - b) + 1);
}

/* App. A (A.8) for the minimum: with T ascending, P(min = T_i) = C(S-i, n-1) / C(S, n) */
double expected_min_sample(const double *t, int S, int n) {
  if (S <= 0 || n <= 0) return 0;
  if (n > S) n = S;
  double *T = xmalloc(sizeof(double) * (size_t)S);
  memcpy(T, t, sizeof(double) * (size_t)S);
  qsort(T, (size_t)S, sizeof *T, cmp_double);
  double e = 0, lc = log_choose(S, n);
  for (int i = 1; i <= S - n + 1; i++) e += exp(log_choose(S - i, n - 1) - lc) * T[i - 1];
  free(T);
  return e;
}

int sample_size_for(const double *t, int S, double fraction) {
  if (S <= 0) return 0;
  double best = t[0];
  for (int i = 1; i < S; i++)
    if (t[i] < best) best = t[i];
  for (int n = 1; n <= S; n++)
    if (best / expected_min_sample(t, S, n) >= fraction - 1e-12) return n;
  return S;
}

/* a splitmix64 step: the random strategy's draws, reproducible from --seed */
static uint64_t mix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static const Space *sort_space;
static int by_estimate(const void *a, const void *b) {
  const Variant *x = &sort_space->v[*(const int *)a], *y = &sort_space->v[*(const int *)b];
  if (x->m.est_ms != y->m.est_ms) return x->m.est_ms < y->m.est_ms ? -1 : 1;
  return *(const int *)a - *(const int *)b;
}

static void rank(const Space *s, int *idx, int n) {
  sort_space = s;
  qsort(idx, (size_t)n, sizeof *idx, by_estimate);
}

/* the trade-off stage over the nt candidates left by the threshold: Ryoo's front of Efficiency x
 * Utilization, or the Hopper front (Efficiency x hopper_utilization x 1/estimate, strict beyond
 * o->eps); why[v] gets KEPT_FRONT or KEPT_ESTIMATE for every survivor v */
static void trade_off(const Space *s, const CarveOptions *o, const int *cand, int nt,
                      Selection *sel, unsigned char *why) {
  bool *keep = xmalloc(sizeof(bool) * (size_t)(nt + 1));
  if (o->front == FRONT_HOPPER) {
    double *obj = xmalloc(sizeof(double) * 3 * (size_t)(nt + 1)),
           *two = xmalloc(sizeof(double) * 2 * (size_t)(nt + 1));
    bool *keep2 = xmalloc(sizeof(bool) * (size_t)(nt + 1));
    for (int i = 0; i < nt; i++) {
      const VariantMetrics *m = &s->v[cand[i]].m;
      obj[3 * i] = two[2 * i] = m->efficiency;
      obj[3 * i + 1] = two[2 * i + 1] = variant_hopper_util(m, s->in.m);
      obj[3 * i + 2] = m->est_ms > 0 ? 1.0 / m->est_ms : 0;
    }
    pareto_front_eps(obj, 3, nt, o->eps, keep);
    pareto_front_eps(two, 2, nt, o->eps, keep2);
    for (int i = 0; i < nt; i++) {
      if (keep2[i] && !keep[i]) sel->pruned_by_estimate++;
      if (keep[i]) why[cand[i]] = keep2[i] ? KEPT_FRONT : KEPT_ESTIMATE;
    }
    free(obj);
    free(two);
    free(keep2);
  } else {
    double *x = xmalloc(sizeof(double) * (size_t)(nt + 1)),
           *y = xmalloc(sizeof(double) * (size_t)(nt + 1));
    for (int i = 0; i < nt; i++) {
      const VariantMetrics *m = &s->v[cand[i]].m;
      x[i] = m->efficiency;
      y[i] = o->simple_util ? m->utilization_simple : m->utilization;
    }
    pareto_front(x, y, nt, o->strict, keep);
    for (int i = 0; i < nt; i++)
      if (keep[i]) why[cand[i]] = KEPT_FRONT;
    free(x);
    free(y);
  }
  for (int i = 0; i < nt; i++)
    if (keep[i]) sel->idx[sel->n++] = cand[i];
  free(keep);
}

Selection search_select(const Space *s, const CarveOptions *o) {
  Selection sel = {xmalloc(sizeof(int) * (size_t)(s->nv + 1)), 0, 0, 0, NULL, 0};
  unsigned char *why = xmalloc((size_t)(s->nv + 1));
  memset(why, 0, (size_t)(s->nv + 1));
  int *cand = xmalloc(sizeof(int) * (size_t)(s->nv + 1)), nc = 0;
  for (int i = 0; i < s->nv; i++)
    if (s->v[i].status == VS_OK) cand[nc++] = i;
  sel.candidates = nc;
  if (o->strategy == STRAT_EXHAUSTIVE) {
    memcpy(sel.idx, cand, sizeof(int) * (size_t)nc);
    sel.n = sel.after_threshold = nc;
  } else if (o->strategy == STRAT_MODEL) {
    rank(s, cand, nc);
    int k = o->budget > 0 ? o->budget : 5;
    sel.n = k < nc ? k : nc;
    memcpy(sel.idx, cand, sizeof(int) * (size_t)sel.n);
    sel.after_threshold = nc;
  } else if (o->strategy == STRAT_RANDOM) {
    int k = o->budget > 0 ? o->budget : 10;
    if (k > nc) k = nc;
    uint64_t st = o->seed ? o->seed : 1;
    for (int i = 0; i < k; i++) { /* a partial Fisher-Yates shuffle: without replacement */
      int j = i + (int)(mix(&st) % (uint64_t)(nc - i));
      int t = cand[i];
      cand[i] = cand[j];
      cand[j] = t;
    }
    sel.n = k;
    memcpy(sel.idx, cand, sizeof(int) * (size_t)k);
    sel.after_threshold = nc;
  } else {
    /* threshold: drop memory-bound variants far slower in memory than the best */
    double best_mem = INFINITY;
    for (int i = 0; i < nc; i++)
      if (s->v[cand[i]].m.mem_ms < best_mem) best_mem = s->v[cand[i]].m.mem_ms;
    int nt = 0;
    for (int i = 0; i < nc; i++) {
      const VariantMetrics *m = &s->v[cand[i]].m;
      if (o->threshold > 0 && m->mem_bound && m->mem_ms > o->threshold * best_mem) continue;
      cand[nt++] = cand[i];
    }
    sel.after_threshold = nt;
    trade_off(s, o, cand, nt, &sel, why);
  }
  rank(s, sel.idx, sel.n);
  sel.kept = xmalloc((size_t)(sel.n + 1));
  for (int i = 0; i < sel.n; i++) sel.kept[i] = why[sel.idx[i]];
  free(why);
  free(cand);
  return sel;
}

void selection_free(Selection *sel) {
  free(sel->idx);
  free(sel->kept);
  sel->idx = NULL;
  sel->kept = NULL;
  sel->n = 0;
}
