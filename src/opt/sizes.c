/* sizes: the size macros an optimized kernel keeps by name (issue 27, item 1; docs/optimize.md,
 * "Sizes kept symbolic"). carve optimizes the kernel as the preprocessor left it, so a size macro
 * (`#define N 512`, or -D N=512) is a constant in the variant, and printed as such the output is
 * right only at that value (emit.c then pins it with `#if (N) == 512`). The front end remembers
 * which tokens an expansion made (Token.macro, and Token.origin the use it expanded at), so a
 * constant of the variant that came from a macro can be printed as the macro's name. That the
 * variant is then right at other values is not assumed: each candidate is varied (-D NAME=v),
 * the program read again and run there to record its launch of the kernel, and the original and
 * the variant as printed with the names (read back at that value) compared on that launch as
 * verify_variant compares them (verify_launch). A macro that is not shown right at another value
 * where the optimized kernel would run stays pinned; one no step's output keeps (a __shared__
 * array's extent, a constant a pass folded) is not printed by name, so it stays pinned too. */
#include "opt.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the names the printer may use and their values at the size optimized; collecting (p set):
 * every integer macro met is added, and the names printed are marked */
typedef struct {
  const char *name[32];
  int64_t val[32];
  bool printed[32];
  int n;
  Program *p;   /* collecting: the program whose macros are looked up */
  int mutation; /* OptOptions.sizes_mutation 1: the first leaf of a name printed as its value */
  bool mutated;
} Names;

/* the value of integer macro `name`: from the set, or (collecting) from the program, added */
static int name_index(Names *s, const char *name) {
  for (int i = 0; i < s->n; i++)
    if (!strcmp(s->name[i], name)) return i;
  int64_t v;
  if (!s->p || s->n == 32 || !program_macro_value(s->p, name, &v)) return -1;
  s->name[s->n] = name;
  s->val[s->n] = v;
  s->printed[s->n] = false;
  return s->n++;
}

/* whether the expansion at `site` made t (t's chain of expansions passes through it) */
static bool made_at(const Token *t, const Token *site) {
  for (int d = 0; t && t->macro && d < 64; d++, t = t->origin)
    if (t->origin == site) return true;
  return false;
}

/* the levels of expansion that made t, innermost first: lv[i]->macro expanded at lv[i]->origin */
static int chain(const Token *t, const Token **lv, int max) {
  int n = 0;
  for (; t && t->macro && n < max; t = t->origin) lv[n++] = t;
  return n;
}

/* an integer constant subtree whose every number token the expansion at `site` made */
static bool all_from(Node *n, const Token *site, int *leaves) {
  if (!n) return true;
  switch (n->kind) {
  case ND_NUM: (*leaves)++; return n->tok && made_at(n->tok, site);
  case ND_CAST:
  case ND_NEG:
  case ND_BITNOT: return all_from(n->lhs, site, leaves);
  case ND_ADD:
  case ND_SUB:
  case ND_MUL:
  case ND_DIV:
  case ND_MOD:
  case ND_SHL:
  case ND_SHR:
  case ND_BITAND:
  case ND_BITOR:
  case ND_BITXOR: return all_from(n->lhs, site, leaves) && all_from(n->rhs, site, leaves);
  default: return false;
  }
}

/* PrintSubstFn: the macro's name for a constant it made, NULL otherwise. A number token of an
 * expansion prints as the outermost macro whose expansion was that one token and whose value
 * it has (`TILE` for `#define TILE BLOCK`); a constant expression all of whose numbers one
 * expansion made, with that macro's value, prints as `(NAME)` (`#define ROWS (N*2)`) */
