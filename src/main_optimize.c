/* carve's command line, optimize (main.h): one kernel at its launch (flags, a spec), or a host
 * program, each kernel at its recorded launches, the whole program written once and checked by
 * running it (main_whole.c). */
#include "main.h"
#include "opt/opt.h"
#include "search/search.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* optimize on a host program: each selected kernel's plan (its first recorded launch), kept
 * until every kernel is planned, then one output for them all (optimize_output) */
typedef struct {
  Plan plan;
  const char *kernel;
  int64_t grid0[3], block0[3]; /* the recorded launch (given as --grid/--block) */
  const char **arg_texts;
  int nargs;
  bool host;          /* a host program's launch: the output is the whole program */
  bool flags;         /* the launch came from --grid/--block (a recorded one among them) */
  int64_t dyn_shared; /* --shared's bytes (-1: none) */
  Opts opts;          /* the flags it was planned with (planned again by the whole-program check) */
  const char *skip;   /* the passes left out */
} OptOne;
typedef struct WholeOpt {
  OptOne *k;
  int n;
  bool json;
  const char **files, **dirs; /* the recorded launches' buffer files, removed at the end */
  int nfiles, ndirs;
} WholeOpt;

void whole_keep_files(WholeOpt *w, const char *dir, const char **files, int n) {
  for (int i = 0; i < n; i++) arena_push(&w->files, &w->nfiles, files[i]);
  arena_push(&w->dirs, &w->ndirs, dir);
}

/* seconds of host code each run of the whole-program check may take (--whole-seconds) */
#define WHOLE_SECONDS 300

static bool build_text(Opts *o, Program *p, OptOne *ks, int n, Buf *src, char *why, size_t len,
                       int *changed);
static int plan_kernel(Opts *o, Program *p, const char *skip, OptOne *one);

/* the kept step of ks that reassociates a floating-point sum, or NULL */
static const PlanStep *reassociating(const OptOne *k) {
  for (int i = 0; i < k->plan.nsteps; i++) {
    const PlanStep *s = &k->plan.steps[i];
    if (plan_step_kept(s) && ((s->spec & OPT_SPEC_REASSOC) || s->reassoc_line)) return s;
  }
  return NULL;
}
static bool any_kept(const OptOne *k) {
  for (int i = 0; i < k->plan.nsteps; i++)
    if (plan_step_kept(&k->plan.steps[i])) return true;
  return false;
}

/* plan kernel i again with `pass` also left out (NULL: every pass: written as it is) */
static int replan(Opts *o, Program *p, WholeOpt *w, int i, const char *pass) {
  OptOne *k = &w->k[i], again;
  Opts r = k->opts;
  r.whole = NULL;
  if (!pass) r.passes = "";
  const char *skip = !pass ? k->skip : k->skip && *k->skip ? fmt("%s,%s", k->skip, pass) : pass;
  if (plan_kernel(&r, p, skip, &again)) return 2;
  if (!w->json) opt_emit_plan(stderr, &again.plan, false, o->explain);
  plan_free(&k->plan);
  *k = again;
  return 0;
}

/* the whole-program check (main_whole.c): the output run against the original; where they
 * differ, the steps that reassociate a sum are dropped first (their rounding, bounded at each
 * launch, can grow over a chain of dependent launches), then each kernel's steps in turn, until
 * the output behaves as the original; every outcome said */
static int whole_program(Opts *o, Program *p, WholeOpt *w) {
  double limit = o->whole_seconds < 0 ? WHOLE_SECONDS : o->whole_seconds;
  bool changed = false;
  for (int i = 0; i < w->n; i++) changed |= any_kept(&w->k[i]);
  if (!changed) return 0;
  if (limit == 0) {
    fprintf(stderr, "carve optimize: whole program not checked: --whole-seconds 0\n");
    return 0;
  }
  for (int round = 0; round <= w->n + 1; round++) {
    Buf src = {0};
    char why[1024];
    int written;
    if (!build_text(o, p, w->k, w->n, &src, why, sizeof why, &written)) {
      buf_free(&src);
      fprintf(stderr, "carve optimize: whole program not checked: %s\n", why);
      return 0;
    }
    if (!written) { /* the output runs every kernel as written */
      buf_free(&src);
      return 0;
    }
    int r = whole_check(o, &src, limit, why, sizeof why);
    buf_free(&src);
    if (r == 0) {
      fprintf(stderr, "carve optimize: whole program checked: %s\n", why);
      return 0;
    }
    if (r == 2) {
      fprintf(stderr, "carve optimize: whole program not checked: %s\n", why);
      return 0;
    }
    /* differs: drop what reassociates, else the first kernel still changed */
    bool dropped = false;
    for (int i = 0; i < w->n; i++) {
      const PlanStep *s = reassociating(&w->k[i]);
      if (!s) continue;
      const char *pass = s->pass->name;
      fprintf(stderr,
              "carve optimize: %s: %s not kept: the whole program's output differs: %s (the step "
              "reassociates a sum: within its rounding bound at the launch, that rounding reaches "
              "what the program observes); planned again without %s\n",
              w->k[i].kernel, pass, why, pass);
      if (replan(o, p, w, i, pass)) return 2;
      dropped = true;
    }
    for (int i = 0; i < w->n && !dropped; i++) {
      if (!any_kept(&w->k[i])) continue;
      fprintf(stderr,
              "carve optimize: %s: no step kept: the whole program's output differs: %s; the "
              "kernel is written as it is\n",
              w->k[i].kernel, why);
      if (replan(o, p, w, i, NULL)) return 2;
      dropped = true;
    }
    if (!dropped) {
      fprintf(stderr,
              "carve optimize: whole program not checked: it differs with no step kept: %s\n", why);
      return 0;
    }
  }
  return 0;
}

