/* check: a variant is verified against the interpreter before its time counts, in two parts:
 *   its launch shape: the original and the relaunched source run at the user's size; the threads
 *     of 8 sampled blocks of the new shape (run in the original's blocks that hold them) must
 *     write the same elements with the same values (once per shape);
 *   its passes: opt's verify_variant on the built variant (every pass applied) against the
 *     shape's program at a reduced (64), a ragged (61) and the full size (sampled blocks), the
 *     optimizer's own standard, once for the whole variant rather than after each pass.
 * Both run in worker processes (pool.c), a variant per item; each verdict is a record in the
 * results file, so a resumed tune verifies nothing twice. The original's side of the passes'
 * check (its loads and runs at the three sizes) is the same for every variant of a shape: a
 * VerifyCache keeps it, warmed before the workers fork and grown by each for its later items. */
#include "search.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int search_prepare(Space *s, Program *p, Launch *L) {
  ProgramScope sc = program_enter(p);
  LaunchOverrides ov;
  search_overrides(s, p, &ov); /* checked when the space was built */
  memset(L, 0, sizeof *L);
  int rc = launch_prepare(L, p, find_kernel(p, s->kernel), &ov);
  program_leave(sc);
  return rc;
}

/* the threads of sampled boxes [lo, hi) (global thread coordinates), and what they write */
typedef struct {
  const Launch *L;
  int64_t (*box)[2][3];
  int nbox;
  Written w;
} Cover;

static bool in_boxes(const Cover *c, const int64_t g[3]) {
  for (int k = 0; k < c->nbox; k++) {
    bool in = true;
    for (int d = 0; d < 3 && in; d++) in = g[d] >= c->box[k][0][d] && g[d] < c->box[k][1][d];
    if (in) return true;
  }
  return false;
}

/* blocks with a thread in a box (the hooks' context is the Written, first in Cover) */
static bool cover_want(void *ctx, int64_t b) {
  const Cover *c = ((const Written *)ctx)->keep_ctx;
  const Launch *L = c->L;
  int64_t id[3] = {b % L->grid[0], b / L->grid[0] % L->grid[1], b / (L->grid[0] * L->grid[1])};
  for (int k = 0; k < c->nbox; k++) {
    bool meet = true;
    for (int d = 0; d < 3 && meet; d++)
      meet = id[d] * L->block[d] < c->box[k][1][d] && (id[d] + 1) * L->block[d] > c->box[k][0][d];
    if (meet) return true;
  }
  return false;
}

/* a store counts when its thread lies inside a box */
static bool cover_keep(void *ctx, int64_t blk, int t) {
  const Cover *c = ctx;
  const Launch *L = c->L;
  int64_t id[3] = {blk % L->grid[0], blk / L->grid[0] % L->grid[1],
                   blk / (L->grid[0] * L->grid[1])};
  int64_t g[3] = {id[0] * L->block[0] + t % L->block[0],
                  id[1] * L->block[1] + t / L->block[0] % L->block[1],
                  id[2] * L->block[2] + t / (L->block[0] * L->block[1])};
  return in_boxes(c, g);
}

static Hooks cover_hooks(Cover *c, const Launch *L) {
  c->L = L;
  written_init(&c->w, L);
  c->w.keep = cover_keep;
  c->w.keep_ctx = c;
  Hooks h = written_hooks(&c->w);
  h.want_block = cover_want;
  return h;
}

