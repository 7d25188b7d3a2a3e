/* space: the optimizer's passes and parameters (opt_passes(): data, not code) and the launch
 * shape, enumerated. A launch shape is applied to the source text (the `#pragma carve launch`
 * line rewritten with the grid as an expression of the original's, so reduced sizes follow) and
 * saved as a temporary file: every pass then runs, and verifies, on an ordinary carve input. */
#include "search.h"
#include "../hash.h"
#include "../interp/native.h"
#include "../rt/rt.h"
#include <ctype.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the launch axes: threads per block in x, and in y for a kernel launched with 2-D blocks */
static const int block_x_values[] = {8, 16, 32, 64, 128, 256, 512, 1024};
static const int block_y_values[] = {1, 2, 4, 8, 16, 32};

uint64_t search_hash(const char *s) { return fnv1a64_str(s); }

int space_count(const Space *s, VariantStatus st) {
  int n = 0;
  for (int i = 0; i < s->nv; i++) n += s->v[i].status == st;
  return n;
}

/* the launch pragma's line of the kernel in the user's file: its item, or NULL */
static TopItem *launch_item(Program *p, const char *kernel) {
  for (TopItem *it = p->items; it; it = it->next) {
    Token *pt = it->kind == TOP_PRAGMA ? it->tok->pragma_toks : NULL;
    if (pt && tok_equal(pt, "launch") && tok_equal(pt->next, kernel)) return it;
  }
  return NULL;
}