static const char *size_text(Node *n, void *ctx) {
  Names *s = ctx;
  if (!n->ty || !is_integer(n->ty) || !n->tok) return NULL;
  if (n->kind == ND_NUM) {
    const Token *lv[16];
    int nl = chain(n->tok, lv, 16);
    const Token *t = n->tok;
    for (int i = nl - 1; i >= 0; i--) {
      const Token *site = lv[i]->origin;
      /* the expansion at this level made only this token */
      if ((t->prev && made_at(t->prev, site)) || (t->next && made_at(t->next, site))) continue;
      int k = name_index(s, lv[i]->macro);
      if (k < 0 || s->val[k] != n->ival) continue;
      if (s->mutation == 1 && !s->mutated && !s->p) { /* the mutation: the value, not the name */
        s->mutated = true;
        return NULL;
      }
      s->printed[k] = true;
      return s->name[k];
    }
    return NULL;
  }
  if (n->kind == ND_CAST && n->implicit) return NULL;
  int64_t v;
  Node *leaf = n;
  while (leaf && leaf->kind != ND_NUM && leaf->lhs) leaf = leaf->lhs;
  if (!leaf || leaf->kind != ND_NUM || !leaf->tok || !node_int_constant(n, &v)) return NULL;
  const Token *lv[16];
  int nl = chain(leaf->tok, lv, 16);
  for (int i = nl - 1; i >= 0; i--) {
    int leaves = 0;
    if (!all_from(n, lv[i]->origin, &leaves) || leaves < 2) continue;
    int k = name_index(s, lv[i]->macro);
    if (k < 0 || s->val[k] != v) continue;
    s->printed[k] = true;
    return fmt("(%s)", s->name[k]);
  }
  return NULL;
}

void opt_print_sized(Buf *b, Obj *fn, const PlanSizes *ps) {
  Names s = {0};
  for (int i = 0; i < ps->n; i++) {
    s.name[i] = ps->name[i];
    s.val[i] = ps->val[i];
  }
  s.n = ps->n;
  print_function_with(b, fn, s.n ? size_text : NULL, &s);
}

/* ---- verification at other values ---- */

/* the value a macro takes at one of the other sizes: k 0 smaller, 1 larger (smaller again where
 * the size is large: the program runs whole in the interpreter there), odd, so that no block or
 * tile divides it; i spreads the macros of one configuration apart */
static int64_t other_value(int64_t u, int k, int i) {
  int64_t v = k == 0 ? u / 2 + 5 + 2 * i : u <= 1024 ? u + u / 2 + 7 + 2 * i : u / 4 + 3 + 2 * i;
  if (v % 2 == 0) v++;
  if (v == u) v += 2;
  return v;
}

typedef enum { AT_EQUAL, AT_DIFFERENT, AT_ORIGINAL, AT_SKIPPED } AtOutcome;

/* what the output's test of a launch (emit.c's carve_fits_K and carve_args_K) decides for the
 * launch recorded at other values: true when the optimized kernel runs there, with its grid and
 * block; why says what sends it to the original otherwise */
static bool wrapper_takes(const OptInput *in, const Plan *plan, const RecordedLaunch *rl,
                          int64_t vgrid[3], int64_t vblock[3], const int64_t **cover, char *why,
                          size_t len) {
  long long g0[3], b0[3];
  if (sscanf(in->grid, "%lld,%lld,%lld", &g0[0], &g0[1], &g0[2]) != 3 ||
      sscanf(in->block, "%lld,%lld,%lld", &b0[0], &b0[1], &b0[2]) != 3) {
    snprintf(why, len, "the recorded launch's shape is unknown");
    return false;
  }
  unsigned spec = 0;
  const PlanStep *reshape = NULL;
  for (int i = 0; i < plan->nsteps; i++)
    if (plan_step_kept(&plan->steps[i])) {
      spec |= plan->steps[i].spec;
      if (plan->steps[i].cover[0] > 0) reshape = &plan->steps[i];
    }
  *cover = reshape ? reshape->cover : NULL;
  for (int d = 0; d < 3; d++) {
    if (rl->block[d] != b0[d]) {
      snprintf(why, len, "its blocks are (%lld, %lld, %lld): the original runs",
               (long long)rl->block[0], (long long)rl->block[1], (long long)rl->block[2]);
      return false;
    }
    if ((spec & OPT_SPEC_GRID) && rl->grid[d] != g0[d]) {
      snprintf(why, len,
               "its grid differs from the one written into the kernel: the original runs");
      return false;
    }
    int64_t c = reshape && reshape->cover[d] > 0 ? reshape->cover[d] : b0[d];
    if (reshape && c != b0[d] && rl->grid[d] * rl->block[d] % c) {
      snprintf(why, len, "its grid is not whole blocks of the reshaped kernel: the original runs");
      return false;
    }
    vgrid[d] = reshape
                 ? (spec & OPT_SPEC_GRID) ? plan->grid[d] : (rl->grid[d] * rl->block[d] + c - 1) / c
                 : rl->grid[d];
    vblock[d] = reshape ? plan->block[d] : rl->block[d];
  }
  for (int i = 0; i < rl->ov.nargs; i++) {
    const ArgSpec *a = rl->ov.args[i];
    if (a->alias && (spec & OPT_SPEC_NOALIAS)) {
      snprintf(why, len, "'%s' aliases another argument: the original runs", a->name);
      return false;
    }
    if (a->is_buffer || !(spec & OPT_SPEC_ARGS)) continue;
    size_t l = strlen(a->name);
    for (int j = 0; j < in->nargs; j++)
      if (!strncmp(in->arg_texts[j], a->name, l) && in->arg_texts[j][l] == '=') {
        double want = strtod(in->arg_texts[j] + l + 1, NULL);
        double got = a->scalar.is_float ? a->scalar.d : (double)a->scalar.i;
        if (want != got) {
          snprintf(why, len, "its '%s' is not the recorded value: the original runs", a->name);
          return false;
        }
      }
  }
  return true;
}

