/* optimize: the pass table and the driver. Passes run in Yang et al.'s order (memory passes
 * first: registers, vectors, coalescing through shared memory, unrolling, then partition
 * camping). Each step clones the current program, asks the pass whether it is legal, applies it,
 * lays the result out again (program_finish) and verifies it against the original; a step that
 * fails verification is rejected and the next pass starts from the last verified program. */
#include "opt.h"

#include "../model/estimate.h"
#include "../model/findings.h"
#include <stdlib.h>
#include <string.h>

extern const Pass pass_canon;
extern const Pass pass_parallel, pass_reduce, pass_scalar, pass_split, pass_stage, pass_tile,
  pass_vector, pass_unroll, pass_camping, pass_launch;
extern const Pass pass_stencil; /* stencil merges rows down y before vector merges along x */
extern const Pass pass_halo;    /* halo tiles a stencil's input before stencil merges its rows */
extern const Pass pass_spread;  /* spread: smaller blocks for a launch of fewer blocks than SMs */
extern const Pass pass_remap;   /* remap: x over rows transposed before passes read coalescing */
/* reduce first: it recognizes a whole kernel (an atomic per thread, a shared-memory tree) and
 * writes it anew, so it must see the statements before another pass renames or regroups them
 * (Yang's order starts with the passes that change how memory is reached, and this one changes
 * every access of the kernel); split regroups threads before stage looks at their accesses;
 * vector merges threads after stage, whose shared tiles it cannot merge; launch last (Yang's
 * Sec. 3.8: the block is sized once the kernel's code is final) */
static const Pass *const passes[] = {&pass_parallel, &pass_reduce, &pass_remap,  &pass_scalar,
                                     &pass_split,    &pass_stage,  &pass_tile,   &pass_halo,
                                     &pass_stencil,  &pass_vector, &pass_unroll, &pass_camping,
                                     &pass_spread,   &pass_launch};

const Pass *const *opt_passes(int *n) {
  *n = (int)(sizeof passes / sizeof *passes);
  return passes;
}

const Pass *opt_find_pass(const char *name) {
  if (!strcmp(name, pass_canon.name))
    return &pass_canon; /* not in the table: it runs first, unasked */
  for (size_t i = 0; i < sizeof passes / sizeof *passes; i++)
    if (!strcmp(passes[i]->name, name)) return passes[i];
  return NULL;
}

bool opt_listed(const char *list, const char *name) {
  if (!list) return false;
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == n && !strncmp(p, name, n)) return true;
    if (!e) break;
    p = e + 1;
  }
  return false;
}

/* --set PASS.PARAM=V for one pass; false with the reason when a setting is malformed */
static bool set_params(const Pass *ps, const OptOptions *o, int param[OPT_MAX_PARAMS],
                       bool given[OPT_MAX_PARAMS], char *err, size_t len) {
  for (int i = 0; i < ps->nparams; i++) {
    param[i] = ps->params[i].dflt;
    given[i] = false;
  }
  for (int s = 0; s < o->nsets; s++) {
    const char *t = o->sets[s];
    const char *dot = strchr(t, '.'), *eq = strchr(t, '=');
    if (!dot || !eq || eq < dot) {
      snprintf(err, len, "--set %s: expected PASS.PARAM=VALUE", t);
      return false;
    }
    if (strncmp(t, ps->name, (size_t)(dot - t)) || strlen(ps->name) != (size_t)(dot - t)) continue;
    int which = -1;
    for (int i = 0; i < ps->nparams; i++)
      if (strlen(ps->params[i].name) == (size_t)(eq - dot - 1) &&
          !strncmp(dot + 1, ps->params[i].name, (size_t)(eq - dot - 1)))
        which = i;
    if (which < 0) {
      snprintf(err, len, "--set %s: pass '%s' has no parameter '%.*s'", t, ps->name,
               (int)(eq - dot - 1), dot + 1);
      return false;
    }
    char *end;
    long v = strtol(eq + 1, &end, 10);
    bool allowed = *end == 0 && end != eq + 1;
    bool listed = false;
    /* the list ends at the first 0 after its first entry (0 may be a value: "off") */
    for (int i = 0; i < OPT_MAX_VALUES && (i == 0 || ps->params[which].values[i]); i++)
      if (ps->params[which].values[i] == v) listed = true;
    if (!allowed || !listed) {
      Buf b = {0};
      for (int i = 0; i < OPT_MAX_VALUES && (i == 0 || ps->params[which].values[i]); i++)
        buf_printf(&b, "%s%d", i ? ", " : "", ps->params[which].values[i]);
      snprintf(err, len, "--set %s: %s.%s takes one of %s", t, ps->name, ps->params[which].name,
               b.s ? b.s : "");
      buf_free(&b);
      return false;
    }
    param[which] = (int)v;
    given[which] = true;
  }
  return true;
}

