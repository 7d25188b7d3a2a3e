/* static: every variant's constraints and metrics without running it. A variant is built with
 * optimize() (no verification: that is for the ones to be timed), compiled by NVRTC for its
 * resources and counted by the interpreter on sampled blocks (estimate_kernel). Workers are
 * processes, one per core by default (fork: each inherits the loaded programs and loads NVRTC
 * itself: pool.c); the parent alone writes the results file and the cache, one record per
 * variant. A worker that dies costs the variant it was on (recorded as a constraint), not the
 * search. */
#include "search.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *cache_now; /* the cache directory of this search ("" or NULL: none) */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* what a cached record depends on besides the variant's source: the model (this carve binary,
 * hashed once) and the machine it estimates for. A cache written by an older model or for
 * another --arch is not read (the NVRTC facts in it would hold, the estimate would not). */
static uint64_t model_stamp(const Space *s) {
  return results_build() ^ search_hash(s->in.m ? s->in.m->name : "");
}

static char *cache_path(const char *dir, const Space *s, uint64_t hash) {
  if (!dir || !*dir) return NULL;
  return fmt("%s/%016llx-%016llx.json", dir, (unsigned long long)hash,
             (unsigned long long)model_stamp(s));
}

const char *search_cache_dir(const char *given) {
  if (given) return given;
  const char *env = getenv("CARVE_CACHE_DIR");
  if (env) return env;
  const char *home = getenv("HOME");
  return home ? fmt("%s/.cache/carve/tune", home) : "";
}

/* the constraint a finished estimate violates, or NULL */
static const char *resource_constraint(const Space *s, const EstimateResult *r) {
  const Machine *m = s->in.m;
  if (!r->res.known) return fmt("compile: %s", r->res.why);
  if (r->smem > m->smem_per_block_optin)
    return fmt("shared memory: %d bytes per block > %d", r->smem, m->smem_per_block_optin);
  if (r->oc.blocks_per_sm > 0) return NULL;
  switch (r->oc.limit) {
  case LIMIT_REGISTERS:
    return fmt("registers: %d per thread x %d threads do not fit in %d per SM", r->res.regs,
               r->threads, m->regs_per_sm);
  case LIMIT_SHARED: return fmt("shared memory: %d bytes per block do not fit in an SM", r->smem);
  default: return fmt("resources: no block fits on an SM (%s)", occ_limit_name(r->oc.limit));
  }
}

static void fill_metrics(Variant *v, const EstimateResult *r) {
  VariantMetrics *m = &v->m;
  m->known = true;
  m->regs = r->res.regs;
  m->smem = r->smem;
  m->threads = r->threads;
  m->blocks_per_sm = r->oc.blocks_per_sm;
  m->spills = r->res.spill_stores + r->res.spill_loads;
  m->instr = r->e.instr_per_thread;
  m->regions = r->e.regions_per_thread;
  m->long_regions = r->e.long_regions_per_thread;
  m->efficiency = r->e.efficiency;
  m->utilization = r->e.utilization;
  m->utilization_simple = r->e.utilization_simple;
  m->est_ms = r->e.total * 1e3;
  double mem = r->e.t[B_DRAM];
  if (r->e.t[B_L2] > mem) mem = r->e.t[B_L2];
  if (r->e.t[B_L1] > mem) mem = r->e.t[B_L1];
  m->mem_ms = mem * 1e3;
  m->mem_bound = r->e.bottleneck == B_DRAM || r->e.bottleneck == B_L2 || r->e.bottleneck == B_L1;
  snprintf(m->bottleneck, sizeof m->bottleneck, "%s", bottleneck_name(r->e.bottleneck));
}

static void estimate_variant(Space *s, Variant *v, Program *r) {
  ProgramScope sc = program_enter(r);
  LaunchOverrides ov;
  search_overrides(s, r, &ov); /* checked when the space was built */
  EstimateOptions eo = {.regs = s->in.regs};
  EstimateResult er;
  int rc = estimate_kernel(r, find_kernel(r, s->kernel), &ov, s->in.m, &eo, &er);
  const char *c = rc == 1 ? "runs: the variant faults in the interpreter"
                  : rc    ? "runs: the variant's launch fails in the interpreter"
                          : resource_constraint(s, &er);
  if (c) {
    v->status = VS_CONSTRAINT;
    snprintf(v->why, sizeof v->why, "%s", c);
  } else {
    v->status = VS_OK;
    fill_metrics(v, &er);
  }
  estimate_free(&er);
  program_leave(sc);
}

/* the cached metrics of the variant's source, when it has been built (hash known) */
static bool from_cache(const char *dir, const Space *s, Variant *v) {
  char *p = cache_path(dir, s, v->hash);
  size_t n;
  char *line = p ? read_file(p, &n) : NULL;
  if (!line) return false;
  Variant c = *v;
  bool ok = variant_from_record(&c, line) && c.hash == v->hash;
  free(line);
  if (!ok) return false;
  char key[256];
  snprintf(key, sizeof key, "%s", v->key);
  *v = c;
  snprintf(v->key, sizeof v->key, "%s", key);
  return true;
}

