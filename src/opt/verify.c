/* verify: no rewrite is trusted unverified. The interpreter runs the original and the variant
 * on the same random inputs (the launch spec's generators) and every buffer is compared element
 * by element, inputs too (a variant must not write where the original does not); outputs start
 * with random contents, so a variant that ignores an output's old value is caught:
 *   reduced  the size macros of the launch spec (those in grid and buffer sizes, not block
 *            shapes) set to at most 64, the same passes with the same parameters applied to that
 *            program, every block run;
 *   ragged   the same at 61, a size no tile divides;
 *   full     the user's sizes, sampled blocks (first, last, spread) of the variant and the blocks
 *            of the original that cover the same threads (the same blocks, unless a pass reshaped
 *            the launch); skipped when a pass permutes blocks (diagonal reordering).
 * A fault, race or divergent barrier in the variant, or any difference beyond the spec's
 * tolerance, rejects it; the result names the size and the first differing element. A size at
 * which the original itself faults is skipped and says so.
 * The launch flags (--grid/--block: the user's, or a host program's recorded launch) are the
 * original's; the variant runs with them only while no kept step reshaped the launch, else with
 * the grid and block that step wrote into the variant's launch spec.
 * The original's side of a verification does not depend on the variant: with a VerifyCache its
 * loads at the reduced and ragged sizes and its runs are kept and reused (carve tune verifies
 * many variants of one kernel), exactly: the run's inputs and outputs come from fixed seeds. */
#include "opt.h"

#include "../analysis/analysis.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SIZE_MACROS = 8, REDUCED = 64, RAGGED = 61, FULL_BLOCKS = 8 };
/* the full size runs its sampled blocks within a budget: past FULL_MAX_STEPS warp-steps of the
 * original (about 3 s in the interpreter on this project's 2-core machine) the full size is
 * skipped and says so (a thread-per-column kernel at 1024 runs about 6e8 on its 8 blocks,
 * 2026-11-27); the variant gets VARIANT_STEPS_FACTOR times the original's budget */
#define FULL_MAX_STEPS 30000000ull
enum { VARIANT_STEPS_FACTOR = 8 };

/* the macros the launch spec's sizes come from: identifiers in `#pragma carve` lines that name
 * integer macros, except those inside block(...) (the block shape stays) */
static int size_macros(Program *p, const char *names[], int64_t vals[]) {
  int n = 0;
  for (TopItem *it = p->items; it; it = it->next) {
    if (it->kind != TOP_PRAGMA || !it->tok->str) continue;
    const char *s = it->tok->str;
    if (strncmp(s, "carve", 5)) continue;
    int paren = 0, block_at = -1;
    for (const char *c = s + 5; *c;) {
      if (*c == '(') {
        paren++;
        c++;
        continue;
      }
      if (*c == ')') {
        if (paren == block_at) block_at = -1;
        paren--;
        c++;
        continue;
      }
      if (isalpha((unsigned char)*c) || *c == '_') {
        const char *b = c;
        while (isalnum((unsigned char)*c) || *c == '_') c++;
        char *name = arena_strndup(b, (size_t)(c - b));
        if (!strcmp(name, "block") || !strcmp(name, "tol")) {
          block_at = paren + 1;
          continue;
        }
        if (block_at >= 0 && paren >= block_at) continue;
        int64_t v;
        if (!program_macro_value(p, name, &v) || v < 16) continue;
        bool dup = false;
        for (int i = 0; i < n; i++)
          if (!strcmp(names[i], name)) dup = true;
        if (!dup && n < MAX_SIZE_MACROS) {
          names[n] = name;
          vals[n] = v;
          n++;
        }
        continue;
      }
      c++;
    }
  }
  return n;
}

/* a launch from flags alone (a host program's recorded launch, or --grid/--block without a
 * spec) has no `#pragma carve` sizes: the size macros are then the user's integer defines
 * (-D M=1024) of at least 16, which the reduced sizes set as they set a spec's (issue 28) */
static int define_macros(const OptInput *in, Program *p, const char *names[], int64_t vals[]) {
  if (!in->grid || !in->block) return 0;
  int n = 0;
  for (int i = 0; i < in->pp.n_defines && n < MAX_SIZE_MACROS; i++) {
    const char *d = in->pp.defines[i], *eq = strchr(d, '=');
    char *name = arena_strndup(d, eq ? (size_t)(eq - d) : strlen(d));
    int64_t v;
    if (!eq || !program_macro_value(p, name, &v) || v < 16) continue;
    bool dup = false;
    for (int j = 0; j < n; j++) dup |= !strcmp(names[j], name);
    if (!dup) {
      names[n] = name;
      vals[n] = v;
      n++;
    }
  }
  return n;
}

/* a flag launch at a reduced size (define_macros): every integer scalar --arg equal to a size
 * macro's value takes that macro's reduced value (min(v, target): macros of one value reduce
 * alike, so the match is never ambiguous), and a grid dimension that is ceil(v / block) for a
 * macro's v becomes ceil(v' / block); buffers keep their recorded contents and counts (the
 * kernel at the reduced size reads a prefix of them). Scaling every size the kernel reads
 * alike keeps the launch one the program could have made; any other --arg is kept as given. */
static OptInput scaled_flags(const OptInput *in, Program *p, const int64_t *vals, int n,
                             int target) {
  OptInput r = *in;
  int64_t g[3], b[3];
  if (!parse_flag_dims(p, "--grid", in->grid, g) || !parse_flag_dims(p, "--block", in->block, b))
    return r;
  for (int d = 0; d < 3; d++) {
    if (g[d] < 2 || b[d] < 1) continue;
    int64_t best = 0;
    for (int j = 0; j < n; j++) {
      int64_t nv = vals[j] < target ? vals[j] : target;
      if ((vals[j] + b[d] - 1) / b[d] == g[d] && (nv + b[d] - 1) / b[d] > best)
        best = (nv + b[d] - 1) / b[d];
    }
    if (best) g[d] = best;
  }
  r.grid = fmt("%lld,%lld,%lld", (long long)g[0], (long long)g[1], (long long)g[2]);
  const char **args = arena_alloc(sizeof(char *) * (size_t)(in->nargs + 1));
  for (int i = 0; i < in->nargs; i++) {
    const char *a = in->arg_texts[i], *eq = strchr(a, '=');
    args[i] = a;
    if (!eq || !eq[1]) continue;
    char *end;
    long long v = strtoll(eq + 1, &end, 10);
    if (*end) continue;
    for (int j = 0; j < n; j++)
      if (vals[j] == v) {
        args[i] =
          fmt("%.*s=%lld", (int)(eq - a), a, (long long)(vals[j] < target ? vals[j] : target));
        break;
      }
  }
  r.arg_texts = args;
  return r;
}

/* the user's defines with the macros names[0..n) set to vals (a -D of the same name replaced);
 * also sizes.c's, for a macro kept by name verified at other values */
PPOptions opt_defines_at(const OptInput *in, const char **names, const int64_t *vals, int n) {
  PPOptions pp = in->pp;
  const char **defs = arena_alloc(sizeof(char *) * (size_t)(in->pp.n_defines + n + 1));
  int nd = 0;
  for (int i = 0; i < in->pp.n_defines; i++) {
    const char *d = in->pp.defines[i];
    bool replaced = false;
    for (int j = 0; j < n; j++) {
      size_t l = strlen(names[j]);
      replaced |= !strncmp(d, names[j], l) && (d[l] == '=' || d[l] == 0);
    }
    if (!replaced) defs[nd++] = d;
  }
  for (int j = 0; j < n; j++) defs[nd++] = fmt("%s=%lld", names[j], (long long)vals[j]);
  pp.defines = defs;
  pp.n_defines = nd;
  return pp;
}

/* the user's defines with the size macros at most target, said in label */
static PPOptions resized(const OptInput *in, const char **names, const int64_t *vals, int n,
                         int target, char *label, size_t len) {
  int64_t *v = arena_alloc(sizeof(int64_t) * (size_t)(n + 1));
  label[0] = 0;
  for (int j = 0; j < n; j++) {
    v[j] = vals[j] < target ? vals[j] : target;
    size_t used = strlen(label);
    snprintf(label + used, len - used, "%s%s=%lld", j ? " " : "", names[j], (long long)v[j]);
  }
  return opt_defines_at(in, names, v, n);
}