/* a --set NAME.PARAM=V names the pass */
static bool set_for(const OptOptions *o, const char *name) {
  size_t n = strlen(name);
  for (int i = 0; i < o->nsets; i++)
    if (o->sets[i] && !strncmp(o->sets[i], name, n) && o->sets[i][n] == '.') return true;
  return false;
}

static bool check_sets(const OptOptions *o, char *err, size_t len) {
  for (int s = 0; s < o->nsets; s++) {
    const char *t = o->sets[s], *dot = strchr(t, '.');
    if (!dot || !strchr(t, '=')) {
      snprintf(err, len, "--set %s: expected PASS.PARAM=VALUE", t);
      return false;
    }
    char *name = arena_strndup(t, (size_t)(dot - t));
    if (!opt_find_pass(name)) {
      snprintf(err, len, "--set %s: no pass named '%s'", t, name);
      return false;
    }
  }
  return opt_passes_known(o->only, "--passes", err, len) &&
         opt_passes_known(o->skip, "--skip", err, len);
}

bool opt_passes_known(const char *list, const char *flag, char *err, size_t len) {
  for (const char *p = list; p && *p;) {
    const char *e = strchr(p, ',');
    char *name = arena_strndup(p, e ? (size_t)(e - p) : strlen(p));
    if (!opt_find_pass(name)) {
      snprintf(err, len, "%s: no pass named '%s'", flag, name);
      return false;
    }
    if (!e) break;
    p = e + 1;
  }
  return true;
}

/* a pass that reshapes the launch: the variant gets its own launch spec and `#pragma carve
 * launch` line, so the printed program and every later run use the new grid and block. A launch
 * from host code or flags (no spec): the variant gets a spec of the new shape and no line (the
 * output writes the launch: emit.c's wrapper, main.c's pragma), so later passes see the reshape */
static void set_launch(Program *v, const char *kernel, const int64_t grid[3],
                       const int64_t block[3]) {
  if (!find_spec(v, kernel)) {
    LaunchSpec *s = arena_alloc(sizeof *s);
    Obj *k = find_kernel(v, kernel);
    s->kernel = arena_strdup(kernel);
    s->tok = k ? k->tok : NULL;
    memcpy(s->grid, grid, sizeof s->grid);
    memcpy(s->block, block, sizeof s->block);
    s->has_grid = s->has_block = true;
    s->next = v->specs;
    v->specs = s;
    return;
  }
  LaunchSpec head = {0}, *cur = &head;
  for (LaunchSpec *s = v->specs; s; s = s->next) {
    LaunchSpec *c = arena_alloc(sizeof(LaunchSpec));
    *c = *s;
    c->next = NULL;
    if (!strcmp(s->kernel, kernel)) {
      memcpy(c->grid, grid, sizeof c->grid);
      memcpy(c->block, block, sizeof c->block);
      c->has_grid = c->has_block = true;
    }
    cur = cur->next = c;
  }
  v->specs = head.next;
  for (TopItem *it = v->items; it; it = it->next) {
    Token *pt = it->kind == TOP_PRAGMA ? it->tok->pragma_toks : NULL;
    if (!pt || !tok_equal(pt, "launch") || !tok_equal(pt->next, kernel)) continue;
    LaunchSpec *s = find_spec(v, kernel);
    char *text = fmt("launch %s grid(%lld, %lld, %lld) block(%lld, %lld, %lld)%s\n", kernel,
                     (long long)grid[0], (long long)grid[1], (long long)grid[2],
                     (long long)block[0], (long long)block[1], (long long)block[2],
                     s && s->dyn_shared ? fmt(" shared(%lld)", (long long)s->dyn_shared) : "");
    Token *t = arena_alloc(sizeof(Token));
    *t = *it->tok;
    t->pragma_toks = tokenize_string("<carve optimize>", text);
    it->tok = t;
  }
}