void variant_metrics(Space *s, Variant *v) {
  if (v->status != VS_PENDING) return;
  double t0 = now_s();
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  int errs = diag_errors;
  Built b;
  char why[256];
  if (!variant_build(s, v, false, &b, why, sizeof why)) {
    v->status = VS_CONSTRAINT;
    snprintf(v->why, sizeof v->why, "%s", why);
  } else {
    Buf src = {0};
    print_program(&src, b.plan.result);
    const char *ctx = fmt("%s/%s/%d", s->in.m->name, s->kernel, s->in.regs);
    if (s->launch_id) ctx = fmt("%s/%016llx", ctx, (unsigned long long)s->launch_id);
    v->hash = search_hash(src.s ? src.s : "") ^ search_hash(ctx);
    buf_free(&src);
    if (!from_cache(cache_now, s, v)) estimate_variant(s, v, b.plan.result);
    built_free(&b);
  }
  diag_out = saved;
  diag_errors = errs;
  if (null) fclose(null);
  v->metric_s = now_s() - t0;
}

static void to_cache(const char *dir, const Space *s, const Variant *v, const char *line) {
  if (!dir || !*dir || !v->hash || v->status == VS_PENDING) return;
  if (!make_dirs(dir)) return;
  char *p = cache_path(dir, s, v->hash), *tmp = fmt("%s.%d.tmp", p, (int)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) return;
  bool ok = fputs(line, f) >= 0;
  if (fclose(f) || !ok || rename(tmp, p)) remove(tmp);
}

typedef struct {
  pid_t pid;
  int fd;
  Buf in;
  int current;
  bool done;
} Worker;

static void progress_line(const StaticOptions *o, int done, int total, double t0) {
  if (!o->progress) return;
  double el = now_s() - t0, rate = el > 0 ? done / el : 0;
  fprintf(stderr, "\r  static metrics: %d/%d variants, %.1f/s, %.0f s left   ", done, total, rate,
          rate > 0 ? (total - done) / rate : 0);
  if (done == total) fputc('\n', stderr);
}

typedef struct {
  const StaticOptions *o;
  const char *dir;
  int done, total;
  double t0;
} Computing;

/* in a worker: the variant's record */
static char *metrics_work(Space *s, int i, void *ctx) {
  variant_metrics(s, &s->v[i]);
  return variant_record(s, &s->v[i]);
}

/* in the parent: into the variant, the results file and the cache */
static void metrics_take(Space *s, int i, const char *line, void *ctx) {
  Computing *c = ctx;
  Variant *v = &s->v[i];
  if (variant_from_record(v, line)) {
    if (c->o->results) results_append(c->o->results, line);
    to_cache(c->dir, s, v, line);
  }
  progress_line(c->o, ++c->done, c->total, c->t0);
}

/* a worker that died costs its variant (recorded: a resume does not try it again); one that
 * could not start costs nothing recorded */
static void metrics_died(Space *s, int i, const char *why, void *ctx) {
  Computing *c = ctx;
  Variant *v = &s->v[i];
  v->status = VS_CONSTRAINT;
  snprintf(v->why, sizeof v->why, "static analysis: %s", why);
  if (c->o->results && strstr(why, "died")) results_append(c->o->results, variant_record(s, v));
  progress_line(c->o, ++c->done, c->total, c->t0);
}

static void mark_duplicates(Space *s) {
  for (int i = 0; i < s->nv; i++) {
    Variant *v = &s->v[i];
    if (v->status != VS_OK) continue;
    for (int j = 0; j < i; j++)
      if (s->v[j].status == VS_OK && s->v[j].hash == v->hash) {
        v->status = VS_DUPLICATE;
        v->dup_of = j;
        snprintf(v->why, sizeof v->why, "the same source as %.200s", s->v[j].key);
        break;
      }
  }
}

int space_metrics(Space *s, const StaticOptions *o) {
  const char *dir = search_cache_dir(o->cache_dir);
  cache_now = dir;
  int *pend = xmalloc(sizeof(int) * (size_t)(s->nv + 1)), np = 0;
  for (int i = 0; i < s->nv; i++) {
    Variant *v = &s->v[i];
    if (v->status == VS_DUPLICATE) { v->status = VS_OK; }
    const char *rec = o->results ? results_static(o->results, s->fingerprint, v->key) : NULL;
    if (rec && v->status == VS_PENDING && variant_from_record(v, rec)) continue;
    if (v->status == VS_CONSTRAINT && o->results && !rec)
      results_append(o->results, variant_record(s, v));
    if (v->status != VS_PENDING) continue;
    if (o->ntasks > 1 && i % o->ntasks != o->task) continue;
    pend[np++] = i;
  }
  Computing c = {o, dir, 0, np, now_s()};
  Pool pl = {o->workers, metrics_work, metrics_take, metrics_died, &c, o->deadline};
  int computed = pool_run(s, &pl, pend, np);
  if (computed < np && o->progress)
    fprintf(
      stderr,
      "\n  time budget spent: %d variants have no static metrics yet (run again: it resumes)\n",
      np - computed);
  free(pend);
  mark_duplicates(s);
  return computed;
}