/* the text inside `word(` ... `)` of line, split at top-level commas (at most 3) */
static int group_args(const char *line, const char *word, char *out[3], const char **start,
                      const char **end) {
  const char *p = line;
  size_t n = strlen(word);
  while ((p = strstr(p, word))) {
    bool edge = (p == line || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
    const char *q = p + n;
    while (*q == ' ' || *q == '\t') q++;
    if (edge && *q == '(') break;
    p += n;
  }
  if (!p) return 0;
  *start = p;
  const char *q = strchr(p, '(') + 1, *a = q;
  int depth = 0, k = 0;
  for (; *q; q++) {
    if (*q == '(') depth++;
    else if (*q == ')' && depth-- == 0) break;
    else if (*q == ',' && depth == 0 && k < 2) {
      out[k++] = arena_strndup(a, (size_t)(q - a));
      a = q + 1;
    }
  }
  if (!*q) return 0;
  out[k++] = arena_strndup(a, (size_t)(q - a));
  *end = q + 1;
  return k;
}

/* the source with the kernel's launch line set to block (bx, by); NULL if it cannot be done */
static char *relaunch_text(Space *s, const char *text, int line, int64_t bx, int64_t by) {
  const char *l = text;
  for (int i = 1; i < line && l; i++) {
    l = strchr(l, '\n');
    if (l) l++;
  }
  if (!l) return NULL;
  const char *eol = strchr(l, '\n');
  if (!eol) eol = l + strlen(l);
  char *ln = arena_strndup(l, (size_t)(eol - l));
  char *g[3] = {0}, *b[3] = {0};
  const char *gs, *ge, *bs, *be;
  int ng = group_args(ln, "grid", g, &gs, &ge), nb = group_args(ln, "block", b, &bs, &be);
  if (!ng || !nb || bs < ge) return NULL; /* grid(...) before block(...) */
  int64_t nbk[3] = {bx, by, s->orig_block[2]};
  Buf gb = {0}, bb = {0};
  for (int d = 0; d < 3; d++) {
    const char *G = d < ng ? g[d] : "1";
    /* the same threads as the original along d: ceil(G * B / b) */
    if (nbk[d] == s->orig_block[d]) buf_printf(&gb, "%s(%s)", d ? ", " : "", G);
    else
      buf_printf(&gb, "%s((%s) * %lld + %lld) / %lld", d ? ", " : "", G,
                 (long long)s->orig_block[d], (long long)nbk[d] - 1, (long long)nbk[d]);
    buf_printf(&bb, "%s%lld", d ? ", " : "", (long long)nbk[d]);
  }
  char *newline =
    fmt("%.*sgrid(%s)%.*sblock(%s)%s", (int)(gs - ln), ln, gb.s, (int)(bs - ge), ge, bb.s, be);
  buf_free(&gb);
  buf_free(&bb);
  return fmt("%.*s%s%s", (int)(l - text), text, newline, eol);
}

static const char *base_name(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* every shape's file and program; the original's shape is the user's file itself */
static bool load_shape(Space *s, LaunchShape *sh, const char *text, int line, char *err,
                       size_t errlen) {
  if (sh->block[0] == s->orig_block[0] && sh->block[1] == s->orig_block[1]) {
    snprintf(sh->path, sizeof sh->path, "%s", s->src_path);
    sh->p = s->orig;
    sh->verified = 1;
    return true;
  }
  char *src = text ? relaunch_text(s, text, line, sh->block[0], sh->block[1]) : NULL;
  if (!src) {
    snprintf(sh->why, sizeof sh->why, "the launch line cannot be rewritten");
    sh->verified = -1;
    return true;
  }
  char *dir = fmt("%s/b%lldx%lld", s->tmpdir, (long long)sh->block[0], (long long)sh->block[1]);
  mkdir(dir, 0700);
  snprintf(sh->path, sizeof sh->path, "%s/%s", dir, base_name(s->in.path));
  FILE *f = fopen(sh->path, "w");
  if (!f || fputs(src, f) < 0 || fclose(f)) {
    snprintf(err, errlen, "cannot write %s", sh->path);
    return false;
  }
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  int errs = diag_errors;
  sh->p = load_program(sh->path, &s->in.pp);
  diag_out = saved;
  diag_errors = errs;
  if (null) fclose(null);
  if (!sh->p || sh->p->errors) {
    snprintf(sh->why, sizeof sh->why, "the relaunched source does not load");
    sh->verified = -1;
  }
  return true;
}

static void add_dim(Space *s, const char *name, const int *vals, int n, int pass, int param,
                    int launch) {
  SearchDim *d = &s->dims[s->ndims++];
  snprintf(d->name, sizeof d->name, "%s", name);
  for (int i = 0; i < n && i < SEARCH_MAX_VALUES; i++) d->values[d->nvalues++] = vals[i];
  d->pass = pass;
  d->param = param;
  d->launch = launch;
}

static int param_values(const OptParamDef *pd, int *out) {
  int n = 0;
  for (int i = 0; i < OPT_MAX_VALUES && (i == 0 || pd->values[i]); i++) out[n++] = pd->values[i];
  return n;
}

/* build with only `pass` on at parameter values vals: did it apply? */
static bool pass_applies(Space *s, int shape, const Pass *ps, const int *vals, char *why,
                         size_t len) {
  char sets[OPT_MAX_PARAMS][96];
  const char *setp[OPT_MAX_PARAMS];
  for (int i = 0; i < ps->nparams; i++) {
    snprintf(sets[i], sizeof sets[i], "%s.%s=%d", ps->name, ps->params[i].name, vals[i]);
    setp[i] = sets[i];
  }
  LaunchShape *sh = &s->shapes[shape];
  if (!sh->p) {
    snprintf(why, len, "%s", sh->why);
    return false;
  }
  OptInput oi = {.path = sh->path,
                 .pp = s->in.pp,
                 .kernel = s->kernel,
                 .arg_texts = s->in.arg_texts,
                 .nargs = s->in.nargs,
                 .m = s->in.m};
  OptOptions oo = {.only = ps->name,
                   .sets = setp,
                   .nsets = ps->nparams,
                   .no_verify = true,
                   .no_findings = true,
                   .mutation_pass = -1};
  Plan plan;
  bool ok = false;
  /* the pass's own step (canon's may come first: the pass then applies to the canonical form) */
  const PlanStep *st = NULL;
  int rc = optimize(sh->p, &oi, &oo, &plan);
  for (int i = 0; !rc && i < plan.nsteps; i++)
    if (plan.steps[i].pass == ps) st = &plan.steps[i];
  if (st) {
    ok = st->applied;
    snprintf(why, len, "%s", st->why);
  } else snprintf(why, len, "%s", plan.error);
  plan_free(&plan);
  return ok;
}

/* odometer over a pass's parameter values: false after the last combination */
static bool next_combo(const Pass *ps, int *idx) {
  for (int i = ps->nparams - 1; i >= 0; i--) {
    int vals[OPT_MAX_VALUES];
    if (++idx[i] < param_values(&ps->params[i], vals)) return true;
    idx[i] = 0;
  }
  return false;
}

/* applicable: some parameter values apply on the original's shape, or the defaults on another */
static bool pass_applicable(Space *s, const Pass *ps, char *why, size_t len) {
  int idx[OPT_MAX_PARAMS] = {0}, vals[OPT_MAX_PARAMS], tmp[OPT_MAX_VALUES], tries = 0;
  do { /* at most 64 combinations: a legality test is a clone and a look */
    for (int i = 0; i < ps->nparams; i++) {
      param_values(&ps->params[i], tmp);
      vals[i] = tmp[idx[i]];
    }
    if (pass_applies(s, s->orig_shape, ps, vals, why, len)) return true;
  } while (++tries < 64 && next_combo(ps, idx));
  char first[512];
  snprintf(first, sizeof first, "%s", why);
  for (int i = 0; i < ps->nparams; i++) vals[i] = ps->params[i].dflt;
  for (int sh = 0; sh < s->nshapes; sh++)
    if (sh != s->orig_shape && s->shapes[sh].p && pass_applies(s, sh, ps, vals, why, len))
      return true;
  snprintf(why, len, "%s", first);
  return false;
}

static void variant_key(const Space *s, Variant *v) {
  Buf b = {0};
  const LaunchShape *sh = &s->shapes[v->shape];
  buf_printf(&b, "block=%lldx%lld", (long long)sh->block[0], (long long)sh->block[1]);
  for (int d = 0; d < s->ndims; d++) {
    const SearchDim *D = &s->dims[d];
    if (D->launch >= 0 || v->choice[d] < 0) continue;
    if (D->param < 0) buf_printf(&b, " %s=%s", D->name, D->values[v->choice[d]] ? "on" : "off");
    else buf_printf(&b, " %s=%d", D->name, D->values[v->choice[d]]);
  }
  snprintf(v->key, sizeof v->key, "%s", b.s);
  buf_free(&b);
}

/* every combination of the pass axes (a pass's parameters only while it is on) for one shape */
static void enumerate(Space *s, int shape, int d, Variant *cur, int *cap) {
  while (d < s->ndims && s->dims[d].launch >= 0) d++;
  if (d >= s->ndims) {
    if (s->nv == *cap) {
      *cap = *cap ? *cap * 2 : 256;
      s->v = xrealloc(s->v, sizeof(Variant) * (size_t)*cap);
    }
    Variant *v = &s->v[s->nv++];
    *v = *cur;
    v->shape = shape;
    v->dup_of = -1;
    variant_key(s, v);
    return;
  }
  const SearchDim *D = &s->dims[d];
  if (D->param >= 0) { /* a parameter: its pass's switch decides */
    int sw = d - 1 - D->param;
    if (cur->choice[sw] <= 0) {
      cur->choice[d] = -1;
      enumerate(s, shape, d + 1, cur, cap);
      return;
    }
  }
  for (int i = 0; i < D->nvalues; i++) {
    cur->choice[d] = i;
    enumerate(s, shape, d + 1, cur, cap);
  }
  cur->choice[d] = -1;
}

bool search_overrides(const Space *s, Program *p, LaunchOverrides *ov) {
  memset(ov, 0, sizeof *ov);
  ov->dyn_shared = -1;
  return parse_arg_settings(p, s->in.arg_texts, s->in.nargs, ov);
}

static bool orig_launch(Space *s, char *err, size_t errlen) {
  Obj *k = find_kernel(s->orig, s->kernel);
  Launch L;
  memset(&L, 0, sizeof L);
  LaunchOverrides ov;
  if (!search_overrides(s, s->orig, &ov)) {
    snprintf(err, errlen, "an --arg setting does not parse");
    return false;
  }
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  int rc = launch_prepare(&L, s->orig, k, &ov);
  diag_out = saved;
  if (null) fclose(null);
  if (rc) {
    snprintf(err, errlen, "the launch of '%s' cannot be prepared (see carve run)", s->kernel);
    return false;
  }
  memcpy(s->orig_grid, L.grid, sizeof L.grid);
  memcpy(s->orig_block, L.block, sizeof L.block);
  launch_free(&L);
  return true;
}

/* ---- a host program's launch: the program run, its launch recorded, given as flags ---- */
uint64_t search_hash_bytes(const void *data, size_t n) { return fnv1a64(data, n); }

/* which recorded launch: --launch N, --kernel K's first, or the first; -1 with err */
static int pick_recorded(const Space *s, const HostResult *r, char *err, size_t errlen) {
  if (s->in.launch_no > r->nrec) {
    snprintf(err, errlen, "--launch %d: the program made %d distinct launches", s->in.launch_no,
             r->nrec);
    return -1;
  }
  int i = s->in.launch_no - 1;
  if (!s->in.launch_no)
    for (i = 0; i < r->nrec && s->in.kernel && strcmp(r->rec[i].kernel->name, s->in.kernel); i++) {}
  if (i < r->nrec && !r->rec[i].kept) {
    snprintf(err, errlen, "launch %d's buffers were not kept (at most 1 GiB of copies)", i + 1);
    return -1;
  }
  if (i < r->nrec) return i;
  snprintf(err, errlen,
           s->in.kernel ? "the program never launched '%s'" : "the program made no launch%s",
           s->in.kernel ? s->in.kernel : "");
  return -1;
}

/* the launch as `#pragma carve` lines (each buffer's bytes in tmpdir/NAME.bin, read by
 * file("NAME.bin") beside the copy); fp gets what identifies the launch */
static bool recorded_spec(Space *s, const RecordedLaunch *rl, Buf *spec, Buf *fp, char *err,
                          size_t errlen) {
  buf_printf(spec, "\n#pragma carve launch %s grid(%lld, %lld, %lld) block(%lld, %lld, %lld)",
             s->kernel, (long long)rl->grid[0], (long long)rl->grid[1], (long long)rl->grid[2],
             (long long)rl->block[0], (long long)rl->block[1], (long long)rl->block[2]);
  if (rl->dyn_shared > 0) buf_printf(spec, " shared(%lld)", (long long)rl->dyn_shared);
  buf_putc(spec, '\n');
  for (int i = 0; i < rl->ov.nargs; i++) {
    const ArgSpec *a = rl->ov.args[i];
    if (!a->is_buffer) {
      buf_printf(spec, "#pragma carve arg %s = %s\n", a->name,
                 a->scalar.is_float ? fmt("%.17g", a->scalar.d)
                                    : fmt("%lld", (long long)a->scalar.i));
      continue;
    }
    size_t bytes = (size_t)a->count * (size_t)a->elem_ty->size, have = 0;
    /* the nvcc route's recording: the runtime's file */
    char *loaded = !a->bytes && a->init == INIT_FILE && a->path ? read_file(a->path, &have) : NULL;
    const unsigned char *data = loaded ? (const unsigned char *)loaded : a->bytes;
    if (!data || (loaded && have < bytes)) {
      free(loaded);
      snprintf(err, errlen, "the recorded buffer '%s' cannot be read", a->name);
      return false;
    }
    const char *path = fmt("%s/%s.bin", s->tmpdir, a->name);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, bytes, f) == bytes;
    if (f && fclose(f)) ok = false;
    if (!ok) {
      free(loaded);
      snprintf(err, errlen, "cannot write %s", path);
      return false;
    }
    buf_printf(spec, "#pragma carve arg %s = %s[%lld] : file(\"%s.bin\") out\n", a->name,
               type_name(a->elem_ty), (long long)a->count, a->name);
    buf_printf(fp, "\n%s %s[%lld] %016llx", a->name, type_name(a->elem_ty), (long long)a->count,
               (unsigned long long)search_hash_bytes(data, bytes));
    free(loaded);
  }
  buf_puts(fp, spec->s);
  return true;
}

/* the user's source with the launch spec appended, saved beside the buffers and loaded as the
 * original: from here on an ordinary carve input (a pass that reshapes the launch rewrites it) */
static bool spec_copy(Space *s, const Buf *spec, char *err, size_t errlen) {
  size_t n;
  char *text = read_file(s->in.path, &n);
  const char *path = fmt("%s/%s", s->tmpdir, base_name(s->in.path));
  FILE *f = text ? fopen(path, "w") : NULL;
  bool ok = f && fputs(text, f) >= 0 && fputs(spec->s, f) >= 0;
  if (f && fclose(f)) ok = false;
  free(text);
  if (!ok) {
    snprintf(err, errlen, "cannot write %s", path);
    return false;
  }
  int errs = diag_errors;
  Program *p = load_program(path, &s->in.pp);
  if (!p || p->errors || diag_errors > errs) {
    snprintf(err, errlen, "the program with its recorded launch as a spec does not load (%s)",
             path);
    program_free(p);
    return false;
  }
  s->user = s->orig;
  s->orig = p;
  snprintf(s->src_path, sizeof s->src_path, "%s", path);
  return true;
}

/* the nvcc route's last run: its directory holds the recorded buffers until the space is freed */
static RtResult nvcc_run;

static bool record_launch(Space *s, Buf *fp, char *err, size_t errlen) {
  const char **argv = arena_alloc(sizeof(char *) * (size_t)(s->in.nprog_args + 2));
  argv[0] = s->in.path;
  for (int i = 0; i < s->in.nprog_args; i++) argv[i + 1] = s->in.prog_args[i];
  FILE *null = fopen("/dev/null", "w");
  /* large launches on the native engine, sampled blocks checked (docs/host-programs.md, "Real
   * sizes") */
  NativeOptions no = {.engine = ENGINE_AUTO, .check = CHECK_SAMPLE};
  HostOptions ho = {.func = s->in.host_fn,
                    .argc = s->in.nprog_args + 1,
                    .argv = argv,
                    .machine = s->in.m,
                    .record = true,
                    .out = null,
                    .copy_launch = s->in.launch_no,
                    .copy_kernel = s->in.kernel,
                    .max_steps = s->in.max_steps,
                    .max_seconds = s->in.max_seconds,
                    .native = &no};
  HostResult r;
  fflush(stdout);
  bool nvcc = s->in.route && !strcmp(s->in.route, "nvcc");
  int rc = nvcc ? 2 : host_run(s->orig, &ho, &r);
  /* no launch within the limit on the interpreted route (or --route nvcc): built by nvcc, host code
   * native */
  bool retry = !nvcc && rc == 2 && r.timed_out && !r.nrec &&
               !(s->in.route && !strcmp(s->in.route, "interp")) && rt_nvcc() && rt_library();
  if (retry) {
    fprintf(
      stderr,
      "carve: the host program made no launch in %g s of interpreted host code (--max-seconds); running it again built by nvcc "
      "(host code native, kernels run by carve)\n",
      s->in.max_seconds);
    host_result_free(&r);
  }
  if (nvcc || retry) {
    const char *files[] = {s->in.path};
    RtOptions ro = {.files = files,
                    .nfiles = 1,
                    .pp = &s->in.pp,
                    .machine = s->in.m ? s->in.m->name : NULL,
                    .argc = s->in.nprog_args + 1,
                    .argv = argv,
                    .max_steps = s->in.max_steps,
                    .record = true,
                    .out = null,
                    .max_seconds = s->in.max_steps ? 0 : s->in.max_seconds};
    rt_cleanup(&nvcc_run);
    rc = rt_run(s->orig, &ro, &nvcc_run);
    r = nvcc_run.h;
    memset(&nvcc_run.h, 0,
           sizeof nvcc_run
             .h); /* r owns the recorded launches; the files stay until the space is freed */
  }
  if (null) fclose(null);
  /* stopped at the time limit after a launch: the launches recorded until then
   * (docs/host-programs.md) */
  if (rc == 2 && r.timed_out && r.nrec) {
    fprintf(
      stderr,
      "carve: the host program was stopped after %g s in host code (--max-seconds); %d launch%s recorded (%d distinct); "
      "launches after that point are not seen\n",
      s->in.max_seconds, r.launches, r.launches == 1 ? "" : "es", r.nrec);
    rc = 0;
  }
  int sel = rc ? -1 : pick_recorded(s, &r, err, errlen);
  if (rc)
    snprintf(
      err, errlen,
      "the host program did not run to its end (see carve run), so its launches are not known");
  bool ok = sel >= 0;
  Buf spec = {0};
  if (ok) {
    const RecordedLaunch *rl = &r.rec[sel];
    s->kernel = rl->kernel->name;
    snprintf(
      s->launch_note, sizeof s->launch_note,
      "launch %d of %d distinct: %s<<<(%lld,%lld,%lld), (%lld,%lld,%lld)>>> at line %d (made %d time%s)%s; its block shape stays (the "
      "host code launches it: no '#pragma carve launch' line to rewrite)",
      sel + 1, r.nrec, s->kernel, (long long)rl->grid[0], (long long)rl->grid[1],
      (long long)rl->grid[2], (long long)rl->block[0], (long long)rl->block[1],
      (long long)rl->block[2], rl->site.line, rl->count, rl->count == 1 ? "" : "s",
      r.nrec > 1 ? "; --launch N or --kernel K picks another" : "");
    ok = recorded_spec(s, rl, &spec, fp, err, errlen);
  }
  host_result_free(&r);
  ok = ok && spec_copy(s, &spec, err, errlen);
  buf_free(&spec);
  return ok;
}

/* the kernel: a launch spec's, or a host program's recorded launch */
static bool resolve_kernel(Space *s, Buf *fp, char *err, size_t errlen) {
  const SearchInput *in = &s->in;
  s->host = in->launch_no || in->host_fn || (!s->orig->specs && find_host_function(s->orig, NULL));
  if (s->host) {
    if (in->kernel && !find_kernel(s->orig, in->kernel)) {
      snprintf(err, errlen, "no kernel named '%s'", in->kernel);
      return false;
    }
    return record_launch(s, fp, err, errlen) && orig_launch(s, err, errlen);
  }
  Obj *k = NULL;
  if (in->kernel) k = find_kernel(s->orig, in->kernel);
  else
    for (LaunchSpec *sp = s->orig->specs; sp && !k; sp = sp->next)
      k = find_kernel(s->orig, sp->kernel);
  if (!k || !k->body) {
    snprintf(err, errlen,
             in->kernel ? "no kernel named '%s'" : "no kernel with a launch specification%s",
             in->kernel ? in->kernel : "");
    return false;
  }
  s->kernel = k->name;
  if (!find_spec(s->orig, s->kernel)) {
    snprintf(err, errlen, "kernel '%s' has no '#pragma carve launch'", s->kernel);
    return false;
  }
  return orig_launch(s, err, errlen);
}

/* launch constraints decided before anything is built */
static bool shape_constraint(const Space *s, const LaunchShape *sh, char *why, size_t len) {
  int64_t threads = sh->block[0] * sh->block[1] * sh->block[2];
  if (threads > s->in.m->max_threads_per_block) {
    snprintf(why, len, "threads per block: %lld > %d", (long long)threads,
             s->in.m->max_threads_per_block);
    return true;
  }
  if (threads % 32) {
    snprintf(why, len, "threads per block: %lld is not a multiple of the warp (32)",
             (long long)threads);
    return true;
  }
  for (int d = 0; d < 2; d++) {
    int64_t span = s->orig_grid[d] * s->orig_block[d];
    if (span % sh->block[d]) {
      snprintf(why, len, "divisibility: block.%c = %lld does not divide the %lld threads in %c",
               "xy"[d], (long long)sh -> block[d], (long long)span, "xy"[d]);
      return true;
    }
  }
  if (sh->verified < 0) {
    snprintf(why, len, "launch: %.240s", sh->why);
    return true;
  }
  return false;
}

/* --blocks: "orig", or a comma list of WxH (H 1 when left out); *n pairs into wh; false with err */
static bool parse_blocks(const char *list, int wh[][2], int *n, char *err, size_t errlen) {
  *n = 0;
  if (!strcmp(list, "orig")) return true;
  for (const char *p = list; *p;) {
    char *end;
    long w = strtol(p, &end, 10), h = 1;
    if (end != p && *end == 'x') {
      const char *q = end + 1;
      h = strtol(q, &end, 10);
      if (end == q) h = 0;
    }
    if (end == p || w < 1 || w > 1024 || h < 1 || h > 1024 || (*end && *end != ',') ||
        *n == SEARCH_MAX_SHAPES) {
      snprintf(err, errlen,
               "--blocks: '%s' is not 'orig' or a list of block shapes WxH (32x8,64x4)", list);
      return false;
    }
    wh[*n][0] = (int)w;
    wh[*n][1] = (int)h;
    (*n)++;
    p = *end ? end + 1 : end;
  }
  return true;
}

static void add_value(int *vals, int *n, int v) {
  for (int i = 0; i < *n; i++)
    if (vals[i] == v) return;
  if (*n < SEARCH_MAX_VALUES) vals[(*n)++] = v;
}

/* the values of block.x and block.y: every allowed one, or those --blocks names */
static bool axis_values(Space *s, int *xs, int *nx, int *ys, int *ny, int wh[][2], int *nwh,
                        char *err, size_t errlen) {
  *nx = *ny = *nwh = 0;
  if (s->in.blocks) {
    if (!parse_blocks(s->in.blocks, wh, nwh, err, errlen)) return false;
    for (int i = 0; i < *nwh; i++) {
      add_value(xs, nx, wh[i][0]);
      add_value(ys, ny, wh[i][1]);
    }
    if (!*nwh) *nwh = -1; /* "orig": the original's shape alone */
  } else {
    for (size_t i = 0; i < sizeof block_x_values / sizeof *block_x_values; i++)
      xs[(*nx)++] = block_x_values[i];
    if (s->orig_block[1] > 1)
      for (size_t i = 0; i < sizeof block_y_values / sizeof *block_y_values; i++)
        ys[(*ny)++] = block_y_values[i];
    else ys[(*ny)++] = 1;
  }
  return true;
}

static bool listed_shape(int wh[][2], int nwh, int x, int y) {
  if (!nwh) return true;
  for (int i = 0; i < nwh; i++)
    if (wh[i][0] == x && wh[i][1] == y) return true;
  return false;
}

static bool launch_axes(Space *s, char *err, size_t errlen) {
  int xs[SEARCH_MAX_VALUES], ys[SEARCH_MAX_VALUES], nx, ny, wh[SEARCH_MAX_SHAPES][2], nwh;
  if (s->host) s->in.blocks = "orig"; /* the host code launches it: its shape stays */
  if (!axis_values(s, xs, &nx, ys, &ny, wh, &nwh, err, errlen)) return false;
  /* the original's shape is always a point */
  bool hx = false, hy = false;
  for (int i = 0; i < nx; i++) hx |= xs[i] == s->orig_block[0];
  for (int i = 0; i < ny; i++) hy |= ys[i] == s->orig_block[1];
  if (!hx) add_value(xs, &nx, (int)s->orig_block[0]);
  if (!hy) add_value(ys, &ny, (int)s->orig_block[1]);
  add_dim(s, "block.x", xs, nx, -1, -1, 0);
  add_dim(s, "block.y", ys, ny, -1, -1, 1);
  size_t n;
  char *text = read_file(s->in.path, &n);
  TopItem *it = launch_item(s->orig, s->kernel);
  int line = it ? tok_loc(it->tok).line : 0;
  bool own = it && tok_loc(it->tok).file && !strcmp(tok_loc(it->tok).file->name, s->in.path);
  char *arena_text = text ? arena_strdup(text) : NULL;
  free(text);
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) {
      bool is_orig = xs[i] == s->orig_block[0] && ys[j] == s->orig_block[1];
      if (s->nshapes == SEARCH_MAX_SHAPES || (!is_orig && !listed_shape(wh, nwh, xs[i], ys[j])))
        continue;
      LaunchShape *sh = &s->shapes[s->nshapes++];
      sh->block[0] = xs[i];
      sh->block[1] = ys[j];
      sh->block[2] = s->orig_block[2];
      if (is_orig) s->orig_shape = s->nshapes - 1;
      char why[256];
      if (shape_constraint(s, sh, why, sizeof why)) continue; /* never built */
      if (!is_orig && !own) {
        sh->verified = -1;
        snprintf(sh->why, sizeof sh->why, "the launch pragma is not in %s", s->in.path);
        continue;
      }
      if (!load_shape(s, sh, arena_text, line, err, errlen)) return false;
    }
  return true;
}