/* run one pass on program v (a clone, changed in place) */
static bool run_pass(const Pass *ps, Program *v, const Launch *L, const Machine *m,
                     const int *param, int mutation, PassCtx *c) {
  memset(c, 0, sizeof *c);
  c->p = v;
  c->k = find_kernel(v, L->kernel->name);
  c->L = L;
  c->m = m;
  c->mutation = mutation;
  memcpy(c->param, param, sizeof c->param);
  if (!c->k) {
    snprintf(c->why, sizeof c->why, "kernel not found");
    return false;
  }
  c->legality = ps->legal(c);
  if (c->legality != LEGAL) return false;
  ProgramScope s = program_enter(v);
  bool ok = ps->apply(c);
  if (ok && c->changes_launch) set_launch(v, L->kernel->name, c->new_grid, c->new_block);
  program_leave(s);
  if (ok) program_finish(v);
  return ok;
}

typedef struct {
  const Pass *ps;
  Program *v;
  const Launch *L;
  const Machine *m;
  const int *param;
  int mutation;
  PassCtx *c;
  bool ok;
} PassCall;
static void pass_call(void *ud) {
  PassCall *pc = ud;
  pc->ok = run_pass(pc->ps, pc->v, pc->L, pc->m, pc->param, pc->mutation, pc->c);
}

/* a pass raising an error (add_type on a malformed rewrite) costs that pass only */
static bool run_pass_protected(const Pass *ps, Program *v, const Launch *L, const Machine *m,
                               const int *param, int mutation, PassCtx *c) {
  PassCall pc = {ps, v, L, m, param, mutation, c, false};
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  int errs = diag_errors;
  if (!carve_pcall(pass_call, &pc)) {
    pc.ok = false;
    snprintf(c->why, sizeof c->why, "the rewrite did not type-check: %.400s", diag_last_msg);
  }
  diag_out = saved;
  diag_errors = errs;
  if (null) fclose(null);
  return pc.ok;
}

Program *opt_apply_steps(Program *p, const Launch *L, const Machine *m, const PlanStep *steps,
                         int nsteps, char *why, size_t whylen) {
  Program *v = program_clone(p);
  if (!v) {
    snprintf(why, whylen, "the program could not be copied");
    return NULL;
  }
  Launch grown; /* after a kept new_launch step: the launch it made (a shallow copy of L) */
  for (int i = 0; i < nsteps; i++) {
    if (!plan_step_kept(&steps[i])) continue;
    PassCtx c;
    if (!run_pass_protected(steps[i].pass, v, L, m, steps[i].param, steps[i].mutation, &c)) {
      snprintf(why, whylen, "%s: %.400s", steps[i].pass->name, c.why);
      program_free(v);
      return NULL;
    }
    if (steps[i].pass->new_launch && c.changes_launch) {
      grown = *L;
      memcpy(grown.grid, c.new_grid, sizeof grown.grid);
      memcpy(grown.block, c.new_block, sizeof grown.block);
      L = &grown;
    }
  }
  return v;
}

/* the model's time for kernel `name` of program v (-1 when it cannot say), inside v's scope;
 * flags' grid and block apply only while the launch is the original's */