/* two launches' outputs: the same elements written by the boxes' threads, with equal values */
static bool cover_compare(Space *s, const Cover *ca, const Cover *cb, char *why, size_t len) {
  LaunchSpec *spec = find_spec(s->orig, s->kernel);
  double rel = spec ? spec->rel_tol : 0, abs_tol = spec ? spec->abs_tol : 0;
  int64_t compared = 0;
  for (int i = 1; i < cb->L->nbufs; i++) {
    Buffer *x = &ca->L->bufs[i], *y = &cb->L->bufs[i];
    if (!y->out || ca->w.atomic[i] || cb->w.atomic[i]) continue;
    Type *t = y->elem_ty->kind == TY_STRUCT ? y->elem_ty->members->ty : y->elem_ty;
    size_t cs = (size_t)t->size, ne = cs ? y->bytes / cs : 0;
    for (size_t e = 0; e < ne; e++) {
      bool wa = ca->w.bytes[i][e * cs], wb = cb->w.bytes[i][e * cs];
      if (wa != wb) {
        snprintf(why, len, "%s[%zu] is written by the same threads %s the original's launch only",
                 y->name, e, wa ? "in" : "outside");
        return false;
      }
      if (!wb) continue;
      compared++;
      const unsigned char *p = x->data + e * cs, *q = y->data + e * cs;
      bool same;
      double u = 0, v = 0;
      if (t->kind == TY_FLOAT) {
        float f, g;
        memcpy(&f, p, 4);
        memcpy(&g, q, 4);
        u = f;
        v = g;
      } else if (t->kind == TY_DOUBLE) {
        memcpy(&u, p, 8);
        memcpy(&v, q, 8);
      }
      if (is_flonum(t))
        same =
          (isnan(u) && isnan(v)) || u == v || fabs(u - v) <= abs_tol + rel * fmax(fabs(u), fabs(v));
      else same = !memcmp(p, q, cs);
      if (!same) {
        snprintf(why, len, "%s[%zu]: original %.9g, with this block %.9g", y->name, e, u, v);
        return false;
      }
    }
  }
  if (!compared) {
    snprintf(why, len, "the sampled threads wrote no output");
    return false;
  }
  return true;
}

/* the shape against the original at the user's size: the threads of sampled blocks of the
 * shape, run in both launches (the original's blocks that hold them), write the same elements
 * with the same values */
static bool shape_check(Space *s, LaunchShape *sh, char *why, size_t len) {
  Launch a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  Cover ca = {0}, cb = {0};
  bool ok = false;
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  int errs = diag_errors;
  enum { SAMPLES = 8 };
  int64_t box[SAMPLES][2][3];
  int nb = 0;
  if (search_prepare(s, s->orig, &a) || search_prepare(s, sh->p, &b)) {
    snprintf(why, len, "the launch cannot be prepared");
    goto out;
  }
  int64_t total = b.grid[0] * b.grid[1] * b.grid[2];
  int64_t pick[SAMPLES];
  int np = launch_sample_blocks(total, SAMPLES, pick);
  for (int i = 0; i < np; i++) {
    int64_t l = pick[i];
    int64_t id[3] = {l % b.grid[0], l / b.grid[0] % b.grid[1], l / (b.grid[0] * b.grid[1])};
    for (int d = 0; d < 3; d++) {
      box[nb][0][d] = id[d] * b.block[d];
      box[nb][1][d] = (id[d] + 1) * b.block[d];
    }
    nb++;
  }
  ca.box = cb.box = box;
  ca.nbox = cb.nbox = nb;
  Hooks ha = cover_hooks(&ca, &a), hb = cover_hooks(&cb, &b);
  RunOptions roa = {.hooks = &ha}, rob = {.hooks = &hb};
  RunStats st;
  if (interp_run(&a, &roa, &st)) {
    snprintf(why, len, "the original faults");
    goto out;
  }
  if (interp_run(&b, &rob, &st)) {
    snprintf(why, len, "the kernel faults with this block");
    goto out;
  }
  ok = cover_compare(s, &ca, &cb, why, len);
out:
  diag_out = saved;
  diag_errors = errs;
  if (null) fclose(null);
  if (ca.w.L) written_free(&ca.w);
  if (cb.w.L) written_free(&cb.w);
  launch_free(&a);
  launch_free(&b);
  return ok;
}

/* the first size that failed, or why none ran */
static void verify_why(const VerifyResult *r, char *why, size_t len) {
  for (int k = 0; k < r->nsizes; k++)
    if (r->size[k].ran && !r->size[k].skipped && !r->size[k].ok) {
      snprintf(why, len, "verification: %s size (%s): %.180s", r->size[k].label, r->size[k].defines,
               r->size[k].detail);
      return;
    }
  snprintf(why, len, "verification: no size could run (%.200s)",
           r->nsizes ? r->size[r->nsizes - 1].detail : "");
}

