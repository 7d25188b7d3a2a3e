/* replay: the strategies judged offline against a stored exhaustive ground truth. A results file
 * (carve tune --strategy exhaustive --results R) holds every point's static record and every
 * distinct valid variant's time; from it alone, without the kernel, a compiler or a GPU, carving
 * (the Hopper front and Ryoo's fronts), the model's top k and random search are each given the
 * variants they would have timed, and scored at equal budgets by Kernel Tuner's normalized score
 * P = (E[random best of n] - strategy's best) / (E[random best of n] - optimum) (0: random search,
 * 1: the optimum; Appendix A's expectation, without replacement, over the verified times). The
 * static records are the ones stored: recompute them with this carve first where they are stale
 * (docs/tune.md, "Replay"). */
#include "../json.h"
#include "search.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the value of "key": "..." in a record (escapes kept as written), or false */
static bool record_str(const char *line, const char *key, char *out, size_t len) {
  const char *p = strstr(line, fmt("\"%s\": \"", key));
  if (!p) return false;
  p += strlen(key) + 5;
  size_t n = 0;
  for (; *p && *p != '"' && n + 1 < len; p++) {
    if (*p == '\\' && p[1]) p++;
    out[n++] = *p;
  }
  out[n] = 0;
  return *p == '"';
}

/* the space of the static records of r (the first record of each key, in the order of "i"):
 * 0, or 2 with why (no static record; records of several spaces) */
static int replay_space(const Results *r, const Machine *m, Space *s, char *space0, char *why,
                        size_t whylen) {
  memset(s, 0, sizeof *s);
  s->in.m = m;
  s->v = xmalloc(sizeof(Variant) * (size_t)(r->nlines + 1));
  int *order = xmalloc(sizeof(int) * (size_t)(r->nlines + 1));
  space0[0] = 0;
  for (int i = 0; i < r->nlines; i++) {
    const char *line = r->lines[i];
    char space[32], key[256];
    Variant v;
    memset(&v, 0, sizeof v);
    if (!record_str(line, "space", space, sizeof space) ||
        !record_str(line, "key", key, sizeof key) || !variant_from_record(&v, line))
      continue;
    if (!space0[0]) snprintf(space0, 32, "%s", space);
    else if (strcmp(space, space0)) {
      snprintf(why, whylen, "static records of more than one space (%s, %s): replay takes one",
               space0, space);
      goto fail;
    }
    bool seen = false;
    for (int j = 0; j < s->nv && !seen; j++) seen = !strcmp(s->v[j].key, key);
    if (seen) continue;
    snprintf(v.key, sizeof v.key, "%s", key);
    double x;
    order[s->nv] = json_number(line, "i", &x) ? (int)x : s->nv;
    s->v[s->nv++] = v;
  }
  if (!s->nv) {
    snprintf(why, whylen, "no static records");
    goto fail;
  }
  /* the space's order (insertion sort by "i": a few hundred points) */
  for (int i = 1; i < s->nv; i++)
    for (int j = i; j > 0 && order[j - 1] > order[j]; j--) {
      Variant t = s->v[j];
      s->v[j] = s->v[j - 1];
      s->v[j - 1] = t;
      int o = order[j];
      order[j] = order[j - 1];
      order[j - 1] = o;
    }
  /* duplicates of one source, as static.c marks them */
  for (int i = 0; i < s->nv; i++) {
    Variant *v = &s->v[i];
    if (v->status != VS_OK) continue;
    for (int j = 0; j < i; j++)
      if (s->v[j].status == VS_OK && s->v[j].hash == v->hash) {
        v->status = VS_DUPLICATE;
        v->dup_of = j;
        break;
      }
  }
  free(order);
  return 0;
fail:
  free(order);
  free(s->v);
  s->v = NULL;
  return 2;
}

/* one strategy's outcome against the ground truth */
typedef struct Outcome {
  const char *name;
  int n;    /* variants it times */
  int best; /* variant index of its fastest verified one, -1 */
  double best_ms, random_ms, p;
} Outcome;

static const TimeRecord *ok_time(const Results *r, const Variant *v) {
  const TimeRecord *t = results_time(r, v->hash);
  return t && !strcmp(t->status, "ok") ? t : NULL;
}