static double estimate_ms(Program *v, const OptInput *in, const OptOptions *o, bool reshaped,
                          const int64_t *grid, const int64_t *block, char bottleneck[64]) {
  ProgramScope s = program_enter(v);
  LaunchOverrides ov = {0};
  ov.dyn_shared = -1;
  if (!reshaped && in->grid && parse_flag_dims(v, "--grid", in->grid, ov.grid)) ov.has_grid = true;
  if (!reshaped && in->block && parse_flag_dims(v, "--block", in->block, ov.block))
    ov.has_block = true;
  /* a reshaped launch given as its grid and block (a host program's variant has no spec of its
   * own to hold them: without this its estimate failed and counted as faster) */
  if (reshaped && grid && block) {
    memcpy(ov.grid, grid, sizeof ov.grid);
    memcpy(ov.block, block, sizeof ov.block);
    ov.has_grid = ov.has_block = true;
  }
  parse_arg_settings(v, in->arg_texts, in->nargs, &ov); /* checked when optimize() began */
  EstimateOptions eo = {.regs = o->regs, .ceilings = o->ceilings};
  EstimateResult r;
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  int errs = diag_errors;
  int rc = estimate_kernel(v, find_kernel(v, in->kernel), &ov, in->m, &eo, &r);
  diag_out = saved;
  diag_errors = errs;
  if (null) fclose(null);
  /* without NVRTC's register count the estimate ignores registers in occupancy: still the same
   * model for every variant, so comparable between them */
  double ms = rc == 0 ? r.e.total * 1e3 : -1;
  snprintf(bottleneck, 64, "%s", ms >= 0 ? bottleneck_name(r.e.bottleneck) : "");
  estimate_free(&r);
  program_leave(s);
  return ms;
}

/* one candidate's estimate: the pass applied to a clone with these parameters; -1 not legal */
static double candidate_ms(const Pass *ps, Program *cur, const Launch *L, const OptInput *in,
                           const OptOptions *o, const int *param) {
  double ms = -1;
  Program *v = program_clone(cur);
  PassCtx c;
  if (v && run_pass_protected(ps, v, L, in->m, param, 0, &c)) {
    char bn[64];
    ms = estimate_ms(v, in, o, true, c.changes_launch ? c.new_grid : NULL,
                     c.changes_launch ? c.new_block : NULL, bn);
  }
  program_free(v);
  return ms;
}

/* the model picks the first parameter (or the first two, jointly; then, with model_params 3,
 * the third with those fixed: a coordinate step, not the whole product): each allowed value
 * applied to a clone and estimated; the fastest (the earlier candidate on a tie) becomes the step's */
static void choose_value(const Pass *ps, Program *cur, const Launch *L, const OptInput *in,
                         const OptOptions *o, PlanStep *st, const bool *given) {
  const OptParamDef *d = &ps->params[0], *d2 = &ps->params[1];
  bool two = ps->model_params >= 2 && ps->nparams >= 2 && !given[1];
  st->ncand_params = two ? 2 : 1;
  double best = -1;
  int first = st->param[0], second = st->param[1];
  for (int i = 0; i < OPT_MAX_VALUES && (i == 0 || d->values[i]); i++)
    for (int j = 0; j < (two ? OPT_MAX_VALUES : 1) && (j == 0 || d2->values[j]); j++) {
      int param[OPT_MAX_PARAMS];
      memcpy(param, st->param, sizeof param);
      param[0] = d->values[i];
      if (two) param[1] = d2->values[j];
      if (st->ncand == OPT_MAX_CANDS) return;
      st->cand_value[st->ncand] = param[0];
      st->cand_value2[st->ncand] = param[1];
      double ms = candidate_ms(ps, cur, L, in, o, param);
      st->cand_ms[st->ncand++] = ms;
      if (ms > 0 && (best < 0 || ms < best)) {
        best = ms;
        first = param[0];
        second = param[1];
      }
    }
  st->param[0] = first;
  st->param[1] = second;
  if (!two || ps->model_params < 3 || ps->nparams < 3 || given[2] || best < 0) return;
  const OptParamDef *d3 = &ps->params[2];
  int third = st->param[2];
  for (int i = 0; i < OPT_MAX_VALUES && (i == 0 || d3->values[i]); i++) {
    int param[OPT_MAX_PARAMS];
    memcpy(param, st->param, sizeof param);
    param[2] = d3->values[i];
    double ms = param[2] == third
                  ? best
                  : candidate_ms(ps, cur, L, in, o, param); /* the pair's own estimate */
    st->cand_value3[st->ncand3] = param[2];
    st->cand_ms3[st->ncand3++] = ms;
    if (ms > 0 && ms < best) {
      best = ms;
      st->param[2] = param[2];
    }
  }
}