static bool shape_verified(Space *s, LaunchShape *sh) {
  if (!sh->verified) {
    char w[200] = "";
    sh->verified = shape_check(s, sh, w, sizeof w) ? 1 : -1;
    if (sh->verified < 0)
      snprintf(sh->why, sizeof sh->why, "block %lldx%lld: %s", (long long)sh->block[0],
               (long long)sh->block[1], w);
  }
  return sh->verified > 0;
}

bool variant_verify(Space *s, const Variant *v, char *why, size_t whylen) {
  LaunchShape *sh = &s->shapes[v->shape];
  if (!shape_verified(s, sh)) {
    snprintf(why, whylen, "launch shape: %.220s", sh->why);
    return false;
  }
  Built b;
  if (!variant_build(s, v, false, &b, why, whylen)) return false;
  bool ok = true;
  if (b.plan.result != b.base) { /* a pass applied: the optimizer's verification of the whole */
    FILE *saved = diag_out, *null = fopen("/dev/null", "w");
    diag_out = null;
    int errs = diag_errors;
    VerifyResult vr;
    b.oi.cache = s->vcache;
    ok = verify_variant(&b.oi, b.base, b.plan.result, b.plan.steps, b.plan.nsteps, b.plan.permuted,
                        &vr);
    diag_out = saved;
    diag_errors = errs;
    if (null) fclose(null);
    if (!ok) verify_why(&vr, why, whylen);
  }
  built_free(&b);
  return ok;
}

/* ---- in worker processes: the shapes first (each once), then the variants ---- */
typedef struct {
  Results *r;
  int *verdict;
  const int *idx;
  int n;
  bool progress;
  int done, total;
  VerifyCacheStats base; /* the cache's counts when the workers were forked */
  VerifyCacheStats sum;  /* the workers' own counts, added up */
} Verifying;

static char *shape_work(Space *s, int i, void *ctx) {
  LaunchShape *sh = &s->shapes[i];
  return shape_verified(s, sh) ? "ok" : fmt("no %s", sh->why);
}

static void shape_take(Space *s, int i, const char *line, void *ctx) {
  LaunchShape *sh = &s->shapes[i];
  sh->verified = !strcmp(line, "ok") ? 1 : -1;
  if (sh->verified < 0)
    snprintf(sh->why, sizeof sh->why, "%s", !strncmp(line, "no ", 3) ? line + 3 : line);
}

static void shape_died(Space *s, int i, const char *why, void *ctx) {
  s->shapes[i].verified = -1;
  snprintf(s->shapes[i].why, sizeof s->shapes[i].why, "its check: %s", why);
}

static char *variant_work(Space *s, int i, void *ctx) {
  char why[256] = "";
  double t0 = now_s();
  bool ok = variant_verify(s, &s->v[i], why, sizeof why);
  return verify_record(&s->v[i], ok, why, now_s() - t0);
}

static void variant_take(Space *s, int i, const char *line, void *ctx) {
  Verifying *vf = ctx;
  results_append(vf->r, line);
  VerifyRecord vr;
  bool ok = results_verify(vf->r, s->v[i].hash, &vr) && vr.ok;
  for (int k = 0; k < vf->n; k++)
    if (s->v[vf->idx[k]].hash == s->v[i].hash) vf->verdict[k] = ok ? 1 : -1;
  vf->done++;
  if (vf->progress)
    fprintf(stderr, "  verified %d/%d %-44s %s %s\n", vf->done, vf->total, s->v[i].key,
            ok ? "ok" : "REJECTED", ok ? "" : vr.why);
}

static void variant_died(Space *s, int i, const char *why, void *ctx) {
  variant_take(s, i, verify_record(&s->v[i], false, fmt("verification: %s", why), 0), ctx);
}

/* a worker's reuse of the original's runs, past what it inherited: "loads hits runs hits" */
static char *cache_finish(Space *s, void *ctx) {
  Verifying *vf = ctx;
  VerifyCacheStats st = verify_cache_stats(s->vcache);
  return fmt("%lld %lld %lld %lld", (long long)(st.loads - vf->base.loads),
             (long long)(st.load_hits - vf->base.load_hits), (long long)(st.runs - vf->base.runs),
             (long long)(st.run_hits - vf->base.run_hits));
}