typedef struct {
  int64_t *blocks;
  int n;
} Sample;
static bool want_block(void *ctx, int64_t b) {
  Sample *s = ctx;
  for (int i = 0; i < s->n; i++)
    if (s->blocks[i] == b) return true;
  return false;
}

static bool close_enough(Type *t, const unsigned char *a, const unsigned char *b, double rel,
                         double abs_tol, double *va, double *vb) {
  if (t->kind == TY_FLOAT || t->kind == TY_DOUBLE) {
    double x, y;
    if (t->kind == TY_FLOAT) {
      float f, g;
      memcpy(&f, a, 4);
      memcpy(&g, b, 4);
      x = f;
      y = g;
    } else {
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
    }
    *va = x;
    *vb = y;
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
    if (x == y) return true;
    return fabs(x - y) <= abs_tol + rel * fmax(fabs(x), fabs(y));
  }
  *va = *vb = 0;
  return !memcmp(a, b, (size_t)t->size);
}

/* every buffer element of the variant against the original's; 0 equal, 1 differ (detail) */
static int compare_launches(Launch *a, Launch *b, double rel, double abs_tol, char *detail,
                            size_t len, int64_t *compared) {
  if (a->nbufs != b->nbufs) {
    snprintf(detail, len, "the variant's launch has other buffers");
    return 1;
  }
  for (int i = 0; i < a->nbufs; i++) {
    Buffer *x = &a->bufs[i], *y = &b->bufs[i];
    if (x->bytes != y->bytes) {
      snprintf(detail, len, "buffer %s has another size", x->name ? x->name : "?");
      return 1;
    }
    if (!x->bytes) continue;
    Type *t = x->elem_ty ? x->elem_ty : ty_uchar;
    Type *comp = t->kind == TY_STRUCT && t->is_vector ? t->members->ty : t;
    size_t es = (size_t)comp->size;
    if (!es) es = 1;
    size_t n = x->bytes / es;
    for (size_t e = 0; e < n; e++) {
      double va, vb;
      if (!close_enough(comp, x->data + e * es, y->data + e * es, rel, abs_tol, &va, &vb)) {
        if (is_flonum(comp))
          snprintf(detail, len, "%s[%zu]: original %.9g, variant %.9g", x->name ? x->name : "?", e,
                   va, vb);
        else
          snprintf(detail, len, "%s[%zu] differs (byte-exact comparison)", x->name ? x->name : "?",
                   e);
        return 1;
      }
    }
    *compared += (int64_t)n;
  }
  return 0;
}

typedef struct {
  FILE *saved, *null;
  int errs;
} Quiet;
static Quiet quiet(void) {
  Quiet q = {diag_out, fopen("/dev/null", "w"), diag_errors};
  diag_out = q.null;
  return q;
}
static void loud(Quiet q) {
  diag_out = q.saved;
  diag_errors = q.errs;
  if (q.null) fclose(q.null);
}

/* the grid and block a launch gets: grid/block when given; else the flags' --grid/--block when
 * `flags` (the original's, and a variant's while no kept step reshaped the launch); else the
 * program's own launch spec (a reshaped variant: the pass wrote its new grid and block there) */
typedef struct {
  bool flags;
  const int64_t *grid, *block;
} Shape;
static const Shape FLAGS = {true, NULL, NULL}, OWN_SPEC = {false, NULL, NULL};

/* prepare the launch of `kernel` in p with the --arg settings of `in` and the shape sh; 0 ok */
static int prepare(const OptInput *in, Program *p, Launch *L, Shape sh) {
  Obj *k = find_kernel(p, in->kernel);
  if (!k) return 2;
  LaunchOverrides ov = {0};
  ov.dyn_shared = -1;
  if (sh.grid) {
    memcpy(ov.grid, sh.grid, sizeof ov.grid);
    ov.has_grid = true;
  } else if (sh.flags && in->grid) {
    if (!parse_flag_dims(p, "--grid", in->grid, ov.grid)) return 2;
    ov.has_grid = true;
  }
  if (sh.block) {
    memcpy(ov.block, sh.block, sizeof ov.block);
    ov.has_block = true;
  } else if (sh.flags && in->block) {
    if (!parse_flag_dims(p, "--block", in->block, ov.block)) return 2;
    ov.has_block = true;
  }
  if (in->recorded) { /* a launch recorded at other sizes (sizes.c): its arguments as they were */
    ov.args = in->recorded->args;
    ov.nargs = in->recorded->nargs;
    ov.constant = in->recorded->constant;
    ov.device_vars = in->recorded->device_vars;
    ov.dyn_shared = in->recorded->dyn_shared;
  } else if (!parse_arg_settings(p, in->arg_texts, in->nargs, &ov)) return 2;
  int rc = launch_prepare(L, p, k, &ov);
  if (!rc) L->machine = in->m; /* the target's limits: a tile too big for it faults */
  return rc;
}

bool plan_step_kept(const PlanStep *s) { return s->applied && !s->rejected && !s->unprofitable; }

/* the last kept step that reshaped the launch (a pass that changes it says which threads of the
 * original each new block covers), or NULL */
static const PlanStep *last_reshape(const PlanStep *steps, int nsteps) {
  const PlanStep *r = NULL;
  for (int i = 0; i < nsteps; i++)
    if (plan_step_kept(&steps[i]) && steps[i].cover[0] > 0) r = &steps[i];
  return r;
}

/* an original whose launch comes from the flags alone (a host program's recorded launch, or
 * --grid/--block without a spec) gives a reshaping pass no spec to write its launch into: p gets
 * one of the flags' grid and block, which the launch flags override anyway */
static void flag_spec(const OptInput *in, Program *p) {
  Obj *k = find_kernel(p, in->kernel);
  int64_t g[3], b[3];
  if (!k || !in->grid || !in->block || find_spec(p, in->kernel)) return;
  if (!parse_flag_dims(p, "--grid", in->grid, g) || !parse_flag_dims(p, "--block", in->block, b))
    return;
  ProgramScope sc = program_enter(p);
  LaunchSpec *s = arena_alloc(sizeof *s);
  s->kernel = arena_strdup(in->kernel);
  s->tok = k->tok;
  memcpy(s->grid, g, sizeof g);
  memcpy(s->block, b, sizeof b);
  s->has_grid = s->has_block = true;
  s->next = p->specs;
  p->specs = s;
  program_leave(sc);
}

/* the shape of a variant (of orig, at the size of orig) whose kept steps reshaped the launch:
 * its own spec's; where it has none (flag_spec's case), the steps applied again to a copy of orig
 * given the flags' spec, and the shape read from the copy's */
static bool reshaped_shape(const OptInput *in, Program *orig, Program *variant,
                           const PlanStep *steps, int nsteps, int64_t grid[3], int64_t block[3]) {
  LaunchSpec *s = find_spec(variant, in->kernel);
  if (s && s->has_grid && s->has_block) {
    memcpy(grid, s->grid, sizeof s->grid);
    memcpy(block, s->block, sizeof s->block);
    return true;
  }
  Program *c = program_clone(orig);
  if (!c) return false;
  bool ok = false;
  Quiet q = quiet();
  flag_spec(in, c);
  Launch L;
  memset(&L, 0, sizeof L);
  if (!prepare(in, c, &L, FLAGS)) {
    char why[512];
    Program *v = opt_apply_steps(c, &L, in->m, steps, nsteps, why, sizeof why);
    s = v ? find_spec(v, in->kernel) : NULL;
    if (s && s->has_grid && s->has_block) {
      memcpy(grid, s->grid, sizeof s->grid);
      memcpy(block, s->block, sizeof s->block);
      ok = true;
    }
    program_free(v);
    launch_free(&L);
  }
  loud(q);
  program_free(c);
  return ok;
}

/* outputs start random, not as the spec's zeros: a variant that forgets to read an output's
 * old value (an accumulator not loaded) must not pass because the old value was zero */