/* the points of the space as its axes stand: the shapes times, for each pass, 1 (off) plus the
 * product of its parameters' values (on) */
static double space_points(const Space *s) {
  double points = s->nshapes;
  for (int d = 0; d < s->ndims; d++) {
    if (s->dims[d].launch >= 0 || s->dims[d].param >= 0) continue;
    double on = 1;
    for (int j = d + 1; j < s->ndims && s->dims[j].param >= 0 && s->dims[j].pass == s->dims[d].pass;
         j++)
      on *= s->dims[j].nvalues;
    points *= 1 + on;
  }
  return points;
}

/* A space too large to hold, and the user asked for no narrowing (--passes, --skip, --blocks):
 * narrowed by default rather than refused (issue 29: `carve space examples/mm.cu` had 4.9M
 * points and no hint), to at most SEARCH_NARROW_POINTS (minutes of static metrics on two cores).
 * First the original's block shape only (the optimizer's `launch` is opt-in for the same reason:
 * the shapes it kept were not faster); then, while still too large, the parameter axis with the
 * most values held at the pass's default (what `carve optimize --no-estimate` applies), the largest
 * first. Each step is said in s->narrowed, with the options that choose another narrowing. */
static void narrow_space(Space *s, double full) {
  Buf how = {0};
  if (s->nshapes > 1) {
    LaunchShape keep = s->shapes[s->orig_shape];
    for (int i = 0; i < s->nshapes; i++)
      if (i != s->orig_shape && s->shapes[i].p && s->shapes[i].p != s->orig)
        program_free(s->shapes[i].p);
    s->shapes[0] = keep;
    s->nshapes = 1;
    s->orig_shape = 0;
    for (int d = 0; d < s->ndims; d++)
      if (s->dims[d].launch >= 0) {
        s->dims[d].values[0] = (int)s->orig_block[s->dims[d].launch];
        s->dims[d].nvalues = 1;
      }
    buf_printf(&how, "the original block shape only");
  }
  int np;
  const Pass *const *ps = opt_passes(&np);
  while (space_points(s) > SEARCH_NARROW_POINTS) {
    int best = -1;
    for (int d = 0; d < s->ndims; d++)
      if (s->dims[d].param >= 0 && s->dims[d].nvalues > 1 &&
          (best < 0 || s->dims[d].nvalues > s->dims[best].nvalues))
        best = d;
    if (best < 0) break;
    SearchDim *d = &s->dims[best];
    int dflt = ps[d->pass]->params[d->param].dflt, n = d->nvalues;
    bool has = false;
    for (int k = 0; k < d->nvalues; k++) has |= d->values[k] == dflt;
    d->values[0] = has ? dflt : d->values[0];
    d->nvalues = 1;
    buf_printf(&how, "%s%s at %d (of %d values)", how.len ? "; " : "", d->name, d->values[0], n);
  }
  snprintf(
    s->narrowed, sizeof s->narrowed,
    "the whole space has %.0f points, more than %d (SEARCH_MAX_POINTS); narrowed to %.0f: %s. "
    "--passes A,B, --skip A,B or --blocks choose another narrowing",
    full, SEARCH_MAX_POINTS, space_points(s), how.s ? how.s : "nothing");
  buf_free(&how);
}

