/* verify: no rewrite is trusted unverified. The interpreter runs the original and the variant
 * on the same random inputs (the launch spec's generators) and every buffer is compared element
 * by element, inputs too (a variant must not write where the original does not); outputs start
 * with random contents, so a variant that ignores an output's old value is caught:
 *   reduced  the size macros of the launch spec (those in grid and buffer sizes, not block
 *            shapes) set to at most 64, the same passes with the same parameters applied to that
 *            program, every block run;
 *   ragged   the same at 61, a size no tile divides;
 *   full     the user's sizes, sampled blocks (first, last, spread) of the variant and the blocks of
 *            the original that cover the same threads (the same blocks, unless a pass reshaped
 *            the launch); skipped when a pass permutes blocks (diagonal reordering).
 * A fault, race or divergent barrier in the variant, or any difference beyond the spec's
 * tolerance, rejects it; the result names the size and the first differing element. A size at
 * which the original itself faults is skipped and says so. */
#include "opt.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SIZE_MACROS = 8, REDUCED = 64, RAGGED = 61, FULL_BLOCKS = 8 };

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
      if (*c == '(') { paren++; c++; continue; }
      if (*c == ')') { if (paren == block_at) block_at = -1; paren--; c++; continue; }
      if (isalpha((unsigned char)*c) || *c == '_') {
        const char *b = c;
        while (isalnum((unsigned char)*c) || *c == '_') c++;
        char *name = arena_strndup(b, (size_t)(c - b));
        if (!strcmp(name, "block") || !strcmp(name, "tol")) { block_at = paren + 1; continue; }
        if (block_at >= 0 && paren >= block_at) continue;
        int64_t v;
        if (!program_macro_value(p, name, &v) || v < 16) continue;
        bool dup = false;
        for (int i = 0; i < n; i++) if (!strcmp(names[i], name)) dup = true;
        if (!dup && n < MAX_SIZE_MACROS) { names[n] = name; vals[n] = v; n++; }
        continue;
      }
      c++;
    }
  }
  return n;
}

/* the user's defines with the size macros replaced */
static PPOptions resized(const OptInput *in, const char **names, const int64_t *vals, int n, int target, char *label, size_t len) {
  PPOptions pp = in->pp;
  const char **defs = arena_alloc(sizeof(char *) * (size_t)(in->pp.n_defines + n + 1));
  int nd = 0;
  for (int i = 0; i < in->pp.n_defines; i++) {
    const char *d = in->pp.defines[i];
    bool replaced = false;
    for (int j = 0; j < n; j++) {
      size_t l = strlen(names[j]);
      if (!strncmp(d, names[j], l) && (d[l] == '=' || d[l] == 0)) replaced = true;
    }
    if (!replaced) defs[nd++] = d;
  }
  label[0] = 0;
  for (int j = 0; j < n; j++) {
    int64_t v = vals[j] < target ? vals[j] : target;
    defs[nd++] = fmt("%s=%lld", names[j], (long long)v);
    size_t used = strlen(label);
    snprintf(label + used, len - used, "%s%s=%lld", j ? " " : "", names[j], (long long)v);
  }
  pp.defines = defs;
  pp.n_defines = nd;
  return pp;
}

typedef struct { int64_t *blocks; int n; } Sample;
static bool want_block(void *ctx, int64_t b) {
  Sample *s = ctx;
  for (int i = 0; i < s->n; i++) if (s->blocks[i] == b) return true;
  return false;
}

static bool close_enough(Type *t, const unsigned char *a, const unsigned char *b, double rel, double abs_tol, double *va, double *vb) {
  if (t->kind == TY_FLOAT || t->kind == TY_DOUBLE) {
    double x, y;
    if (t->kind == TY_FLOAT) { float f, g; memcpy(&f, a, 4); memcpy(&g, b, 4); x = f; y = g; }
    else { memcpy(&x, a, 8); memcpy(&y, b, 8); }
    *va = x; *vb = y;
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
    if (x == y) return true;
    return fabs(x - y) <= abs_tol + rel * fmax(fabs(x), fabs(y));
  }
  *va = *vb = 0;
  return !memcmp(a, b, (size_t)t->size);
}

/* every buffer element of the variant against the original's; 0 equal, 1 differ (detail) */
static int compare_launches(Launch *a, Launch *b, double rel, double abs_tol, char *detail, size_t len, int64_t *compared) {
  if (a->nbufs != b->nbufs) { snprintf(detail, len, "the variant's launch has other buffers"); return 1; }
  for (int i = 0; i < a->nbufs; i++) {
    Buffer *x = &a->bufs[i], *y = &b->bufs[i];
    if (x->bytes != y->bytes) { snprintf(detail, len, "buffer %s has another size", x->name ? x->name : "?"); return 1; }
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
          snprintf(detail, len, "%s[%zu]: original %.9g, variant %.9g", x->name ? x->name : "?", e, va, vb);
        else
          snprintf(detail, len, "%s[%zu] differs (byte-exact comparison)", x->name ? x->name : "?", e);
        return 1;
      }
    }
    *compared += (int64_t)n;
  }
  return 0;
}