static void randomize_outputs(Launch *L) {
  for (int i = 1; i < L->nbufs; i++) {
    Buffer *b = &L->bufs[i];
    if (!b->out || !b->elem_ty) continue;
    Type *t =
      b->elem_ty->kind == TY_STRUCT && b->elem_ty->is_vector ? b->elem_ty->members->ty : b->elem_ty;
    size_t es = (size_t)t->size, n = es ? b->bytes / es : 0;
    for (size_t e = 0; e < n; e++) {
      uint64_t r = random_bits(0x5eed0000u + (uint64_t)i, e);
      unsigned char *d = b->data + e * es;
      if (t->kind == TY_FLOAT) {
        float f = (float)((double)(r >> 11) / 9007199254740992.0 * 2 - 1);
        memcpy(d, &f, 4);
      } else if (t->kind == TY_DOUBLE) {
        double x = (double)(r >> 11) / 9007199254740992.0 * 2 - 1;
        memcpy(d, &x, 8);
      } else {
        int64_t v = (int64_t)(r % 97);
        memcpy(d, &v, es < 8 ? es : 8);
      }
    }
  }
}

/* run; the first diagnostic (if any) into msg */
static int run_quiet(Launch *L, const RunOptions *ro, char *msg, size_t len) {
  char *buf = NULL;
  size_t sz = 0;
  FILE *mem = open_memstream(&buf, &sz);
  FILE *saved = diag_out;
  diag_out = mem;
  int errs = diag_errors;
  RunStats st;
  RunOptions o = *ro;
  o.printf_out = mem;
  o.max_reports = 1;
  int rc = interp_run(L, &o, &st);
  diag_out = saved;
  diag_errors = errs;
  fclose(mem);
  if (msg && len) {
    msg[0] = 0;
    if (buf && rc) {
      char *nl = strchr(buf, '\n');
      snprintf(msg, len, "%.*s", nl ? (int)(nl - buf) : (int)strlen(buf), buf);
    }
  }
  free(buf);
  return rc;
}

/* the blocks the original runs for a sample of the variant's: the same threads, when the variant
 * reshaped the launch (each of its blocks covers `cover` threads of a dimension, as the pass that
 * reshaped it said; without that, grid*block/grid' where that divides evenly). Both directions:
 * the variant's sample grows to every variant block covering the original blocks it maps to, so
 * the two runs write the same elements also when a variant block covers part of an original one
 * (split: 4 rows of the original's 128). */
static bool cover_of(const Launch *a, const Launch *b, const int64_t *cover, int64_t V[3]) {
  for (int d = 0; d < 3; d++) {
    int64_t span = a->grid[d] * a->block[d];
    if (cover && cover[d] > 0) V[d] = cover[d];
    else if (span % b->grid[d]) return false;
    else V[d] = span / b->grid[d];
  }
  return true;
}

static bool add_block(Sample *s, int64_t b) {
  for (int i = 0; i < s->n; i++)
    if (s->blocks[i] == b) return true;
  if (s->n == 4096) return false;
  s->blocks[s->n++] = b;
  return true;
}

/* blocks of launch `to` whose threads overlap those of blocks `from` of launch `fr`, where a block
 * of `fr` spans cf[d] threads and one of `to` ct[d] */
static bool remap(const Launch *fr, const Launch *to, const int64_t cf[3], const int64_t ct[3],
                  const Sample *from, Sample *out) {
  for (int i = 0; i < from->n; i++) {
    int64_t l = from->blocks[i], v[3] = {l % fr->grid[0], l / fr->grid[0] % fr->grid[1],
                                         l / (fr->grid[0] * fr->grid[1])};
    int64_t lo[3], hi[3];
    for (int d = 0; d < 3; d++) {
      lo[d] = v[d] * cf[d] / ct[d];
      hi[d] = ((v[d] + 1) * cf[d] - 1) / ct[d];
      if (hi[d] >= to->grid[d]) hi[d] = to->grid[d] - 1;
    }
    for (int64_t z = lo[2]; z <= hi[2]; z++)
      for (int64_t y = lo[1]; y <= hi[1]; y++)
        for (int64_t x = lo[0]; x <= hi[0]; x++)
          if (!add_block(out, x + to->grid[0] * (y + to->grid[1] * z))) return false;
  }
  return true;
}

static bool map_sample(const Launch *a, const Launch *b, const int64_t *cover, Sample *vb,
                       Sample *oa) {
  int64_t V[3], A[3] = {a->block[0], a->block[1], a->block[2]};
  if (!cover_of(a, b, cover, V)) return false;
  oa->n = 0;
  oa->blocks = xmalloc(sizeof(int64_t) * 4096);
  if (!remap(b, a, V, A, vb, oa)) return false;
  Sample grown = {xmalloc(sizeof(int64_t) * 4096), 0};
  bool ok = remap(a, b, A, V, oa, &grown);
  if (ok) {
    free(vb->blocks);
    *vb = grown;
    oa->n = 0;
    ok = remap(b, a, V, A, vb, oa);
  } else free(grown.blocks);
  return ok;
}

/* ---- the original's side, reused between variants (VerifyCache) ----
 * A run of the original depends on the program (pointer and generation: the caller keeps it
 * alive and unchanged), the kernel, the --grid/--block/--arg settings, the machine (its limits
 * fault a launch) and the blocks run; its inputs and outputs come from fixed seeds
 * (buffer_init's generators, randomize_outputs), so a kept run holds the bytes a fresh one
 * writes. Entries are lists: a tune has a few shapes, each a few samples. */
typedef struct OrigRun {
  struct OrigRun *next;
  int64_t *blocks;
  int nblocks;      /* the blocks run, sorted; 0: every block */
  Launch L;         /* after the run: the buffers a variant's are compared with */
  int rc;           /* the run's: nonzero, the original faults (msg) */
  bool over_budget; /* rc: it ran past its max_steps (FULL_MAX_STEPS) */
  char msg[400];
  size_t bytes;
  uint64_t used;
} OrigRun;

typedef struct OrigLaunch {
  struct OrigLaunch *next;
  Program *p;
  int generation;
  char *key; /* launch_key */
  int rc;    /* launch_prepare's: nonzero, the launch cannot be prepared */
  int64_t grid[3], block[3];
  OrigRun *runs;
} OrigLaunch;

typedef struct Loaded { /* the source at a reduced or ragged size */
  struct Loaded *next;
  char *key;  /* load_key */
  Program *p; /* NULL: it does not load there */
  size_t bytes;
  uint64_t used;
  bool pinned; /* in use: not evicted */
} Loaded;

struct VerifyCache {
  size_t max_bytes, bytes;
  uint64_t tick;
  VerifyCacheStats st;
  Loaded *loaded;
  OrigLaunch *launches;
};

enum { DEFAULT_CACHE_BYTES = 256 << 20 };

VerifyCache *verify_cache_new(size_t max_bytes) {
  VerifyCache *c = xmalloc(sizeof *c);
  c->max_bytes = max_bytes ? max_bytes : DEFAULT_CACHE_BYTES;
  return c;
}

VerifyCacheStats verify_cache_stats(const VerifyCache *c) {
  VerifyCacheStats st = c->st;
  st.bytes = c->bytes;
  return st;
}

static void run_free(OrigRun *r) {
  launch_free(&r->L);
  free(r->blocks);
  free(r);
}

static void launches_free(VerifyCache *c, Program *only) {
  for (OrigLaunch **pp = &c->launches; *pp;) {
    OrigLaunch *ol = *pp;
    if (only && ol->p != only) {
      pp = &ol->next;
      continue;
    }
    for (OrigRun *r = ol->runs, *n; r; r = n) {
      n = r->next;
      c->bytes -= r->bytes;
      run_free(r);
    }
    *pp = ol->next;
    free(ol->key);
    free(ol);
  }
}

void verify_cache_free(VerifyCache *c) {
  if (!c) return;
  launches_free(c, NULL);
  for (Loaded *l = c->loaded, *n; l; l = n) {
    n = l->next;
    program_free(l->p);
    free(l->key);
    free(l);
  }
  free(c);
}

/* the least recently used entry that may go (a run, or a loaded program with its runs) out;
 * false when none may */