static int optimize_output(Opts *o, Program *p, const Machine *m, OptOne *ks, int n, bool printed);
static int cmd_optimize_launch(Opts *o, Program *p);
int cmd_optimize(Opts *o, Program *p) {
  if (diag_errors || !use_recorded(o, p)) return cmd_optimize_launch(o, p);
  const Machine *m = machine_flag(o);
  if (!m) return 2;
  WholeOpt w = {.json = !strcmp(o->format, "json")};
  Opts q = *o;
  q.whole = &w;
  q.format =
    "text"; /* one JSON object for every kernel, printed after (not each_recorded's array of one each) */
  int rc = each_recorded(&q, p, via_flags, &(ViaFlags){cmd_optimize_launch});
  /* a kernel whose optimization failed stops it all: nothing is written */
  if (rc < 2 && w.n) rc = whole_program(&q, p, &w); /* q: the route the launches came by */
  if (rc < 2 && w.n) rc = optimize_output(o, p, m, w.k, w.n, true);
  else if (rc < 2) rc = 2;
  for (int i = 0; i < w.n; i++) plan_free(&w.k[i].plan);
  free(w.k);
  for (int i = 0; i < w.nfiles; i++) unlink(w.files[i]);
  for (int i = 0; i < w.ndirs; i++) {
    rmdir(w.dirs[i]);
    search_unguard_tmpdir(w.dirs[i]);
  }
  whole_check_end();
  return rc;
}

/* -o DIR: the file given as DIR/its name, each other source edited at its place under the file's
 * directory; all or nothing */
static int write_sources(const char *dir, const char *file, const Buf *src, OptFileOut *more,
                         int nmore) {
  const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
  size_t dl = strlen(dir);
  while (dl > 1 && dir[dl - 1] == '/') dl--;
  dir = arena_strndup(dir, dl);
  for (int i = 0; i < nmore; i++)
    if (!more[i].rel) {
      fprintf(stderr, "carve optimize: %s is edited but outside %s's directory: nothing written\n",
              more[i].path, file);
      return 2;
    }
  if (!make_dirs(dir)) {
    fprintf(stderr, "carve optimize: cannot create %s: %s\n", dir, strerror(errno));
    return 2;
  }
  for (int i = -1; i < nmore; i++) {
    const char *path = i < 0 ? fmt("%s/%s", dir, base) : fmt("%s/%s", dir, more[i].rel);
    const Buf *t = i < 0 ? src : &more[i].text;
    char *slash = strrchr(path, '/');
    if (i >= 0 && slash && !make_dirs(arena_strndup(path, (size_t)(slash - path)))) {
      out_abort_all();
      return 2;
    }
    OutFile *f = out_begin(path);
    if (!f || !out_write(f, t->s ? t->s : "", t->len)) {
      out_abort_all();
      return 2;
    }
    fprintf(stderr, "carve optimize: wrote %s\n", path);
  }
  return out_commit_all() ? 0 : 2;
}

/* the output of one kernel's plan or several (a host program: the user's file with every kernel
 * replaced), written to -o or standard output, the plan(s) as text (printed: already, as each
 * kernel was planned) or JSON */