/* prepare the launch of `kernel` in p with the flags of `in`; 0 ok */
static int prepare(const OptInput *in, Program *p, Launch *L) {
  Obj *k = find_kernel(p, in->kernel);
  if (!k) return 2;
  LaunchOverrides ov = {0};
  ov.dyn_shared = -1;
  if (in->grid) { if (!parse_flag_dims(p, "--grid", in->grid, ov.grid)) return 2; ov.has_grid = true; }
  if (in->block) { if (!parse_flag_dims(p, "--block", in->block, ov.block)) return 2; ov.has_block = true; }
  if (!parse_arg_settings(p, in->arg_texts, in->nargs, &ov)) return 2;
  int rc = launch_prepare(L, p, k, &ov);
  if (!rc) L->machine = in->m;   /* the target's limits: a tile too big for it faults */
  return rc;
}

/* outputs start random, not as the spec's zeros: a variant that forgets to read an output's
 * old value (an accumulator not loaded) must not pass because the old value was zero */
static void randomize_outputs(Launch *L) {
  for (int i = 1; i < L->nbufs; i++) {
    Buffer *b = &L->bufs[i];
    if (!b->out || !b->elem_ty) continue;
    Type *t = b->elem_ty->kind == TY_STRUCT && b->elem_ty->is_vector ? b->elem_ty->members->ty : b->elem_ty;
    size_t es = (size_t)t->size, n = es ? b->bytes / es : 0;
    for (size_t e = 0; e < n; e++) {
      uint64_t r = random_bits(0x5eed0000u + (uint64_t)i, e);
      unsigned char *d = b->data + e * es;
      if (t->kind == TY_FLOAT) { float f = (float)((double)(r >> 11) / 9007199254740992.0 * 2 - 1); memcpy(d, &f, 4); }
      else if (t->kind == TY_DOUBLE) { double x = (double)(r >> 11) / 9007199254740992.0 * 2 - 1; memcpy(d, &x, 8); }
      else { int64_t v = (int64_t)(r % 97); memcpy(d, &v, es < 8 ? es : 8); }
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
  for (int i = 0; i < s->n; i++) if (s->blocks[i] == b) return true;
  if (s->n == 4096) return false;
  s->blocks[s->n++] = b;
  return true;
}

/* blocks of launch `to` whose threads overlap those of blocks `from` of launch `fr`, where a block of
 * `fr` spans cf[d] threads and one of `to` ct[d] */
static bool remap(const Launch *fr, const Launch *to, const int64_t cf[3], const int64_t ct[3], const Sample *from, Sample *out) {
  for (int i = 0; i < from->n; i++) {
    int64_t l = from->blocks[i], v[3] = {l % fr->grid[0], l / fr->grid[0] % fr->grid[1], l / (fr->grid[0] * fr->grid[1])};
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

static bool map_sample(const Launch *a, const Launch *b, const int64_t *cover, Sample *vb, Sample *oa) {
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

static void check_size(const OptInput *in, Program *orig, Program *variant, bool sampled, const int64_t *cover, VerifySize *vs) {
  Launch a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  FILE *saved = diag_out;
  FILE *null = fopen("/dev/null", "w");
  diag_out = null;
  int errs = diag_errors;
  int ra = prepare(in, orig, &a);
  int rb = ra ? 2 : prepare(in, variant, &b);
  diag_out = saved;
  diag_errors = errs;
  if (null) fclose(null);
  vs->ran = true;
  if (ra) { vs->skipped = true; snprintf(vs->detail, sizeof vs->detail, "the original's launch cannot be prepared at this size"); return; }
  if (rb) { vs->ok = false; snprintf(vs->detail, sizeof vs->detail, "the variant's launch cannot be prepared"); launch_free(&a); return; }
  randomize_outputs(&a);
  randomize_outputs(&b);
  /* sampled: first, last and spread blocks of the variant, and the original's blocks that
   * cover the same threads */
  Sample sb = {NULL, 0}, sa = {NULL, 0};
  int64_t total = b.grid[0] * b.grid[1] * b.grid[2];
  if (sampled && total > FULL_BLOCKS) {
    sb.blocks = xmalloc(sizeof(int64_t) * FULL_BLOCKS);
    sb.n = launch_sample_blocks(total, FULL_BLOCKS, sb.blocks);
    bool same = !memcmp(a.grid, b.grid, sizeof a.grid) && !memcmp(a.block, b.block, sizeof a.block);
    if (same) { sa.blocks = xmalloc(sizeof(int64_t) * FULL_BLOCKS); memcpy(sa.blocks, sb.blocks, sizeof(int64_t) * (size_t)sb.n); sa.n = sb.n; }
    else if (!map_sample(&a, &b, cover, &sb, &sa)) {
      vs->skipped = true;
      snprintf(vs->detail, sizeof vs->detail, "the reshaped grid does not tile the original's threads evenly: no block sample maps onto it");
      free(sb.blocks); free(sa.blocks);
      launch_free(&a); launch_free(&b);
      return;
    }
    snprintf(vs->defines, sizeof vs->defines, "as given, %d of %lld blocks (the original: %d of %lld)", sb.n, (long long)total, sa.n,
             (long long)(a.grid[0] * a.grid[1] * a.grid[2]));
  }
  Hooks ha = {.ctx = &sa, .want_block = want_block}, hb = {.ctx = &sb, .want_block = want_block};
  RunOptions roa = {.hooks = sb.n ? &ha : NULL, .poison_shared = true}, rob = {.hooks = sb.n ? &hb : NULL, .poison_shared = true};
  char msg[400];
  if (run_quiet(&a, &roa, msg, sizeof msg)) {
    vs->skipped = true;
    snprintf(vs->detail, sizeof vs->detail, "the original faults at this size: %s", msg);
  } else if (run_quiet(&b, &rob, msg, sizeof msg)) {
    vs->ok = false;
    snprintf(vs->detail, sizeof vs->detail, "the variant faults: %s", msg);
  } else {
    LaunchSpec *s = find_spec(orig, in->kernel);
    double rel = s ? s->rel_tol : 0, abs_tol = s ? s->abs_tol : 0;
    vs->ok = !compare_launches(&a, &b, rel, abs_tol, vs->detail, sizeof vs->detail, &vs->compared);
  }
  free(sa.blocks);
  free(sb.blocks);
  launch_free(&a);
  launch_free(&b);
}

bool verify_variant(const OptInput *in, Program *orig, Program *variant, const PlanStep *steps, int nsteps,
                    bool remaps_blocks, VerifyResult *r) {
  memset(r, 0, sizeof *r);
  const char *names[MAX_SIZE_MACROS];
  int64_t vals[MAX_SIZE_MACROS];
  int nm = size_macros(orig, names, vals);
  static const struct { const char *label; int target; } sizes[2] = {{"reduced", REDUCED}, {"ragged", RAGGED}};
  for (int s = 0; s < 2; s++) {
    VerifySize *vs = &r->size[r->nsizes++];
    vs->label = sizes[s].label;
    if (!nm) { vs->skipped = true; snprintf(vs->detail, sizeof vs->detail, "no size macro in the launch specification"); continue; }
    PPOptions pp = resized(in, names, vals, nm, sizes[s].target, vs->defines, sizeof vs->defines);
    FILE *saved = diag_out, *null = fopen("/dev/null", "w");
    diag_out = null;
    int errs = diag_errors;
    Program *po = in->path ? load_program(in->path, &pp) : NULL;
    diag_out = saved;
    diag_errors = errs;
    if (null) fclose(null);
    if (!po || po->errors) {
      vs->skipped = true;
      char at[256];
      snprintf(at, sizeof at, "%s", vs->defines);
      snprintf(vs->detail, sizeof vs->detail, "the source does not load at %s", at);
      program_free(po);
      continue;
    }
    Launch L;
    memset(&L, 0, sizeof L);
    char why[512] = "";
    Program *pv = NULL;
    if (!prepare(in, po, &L)) {
      pv = opt_apply_steps(po, &L, in->m, steps, nsteps, why, sizeof why);
      launch_free(&L);
    } else snprintf(why, sizeof why, "the launch cannot be prepared");
    if (!pv) {
      vs->skipped = true;
      char at[256];
      snprintf(at, sizeof at, "%s", vs->defines);
      snprintf(vs->detail, sizeof vs->detail, "the passes do not apply at %s: %.200s", at, why);
    } else {
      check_size(in, po, pv, false, NULL, vs);
      program_free(pv);
    }
    program_free(po);
  }
  VerifySize *vf = &r->size[r->nsizes++];
  vf->label = "full";
  snprintf(vf->defines, sizeof vf->defines, "as given");
  if (remaps_blocks) {
    vf->skipped = true;
    snprintf(vf->detail, sizeof vf->detail, "blocks are remapped: sampled blocks of the two kernels compute different outputs");
  } else {
    snprintf(vf->defines, sizeof vf->defines, "as given, all blocks");
    const int64_t *cover = NULL;   /* the last kept reshape's coverage (passes see the original's launch) */
    for (int i = 0; i < nsteps; i++)
      if (steps[i].applied && !steps[i].rejected && !steps[i].unprofitable && steps[i].cover[0] > 0) cover = steps[i].cover;
    check_size(in, orig, variant, true, cover, vf);
  }
  /* verified: every size that ran agreed, and at least one size ran */
  bool any = false;
  r->ok = true;
  for (int i = 0; i < r->nsizes; i++) {
    if (r->size[i].ran && !r->size[i].skipped) { any = true; if (!r->size[i].ok) r->ok = false; }
  }
  if (!any) r->ok = false;
  return r->ok;
}