static bool evict_one(VerifyCache *c) {
  OrigRun **run = NULL;
  Loaded **load = NULL;
  uint64_t oldest = UINT64_MAX;
  for (OrigLaunch *ol = c->launches; ol; ol = ol->next)
    for (OrigRun **r = &ol->runs; *r; r = &(*r)->next)
      if ((*r)->used < oldest) {
        oldest = (*r)->used;
        run = r;
      }
  for (Loaded **l = &c->loaded; *l; l = &(*l)->next)
    if (!(*l)->pinned && (*l)->used < oldest) {
      oldest = (*l)->used;
      load = l;
      run = NULL;
    }
  if (run) {
    OrigRun *r = *run;
    *run = r->next;
    c->bytes -= r->bytes;
    run_free(r);
  } else if (load) {
    Loaded *l = *load;
    *load = l->next;
    launches_free(c, l->p);
    c->bytes -= l->bytes;
    program_free(l->p);
    free(l->key);
    free(l);
  } else return false;
  c->st.evictions++;
  return true;
}

/* room for bytes more: false when it cannot be made (the entry is not kept) */
static bool make_room(VerifyCache *c, size_t bytes) {
  if (bytes > c->max_bytes) return false;
  while (c->bytes + bytes > c->max_bytes)
    if (!evict_one(c)) return false;
  return true;
}

/* what a launch of the original depends on besides the program: kernel, flags, machine */
static char *launch_key(const OptInput *in) {
  Buf b = {0};
  buf_printf(&b, "%s\x1f%s\x1f%s\x1f%p\x1f%s", in->kernel ? in->kernel : "",
             in->grid ? in->grid : "-", in->block ? in->block : "-", (const void *)in->m,
             in->m ? in->m->name : "");
  for (int i = 0; i < in->nargs; i++) buf_printf(&b, "\x1f%s", in->arg_texts[i]);
  return b.s;
}

/* the original's launch at this size (its prepare verdict and shape), from the cache or, when
 * fresh (a miss, or no cache), prepared into *fresh; NULL only without a cache, with *tmp filled */