static int optimize_output(Opts *o, Program *p, const Machine *m, OptOne *ks, int n, bool printed) {
  Buf src = {0};
  char why[256] = "";
  bool json = !strcmp(o->format, "json"), host = ks[0].host;
  OptKernelOut *outs = arena_alloc(sizeof(OptKernelOut) * (size_t)n);
  for (int i = 0; i < n; i++) {
    memset(&outs[i], 0, sizeof outs[i]);
    outs[i].plan = &ks[i].plan;
    outs[i].kernel = ks[i].kernel;
    memcpy(outs[i].grid0, ks[i].grid0, sizeof outs[i].grid0);
    memcpy(outs[i].block0, ks[i].block0, sizeof outs[i].block0);
    outs[i].arg_texts = ks[i].arg_texts;
    outs[i].nargs = ks[i].nargs;
  }
  /* -o DIR (an existing directory, or a path ending in '/'): the sources edited, each a file */
  struct stat st;
  size_t ol = o->out_path ? strlen(o->out_path) : 0;
  bool dir =
    ol && (o->out_path[ol - 1] == '/' || (stat(o->out_path, &st) == 0 && S_ISDIR(st.st_mode)));
  OptFileOut *more = NULL;
  int nmore = 0;
  if (n > 1 || (dir && host)) {
    /* several kernels: one program; a kernel whose steps cannot be written in stays as written */
    if (opt_emit_programs(&src, p, o->file, outs, n, dir ? &more : NULL, &nmore, why, sizeof why)) {
      fprintf(stderr, "carve optimize: %s: %s\n", o->file, why);
      buf_free(&src);
      return 2;
    }
    for (int i = 0; i < n; i++)
      if (outs[i].why[0])
        fprintf(
          stderr,
          "carve optimize: %s: warning: the steps kept for '%s' are not in the output, which runs it as written (%s)\n",
          o->file, outs[i].kernel, outs[i].why);
  } else {
    const Plan *plan = &ks[0].plan;
    const char *kname = ks[0].kernel;
    /* a host program (its launch recorded, given here as flags): the user's file with the kernel
     * and its launches replaced, so the output still builds and runs as a program */
    if (host && opt_emit_program(&src, plan, p, o->file, kname, ks[0].grid0, ks[0].block0,
                                 ks[0].arg_texts, ks[0].nargs, why, sizeof why)) {
      /* the whole program is still written, the kernel in it as written (nvcc builds it) */
      buf_free(&src);
      char why2[256];
      if (opt_emit_programs(&src, p, o->file, outs, 1, NULL, &nmore, why2, sizeof why2)) {
        fprintf(stderr, "carve optimize: %s: %s\n", o->file, why2);
        buf_free(&src);
        return 2;
      }
      fprintf(
        stderr,
        "carve optimize: %s: warning: the steps kept for '%s' are not in the output, which runs it as written (%s); "
        "the kernel alone: carve optimize %s --kernel %s --grid %lld,%lld,%lld --block %lld,%lld,%lld with the launch's --arg\n",
        o->file, kname, outs[0].why[0] ? outs[0].why : why, o->file, kname,
        (long long)ks[0].grid0[0], (long long)ks[0].grid0[1], (long long)ks[0].grid0[2],
        (long long)ks[0].block0[0], (long long)ks[0].block0[1], (long long)ks[0].block0[2]);
    }
    if (!host && !opt_emit_unchanged(&src, plan, o->file, kname))
      opt_emit_source(&src, plan, o->file, kname);
    /* a kernel-only output whose launch came from flags (or a recorded launch given as flags) */
    if (!host && !find_spec(p, kname) && ks[0].flags)
      opt_emit_launch_line(&src, plan, kname, ks[0].dyn_shared);
  }
  int rc = 0;
  if (dir) rc = write_sources(o->out_path, o->file, &src, more, nmore);
  else if (o->out_path) rc = write_file(o->out_path, src.s ? src.s : "", src.len) ? 0 : 2;
  for (int i = 0; i < nmore; i++) buf_free(&more[i].text);
  free(more);
  if (n > 1) opt_emit_summary(stderr, outs, n, o->out_path);
  if (json)
    opt_emit_json(stdout, o->file, m->name, o->out_path, outs, n,
                  o->out_path ? NULL
                  : src.s     ? src.s
                              : "");
  else {
    if (!printed) opt_emit_plan(stderr, &ks[0].plan, false, o->explain);
    if (!o->out_path) fputs(src.s ? src.s : "", stdout);
  }
  buf_free(&src);
  return rc;
}