int space_build(const SearchInput *in, Space *s, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  s->in = *in;
  /* relaunched copies live in a temporary directory: their #include "..." finds the user's */
  char *slash = strrchr(in->path, '/');
  const char *dir = slash ? arena_strndup(in->path, (size_t)(slash - in->path)) : ".";
  const char **inc = arena_alloc(sizeof(char *) * (size_t)(in->pp.n_include_dirs + 1));
  for (int i = 0; i < in->pp.n_include_dirs; i++) inc[i] = in->pp.include_dirs[i];
  inc[in->pp.n_include_dirs] = dir;
  s->in.pp.include_dirs = inc;
  s->in.pp.n_include_dirs = in->pp.n_include_dirs + 1;
  int errs = diag_errors;
  s->orig = load_program(in->path, &in->pp);
  snprintf(s->src_path, sizeof s->src_path, "%s", in->path);
  if (!s->orig) {
    snprintf(err, errlen, "%s does not load", in->path);
    return 2;
  }
  if (s->orig->errors || diag_errors > errs) {
    snprintf(err, errlen, "%s has errors", in->path);
    return 2;
  }
  snprintf(s->tmpdir, sizeof s->tmpdir, "%s/carve-tune-XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(s->tmpdir)) {
    s->tmpdir[0] = 0;
    snprintf(err, errlen, "cannot create a temporary directory");
    return 2;
  }
  search_guard_tmpdir(s->tmpdir);
  /* the fingerprint: what makes records reusable (never the temporary paths); the launch's
   * identity beyond the printed source (--arg settings, a program's buffers) also enters each
   * variant's hash, which keys its verification and its time */
  Buf fp = {0}, id = {0};
  print_program(&fp, s->orig);
  for (int i = 0; i < in->nargs; i++) buf_printf(&id, "\n%s", in->arg_texts[i]);
  if (!resolve_kernel(s, &id, err, errlen)) {
    buf_free(&fp);
    buf_free(&id);
    return 2;
  }
  s->launch_id = id.len ? search_hash(id.s) : 0;
  buf_printf(&fp, "%s\n%s/%s/%d", id.s ? id.s : "", in->m->name, s->kernel, in->regs);
  if (in->only || in->skip)
    buf_printf(&fp, "\npasses %s skip %s", in->only ? in->only : "*", in->skip ? in->skip : "-");
  s->fingerprint = search_hash(fp.s);
  buf_free(&fp);
  buf_free(&id);
  if (!opt_passes_known(in->only, "--passes", err, errlen) ||
      !opt_passes_known(in->skip, "--skip", err, errlen))
    return 2;
  if (!launch_axes(s, err, errlen)) return 2;
  int np;
  const Pass *const *ps = opt_passes(&np);
  for (int i = 0; i < np && s->ndims + 1 + ps[i]->nparams <= SEARCH_MAX_DIMS; i++) {
    char why[512];
    if (!strcmp(ps[i]->name,
                "launch")) { /* it reshapes the block: the launch axes enumerate that */
      if (s->nskipped < 16)
        snprintf(
          s->skipped[s->nskipped++], sizeof s->skipped[0],
          "launch: the space's own launch axes (block.x, block.y) enumerate the block shape");
      continue;
    }
    if ((in->only && !opt_listed(in->only, ps[i]->name)) || opt_listed(in->skip, ps[i]->name)) {
      if (s->nskipped < 16)
        snprintf(s->skipped[s->nskipped++], sizeof s->skipped[0], "%s: left out (%s)", ps[i]->name,
                 in->only ? "--passes" : "--skip");
      continue;
    }
    if (!pass_applicable(s, ps[i], why, sizeof why)) {
      if (s->nskipped < 16)
        snprintf(s->skipped[s->nskipped++], sizeof s->skipped[0], "%s: %.300s", ps[i]->name, why);
      continue;
    }
    static const int onoff[] = {0, 1};
    add_dim(s, ps[i]->name, onoff, 2, i, -1, -1);
    for (int j = 0; j < ps[i]->nparams; j++) {
      int vals[OPT_MAX_VALUES], n = param_values(&ps[i]->params[j], vals);
      add_dim(s, fmt("%s.%s", ps[i]->name, ps[i]->params[j].name), vals, n, i, j, -1);
    }
  }
  /* the size before enumerating: a space too large to hold is narrowed when the user chose no
   * narrowing (said in s->narrowed), an error when they did */
  double points = space_points(s);
  if (points > SEARCH_MAX_POINTS && !in->only && !in->skip && !in->blocks) narrow_space(s, points);
  points = space_points(s);
  if (points > SEARCH_MAX_POINTS) {
    snprintf(
      err, errlen,
      "the space has %.0f points, more than %d (SEARCH_MAX_POINTS): narrow it with --passes A,B, --skip A,B or --blocks orig",
      points, SEARCH_MAX_POINTS);
    return 2;
  }
  int cap = 0;
  for (int sh = 0; sh < s->nshapes; sh++) {
    Variant cur;
    memset(&cur, 0, sizeof cur);
    for (int d = 0; d < SEARCH_MAX_DIMS; d++) cur.choice[d] = -1;
    for (int d = 0; d < s->ndims; d++)
      if (s->dims[d].launch >= 0)
        for (int i = 0; i < s->dims[d].nvalues; i++)
          if (s->dims[d].values[i] == s->shapes[sh].block[s->dims[d].launch]) cur.choice[d] = i;
    int first = s->nv;
    enumerate(s, sh, 0, &cur, &cap);
    char why[256];
    if (shape_constraint(s, &s->shapes[sh], why, sizeof why))
      for (int i = first; i < s->nv; i++) {
        s->v[i].status = VS_CONSTRAINT;
        snprintf(s->v[i].why, sizeof s->v[i].why, "%s", why);
      }
  }
  return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f) {
  return remove(path);
}