/* one configuration: the program read with the macros set, run to record its launch of the
 * kernel, and original and variant (text, read back at these values) compared on it. The values
 * the candidates actually took there (a macro the file defines from others follows them) in got */
static AtOutcome check_at(const OptInput *in, const Plan *plan, const char *text, const char **set,
                          const int64_t *vals, int nset, const Names *cand, int64_t *got,
                          char *detail, size_t len) {
  PPOptions pp = opt_defines_at(in, set, vals, nset);
  for (int i = 0; i < cand->n; i++) got[i] = cand->val[i];
  detail[0] = 0;
  FILE *null = fopen("/dev/null", "w");
  FILE *saved = diag_out;
  int errs = diag_errors;
  diag_out = null ? null : saved;
  AtOutcome out = AT_SKIPPED;
  Program *po = load_program(in->path, &pp), *pv = NULL;
  HostResult hr;
  memset(&hr, 0, sizeof hr);
  const RecordedLaunch *rl = NULL;
  if (!po || po->errors) snprintf(detail, len, "the program does not load");
  else {
    for (int i = 0; i < cand->n; i++)
      if (!program_macro_value(po, cand->name[i], &got[i])) got[i] = cand->val[i];
    const char *argv[1] = {in->path};
    HostOptions ho = {.argc = 1,
                      .argv = argv,
                      .record = true,
                      .copy_kernel = in->kernel,
                      .out = null,
                      .err = null,
                      .max_seconds = 20};
    int rc = host_run(po, &ho, &hr);
    for (int i = 0; !rc && i < hr.nrec && !rl; i++)
      if (!strcmp(hr.rec[i].kernel->name, in->kernel) && hr.rec[i].kept) rl = &hr.rec[i];
    if (hr.timed_out) snprintf(detail, len, "the program's host code ran past 20 s");
    else if (rc || hr.status || !rl)
      snprintf(detail, len, "%s",
               rc || hr.status ? "the program does not run to its end in carve's interpreter"
                               : "the program makes no launch of the kernel");
  }
  int64_t vgrid[3], vblock[3];
  const int64_t *cover = NULL;
  if (rl && !wrapper_takes(in, plan, rl, vgrid, vblock, &cover, detail, len)) out = AT_ORIGINAL;
  else if (rl) {
    pv = load_program_text(in->path, text, &pp);
    if (!pv || pv->errors) snprintf(detail, len, "the output does not load");
    else {
      /* the recorded buffers as outputs, as a recorded launch given as flags has them */
      LaunchOverrides ov = rl->ov;
      ov.args = arena_alloc(sizeof(ArgSpec *) * (size_t)(rl->ov.nargs + 1));
      for (int i = 0; i < rl->ov.nargs; i++) {
        ArgSpec *a = arena_alloc(sizeof *a);
        *a = *rl->ov.args[i];
        if (a->is_buffer && !a->alias) a->out = true;
        ov.args[i] = a;
      }
      OptInput at = *in;
      at.pp = pp;
      at.cache = NULL;
      at.recorded = &ov;
      at.grid = fmt("%lld,%lld,%lld", (long long)rl->grid[0], (long long)rl->grid[1],
                    (long long)rl->grid[2]);
      at.block = fmt("%lld,%lld,%lld", (long long)rl->block[0], (long long)rl->block[1],
                     (long long)rl->block[2]);
      VerifySize vs;
      memset(&vs, 0, sizeof vs);
      bool reshaped = cover != NULL;
      verify_launch(&at, po, pv, reshaped ? vgrid : NULL, reshaped ? vblock : NULL, cover,
                    plan->steps, plan->nsteps, rl->grid[0] * rl->grid[1] * rl->grid[2] > 256, &vs);
      if (vs.skipped) snprintf(detail, len, "%s", vs.detail);
      else if (vs.ok) {
        out = AT_EQUAL;
        snprintf(detail, len, "%lld elements compared", (long long)vs.compared);
      } else {
        out = AT_DIFFERENT;
        snprintf(detail, len, "%s", vs.detail);
      }
    }
  }
  host_result_free(&hr);
  if (pv) program_free(pv);
  if (po) program_free(po);
  diag_out = saved;
  diag_errors = errs;
  if (null) fclose(null);
  return out;
}