/* one kernel's plan for one launch (o's flags), `skip` the passes left out; 0, or 2 said */
static int plan_kernel(Opts *o, Program *p, const char *skip, OptOne *one) {
  const Machine *m = machine_flag(o);
  if (!m) return 2;
  Obj *k = pick_kernel(p, o->kernel, o->file, "optimize");
  if (!k || !k->body) return 2;
  const char *cal;
  char *text;
  if (calibration_file("optimize", o->bench.calibration, &cal, &text)) return 2;
  free(text);
  Ceilings ce = ceilings_for(m, cal);
  OptInput in = {.path = o->file,
                 .pp = o->pp,
                 .kernel = k->name,
                 .grid = o->grid,
                 .block = o->block,
                 .arg_texts = o->arg_texts,
                 .nargs = o->nargs,
                 .m = m};
  OptOptions oo = {.estimate = !o->no_estimate,
                   .regs = o->regs,
                   .ceilings = &ce,
                   .only = o->passes,
                   .skip = skip,
                   .sets = o->sets,
                   .nsets = o->nsets,
                   .no_verify = o->no_verify,
                   .mutation_pass = -1,
                   .sizes = true};
  *one = (OptOne){.kernel = k->name,
                  .arg_texts = o->arg_texts,
                  .nargs = o->nargs,
                  .flags = o->grid && o->block,
                  .dyn_shared = o->ov.dyn_shared,
                  .opts = *o,
                  .skip = skip};
  if (optimize(p, &in, &oo, &one->plan)) {
    fprintf(stderr, "carve optimize: %s%s%s\n", o->whole ? k->name : "", o->whole ? ": " : "",
            one->plan.error);
    plan_free(&one->plan);
    return 2;
  }
  long long g[3], bl[3];
  one->host = has_main(p, o->host_fn) && !find_spec(p, k->name) && o->grid && o->block &&
              sscanf(o->grid, "%lld,%lld,%lld", &g[0], &g[1], &g[2]) == 3 &&
              sscanf(o->block, "%lld,%lld,%lld", &bl[0], &bl[1], &bl[2]) == 3;
  for (int d = 0; one->host && d < 3; d++) {
    one->grid0[d] = g[d];
    one->block0[d] = bl[d];
  }
  return 0;
}

/* the output program's text for the whole-program check: true, or false with why (it is not
 * one file, or cannot be written; optimize_output says the latter again) */
static bool build_text(Opts *o, Program *p, OptOne *ks, int n, Buf *src, char *why, size_t len,
                       int *changed) {
  OptKernelOut *outs = arena_alloc(sizeof(OptKernelOut) * (size_t)n);
  for (int i = 0; i < n; i++) {
    memset(&outs[i], 0, sizeof outs[i]);
    outs[i].plan = &ks[i].plan;
    outs[i].kernel = ks[i].kernel;
    memcpy(outs[i].grid0, ks[i].grid0, sizeof outs[i].grid0);
    memcpy(outs[i].block0, ks[i].block0, sizeof outs[i].block0);
    outs[i].arg_texts = ks[i].arg_texts;
    outs[i].nargs = ks[i].nargs;
  }
  *changed = 0;
  if (n == 1 && !opt_emit_program(src, &ks[0].plan, p, o->file, ks[0].kernel, ks[0].grid0,
                                  ks[0].block0, ks[0].arg_texts, ks[0].nargs, why, len)) {
    *changed = any_kept(&ks[0]);
    return true;
  }
  buf_free(src);
  *src = (Buf){0};
  OptFileOut *more = NULL;
  int nmore = 0;
  bool ok = !opt_emit_programs(src, p, o->file, outs, n, &more, &nmore, why, len);
  if (ok && nmore) {
    snprintf(why, len, "the output edits %d source%s beside %s", nmore, nmore == 1 ? "" : "s",
             o->file);
    ok = false;
  }
  for (int i = 0; i < nmore; i++) buf_free(&more[i].text);
  free(more);
  for (int i = 0; i < n; i++) *changed += any_kept(&ks[i]) && !outs[i].why[0];
  return ok;
}

/* optimize one kernel for one launch (flags, a spec, or a recorded launch given as flags) */
static int cmd_optimize_launch(Opts *o, Program *p) {
  if (diag_errors) return 2;
  if (o->passes && o->skip) return usage_error("optimize", "--passes and --skip: give one");
  const Machine *m = machine_flag(o);
  if (!m) return 2;
  OptOne one;
  if (plan_kernel(o, p, o->skip, &one)) return 2;
  if (o->whole) { /* a host program's kernel: its plan now, the one output when all are planned */
    WholeOpt *w = o->whole;
    if (!w->json) opt_emit_plan(stderr, &one.plan, false, o->explain);
    OptOne *grown = realloc(w->k, sizeof(OptOne) * (size_t)(w->n + 1));
    if (!grown) {
      plan_free(&one.plan);
      fprintf(stderr, "carve optimize: out of memory\n");
      return 2;
    }
    w->k = grown;
    w->k[w->n++] = one;
    return 0;
  }
  int rc = optimize_output(o, p, m, &one, 1, false);
  plan_free(&one.plan);
  return rc;
}