void space_free(Space *s) {
  for (int i = 0; i < s->nshapes; i++) {
    LaunchShape *sh = &s->shapes[i];
    if (sh->p && sh->p != s->orig) program_free(sh->p);
  }
  /* the relaunched sources and the harness builds: all ours ($CARVE_KEEP_TMP keeps them) */
  if (s->tmpdir[0] && !getenv("CARVE_KEEP_TMP"))
    nftw(s->tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (s->tmpdir[0]) search_unguard_tmpdir(s->tmpdir);
  if (s->orig) program_free(s->orig);
  if (s->user) program_free(s->user);
  rt_cleanup(&nvcc_run);
  free(s->v);
  memset(s, 0, sizeof *s);
}

bool variant_build(Space *s, const Variant *v, bool findings, Built *b, char *why, size_t whylen) {
  memset(b, 0, sizeof *b);
  LaunchShape *sh = &s->shapes[v->shape];
  if (!sh->p) {
    snprintf(why, whylen, "launch: %.240s", sh->why);
    return false;
  }
  Buf only = {0};
  const char **sets = arena_alloc(sizeof(char *) * SEARCH_MAX_DIMS);
  int nsets = 0;
  int np;
  const Pass *const *ps = opt_passes(&np);
  for (int d = 0; d < s->ndims; d++) {
    const SearchDim *D = &s->dims[d];
    if (D->launch >= 0 || v->choice[d] < 0) continue;
    if (D->param < 0 && D->values[v->choice[d]])
      buf_printf(&only, "%s%s", only.len ? "," : "", ps[D->pass]->name);
    if (D->param >= 0)
      sets[nsets++] = fmt("%s.%s=%d", ps[D->pass]->name, ps[D->pass]->params[D->param].name,
                          D->values[v->choice[d]]);
  }
  b->base = sh->p;
  b->oi = (OptInput){.path = sh->path,
                     .pp = s->in.pp,
                     .kernel = s->kernel,
                     .arg_texts = s->in.arg_texts,
                     .nargs = s->in.nargs,
                     .m = s->in.m};
  OptOptions oo = {.only = only.s ? arena_strdup(only.s) : "",
                   .sets = sets,
                   .nsets = nsets,
                   .no_verify = true,
                   .no_findings = !findings,
                   .mutation_pass = -1};
  buf_free(&only);
  if (optimize(sh->p, &b->oi, &oo, &b->plan)) {
    snprintf(why, whylen, "optimize: %s", b->plan.error);
    plan_free(&b->plan);
    return false;
  }
  for (int i = 0; i < b->plan.nsteps; i++) {
    const PlanStep *st = &b->plan.steps[i];
    if (!st->applied) {
      snprintf(why, whylen, "legality: %s: %.200s", st->pass->name, st->why);
      plan_free(&b->plan);
      return false;
    }
  }
  return true;
}

void built_free(Built *b) { plan_free(&b->plan); }

void variant_source(Space *s, Built *b, Buf *out) {
  opt_emit_source(out, &b->plan, s->in.path, s->kernel);
}