/* the source with the kernel's definition replaced by the variant's, the names of s printed */
static char *variant_text(Obj *k, Obj *v, Plan *plan, Names *s) {
  SrcFile *f = k->tok->file;
  const char *from = k->def_start->loc, *to = k->body->end_tok->loc + k->body->end_tok->len;
  Buf b = {0};
  buf_printf(&b, "%.*s", (int)(from - f->contents), f->contents);
  print_headers(&b, &plan->result, 1);
  s->mutated = false;
  print_function_with(&b, v, size_text, s);
  buf_puts(&b, to);
  char *t = arena_strdup(b.s);
  buf_free(&b);
  return t;
}

static void note(PlanSizes *ps, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void note(PlanSizes *ps, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  size_t u = strlen(ps->note);
  if (u + 4 < sizeof ps->note) {
    if (u) u += (size_t)snprintf(ps->note + u, sizeof ps->note - u, "; ");
    vsnprintf(ps->note + u, sizeof ps->note - u, f, ap);
  }
  va_end(ap);
}

static const char *outcome_text(AtOutcome o) {
  return o == AT_EQUAL       ? "equal"
         : o == AT_DIFFERENT ? "DIFFERENT"
         : o == AT_ORIGINAL  ? "original runs"
                             : "skipped";
}

void opt_sizes(Program *orig, const OptInput *in, const OptOptions *o, Plan *plan) {
  PlanSizes *ps = &plan->sizes;
  memset(ps, 0, sizeof *ps);
  if (!o->sizes || o->no_verify || !plan->result || !in->path || !in->grid || !in->block ||
      find_spec(orig, in->kernel) || !find_host_function(orig, "main"))
    return;
  bool kept = false;
  for (int i = 0; i < plan->nsteps; i++) kept |= plan_step_kept(&plan->steps[i]);
  Obj *k = find_kernel(orig, in->kernel), *v = find_kernel(plan->result, in->kernel);
  if (!kept || !k || !v || !k->body || !v->body || k->tmpl_head || !k->def_start ||
      !k->body->end_tok || k->def_start->file != k->tok->file ||
      k->body->end_tok->file != k->tok->file || !k->tok->file->contents ||
      strcmp(k->tok->file->name, in->path))
    return;
  /* the variant may not need file-scope declarations the file lacks (emit.c refuses those) */
  for (TopItem *it = plan->result->items; it; it = it->next) {
    if ((it->kind != TOP_FUNC && it->kind != TOP_VAR) || !it->obj || it->obj == v) continue;
    bool found = false;
    for (TopItem *q = orig->items; q && !found; q = q->next)
      found = q->obj && !strcmp(q->obj->name, it->obj->name);
    if (!found) return;
  }
  /* the candidates: the integer macros of at least 16 the variant prints by name */
  Names all = {.p = orig};
  Buf scratch = {0};
  print_function_with(&scratch, v, size_text, &all);
  buf_free(&scratch);
  Names cand = {0};
  for (int i = 0; i < all.n; i++)
    if (all.printed[i] && all.val[i] >= 16 && cand.n < OPT_MAX_SIZES) {
      cand.name[cand.n] = all.name[i];
      cand.val[cand.n++] = all.val[i];
    }
  if (!cand.n) {
    snprintf(ps->note, sizeof ps->note, "no size macro of 16 or more is printed by name");
    return;
  }
  /* the mutation test (tests/macro/run.sh): from the options, or $CARVE_SIZES_MUTATION */
  cand.mutation = o->sizes_mutation                ? o->sizes_mutation
                  : getenv("CARVE_SIZES_MUTATION") ? atoi(getenv("CARVE_SIZES_MUTATION"))
                                                   : 0;
  const char *text = variant_text(k, v, plan, &cand);
  /* each candidate alone at a smaller value, then all at larger ones */
  bool bad[OPT_MAX_SIZES] = {0};
  int good[OPT_MAX_SIZES] = {0};
  int64_t got[OPT_MAX_SIZES];
  char detail[512];
  for (int c = 0; c <= cand.n; c++) {
    const char *set[OPT_MAX_SIZES];
    int64_t vals[OPT_MAX_SIZES];
    int nset = 0;
    for (int i = 0; i < cand.n; i++)
      if (c == cand.n ? !bad[i] : i == c) {
        set[nset] = cand.name[i];
        vals[nset++] = other_value(cand.val[i], c == cand.n, i);
      }
    if (!nset || (c == cand.n && cand.n == 1)) continue;
    AtOutcome r = check_at(in, plan, text, set, vals, nset, &cand, got, detail, sizeof detail);
    if (r == AT_SKIPPED && strstr(detail, "ran past")) { /* no other value will end sooner */
      note(ps, "%s=%lld: skipped (%s): no other value tried", set[0], (long long)vals[0], detail);
      break;
    }
    Buf at = {0};
    for (int i = 0; i < cand.n; i++)
      if (got[i] != cand.val[i] || (r == AT_SKIPPED && i == c))
        buf_printf(&at, "%s%s=%lld", at.len ? " " : "", cand.name[i], (long long)got[i]);
    if (!at.len) { /* the -D did not take: the file defines the macro from others */
      buf_printf(&at, "-D %s=%lld left it at %lld (the file defines it)", set[0],
                 (long long)vals[0], (long long)cand.val[c < cand.n ? c : 0]);
      r = AT_SKIPPED;
      detail[0] = 0;
    }
    note(ps, "%s: %s%s%s", at.s ? at.s : "", outcome_text(r), detail[0] ? " (" : "",
         detail[0] ? fmt("%.160s)", detail) : "");
    buf_free(&at);
    for (int i = 0; i < cand.n; i++) {
      if (r == AT_SKIPPED || got[i] == cand.val[i]) continue;
      if (r == AT_EQUAL) {
        size_t u = strlen(ps->verified[i]);
        snprintf(ps->verified[i] + u, sizeof ps->verified[i] - u, "%s%lld", u ? ", " : "",
                 (long long)got[i]);
        good[i]++;
      } else bad[i] = true;
    }
    /* the larger values of a macro that is the only one: its own second configuration */
    if (c == 0 && cand.n == 1 && !bad[0]) {
      int64_t v1 = other_value(cand.val[0], 1, 0);
      r = check_at(in, plan, text, cand.name, &v1, 1, &cand, got, detail, sizeof detail);
      note(ps, "%s=%lld: %s%s%s", cand.name[0], (long long)got[0], outcome_text(r),
           detail[0] ? " (" : "", detail[0] ? fmt("%.160s)", detail) : "");
      if (r == AT_EQUAL && got[0] != cand.val[0]) {
        size_t u = strlen(ps->verified[0]);
        snprintf(ps->verified[0] + u, sizeof ps->verified[0] - u, "%s%lld", u ? ", " : "",
                 (long long)got[0]);
        good[0]++;
      } else if (r != AT_SKIPPED) bad[0] = true;
    }
  }
  /* symbolic: shown right at another value, never wrong or sent to the original at one */
  PlanSizes keep = {0};
  memcpy(keep.note, ps->note, sizeof keep.note);
  for (int i = 0; i < cand.n; i++)
    if (good[i] && !bad[i]) {
      keep.name[keep.n] = cand.name[i];
      keep.val[keep.n] = cand.val[i];
      memcpy(keep.verified[keep.n], ps->verified[i], sizeof keep.verified[0]);
      keep.n++;
    }
  *ps = keep;
}