static void cache_finished(Space *s, const char *line, void *ctx) {
  Verifying *vf = ctx;
  long long l, lh, ru, rh;
  if (sscanf(line, "%lld %lld %lld %lld", &l, &lh, &ru, &rh) != 4) return;
  vf->sum.loads += l;
  vf->sum.load_hits += lh;
  vf->sum.runs += ru;
  vf->sum.run_hits += rh;
}

static bool any_pass(const Space *s, const Variant *v) {
  for (int d = 0; d < s->ndims; d++) {
    const SearchDim *D = &s->dims[d];
    if (D->launch < 0 && D->param < 0 && v->choice[d] >= 0 && D->values[v->choice[d]]) return true;
  }
  return false;
}

/* with several workers, the original's runs that the variants of a shape will share are made
 * once, here, before the workers are forked (each would make them for itself) */
static void warm_shapes(Space *s, const int *todo, int nt, double deadline) {
  int count[SEARCH_MAX_SHAPES] = {0};
  for (int k = 0; k < nt; k++)
    if (any_pass(s, &s->v[todo[k]])) count[s->v[todo[k]].shape]++;
  for (int i = 0; i < s->nshapes; i++) {
    LaunchShape *sh = &s->shapes[i];
    if (count[i] < 2 || !sh->p || sh->verified < 0 || (deadline > 0 && search_now() > deadline))
      continue;
    OptInput oi = {.path = sh->path,
                   .pp = s->in.pp,
                   .kernel = s->kernel,
                   .arg_texts = s->in.arg_texts,
                   .nargs = s->in.nargs,
                   .m = s->in.m,
                   .cache = s->vcache};
    verify_warm(&oi, sh->p);
  }
}

void verify_variants(Space *s, const int *idx, int n, Results *r, int workers, bool progress,
                     double deadline, int *verdict) {
  int *todo = xmalloc(sizeof(int) * (size_t)(n + 1)), nt = 0, shapes[SEARCH_MAX_SHAPES], ns = 0;
  bool want[SEARCH_MAX_SHAPES] = {false};
  for (int k = 0; k < n; k++) {
    const Variant *v = &s->v[idx[k]];
    VerifyRecord vr;
    verdict[k] = 0;
    if (results_verify(r, v->hash, &vr)) {
      verdict[k] = vr.ok ? 1 : -1;
      continue;
    }
    bool seen = false; /* one source is verified once */
    for (int j = 0; j < nt && !seen; j++) seen = s->v[todo[j]].hash == v->hash;
    if (!seen) todo[nt++] = idx[k];
    want[v->shape] = true;
  }
  for (int sh = 0; sh < s->nshapes; sh++)
    if (want[sh] && !s->shapes[sh].verified) shapes[ns++] = sh;
  Pool ps = {workers, shape_work, shape_take, shape_died, NULL, deadline};
  pool_run(s, &ps, shapes, ns);
  if (progress && nt < n)
    fprintf(stderr, "  %d of %d variants already verified (results file)\n", n - nt, n);
  /* the originals' runs reused between variants (bounded: VerifyCache), in each worker */
  s->vcache = verify_cache_new(0);
  bool forked = pool_workers(workers) > 1 && nt > 1;
  if (forked) warm_shapes(s, todo, nt, deadline);
  Verifying vf = {r, verdict, idx, n, progress, 0, nt, verify_cache_stats(s->vcache), {0}};
  Pool pv = {workers, variant_work, variant_take, variant_died, &vf, deadline};
  PoolEnd pe = {cache_finish, cache_finished};
  int done = pool_run_ended(s, &pv, &pe, todo, nt);
  if (done < nt && progress)
    fprintf(stderr, "  time budget spent: %d variants not verified yet (run again: it resumes)\n",
            nt - done);
  if (progress && nt) {
    VerifyCacheStats w = vf.base; /* made before the workers started (warm), and by them */
    fprintf(
      stderr,
      "  the original's runs: %lld made, %lld reused; its sources at the reduced and ragged sizes: %lld loaded, %lld reused%s\n",
      (long long)(w.runs + vf.sum.runs), (long long)(w.run_hits + vf.sum.run_hits),
      (long long)(w.loads + vf.sum.loads), (long long)(w.load_hits + vf.sum.load_hits),
      forked ? fmt(" (%lld runs before the workers started)", (long long)w.runs) : "");
  }
  verify_cache_free(s->vcache);
  s->vcache = NULL;
  free(todo);
}