static OrigLaunch *orig_launch(const OptInput *in, Program *orig, Launch *fresh, OrigLaunch *tmp) {
  VerifyCache *c = in->cache;
  char *key = c ? launch_key(in) : NULL;
  if (c)
    for (OrigLaunch *ol = c->launches; ol; ol = ol->next)
      if (ol->p == orig && ol->generation == orig->generation && !strcmp(ol->key, key)) {
        free(key);
        return ol;
      }
  OrigLaunch *ol = c ? xmalloc(sizeof *ol) : tmp;
  memset(ol, 0, sizeof *ol);
  ol->p = orig;
  ol->generation = orig->generation;
  ol->key = key;
  ol->rc = prepare(in, orig, fresh, FLAGS);
  memcpy(ol->grid, fresh->grid, sizeof ol->grid);
  memcpy(ol->block, fresh->block, sizeof ol->block);
  if (ol->rc) launch_free(fresh);
  if (c) {
    ol->next = c->launches;
    c->launches = ol;
  }
  return ol;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static size_t launch_bytes(const Launch *L) {
  size_t n = sizeof *L + (size_t)L->prog->constant_size;
  for (int i = 0; i < L->nbufs; i++) n += L->bufs[i].bytes + sizeof(Buffer);
  return n;
}

/* the original run on the blocks of sample s (NULL: every block): kept in the cache, or owned by
 * the caller (*owned: run_free it). fresh: the launch prepared by orig_launch, or unprepared */
static OrigRun *orig_run(const OptInput *in, OrigLaunch *ol, Program *orig, Launch *fresh,
                         const Sample *s, uint64_t max_steps, bool *owned) {
  VerifyCache *c = in->cache;
  int n = s ? s->n : 0;
  int64_t *sorted = n ? xmalloc(sizeof(int64_t) * (size_t)n) : NULL;
  if (n) {
    memcpy(sorted, s->blocks, sizeof(int64_t) * (size_t)n);
    qsort(sorted, (size_t)n, sizeof(int64_t), cmp_i64);
  }
  for (OrigRun *r = ol->runs; c && r; r = r->next)
    if (r->nblocks == n && (!n || !memcmp(r->blocks, sorted, sizeof(int64_t) * (size_t)n))) {
      free(sorted);
      r->used = ++c->tick;
      c->st.run_hits++;
      *owned = false;
      return r;
    }
  OrigRun *r = xmalloc(sizeof *r);
  r->blocks = sorted;
  r->nblocks = n;
  if (!fresh->prog) {
    Quiet q = quiet();
    int rc = prepare(in, orig, fresh, FLAGS);
    loud(q);
    if (rc) {
      r->rc = 2;
      snprintf(r->msg, sizeof r->msg, "its launch cannot be prepared");
      *owned = true;
      return r;
    }
  }
  r->L = *fresh;
  memset(fresh, 0, sizeof *fresh);
  randomize_outputs(&r->L);
  Hooks h = {.ctx = (void *)s, .want_block = want_block};
  RunOptions ro = {.hooks = n ? &h : NULL, .poison_shared = true, .max_steps = max_steps};
  r->rc = run_quiet(&r->L, &ro, r->msg, sizeof r->msg);
  r->over_budget = r->rc && max_steps && strstr(r->msg, "step limit");
  r->bytes = launch_bytes(&r->L) + sizeof(int64_t) * (size_t)n;
  *owned = true;
  if (c) c->st.runs++;
  if (c && make_room(c, r->bytes)) {
    r->used = ++c->tick;
    r->next = ol->runs;
    ol->runs = r;
    c->bytes += r->bytes;
    *owned = false;
  }
  return r;
}

/* what a load of the source at other sizes depends on: the file, every define, the include
 * directories, and the launch flags (flag_spec) */
static char *load_key(const OptInput *in, const PPOptions *pp) {
  Buf b = {0};
  buf_printf(&b, "%s\x1e%d", in->path, pp->no_includes);
  for (int i = 0; i < pp->n_defines; i++) buf_printf(&b, "\x1f-D%s", pp->defines[i]);
  for (int i = 0; i < pp->n_include_dirs; i++) buf_printf(&b, "\x1f-I%s", pp->include_dirs[i]);
  char *lk = launch_key(in);
  buf_printf(&b, "\x1e%s", lk);
  free(lk);
  return b.s;
}

/* the source loaded with pp (and flag_spec), NULL if it does not load; *ld: the cache's entry
 * (pinned: unpin it when done) or NULL (the caller frees the program) */
static Program *load_at(const OptInput *in, const PPOptions *pp, Loaded **ld) {
  VerifyCache *c = in->cache;
  *ld = NULL;
  char *key = c ? load_key(in, pp) : NULL;
  for (Loaded *l = c ? c->loaded : NULL; l; l = l->next)
    if (!strcmp(l->key, key)) {
      free(key);
      l->used = ++c->tick;
      c->st.load_hits++;
      if (l->p) {
        l->pinned = true;
        *ld = l;
      }
      return l->p;
    }
  Quiet q = quiet();
  Program *p = in->path ? load_program(in->path, pp) : NULL;
  if (p && p->errors) {
    program_free(p);
    p = NULL;
  }
  if (p) flag_spec(in, p);
  loud(q);
  if (!c) return p;
  c->st.loads++;
  size_t bytes = p ? arena_bytes(p->arena) : 0;
  if (!make_room(c, bytes)) {
    free(key);
    return p;
  }
  Loaded *l = xmalloc(sizeof *l);
  l->key = key;
  l->p = p;
  l->bytes = bytes;
  l->used = ++c->tick;
  l->pinned = p != NULL;
  l->next = c->loaded;
  c->loaded = l;
  c->bytes += bytes;
  if (p) *ld = l;
  return p;
}

static void unload(Loaded *ld, Program *p) {
  if (ld) ld->pinned = false;
  else program_free(p);
}
/* one size: the original (its launch as the flags give it) and the variant (its launch as vshape
 * says) on the same inputs; sampled: first, last and spread blocks of the variant, and the
 * original's blocks that cover the same threads */
static int compare_bound(Launch *a, Launch *b, Launch *mag, Launch *one, double trip, double rel,
                         double abs_tol, char *detail, size_t len, int64_t *compared);
static int bound_runs(const OptInput *in, Program *orig, const Sample *s, Launch *mag, Launch *one);
static void fold_sensitivity(Launch *mag, Launch *base, Launch *pert);

static void check_size(const OptInput *in, Program *orig, Program *variant, Shape vshape,
                       bool sampled, const int64_t *cover, double reassoc, VerifySize *vs) {
  Launch fresh, b;
  memset(&fresh, 0, sizeof fresh);
  memset(&b, 0, sizeof b);
  OrigLaunch tmp;
  Quiet q = quiet();
  OrigLaunch *ol = orig_launch(in, orig, &fresh, &tmp);
  int rb = ol->rc ? 2 : prepare(in, variant, &b, vshape);
  loud(q);
  vs->ran = true;
  if (ol->rc) {
    vs->skipped = true;
    snprintf(vs->detail, sizeof vs->detail,
             "the original's launch cannot be prepared at this size");
    return;
  }
  if (rb) {
    vs->ok = false;
    snprintf(vs->detail, sizeof vs->detail, "the variant's launch cannot be prepared");
    launch_free(&fresh);
    return;
  }
  randomize_outputs(&b);
  Launch a; /* the original's shape, for the sample */
  memset(&a, 0, sizeof a);
  memcpy(a.grid, ol->grid, sizeof a.grid);
  memcpy(a.block, ol->block, sizeof a.block);
  Sample sb = {NULL, 0}, sa = {NULL, 0};
  int64_t total = b.grid[0] * b.grid[1] * b.grid[2];
  if (sampled && total > FULL_BLOCKS) {
    sb.blocks = xmalloc(sizeof(int64_t) * FULL_BLOCKS);
    sb.n = launch_sample_blocks(total, FULL_BLOCKS, sb.blocks);
    bool same = !memcmp(a.grid, b.grid, sizeof a.grid) && !memcmp(a.block, b.block, sizeof a.block);
    if (same) {
      sa.blocks = xmalloc(sizeof(int64_t) * FULL_BLOCKS);
      memcpy(sa.blocks, sb.blocks, sizeof(int64_t) * (size_t)sb.n);
      sa.n = sb.n;
    } else if (!map_sample(&a, &b, cover, &sb, &sa)) {
      vs->skipped = true;
      snprintf(
        vs->detail, sizeof vs->detail,
        "the reshaped grid does not tile the original's threads evenly: no block sample maps onto it");
      free(sb.blocks);
      free(sa.blocks);
      launch_free(&fresh);
      launch_free(&b);
      return;
    }
    snprintf(vs->defines, sizeof vs->defines,
             "as given, %d of %lld blocks (the original: %d of %lld)", sb.n, (long long)total, sa.n,
             (long long)(a.grid[0] * a.grid[1] * a.grid[2]));
  }
  bool owned;
  uint64_t budget = sampled ? FULL_MAX_STEPS : 0;
  OrigRun *ra = orig_run(in, ol, orig, &fresh, sb.n ? &sa : NULL, budget, &owned);
  Hooks hb = {.ctx = &sb, .want_block = want_block};
  RunOptions rob = {
    .hooks = sb.n ? &hb : NULL, .poison_shared = true, .max_steps = budget * VARIANT_STEPS_FACTOR};
  char msg[400];
  if (ra->rc && ra->over_budget) {
    vs->skipped = true;
    snprintf(
      vs->detail, sizeof vs->detail,
      "the original takes more than %llu warp-steps on the %s blocks in the interpreter: not run at this size",
      (unsigned long long)FULL_MAX_STEPS, sb.n ? "sampled" : "launch's");
  } else if (ra->rc) {
    vs->skipped = true;
    snprintf(vs->detail, sizeof vs->detail, "the original faults at this size: %s", ra->msg);
  } else if (run_quiet(&b, &rob, msg, sizeof msg)) {
    vs->ok = false;
    snprintf(vs->detail, sizeof vs->detail, "the variant faults: %s", msg);
  } else {
    LaunchSpec *s = find_spec(orig, in->kernel);
    double rel = s ? s->rel_tol : 0, abs_tol = s ? s->abs_tol : 0;
    vs->ok =
      !compare_launches(&ra->L, &b, rel, abs_tol, vs->detail, sizeof vs->detail, &vs->compared);
    /* a reassociated sum beyond tol (a host program's kernel has none): within the bound such a
     * sum meets, on the same data (the original run on its magnitudes and on ones) */
    Launch mag, one;
    if (!vs->ok && reassoc >= 0 && !bound_runs(in, orig, sa.n ? &sa : NULL, &mag, &one)) {
      vs->compared = 0;
      vs->ok = !compare_bound(&ra->L, &b, &mag, &one, reassoc, rel, abs_tol, vs->detail,
                              sizeof vs->detail, &vs->compared);
      launch_free(&mag);
      launch_free(&one);
    }
  }
  if (owned) run_free(ra);
  free(sa.blocks);
  free(sb.blocks);
  launch_free(&fresh);
  launch_free(&b);
}

/* the original's run that every variant keeping its launch needs at this size (sampled: the
 * full size's blocks), into the cache */
static void warm_launch(const OptInput *in, Program *p, bool sampled) {
  Launch fresh;
  memset(&fresh, 0, sizeof fresh);
  OrigLaunch tmp;
  Quiet q = quiet();
  OrigLaunch *ol = orig_launch(in, p, &fresh, &tmp);
  loud(q);
  if (!ol->rc) {
    int64_t total = ol->grid[0] * ol->grid[1] * ol->grid[2];
    Sample s = {NULL, 0};
    if (sampled && total > FULL_BLOCKS) {
      s.blocks = xmalloc(sizeof(int64_t) * FULL_BLOCKS);
      s.n = launch_sample_blocks(total, FULL_BLOCKS, s.blocks);
    }
    bool owned;
    OrigRun *r = orig_run(in, ol, p, &fresh, s.n ? &s : NULL, sampled ? FULL_MAX_STEPS : 0, &owned);
    if (owned) run_free(r);
    free(s.blocks);
  }
  launch_free(&fresh);
}

/* ---- signed and special data (issue 26, item 3) ----
 * The launch spec's generators give non-negative data, where a reassociated sum is as exact as
 * the original's. A second run fills every floating-point buffer (inputs and outputs, both
 * programs alike) with values of both signs, in [-1, 1] and a few special ones (0, -0, tiny,
 * subnormal, 1000); every block runs. Each element must agree within the spec's tol, or, for a
 * step that reassociates a floating-point sum (OPT_SPEC_REASSOC), within the bound such a sum
 * meets whatever the order: |variant - original| <= 2 * n * eps * S, with S the original run on
 * the magnitudes of the same data (the sum of |terms| for sums of products), n that run on ones
 * (the number of terms, at least 1) and eps the element type's unit roundoff (2^-24, 2^-53). */
/* the signed runs cover every block, so they are bounded: at most SIGNED_MAX_THREADS threads, and
 * the original's run at most SIGNED_MAX_STEPS warp-steps (about 10 s in the interpreter on this
 * project's 2-core machine); past either the check is skipped and says so */
enum { SIGNED_MAX_THREADS = 1 << 21 };
#define SIGNED_MAX_STEPS 100000000ull

#define SENS_DELTA 0x1p-12                     /* fold_sensitivity's relative move of the inputs */
static void signed_fill(Launch *L, int mode) { /* 0 signed, 1 magnitudes, 2 ones, 3 moved */
  static const double special[6] = {0.0, -0.0, 1e-30, -1.0e-42, 1000.0, -1000.0};
  for (int i = 1; i < L->nbufs; i++) {
    Buffer *b = &L->bufs[i];
    if (!b->elem_ty) continue;
    Type *t =
      b->elem_ty->kind == TY_STRUCT && b->elem_ty->is_vector ? b->elem_ty->members->ty : b->elem_ty;
    if (t->kind != TY_FLOAT && t->kind != TY_DOUBLE) continue;
    size_t es = (size_t)t->size, n = b->bytes / es;
    for (size_t e = 0; e < n; e++) {
      uint64_t r = random_bits(0x51a9ed00u + (uint64_t)i, e);
      double x = (double)(r >> 11) / 9007199254740992.0 * 2 - 1;
      if (r % 61 == 0) x = special[(r >> 8) % 6];
      if (mode == 1) x = fabs(x);
      if (mode == 2) x = 1;
      if (mode == 3) x *= 1 + ((r >> 7) & 1 ? SENS_DELTA : -SENS_DELTA); /* fold_sensitivity */
      if (t->kind == TY_FLOAT) {
        float f = (float)x;
        memcpy(b->data + e * es, &f, 4);
      } else memcpy(b->data + e * es, &x, 8);
    }
  }
}

static double elem_at(Type *t, const unsigned char *p) {
  if (t->kind == TY_FLOAT) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

/* the original (its launch from the flags) run on data of mode; 0 ok */
static int signed_original(const OptInput *in, Program *orig, int mode, Launch *L, char *msg,
                           size_t len) {
  memset(L, 0, sizeof *L);
  Quiet q = quiet();
  int rc = prepare(in, orig, L, FLAGS);
  loud(q);
  if (rc) {
    snprintf(msg, len, "the original's launch cannot be prepared");
    return 2;
  }
  /* every block runs: past SIGNED_MAX_THREADS not run at all (a 2048 x 2048 product in the
   * interpreter takes hours; it was run, then skipped, before 2026-11-27) */
  if (L->grid[0] * L->grid[1] * L->grid[2] * L->block[0] * L->block[1] * L->block[2] >
      SIGNED_MAX_THREADS) {
    snprintf(msg, len, "more than %d threads: not run on every block", SIGNED_MAX_THREADS);
    return 3;
  }
  signed_fill(L, mode);
  RunOptions ro = {.poison_shared = true, .max_steps = SIGNED_MAX_STEPS};
  int r = run_quiet(L, &ro, msg, len);
  if (r && strstr(msg, "step limit")) {
    snprintf(msg, len,
             "the original takes more than %llu warp-steps on every block: not run on every block",
             (unsigned long long)SIGNED_MAX_STEPS);
    return 3;
  }
  return r;
}

static void check_signed(const OptInput *in, Program *orig, Program *variant, Shape vshape,
                         double reassoc, VerifySize *vs) {
  vs->ran = true;
  Launch a, b, mag, one;
  memset(&b, 0, sizeof b);
  memset(&mag, 0, sizeof mag);
  memset(&one, 0, sizeof one);
  char msg[400];
  int ra = signed_original(in, orig, 0, &a, msg, sizeof msg);
  if (ra == 3) {
    vs->skipped = true;
    snprintf(vs->detail, sizeof vs->detail, "%s", msg);
    launch_free(&a);
    return;
  }
  if (ra) {
    vs->skipped = true;
    snprintf(vs->detail, sizeof vs->detail, "the original faults on signed data: %s", msg);
    launch_free(&a);
    return;
  }
  Quiet q = quiet();
  int rb = prepare(in, variant, &b, vshape);
  loud(q);
  if (rb) {
    vs->ok = false;
    snprintf(vs->detail, sizeof vs->detail, "the variant's launch cannot be prepared");
    launch_free(&a);
    return;
  }
  signed_fill(&b, 0);
  RunOptions ro = {.poison_shared = true};
  if (run_quiet(&b, &ro, msg, sizeof msg)) {
    vs->ok = false;
    snprintf(vs->detail, sizeof vs->detail, "the variant faults on signed data: %s", msg);
    launch_free(&a);
    launch_free(&b);
    return;
  }
  LaunchSpec *sp = find_spec(orig, in->kernel);
  double rel = sp ? sp->rel_tol : 0, abs_tol = sp ? sp->abs_tol : 0;
  bool have_bound = reassoc >= 0 && !signed_original(in, orig, 1, &mag, msg, sizeof msg) &&
                    !signed_original(in, orig, 2, &one, msg, sizeof msg);
  Launch pert;
  if (have_bound && !signed_original(in, orig, 3, &pert, msg, sizeof msg))
    fold_sensitivity(&mag, &a, &pert);
  if (have_bound) launch_free(&pert);
  vs->ok = !compare_bound(&a, &b, have_bound ? &mag : NULL, have_bound ? &one : NULL, reassoc, rel,
                          abs_tol, vs->detail, sizeof vs->detail, &vs->compared);
  if (!vs->ok && reassoc >= 0 && !have_bound && strlen(vs->detail) + 30 < sizeof vs->detail)
    strcat(vs->detail, " (the bound's runs failed)");
  launch_free(&a);
  launch_free(&b);
  launch_free(&mag);
  launch_free(&one);
}

/* every element of b against a within tol, or, where mag and one are given (a reassociated
 * sum), within |b - a| <= 2 * n * eps * S with S from mag and n from one; 0 equal, 1 differ */
static int compare_bound(Launch *a, Launch *b, Launch *mag, Launch *one, double trip, double rel,
                         double abs_tol, char *detail, size_t len, int64_t *compared) {
  if (a->nbufs != b->nbufs || (mag && (mag->nbufs != a->nbufs || one->nbufs != a->nbufs))) {
    snprintf(detail, len, "the variant's launch has other buffers");
    return 1;
  }
  for (int i = 0; i < a->nbufs; i++) {
    Buffer *x = &a->bufs[i], *y = &b->bufs[i];
    if (x->bytes != y->bytes ||
        (mag && (mag->bufs[i].bytes != x->bytes || one->bufs[i].bytes != x->bytes))) {
      snprintf(detail, len, "buffer %s has another size", x->name ? x->name : "?");
      return 1;
    }
    Type *t = x->elem_ty ? x->elem_ty : ty_uchar;
    Type *comp = t->kind == TY_STRUCT && t->is_vector ? t->members->ty : t;
    size_t es = comp->size ? (size_t)comp->size : 1, n = x->bytes / es;
    for (size_t e = 0; e < n; e++) {
      double va, vb;
      if (close_enough(comp, x->data + e * es, y->data + e * es, rel, abs_tol, &va, &vb)) continue;
      if (mag && is_flonum(comp) && isfinite(va) && isfinite(vb)) {
        /* n: the run on ones (terms summed into the element), or the reassociated loop's trip
         * count where that is larger (a mean divides the sum on ones away) */
        /* S at least the element's own magnitude: an element a well-conditioned operation makes
         * of a reassociated sum (softmax's division by it, a product with it) moves by a relative
         * n*eps as the sum does (split's row walks, bench/holdout4 §4b) */
        double S = fmax(fabs(elem_at(comp, mag->bufs[i].data + e * es)), fabs(va)),
               terms = fmax(fabs(elem_at(comp, one->bufs[i].data + e * es)), trip);
        double eps = comp->kind == TY_FLOAT ? ldexp(1.0, -24) : ldexp(1.0, -53);
        double bound = 2 * fmax(terms, 1) * eps * S;
        if (isfinite(bound) && fabs(va - vb) <= bound) continue;
        snprintf(
          detail, len,
          "%s[%zu]: original %.9g, variant %.9g: beyond tol and the reassociation bound %.3g (2*n*eps*S, n=%g, S=%.6g: magnitude or sensitivity)",
          x->name ? x->name : "?", e, va, vb, bound, fmax(terms, 1), S);
      } else if (is_flonum(comp))
        snprintf(detail, len, "%s[%zu]: original %.9g, variant %.9g", x->name ? x->name : "?", e,
                 va, vb);
      else
        snprintf(detail, len, "%s[%zu] differs (byte-exact comparison)", x->name ? x->name : "?",
                 e);
      return 1;
    }
    *compared += (int64_t)n;
  }
  return 0;
}

/* the reassociation bound's S where an element is computed from sums: the larger of its
 * magnitude (mag's element) and its sensitivity |pert - base| / SENS_DELTA, pert the original run
 * on base's data with each floating-point element moved by a relative +-SENS_DELTA (bound_runs;
 * check_signed with signed_fill's mode 3) */
static void fold_sensitivity(Launch *mag, Launch *base, Launch *pert) {
  for (int i = 0; i < mag->nbufs && base->nbufs == mag->nbufs && pert->nbufs == mag->nbufs; i++) {
    Buffer *b = &mag->bufs[i];
    if (!b->elem_ty || base->bufs[i].bytes != b->bytes || pert->bufs[i].bytes != b->bytes) continue;
    Type *t =
      b->elem_ty->kind == TY_STRUCT && b->elem_ty->is_vector ? b->elem_ty->members->ty : b->elem_ty;
    if (t->kind != TY_FLOAT && t->kind != TY_DOUBLE) continue;
    size_t es = (size_t)t->size, n = b->bytes / es;
    for (size_t e = 0; e < n; e++) {
      double sens = fabs(elem_at(t, pert->bufs[i].data + e * es) -
                         elem_at(t, base->bufs[i].data + e * es)) /
                    SENS_DELTA,
             x = fmax(fabs(elem_at(t, b->data + e * es)), sens);
      if (!isfinite(x)) x = INFINITY;
      if (t->kind == TY_FLOAT) {
        float f = (float)x;
        memcpy(b->data + e * es, &f, 4);
      } else memcpy(b->data + e * es, &x, 8);
    }
  }
}

/* the original on the blocks of sample s (NULL: all), run on the magnitudes of its own data (mag)
 * and on ones (one), the two runs of the reassociation bound; 0 ok (free both), else nothing kept.
 * An element computed *from* a reassociated sum (a mean subtracted, a variance's rsqrtf: layer
 * norm, bench/holdout4 DIAGNOSIS §4) is not bounded by 2*n*eps*S of its own magnitude: a
 * reassociated sum is the exact sum of its terms each moved by a relative (n-1)*eps at most, so
 * the original is run twice more, on its data as is (m = 2) and with every floating-point element
 * moved by a relative +-2^-12 (fixed signs, m = 3), and each element's S becomes the larger of its
 * magnitude and |change| / 2^-12: its sensitivity to a relative move of the inputs, which
 * 2*n*eps*S then scales to the move a reassociation makes. For a plain sum the sensitivity is at
 * most sum|terms| (the old S); an estimate measured on one perturbation, not a proof (the
 * message says "sensitivity" where it decided). */
static int bound_runs(const OptInput *in, Program *orig, const Sample *s, Launch *mag,
                      Launch *one) {
  Launch base, pert;
  Launch *L[4] = {mag, one, &base, &pert};
  for (int m = 0; m < 4; m++) {
    memset(L[m], 0, sizeof *L[m]);
    Quiet q = quiet();
    int rc = prepare(in, orig, L[m], FLAGS);
    loud(q);
    if (!rc) {
      randomize_outputs(L[m]); /* the bytes the compared run started from (fixed seeds) */
      uint64_t seed = 0x9e3779b97f4a7c15ull;
      for (int i = 1; i < L[m]->nbufs && m != 2; i++) {
        Buffer *b = &L[m]->bufs[i];
        if (!b->elem_ty) continue;
        Type *t = b->elem_ty->kind == TY_STRUCT && b->elem_ty->is_vector ? b->elem_ty->members->ty
                                                                         : b->elem_ty;
        if (t->kind != TY_FLOAT && t->kind != TY_DOUBLE) continue;
        size_t es = (size_t)t->size, n = b->bytes / es;
        for (size_t e = 0; e < n; e++) {
          double v = elem_at(t, b->data + e * es), x;
          if (m == 3) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            x = v * (1 + ((seed >> 63) ? SENS_DELTA : -SENS_DELTA));
          } else x = m ? 1 : fabs(v);
          if (t->kind == TY_FLOAT) {
            float f = (float)x;
            memcpy(b->data + e * es, &f, 4);
          } else memcpy(b->data + e * es, &x, 8);
        }
      }
      Hooks h = {.ctx = (void *)s, .want_block = want_block};
      RunOptions ro = {.hooks = s ? &h : NULL, .poison_shared = true};
      char msg[400];
      rc = run_quiet(L[m], &ro, msg, sizeof msg);
    }
    if (rc) {
      for (int j = 0; j <= m; j++) launch_free(L[j]);
      return 1;
    }
  }
  fold_sensitivity(mag, &base, &pert);
  launch_free(&base);
  launch_free(&pert);
  return 0;
}

/* the loop at line:col of the kernel (the reassociated sum's, as the step recorded it) */
typedef struct {
  int line, col;
  Node *loop;
} LoopAt;
static bool loop_at_pre(Node *n, void *ctx) {
  LoopAt *la = ctx;
  if (!la->loop && n->kind == ND_FOR && n->tok) {
    SrcLoc sl = tok_loc(n->tok);
    if (sl.line == la->line && sl.col == la->col) la->loop = n;
  }
  return !la->loop;
}

/* the reassociation bound's n for the kept steps (and the last) of a plan, on the original p at
 * the launch of `in`: -1 where no step reassociates a floating-point sum; else the longest
 * trip count over the launch's threads of each loop a step recorded (reassoc_line), the
 * largest, or 0 where none is known (the run on ones alone gives n). The trip count is the
 * number of terms of the sum the split reassociates, whatever the kernel does with the sum
 * afterwards (a mean divides it by its count: the run on ones then gives 1, not n). */
static double reassoc_terms(const OptInput *in, Program *p, const PlanStep *steps, int nsteps) {
  double n = -1;
  Obj *k = find_kernel(p, in->kernel);
  for (int i = 0; i < nsteps; i++) {
    if (!(steps[i].spec & OPT_SPEC_REASSOC) || !(plan_step_kept(&steps[i]) || i == nsteps - 1))
      continue;
    if (n < 0) n = 0;
    if (!steps[i].reassoc_line || !k || !k->body) continue;
    LoopAt la = {steps[i].reassoc_line, steps[i].reassoc_col, NULL};
    walk(k->body, loop_at_pre, NULL, &la);
    if (!la.loop) continue;
    Launch L;
    memset(&L, 0, sizeof L);
    Quiet q = quiet();
    int rc = prepare(in, p, &L, FLAGS);
    loud(q);
    if (rc) continue;
    Facts *f = facts_new(p, k);
    int li = facts_loop_index(f, la.loop);
    int64_t trip = -1;
    if (li >= 0) depend_trip_max(f, li, &L, &trip);
    if (trip > n) n = (double)trip;
    facts_free(f);
    launch_free(&L);
  }
  return n;
}

/* ---- a grid the user did not give (issue 26, item 4) ----
 * Where no kept step specializes the grid (OPT_SPEC_GRID), the output claims to be right for any
 * grid whose threads each new block's cover divides: the wrapper of a host program runs it
 * there. The claim is tested: the original on a larger grid (x, and y where a step's cover spans
 * several blocks, grown by one cover) and the variant as it is on the grid covering the same
 * threads, sampled blocks compared as at the full size. The original faulting there (its
 * buffers end) skips it, and says so. */
static void other_grid(const OptInput *in, Program *orig, Program *variant, const PlanStep *steps,
                       int nsteps, bool remaps_blocks, const PlanStep *reshape,
                       const int64_t *vgrid, const int64_t *vblock, VerifySize *vs) {
  memset(vs, 0, sizeof *vs);
  unsigned spec = 0;
  for (int i = 0; i < nsteps; i++)
    if (plan_step_kept(&steps[i]) || i == nsteps - 1) spec |= steps[i].spec;
  if (remaps_blocks || (spec & OPT_SPEC_GRID) || (reshape && (!vgrid || !vblock))) return;
  int64_t g[3], b[3];
  LaunchSpec *sp = find_spec(orig, in->kernel);
  if (in->grid ? !parse_flag_dims(orig, "--grid", in->grid, g) : !(sp && sp->has_grid)) return;
  if (in->block ? !parse_flag_dims(orig, "--block", in->block, b) : !(sp && sp->has_block)) return;
  if (!in->grid) memcpy(g, sp->grid, sizeof g);
  if (!in->block) memcpy(b, sp->block, sizeof b);
  vs->label = "other grid";
  int64_t g2[3], v2[3];
  for (int d = 0; d < 3; d++) {
    int64_t cv = reshape && reshape->cover[d] > 0 ? reshape->cover[d] : b[d];
    int64_t grow = cv > b[d] && cv % b[d] == 0 ? cv / b[d] : 1;
    g2[d] = g[d] + (d == 0 || (reshape && cv != b[d]) ? grow : 0);
    v2[d] = (g2[d] * b[d] + cv - 1) / cv;
  }
  OptInput in2 = *in;
  in2.grid = fmt("%lld,%lld,%lld", (long long)g2[0], (long long)g2[1], (long long)g2[2]);
  in2.block = fmt("%lld,%lld,%lld", (long long)b[0], (long long)b[1], (long long)b[2]);
  Shape vshape = reshape ? (Shape){false, v2, vblock} : FLAGS;
  check_size(&in2, orig, variant, vshape, true, reshape ? reshape->cover : NULL,
             reassoc_terms(&in2, orig, steps, nsteps), vs);
  char was[sizeof vs->defines];
  memcpy(was, vs->defines, sizeof was);
  snprintf(vs->defines, sizeof vs->defines, "grid (%lld, %lld, %lld)%s%.180s", (long long)g2[0],
           (long long)g2[1], (long long)g2[2], was[0] ? ", " : "", was);
}

void verify_launch(const OptInput *in, Program *orig, Program *variant, const int64_t *vgrid,
                   const int64_t *vblock, const int64_t *cover, const PlanStep *steps, int nsteps,
                   bool sampled, VerifySize *vs) {
  Shape vshape = vgrid && vblock ? (Shape){false, vgrid, vblock} : FLAGS;
  check_size(in, orig, variant, vshape, sampled, cover, reassoc_terms(in, orig, steps, nsteps), vs);
}

static const struct {
  const char *label;
  int target;
} sizes[2] = {{"reduced", REDUCED}, {"ragged", RAGGED}};

bool verify_variant(const OptInput *in, Program *orig, Program *variant, const PlanStep *steps,
                    int nsteps, bool remaps_blocks, VerifyResult *r) {
  memset(r, 0, sizeof *r);
  const char *names[MAX_SIZE_MACROS];
  int64_t vals[MAX_SIZE_MACROS];
  int nm = size_macros(orig, names, vals);
  bool from_defines = false;
  if (!nm) from_defines = (nm = define_macros(in, orig, names, vals)) > 0;
  /* the flags' grid and block are the original's; a variant whose launch a kept step reshaped
   * runs with the shape that step gave it */
  const PlanStep *reshape = last_reshape(steps, nsteps);
  VerifySize signed_at;
  memset(&signed_at, 0, sizeof signed_at);
  for (int s = 0; s < 2; s++) {
    VerifySize *vs = &r->size[r->nsizes++];
    vs->label = sizes[s].label;
    if (!nm) {
      vs->skipped = true;
      snprintf(vs->detail, sizeof vs->detail, "no size macro in the launch specification");
      continue;
    }
    PPOptions pp = resized(in, names, vals, nm, sizes[s].target, vs->defines, sizeof vs->defines);
    OptInput sin = from_defines ? scaled_flags(in, orig, vals, nm, sizes[s].target) : *in;
    if (from_defines) {
      size_t u = strlen(vs->defines);
      snprintf(vs->defines + u, sizeof vs->defines - u,
               " (the -D sizes; grid %s, scalars scaled alike)", sin.grid);
    }
    const OptInput *at = &sin;
    Loaded *ld;
    Program *po = load_at(at, &pp, &ld);
    if (!po) {
      vs->skipped = true;
      char where[256];
      snprintf(where, sizeof where, "%s", vs->defines);
      snprintf(vs->detail, sizeof vs->detail, "the source does not load at %s", where);
      continue;
    }
    Launch L;
    memset(&L, 0, sizeof L);
    char why[512] = "";
    Program *pv = NULL;
    Quiet q = quiet();
    int rc = prepare(at, po, &L, FLAGS);
    loud(q);
    if (!rc) {
      pv = opt_apply_steps(po, &L, at->m, steps, nsteps, why, sizeof why);
      launch_free(&L);
    } else snprintf(why, sizeof why, "the launch cannot be prepared");
    if (!pv) {
      vs->skipped = true;
      char where[256];
      snprintf(where, sizeof where, "%s", vs->defines);
      snprintf(vs->detail, sizeof vs->detail, "the passes do not apply at %s: %.200s", where, why);
    } else {
      double reassoc = reassoc_terms(at, po, steps, nsteps);
      check_size(at, po, pv, reshape ? OWN_SPEC : FLAGS, false, NULL, reassoc, vs);
      if (s == 0) { /* the reduced size again, on signed and special data (listed last) */
        signed_at.label = "signed";
        memcpy(signed_at.defines, vs->defines, sizeof signed_at.defines);
        check_signed(at, po, pv, reshape ? OWN_SPEC : FLAGS, reassoc, &signed_at);
      }
      program_free(pv);
    }
    unload(ld, po);
  }
  VerifySize *vf = &r->size[r->nsizes++];
  vf->label = "full";
  snprintf(vf->defines, sizeof vf->defines, "as given");
  int64_t grid[3], block[3];
  if (remaps_blocks) {
    vf->skipped = true;
    snprintf(vf->detail, sizeof vf->detail,
             "blocks are remapped: sampled blocks of the two kernels compute different outputs");
  } else if (reshape && !reshaped_shape(in, orig, variant, steps, nsteps, grid, block)) {
    vf->ran = true;
    snprintf(vf->detail, sizeof vf->detail,
             "the variant's launch cannot be prepared: its reshaped grid and block are unknown");
  } else {
    snprintf(vf->defines, sizeof vf->defines, "as given, all blocks");
    Shape vshape = reshape ? (Shape){false, grid, block} : FLAGS;
    double reassoc = reassoc_terms(in, orig, steps, nsteps);
    check_size(in, orig, variant, vshape, true, reshape ? reshape->cover : NULL, reassoc, vf);
    if (
      /* no size macro (a host program's launch): the given size on signed data, every block */
      !nm) {
      signed_at.label = "signed";
      snprintf(signed_at.defines, sizeof signed_at.defines, "as given, all blocks");
      check_signed(in, orig, variant, vshape, reassoc, &signed_at);
    }
  }
  if (signed_at.label) r->size[r->nsizes++] = signed_at;
  /* the original past its budget at the full size is past it on a larger grid too */
  if (vf->skipped && strstr(vf->detail, "warp-steps"))
    memset(&r->size[r->nsizes], 0, sizeof r->size[r->nsizes]);
  else
    other_grid(in, orig, variant, steps, nsteps, remaps_blocks, reshape, reshape ? grid : NULL,
               reshape ? block : NULL, &r->size[r->nsizes]);
  if (r->size[r->nsizes].label) r->nsizes++;
  /* verified: every size that ran agreed, and at least one size ran */
  bool any = false;
  r->ok = true;
  for (int i = 0; i < r->nsizes; i++) {
    if (r->size[i].ran && !r->size[i].skipped) {
      any = true;
      if (!r->size[i].ok) r->ok = false;
    }
  }
  if (!any) r->ok = false;
  return r->ok;
}

void verify_warm(const OptInput *in, Program *orig) {
  if (!in->cache) return;
  const char *names[MAX_SIZE_MACROS];
  int64_t vals[MAX_SIZE_MACROS];
  int nm = size_macros(orig, names, vals);
  for (int s = 0; s < 2 && nm; s++) {
    char label[256];
    PPOptions pp = resized(in, names, vals, nm, sizes[s].target, label, sizeof label);
    Loaded *ld;
    Program *po = load_at(in, &pp, &ld);
    if (po) warm_launch(in, po, false);
    unload(ld, po);
  }
  warm_launch(in, orig, true);
  /* the other grid (other_grid) of a variant that keeps the launch: x grown by one block */
  int64_t g[3], b[3];
  LaunchSpec *sp = find_spec(orig, in->kernel);
  if ((in->grid ? parse_flag_dims(orig, "--grid", in->grid, g) : sp && sp->has_grid) &&
      (in->block ? parse_flag_dims(orig, "--block", in->block, b) : sp && sp->has_block)) {
    if (!in->grid) memcpy(g, sp->grid, sizeof g);
    if (!in->block) memcpy(b, sp->block, sizeof b);
    OptInput in2 = *in;
    in2.grid = fmt("%lld,%lld,%lld", (long long)g[0] + 1, (long long)g[1], (long long)g[2]);
    in2.block = fmt("%lld,%lld,%lld", (long long)b[0], (long long)b[1], (long long)b[2]);
    warm_launch(&in2, orig, true);
  }
}