/* the analyzer's findings on the original (sampled run, as `carve analyze`): the plan names the
 * one behind each pass (its rule and line); NULL when the analysis cannot run */
static Findings *original_findings(Launch *L, const Machine *m) {
  Analysis a;
  AnalyzeOptions ao = {0};
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  int errs = diag_errors;
  int rc = analyze(&a, L, m, &ao);
  Findings *fs = NULL;
  if (rc == 0) {
    fs = xmalloc(sizeof *fs);
    *fs = findings_collect(&a, NULL);
  }
  if (rc != 2) analysis_free(&a);
  diag_out = saved;
  diag_errors = errs;
  if (null) fclose(null);
  return fs;
}

/* the finding of the pass's rule nearest its site (the first of that rule if the site is unknown) */
static void motivation(const Findings *fs, const Pass *ps, const Node *site, char *out,
                       size_t len) {
  out[0] = 0;
  if (!fs || !ps->motivation) return;
  const Finding *best = NULL;
  int want = site && site->tok ? tok_loc(site->tok).line : -1, bestd = 1 << 30;
  for (int i = 0; i < fs->n; i++) {
    const Finding *f = &fs->f[i];
    if (!f->category || strcmp(f->category, ps->motivation) || !f->at || !f->at->tok) continue;
    int d = want < 0 ? 0 : abs(tok_loc(f->at->tok).line - want);
    if (!best || d < bestd) {
      best = f;
      bestd = d;
    }
  }
  if (best)
    snprintf(out, len, "[%s] line %d: %.200s", best->category, tok_loc(best->at->tok).line,
             best->msg ? best->msg : "");
}

/* The greedy order keeps the first pass that pays, and a pass kept can shut out a later one
 * that applied to the kernel as it stood (split's lanes leave tile no accumulator to tile: a
 * product split across lanes instead of tiled, estimated 4x slower). Before step `i` (program v,
 * estimated after_ms) is kept: every later pass that is legal on cur and not on v is applied to
 * cur with the parameters its own turn would take (the model's choice) and estimated; the
 * fastest, when faster than the step by more than the 2% the driver resolves, is returned with
 * its estimate, and the step is not kept: that pass gets its own turn. Passes the model would
 * not keep in their turn (merging the threads of a launch that does not fill the GPU) are not
 * candidates. */
static const Pass *shut_out_faster(const Pass *const *all, int npasses, int i, Program *cur,
                                   Program *v, const Launch *Lp, const OptInput *in,
                                   const OptOptions *o, double after_ms, bool idle_launch,
                                   double *alt_ms) {
  const Pass *best = NULL;
  for (int j = i + 1; j < npasses; j++) {
    const Pass *q = all[j];
    if ((o->only && !opt_listed(o->only, q->name)) || opt_listed(o->skip, q->name)) continue;
    if ((q->opt_in && !o->only && !set_for(o, q->name)) || (q->merges_threads && idle_launch))
      continue;
    PlanStep t;
    memset(&t, 0, sizeof t);
    bool given[OPT_MAX_PARAMS];
    char err[256];
    if (!set_params(q, o, t.param, given, err, sizeof err)) continue;
    PassCtx c;
    Program *a = program_clone(v);
    bool after = a && run_pass_protected(q, a, Lp, in->m, t.param, 0, &c);
    if (a) program_free(a);
    if (after || c.legality == LEGAL) continue; /* still applies after the step: it gets its turn */
    Program *b = program_clone(cur);
    bool before = b && run_pass_protected(q, b, Lp, in->m, t.param, 0, &c);
    if (b) program_free(b);
    if (!before) continue;
    if (q->model_chooses && !given[0]) choose_value(q, cur, Lp, in, o, &t, given);
    double ms = candidate_ms(q, cur, Lp, in, o, t.param);
    if (ms > 0 && ms < after_ms * 0.98 && (!best || ms < *alt_ms)) {
      best = q;
      *alt_ms = ms;
    }
  }
  return best;
}