static Outcome judge(const Space *s, const Results *r, const char *name, const Selection *sel,
                     const double *times, int nt, double opt) {
  Outcome o = {name, sel->n, -1, 0, 0, 0};
  for (int k = 0; k < sel->n; k++) {
    const TimeRecord *t = ok_time(r, &s->v[sel->idx[k]]);
    if (t && (o.best < 0 || t->median_ms < o.best_ms)) {
      o.best = sel->idx[k];
      o.best_ms = t->median_ms;
    }
  }
  o.random_ms = expected_min_sample(times, nt, sel->n);
  o.p = o.best >= 0 ? score_p(o.best_ms, o.random_ms, opt) : -INFINITY;
  return o;
}

/* the model's top n: the first n of the estimate's ranking */
static Selection top(const Space *s, int n) {
  CarveOptions co = {.strategy = STRAT_MODEL, .budget = n};
  return search_select(s, &co);
}

int search_replay(const char *path, const ReplayOptions *ro) {
  size_t len = 0;
  char *text = read_file(path, &len);
  if (!text) {
    fprintf(stderr, "carve tune: --replay: cannot read %s\n", path);
    return 2;
  }
  free(text);
  Results r;
  char why[512];
  if (!results_open_stored(&r, path, why, sizeof why)) {
    fprintf(stderr, "carve tune: --replay: %s\n", why);
    return 2;
  }
  Space s;
  char space[32];
  if (replay_space(&r, ro->m, &s, space, why, sizeof why)) {
    fprintf(stderr, "carve tune: --replay %s: %s\n", path, why);
    results_close(&r);
    return 2;
  }
  /* the ground truth: every distinct valid variant has a time record (a failed verification
   * counts as timed, as in the tune's summary); the times of the verified ones */
  int valid = space_count(&s, VS_OK), missing = 0, nt = 0, opt_i = -1;
  double *times = xmalloc(sizeof(double) * (size_t)(s.nv + 1)), opt = 0;
  for (int i = 0; i < s.nv; i++) {
    if (s.v[i].status != VS_OK) continue;
    if (!results_time(&r, s.v[i].hash)) {
      missing++;
      continue;
    }
    const TimeRecord *t = ok_time(&r, &s.v[i]);
    if (!t) continue;
    times[nt++] = t->median_ms;
    if (opt_i < 0 || t->median_ms < opt) {
      opt_i = i;
      opt = t->median_ms;
    }
  }
  if (missing || !nt) {
    fprintf(
      stderr,
      "carve tune: --replay %s: not a ground truth: %d of %d distinct valid variants have no time record\n",
      path, missing, valid);
    free(times);
    free(s.v);
    results_close(&r);
    return 3;
  }
  /* the strategies: carving's fronts, then the model's top k at the default budget and at carving's */
  CarveOptions hop = {
    .strategy = STRAT_CARVING, .front = FRONT_HOPPER, .threshold = 1.25, .eps = ro->eps};
  CarveOptions ry = {.strategy = STRAT_CARVING, .front = FRONT_RYOO, .threshold = 1.25};
  CarveOptions st = ry, si = ry;
  st.strict = true;
  si.simple_util = true;
  Selection sh = search_select(&s, &hop), sr = search_select(&s, &ry), ss = search_select(&s, &st),
            su = search_select(&s, &si);
  int k = ro->budget > 0 ? ro->budget : 5;
  Selection mk = top(&s, k), mn = top(&s, sh.n);
  Outcome out[6] = {judge(&s, &r, "carving (Hopper front)", &sh, times, nt, opt),
                    judge(&s, &r, "carving (Ryoo, ties kept)", &sr, times, nt, opt),
                    judge(&s, &r, "carving (Ryoo, strict)", &ss, times, nt, opt),
                    judge(&s, &r, "carving (Ryoo, eq. 6.1)", &su, times, nt, opt),
                    judge(&s, &r, fmt("model top %d", k), &mk, times, nt, opt),
                    judge(&s, &r, fmt("model top %d (carving's n)", sh.n), &mn, times, nt, opt)};
  int nout = 6;
  if (ro->json) {
    printf(
      "{\"file\": %s, \"space\": \"%s\", \"points\": %d, \"constrained\": %d, \"duplicates\": %d, \"valid\": %d, \"verified\": %d, "
      "\"optimum\": {\"key\": \"%s\", \"ms\": %.9g}, \"eps\": %g, \"strategies\": [",
      json_quoted(path), space, s.nv, space_count(&s, VS_CONSTRAINT), space_count(&s, VS_DUPLICATE),
      valid, nt, s.v[opt_i].key, opt, ro->eps);
    for (int i = 0; i < nout; i++) {
      Outcome *o = &out[i];
      printf(
        "%s{\"name\": \"%s\", \"timed\": %d, \"never_timed_points\": %.4f, \"never_timed_valid\": %.4f, \"best_key\": \"%s\", \"best_ms\": %.9g, "
        "\"best_vs_optimum\": %.4f, \"random_ms\": %.9g, \"random_vs_optimum\": %.4f, \"p\": %.4f}",
        i ? ", " : "", o->name, o->n, 1 - (double)o->n / s.nv, 1 - (double)o->n / valid,
        o->best >= 0 ? s.v[o->best].key : "", o->best_ms, o->best >= 0 ? opt / o->best_ms : 0,
        o->random_ms, opt / o->random_ms, o->best >= 0 ? o->p : 0);
    }
    printf("], \"after_threshold\": %d, \"pruned_by_estimate\": %d, \"survivors\": [",
           sh.after_threshold, sh.pruned_by_estimate);
    for (int i = 0; i < sh.n; i++) {
      const Variant *v = &s.v[sh.idx[i]];
      const TimeRecord *t = results_time(&r, v->hash);
      printf(
        "%s{\"key\": \"%s\", \"kept_by\": \"%s\", \"est_ms\": %.6g, \"utilization_hopper\": %.6g, \"time_ms\": %.9g, \"status\": \"%s\"}",
        i ? ", " : "", v->key, sh.kept[i] == KEPT_ESTIMATE ? "estimate" : "front", v->m.est_ms,
        variant_hopper_util(&v->m, s.in.m), t ? t->median_ms : 0, t ? t->status : "");
    }
    printf("]}\n");
  } else {
    printf(
      "%s: space %s on %s: %d points; %d violate a constraint, %d duplicates; %d distinct valid, %d verified and timed\n",
      path, space, s.in.m->name, s.nv, space_count(&s, VS_CONSTRAINT),
      space_count(&s, VS_DUPLICATE), valid, nt);
    printf("  optimum: %s, %.4f ms\n", s.v[opt_i].key, opt);
    printf("  %-32s %5s %9s %9s %9s %12s %9s  %s\n", "strategy", "timed", "never(pt)", "never(ok)",
           "best/opt", "random E ms", "P", "its best");
    for (int i = 0; i < nout; i++) {
      Outcome *o = &out[i];
      printf("  %-32s %5d %8.1f%% %8.1f%% %8.1f%% %12.4f %9.3f  %s\n", o->name, o->n,
             100 * (1 - (double)o->n / s.nv), 100 * (1 - (double)o->n / valid),
             o->best >= 0 ? 100 * opt / o->best_ms : 0, o->random_ms, o->best >= 0 ? o->p : 0,
             o->best >= 0 ? s.v[o->best].key : "(none verified)");
    }
    printf(
      "  Hopper front (eps %g): threshold carving left %d; the estimate pruned %d points of the Efficiency x Utilization front\n",
      ro->eps, sh.after_threshold, sh.pruned_by_estimate);
    printf("  %-4s %-60s %-9s %10s %10s %10s\n", "rank", "survivor", "kept by", "est ms", "util(H)",
           "time ms");
    for (int i = 0; i < sh.n; i++) {
      const Variant *v = &s.v[sh.idx[i]];
      const TimeRecord *t = results_time(&r, v->hash);
      printf("  %-4d %-60s %-9s %10.4f %10.4f %10s\n", i + 1, v->key,
             sh.kept[i] == KEPT_ESTIMATE ? "estimate" : "E x U(H)", v->m.est_ms,
             variant_hopper_util(&v->m, s.in.m),
             !t                         ? "-"
             : !strcmp(t->status, "ok") ? fmt("%.4f", t->median_ms)
                                        : t->status);
    }
  }
  selection_free(&sh);
  selection_free(&sr);
  selection_free(&ss);
  selection_free(&su);
  selection_free(&mk);
  selection_free(&mn);
  free(times);
  free(s.v);
  results_close(&r);
  return 0;
}