int optimize(Program *p, const OptInput *in, const OptOptions *o, Plan *plan) {
  memset(plan, 0, sizeof *plan);
  if (!check_sets(o, plan->error, sizeof plan->error)) return 2;
  Obj *k = find_kernel(p, in->kernel);
  if (!k) {
    snprintf(plan->error, sizeof plan->error, "no kernel named '%s'",
             in->kernel ? in->kernel : "(none)");
    return 2;
  }
  Launch L;
  memset(&L, 0, sizeof L);
  {
    LaunchOverrides ov = {0};
    ov.dyn_shared = -1;
    /* flags that do not parse are errors here (diagnosed), not silently dropped */
    bool bad = false;
    if (in->grid) {
      if (parse_flag_dims(p, "--grid", in->grid, ov.grid)) ov.has_grid = true;
      else bad = true;
    }
    if (in->block) {
      if (parse_flag_dims(p, "--block", in->block, ov.block)) ov.has_block = true;
      else bad = true;
    }
    if (!parse_arg_settings(p, in->arg_texts, in->nargs, &ov)) bad = true;
    if (bad) {
      snprintf(plan->error, sizeof plan->error, "the launch settings given as flags do not parse");
      return 2;
    }
    if (launch_prepare(&L, p, k, &ov)) {
      snprintf(plan->error, sizeof plan->error, "the launch cannot be prepared");
      return 2;
    }
  }
  memcpy(plan->grid, L.grid, sizeof plan->grid);
  memcpy(plan->block, L.block, sizeof plan->block);
  {
    Buf t = {0};
    int i = 0;
    for (Obj *q = k->params; q; q = q->next, i++) {
      Type *u = unqual(q->ty);
      if (u->kind == TY_PTR || !is_numeric(u) || u->is_half) continue;
      buf_printf(&t, "%s%s == ", t.len ? " && " : "", q->name);
      if (u->kind == TY_FLOAT) buf_printf(&t, "(float)%.9g", (double)L.args[i].f);
      else if (u->kind == TY_DOUBLE) buf_printf(&t, "%.17g", L.args[i].d);
      else if (u->is_unsigned) buf_printf(&t, "%lluull", (unsigned long long)L.args[i].u);
      else buf_printf(&t, "%lldll", (long long)L.args[i].i);
    }
    snprintf(plan->arg_test, sizeof plan->arg_test, "%s",
             t.s && t.len < sizeof plan->arg_test ? t.s : "");
    buf_free(&t);
  }
  Findings *fs = o->no_findings ? NULL : original_findings(&L, in->m);
  int npasses;
  const Pass *const *all = opt_passes(&npasses);
  Program *cur = p;
  char cur_bn[64] = "";
  double cur_ms = o->estimate ? estimate_ms(p, in, o, false, NULL, NULL, cur_bn) : -1;
  /* canonicalization first (canon.c): one step, verified like a pass, kept whatever the model
   * says; a kernel already in canonical form gets no step. Not run for `--passes ""` (the
   * program must come back unchanged) or with --skip canon. */
  if (!(o->only && !*o->only) && !opt_listed(o->skip, pass_canon.name)) {
    Program *v = program_clone(cur);
    PassCtx c;
    int none[OPT_MAX_PARAMS] = {0};
    bool ok = v && run_pass_protected(&pass_canon, v, &L, in->m, none, 0, &c);
    if (v && c.legality == LEGAL) {
      PlanStep *st = &plan->steps[plan->nsteps++];
      st->pass = &pass_canon;
      st->legality = c.legality;
      st->est_before_ms = cur_ms;
      st->est_after_ms = -1;
      snprintf(st->why, sizeof st->why, "%s", c.why);
      snprintf(st->did, sizeof st->did, "%s", c.did);
      snprintf(st->assumed, sizeof st->assumed, "%s", c.assumed);
      /* what the canonical form assumes (lift's __restrict__, a reversed sum's reassociation):
       * the output's launch wrapper tests it (emit.c), as for any pass. Not carried before, an
       * aliased launch ran the lifted kernel (bench/holdout3/DIAGNOSIS.md, cause 0) */
      st->spec = c.spec;
      snprintf(st->est_bottleneck[0], sizeof st->est_bottleneck[0], "%s", cur_bn);
      st->applied = ok;
      if (ok && o->estimate)
        st->est_after_ms = estimate_ms(v, in, o, false, NULL, NULL, st->est_bottleneck[1]);
      if (ok && !o->no_verify) {
        verify_variant(in, p, v, plan->steps, plan->nsteps, false, &st->verify);
        st->verified = st->verify.ok;
        st->rejected = !st->verified;
      }
      if (ok && !st->rejected) {
        if (st->est_after_ms > 0) {
          cur_ms = st->est_after_ms;
          snprintf(cur_bn, sizeof cur_bn, "%s", st->est_bottleneck[1]);
        }
        plan->chain[plan->nchain++] = v;
        cur = v;
        v = NULL;
      }
    }
    if (v) program_free(v);
  }
  Launch grown; /* after a kept new_launch step (parallel): the launch it made, which */
  const Launch *Lp =
    &L; /* later passes see (a shallow copy of L: the same buffers and arguments) */
  for (int i = 0; i < npasses && plan->nsteps < 16; i++) {
    const Pass *ps = all[i];
    if (o->only && !opt_listed(o->only, ps->name)) continue;
    if (opt_listed(o->skip, ps->name)) continue;
    if (ps->opt_in && !o->only && !set_for(o, ps->name))
      continue; /* named in --passes or --set only */
    PlanStep *st = &plan->steps[plan->nsteps++];
    st->pass = ps;
    st->est_before_ms = st->est_after_ms = -1;
    bool given[OPT_MAX_PARAMS];
    if (!set_params(ps, o, st->param, given, plan->error, sizeof plan->error)) {
      if (fs) {
        findings_free(fs);
        free(fs);
      }
      launch_free(&L);
      return 2;
    }
    if (ps->model_chooses && o->estimate && !given[0]) choose_value(ps, cur, Lp, in, o, st, given);
    Program *v = program_clone(cur);
    if (!v) {
      snprintf(st->why, sizeof st->why, "the program could not be copied");
      continue;
    }
    PassCtx c;
    st->mutation = o->mutation_pass == i ? o->mutation : 0;
    bool ok = run_pass_protected(ps, v, Lp, in->m, st->param, st->mutation, &c);
    st->legality = c.legality; /* LEGAL with !ok: apply failed (why says so) */
    snprintf(st->why, sizeof st->why, "%s", c.why);
    snprintf(st->did, sizeof st->did, "%s", c.did);
    snprintf(st->assumed, sizeof st->assumed, "%s", c.assumed);
    if (c.legality == LEGAL) motivation(fs, ps, c.site, st->motivation, sizeof st->motivation);
    if (c.changes_launch) memcpy(st->cover, c.cover, sizeof st->cover);
    if (c.changes_launch && Lp != &L)
      st->cover[1] = st->cover[2] = 0; /* no block of the original's 1-D launch covers it along y */
    st->spec = c.spec | (c.changes_launch && !c.grid_generic ? OPT_SPEC_GRID : 0u);
    if ((c.spec & OPT_SPEC_REASSOC) && c.site && c.site->kind == ND_FOR) {
      SrcLoc sl = tok_loc(c.site->tok);
      st->reassoc_line = sl.line;
      st->reassoc_col = sl.col;
    }
    if (!ok) {
      program_free(v);
      continue;
    }
    st->applied = true;
    bool reshaped = c.changes_launch || memcmp(plan->grid, L.grid, sizeof L.grid) ||
                    memcmp(plan->block, L.block, sizeof L.block);
    /* profitability is the model's: a step the estimate calls slower is not kept (nor verified) */
    st->est_before_ms = cur_ms;
    snprintf(st->est_bottleneck[0], sizeof st->est_bottleneck[0], "%s", cur_bn);
    if (o->estimate) {
      char bn[64];
      st->est_after_ms = estimate_ms(v, in, o, reshaped, c.changes_launch ? c.new_grid : plan->grid,
                                     c.changes_launch ? c.new_block : plan->block, bn);
      snprintf(st->est_bottleneck[1], sizeof st->est_bottleneck[1], "%s", bn);
      /* a reshaped launch must be predicted faster by more than the model resolves block shapes
       * (OPT_RESHAPE_GAIN); other steps (a pragma) may be within 2%; an estimate that failed (-1,
       * before or after) is unknown, never faster */
      /* merging the threads of a launch that does not fill the GPU (Pass.merges_threads) leaves it
       * idler, whatever the estimate says: a thread-per-column correlation (1,024 threads) merged by vector ran 2.5x
       * slower on an H200 (docs/results.md, 2026-11-27) */
      int64_t nthreads = plan->grid[0] * plan->grid[1] * plan->grid[2] * plan->block[0] *
                         plan->block[1] * plan->block[2]; /* the launch as it stands */
      st->idle = ps->merges_threads && in->m && in->m->sm_count > 0 &&
                 nthreads < (int64_t)in->m->sm_count * in->m->max_threads_per_sm;
      if (st->idle || cur_ms <= 0 || st->est_after_ms <= 0 ||
          (c.changes_launch ? st->est_after_ms > cur_ms * (1 - OPT_RESHAPE_GAIN)
                            : st->est_after_ms > cur_ms * 1.02)) {
        st->unprofitable = true;
        program_free(v);
        continue;
      }
      bool idle_launch = in->m && in->m->sm_count > 0 &&
                         nthreads < (int64_t)in->m->sm_count * in->m->max_threads_per_sm;
      st->shuts_out = shut_out_faster(all, npasses, i, cur, v, Lp, in, o, st->est_after_ms,
                                      idle_launch, &st->shut_ms);
      if (st->shuts_out) {
        st->unprofitable = true;
        program_free(v);
        continue;
      }
    }
    if (!o->no_verify) {
      verify_variant(in, p, v, plan->steps, plan->nsteps, ps->remaps_blocks || plan->permuted,
                     &st->verify);
      st->verified = st->verify.ok;
      if (!st->verified) {
        st->rejected = true;
        program_free(v);
        continue;
      }
    }
    if (st->est_after_ms > 0) {
      cur_ms = st->est_after_ms;
      snprintf(cur_bn, sizeof cur_bn, "%s", st->est_bottleneck[1]);
    }
    if (c.changes_launch) {
      memcpy(plan->grid, c.new_grid, sizeof plan->grid);
      memcpy(plan->block, c.new_block, sizeof plan->block);
    }
    if (ps->new_launch && c.changes_launch) {
      grown = L;
      memcpy(grown.grid, c.new_grid, sizeof grown.grid);
      memcpy(grown.block, c.new_block, sizeof grown.block);
      Lp = &grown;
    }
    if (ps->remaps_blocks) plan->permuted = true;
    plan->chain[plan->nchain++] = v;
    cur = v;
  }
  if (fs) {
    findings_free(fs);
    free(fs);
  }
  launch_free(&L);
  plan->result = cur;
  opt_sizes(p, in, o, plan); /* the size macros the output may keep by name, verified */
  return 0;
}

void plan_free(Plan *plan) {
  for (int i = plan->nchain - 1; i >= 0; i--) program_free(plan->chain[i]);
  plan->nchain = 0;
  plan->result = NULL;
}
