/* pass halo: halo tiling through shared memory for 2-D and 3-D stencils and convolutions
 * (Micikevicius, "3D Finite Difference Computation on GPUs using CUDA", GPGPU 2009, Sec. 3: a
 * block loads its tile plus the halo once; Holewinski et al., ICS 2012, overlapped tiling). The
 * threads of a block read the same input elements up to 4 rows and columns apart; each element
 * is loaded from global memory by the block once, into a __shared__ tile of
 * (blockDim.y + the rows' span) x (blockDim.x + the columns' span) per plane, by all threads
 * together (a loop over the tile's elements in steps of the block, skipping those no offset
 * reaches), a barrier follows, and every load of the input reads the tile at the thread's
 * position plus its constant offset. Loads whose offset is too large for a row (z +- 1 of a 3-D
 * stencil) start another plane with its own tile; a plane read at one offset only stays a
 * global load (nothing to share).
 *
 * Only blocks whose every thread passes the border guard take the tiled path: `all =
 * __syncthreads_and(G)` is uniform in the block, so the barrier after the fill is reached by
 * all or none; then every element of the tile is one some thread of the original reads, so the
 * fill reads nothing the original does not. Other blocks run the original statements as written:
 * the borders stay exact.
 *
 * Legal, from the affine access facts, when: the block is 2-D or 1-D (blockDim.z == 1) and known
 * from the launch (the tile's extents are written as constants; the host program's launch
 * wrapper checks the block); the kernel's statements are pure declarations, then the guard
 * (`if (G) S` last, or `if (G') return;` followed by the rest) or no guard; the input is a
 * pointer parameter nothing in the kernel stores through (and the launch binds no other
 * parameter to its buffer), every access of it is a global load after the guard, outside any
 * loop, in the kernel itself, at index C + dy*S + dx (C the index of its plane's first load, S
 * the multiplier of threadIdx.y: a constant or a parameter; threadIdx.x's multiplier 1; |dy|,
 * |dx| <= 4), at most 4 planes; C reads only parameters and variables declared before the fill
 * (the leading declarations, and those of the guarded statements that do not read the input:
 * the fill follows them); some plane is read at two offsets; the threads cannot see each other
 * (no barrier, shared memory, warp operation, fence, call); the tiles fit the 48 KiB of static
 * shared memory. */
#include "opt.h"
#include "../analysis/analysis.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_LOADS = 64, MAX_PLANES = 4, MAX_OFF = 4 };

/* one load of the input: its node and where it reads relative to its plane's first load */
typedef struct {
  Node *node;
  int plane, dy, dx;
} Load;

typedef struct {
  Obj *in;                 /* the input parameter */
  Type *et;                /* its element type */
  int form;                /* 0: no guard; 1: `if (G) S` last; 2: `if (G') return;` then the rest */
  int gi;                  /* the guard's statement index (form 1, 2) */
  Node *ref[MAX_PLANES];   /* each plane's first load */
  Affine refx[MAX_PLANES]; /* its index */
  int np;
  Load ld[MAX_LOADS];
  int n;
  Affine S;           /* the row stride (threadIdx.y's multiplier); n == 0: no threadIdx.y */
  int y0, y1, x0, x1; /* the offsets' extents (y0, x0 <= 0 <= y1, x1) */
  int sy[MAX_PLANES], sx[MAX_PLANES]; /* each plane's least offsets, made its origin */
  int bx, by, th, tw;                 /* block and tile extents */
} Halo;

/* shared with the stencil pass (pass_stencil.c) */
bool stencil_affine_sub(const Affine *a, const Affine *b, Affine *d);

/* the statement list's shape: pure declarations, then the guard or nothing (form 0) */
static int guard_shape(Node *stmts, int *gi) {
  int i = 0;
  for (Node *s = stmts; s; s = s->next, i++) {
    if (s->kind == ND_DECL) {
      if (s->decl_init && !rw_pure(s->decl_init)) return -1;
      continue;
    }
    *gi = i;
    if (s->kind != ND_IF || s->els || !rw_pure(s->cond)) return 0;
    Node *t = s->then;
    while (t->kind == ND_BLOCK && t->stmts && !t->stmts->next) t = t->stmts;
    if (t->kind == ND_RETURN && !t->lhs) return s->next ? 2 : -1;
    return s->next ? 0 : 1;
  }
  *gi = i;
  return 0;
}

/* the guarded statements as a list: form 1's then (its block's statements), else the rest */
static Node **tail_list(Node **gslot, int form) {
  if (form == 1) {
    Node **t = &(*gslot)->then;
    return (*t)->kind == ND_BLOCK ? &(*t)->stmts : t;
  }
  return form == 2 ? &(*gslot)->next : gslot;
}

typedef struct {
  Obj *in;
  bool hit;
} Reads;
static bool reads_pre(Node *n, void *ctx) {
  Reads *r = ctx;
  if (n->kind == ND_VAR && n->var == r->in) r->hit = true;
  return !r->hit;
}
/* how many leading declarations of the list name no `in` (they run before the fill) */
static int decl_prefix(Node *list, Obj *in) {
  int k = 0;
  for (Node *s = list; s && s->kind == ND_DECL; s = s->next, k++) {
    Reads r = {in, false};
    if (s->decl_init) walk(s->decl_init, reads_pre, NULL, &r);
    if (r.hit) break;
  }
  return k;
}

/* the variables e reads are parameters, globals, or locals the leading declarations of the
 * kernel (before the guard) or of the guarded statements (before the fill) declare */
typedef struct {
  Node *list[2];
  int n[2];
  bool bad;
} InScope;
static bool scope_pre(Node *n, void *ctx) {
  InScope *x = ctx;
  if (n->kind != ND_VAR || n->var->sc != SC_LOCAL) return true;
  bool found = false;
  for (int l = 0; l < 2 && !found; l++) {
    int i = 0;
    for (Node *s = x->list[l]; s && i < x->n[l] && !found; s = s->next, i++)
      found = s->kind == ND_DECL && s->var == n->var;
  }
  if (!found) x->bad = true;
  return true;
}

static bool names_block_or_thread(const Affine *a) {
  for (int i = 0; i < a->n; i++)
    for (int s = 0; s < a->t[i].deg; s++) {
      SymKind k = a->t[i].sym[s].kind;
      if (k == SYM_TID || k == SYM_CTAID || k == SYM_NTID || k == SYM_PROGRESS || k == SYM_LOOP)
        return true;
    }
  return false;
}

/* the multiplier of threadIdx.d in a (terms holding it once, it removed); *other: a term holds
 * it otherwise */
static Affine tid_coef(const Affine *a, int d, bool *other) {
  Affine r = {.ok = a->ok};
  *other = false;
  for (int i = 0; i < a->n; i++) {
    const Term *t = &a->t[i];
    int k = 0;
    for (int s = 0; s < t->deg; s++) k += t->sym[s].kind == SYM_TID && t->sym[s].dim == d;
    if (!k) continue;
    if (k > 1 || r.n == AFFINE_TERMS) {
      *other = true;
      continue;
    }
    Term m = {t->coef, 0, {{0}}};
    for (int s = 0; s < t->deg; s++)
      if (!(t->sym[s].kind == SYM_TID && t->sym[s].dim == d)) m.sym[m.deg++] = t->sym[s];
    r.t[r.n++] = m;
  }
  return r;
}

/* a difference of two indices as dy*S + dx with small dy, dx */
static bool split_offset(const Affine *d, const Affine *S, int *dy, int *dx) {
  if (!d->ok) return false;
  int64_t c = 0, k = 0;
  bool sconst = S->n == 1 && S->t[0].deg == 0;
  for (int i = 0; i < d->n; i++) {
    const Term *t = &d->t[i];
    if (t->deg == 0) c += t->coef;
    else if (S->n == 1 && !sconst && t->deg == S->t[0].deg && S->t[0].coef == 1) {
      for (int s = 0; s < t->deg; s++)
        if (t->sym[s].kind != S->t[0].sym[s].kind || t->sym[s].var != S->t[0].sym[s].var ||
            t->sym[s].dim != S->t[0].sym[s].dim || strcmp(t->sym[s].name, S->t[0].sym[s].name))
          return false;
      k += t->coef;
    } else return false;
  }
  if (sconst && S->t[0].coef > 2 * MAX_OFF) {
    int64_t s = S->t[0].coef;
    int64_t q = c >= 0 ? (c + s / 2) / s : -((-c + s / 2) / s);
    k += q;
    c -= q * s;
  }
  if (k < -MAX_OFF || k > MAX_OFF || c < -MAX_OFF || c > MAX_OFF) return false;
  if (!S->n && k) return false;
  *dy = (int)k;
  *dx = (int)c;
  return true;
}

/* is n reached only under a condition inside the list (an if, ?:, the right of && or ||, a
 * switch)? The fill loads every element some offset reaches for every thread of the block, so a
 * load the original makes only on some threads (fdtd2d's `if (i == 0) ... else hz[(i-1)*NY + j]`)
 * would make the fill read elements the original never reads (row -1) */
typedef struct {
  Node *target;
  int depth;
  bool under;
} Cond;
static bool cond_kind(Node *n) {
  return n->kind == ND_IF || n->kind == ND_COND || n->kind == ND_LOGAND || n->kind == ND_LOGOR ||
         n->kind == ND_SWITCH;
}
static bool cond_pre(Node *n, void *ctx) {
  Cond *x = ctx;
  if (n == x->target) x->under = x->depth > 0;
  if (cond_kind(n)) x->depth++;
  return true;
}
static bool cond_post(Node *n, void *ctx) {
  Cond *x = ctx;
  if (cond_kind(n)) x->depth--;
  return true;
}
static bool conditional_in(Node *list, Node *target) {
  Cond x = {target, 0, false};
  walk(list, cond_pre, cond_post, &x);
  return x.under;
}

/* the facts of the pass on kernel c->k; the input chosen is the read-only parameter with the
 * most loads */
static Legality halo_facts(PassCtx *c, Halo *h) {
  Node *body = c->k->body;
  const Launch *L = c->L;
  if (L->block[2] != 1) {
    snprintf(c->why, sizeof c->why, "the block is 3-D (%lldx%lldx%lld)", (long long)L->block[0],
             (long long)L->block[1], (long long)L->block[2]);
    return NOT_APPLICABLE;
  }
  h->bx = (int)L->block[0];
  h->by = (int)L->block[1];
  h->form = guard_shape(body->stmts, &h->gi);
  if (h->form < 0) {
    snprintf(c->why, sizeof c->why,
             "the statements are not pure declarations followed by one guard");
    return NOT_APPLICABLE;
  }
  Node *guard = h->form ? *rw_nth_slot(&body->stmts, h->gi) : NULL;
  Node *tail = h->form == 1 ? guard->then : h->form == 2 ? guard->next : NULL;
  Facts *f = facts_new(c->p, c->k);
  Legality r = NOT_APPLICABLE;
  snprintf(c->why, sizeof c->why,
           "no read-only pointer parameter is loaded at neighbouring "
           "elements after the guard");
  int best = 0;
  for (Obj *q = c->k->params; q; q = q->next) {
    if (q->ty->kind != TY_PTR || !rw_read_only(body, q)) continue;
    Halo t = *h;
    t.in = q;
    t.np = t.n = 0;
    bool bad = false;
    for (int k = 0; k < facts_naccesses(f) && !bad; k++) {
      const Access *a = facts_access(f, k);
      if (a->base != q) continue;
      bool inside = false;
      if (h->form == 1) inside = rw_contains(tail, a->node);
      else {
        Node *from = h->form == 2 ? tail : *rw_nth_slot(&body->stmts, h->gi);
        for (Node *s = from; s && !inside; s = s->next) inside = rw_contains(s, a->node);
      }
      if (inside && conditional_in(h->form == 1   ? tail
                                   : h->form == 2 ? tail
                                                  : *rw_nth_slot(&body->stmts, h->gi),
                                   a->node)) {
        if (strncmp(c->why, "the load of", 11)) /* the first such parameter's */
          snprintf(c->why, sizeof c->why,
                   "the load of '%s' at line %d runs under a condition after the guard: the tile "
                   "would read elements the original does not",
                   q->name, a->node->tok->line);
        bad = true;
        break;
      }
      if (!a->load || a->store || a->atomic || a->space != SPACE_GLOBAL || a->indirect ||
          !a->index.ok || a->fn != c->k || a->loop >= 0 || !inside || t.n == MAX_LOADS ||
          a->node->kind != ND_INDEX || rw_strip(a->node->lhs)->kind != ND_VAR || !a->node->ty ||
          !(is_integer(a->node->ty) || a->node->ty->kind == TY_FLOAT ||
            a->node->ty->kind == TY_DOUBLE)) {
        bad = true;
        break;
      }
      int dy = 0, dx = 0, p = 0;
      if (!t.np) {
        bool o1, o0;
        t.S = tid_coef(&a->index, 1, &o1);
        Affine X = tid_coef(&a->index, 0, &o0);
        bool sok =
          !t.S.n || (t.S.n == 1 && (t.S.t[0].deg == 0 || (t.S.t[0].deg == 1 && t.S.t[0].coef == 1 &&
                                                          t.S.t[0].sym[0].kind == SYM_PARAM)));
        if (o1 || o0 || !sok || X.n != 1 || X.t[0].deg || X.t[0].coef != 1 ||
            (!t.S.n && h->by > 1)) {
          bad = true;
          break;
        }
        t.ref[0] = a->node;
        t.refx[0] = a->index;
        t.np = 1;
      } else {
        Affine d;
        for (p = 0; p < t.np; p++)
          if (stencil_affine_sub(&a->index, &t.refx[p], &d) && !names_block_or_thread(&d) &&
              split_offset(&d, &t.S, &dy, &dx))
            break;
        if (p == t.np) {
          if (t.np == MAX_PLANES || !stencil_affine_sub(&a->index, &t.refx[0], &d) ||
              names_block_or_thread(&d)) {
            bad = true;
            break;
          }
          t.ref[p] = a->node;
          t.refx[p] = a->index;
          t.np++;
          dy = dx = 0;
        }
      }
      t.ld[t.n++] = (Load){a->node, p, dy, dx};
    }
    if (bad || !t.n) continue;
    /* reuse: some plane read at two offsets */
    bool reuse = false;
    for (int i = 0; i < t.n && !reuse; i++)
      for (int j = 0; j < i && !reuse; j++)
        reuse =
          t.ld[i].plane == t.ld[j].plane && (t.ld[i].dy != t.ld[j].dy || t.ld[i].dx != t.ld[j].dx);
    if (!reuse || t.n <= best) continue;
    best = t.n;
    *h = t;
    r = LEGAL;
  }
  facts_free(f);
  if (r != LEGAL) return r;
  /* a plane read at one offset only has nothing to share: its loads stay global */
  int keep[MAX_PLANES], np = 0;
  for (int p = 0; p < h->np; p++) {
    int first = -1;
    bool two = false;
    for (int i = 0; i < h->n; i++)
      if (h->ld[i].plane == p) {
        if (first < 0) first = i;
        else two |= h->ld[i].dy != h->ld[first].dy || h->ld[i].dx != h->ld[first].dx;
      }
    keep[p] = two ? np : -1;
    if (two) {
      h->ref[np] = h->ref[p];
      h->refx[np++] = h->refx[p];
    }
  }
  int n = 0;
  for (int i = 0; i < h->n; i++)
    if (keep[h->ld[i].plane] >= 0) {
      h->ld[n] = h->ld[i];
      h->ld[n++].plane = keep[h->ld[i].plane];
    }
  h->n = n;
  h->np = np;
  h->et = unqual(h->ref[0]->ty);
  /* each plane's tile starts at its least row and column offsets */
  for (int p = 0; p < h->np; p++) {
    h->sy[p] = h->sx[p] = MAX_OFF;
    for (int i = 0; i < h->n; i++)
      if (h->ld[i].plane == p) {
        if (h->ld[i].dy < h->sy[p]) h->sy[p] = h->ld[i].dy;
        if (h->ld[i].dx < h->sx[p]) h->sx[p] = h->ld[i].dx;
      }
    for (int i = 0; i < h->n; i++)
      if (h->ld[i].plane == p) h->ld[i].dy -= h->sy[p], h->ld[i].dx -= h->sx[p];
  }
  h->y0 = h->y1 = h->x0 = h->x1 = 0;
  for (int i = 0; i < h->n; i++) {
    if (h->ld[i].dy < h->y0) h->y0 = h->ld[i].dy;
    if (h->ld[i].dy > h->y1) h->y1 = h->ld[i].dy;
    if (h->ld[i].dx < h->x0) h->x0 = h->ld[i].dx;
    if (h->ld[i].dx > h->x1) h->x1 = h->ld[i].dx;
  }
  h->th = h->by + h->y1 - h->y0;
  h->tw = h->bx + h->x1 - h->x0;
  int64_t bytes = (int64_t)h->np * h->th * h->tw * h->et->size;
  if (bytes > 48 * 1024) {
    snprintf(c->why, sizeof c->why,
             "the tiles take %lld bytes of static shared memory (48 KiB is the most)",
             (long long)bytes);
    return NOT_APPLICABLE;
  }
  return LEGAL;
}

/* What the L1 would do without the tile: the blocks resident on an SM each touch the tile's
 * elements; where those fit the L1 (what the SM's combined L1/shared storage leaves beside the
 * tiles), the original's neighbouring loads hit L1 and the tile saves L1 hits, not L2 traffic
 * (the estimate then finds nothing to gain: on Hopper, 2-D stencils' reuse is the L1's). The
 * note the plan shows, "" where the machine does not say. */
static void l1_note(const PassCtx *c, const Halo *h, char *out, size_t len) {
  out[0] = 0;
  int nthr = h->bx * h->by;
  int64_t foot = (int64_t)h->np * h->th * h->tw * h->et->size;
  if (!c->m || c->m->l1_smem_bytes <= 0 || c->m->max_threads_per_sm <= 0 || nthr <= 0) return;
  int64_t res = c->m->max_threads_per_sm / nthr;
  if (c->m->max_blocks_per_sm > 0 && res > c->m->max_blocks_per_sm) res = c->m->max_blocks_per_sm;
  int64_t cache = c->m->l1_smem_bytes - res * foot;
  snprintf(out, len,
           "; %lld blocks an SM touch %lld bytes, %s the %lld KiB of L1 left beside the tiles%s",
           (long long)res, (long long)(res * foot), res * foot <= cache ? "within" : "beyond",
           (long long)(cache > 0 ? cache / 1024 : 0),
           res * foot <= cache ? ": without the tile the neighbours' loads hit L1" : "");
}

static Legality legal(PassCtx *c) {
  char no[256];
  if (rw_launch_aliases(c, c->why, sizeof c->why)) return ILLEGAL;
  if (!rw_threads_separable(c->k->body, NULL, no, sizeof no)) {
    snprintf(c->why, sizeof c->why, "the block cannot share a tile: %s", no);
    return NOT_APPLICABLE;
  }
  Halo h = {0};
  Legality r = halo_facts(c, &h);
  if (r != LEGAL) return r;
  /* the planes' first indices are computed before the guard: from what is in scope there */
  for (int p = 0; p < h.np; p++) {
    Node *tl = *tail_list(rw_nth_slot(&c->k->body->stmts, h.gi), h.form);
    InScope x = {{c->k->body->stmts, tl}, {h.gi, decl_prefix(tl, h.in)}, false};
    walk(h.ref[p]->rhs, scope_pre, NULL, &x);
    if (x.bad) {
      snprintf(c->why, sizeof c->why,
               "the index at line %d reads a variable declared after the guard",
               h.ref[p]->tok->line);
      return NOT_APPLICABLE;
    }
  }
  char l1[200];
  l1_note(c, &h, l1, sizeof l1);
  snprintf(c->why, sizeof c->why,
           "'%s' read at %d offsets in %d plane%s: a %dx%d tile per plane through shared memory%s",
           h.in->name, h.n, h.np, h.np == 1 ? "" : "s", h.tw, h.th, l1);
  c->site = h.ref[0];
  return LEGAL;
}

/* ---- apply ---- */
static Node *num(Token *at, int64_t v) { return rw_num(at, v); }

/* x + k printed as x + k or x - |k| (x itself when k is 0) */
static Node *plus(Node *x, int64_t k) {
  if (!k) return x;
  return k > 0 ? rw_bin(ND_ADD, x, num(x->tok, k)) : rw_bin(ND_SUB, x, num(x->tok, -k));
}

/* e as type ty (an explicit cast where it differs) */
static Node *as(Node *e, Type *ty) {
  Type *et = unqual(e->ty);
  if (et->kind == ty->kind && et->size == ty->size && et->is_unsigned == ty->is_unsigned) return e;
  return rw_cast(e, ty);
}

/* the tile elements plane p's offsets reach: for each row offset, the column offsets' span;
 * row offsets with one span and overlapping rows merged; the test of (ly, lx), NULL when every
 * element of the bounding box is reached */
static Node *reached(const Halo *h, int p, Obj *ly, Obj *lx, Token *at) {
  int lo[2 * MAX_OFF + 1], hi[2 * MAX_OFF + 1];
  for (int i = 0; i <= 2 * MAX_OFF; i++) lo[i] = 1, hi[i] = -1;
  for (int i = 0; i < h->n; i++) {
    if (h->ld[i].plane != p) continue;
    int r = h->ld[i].dy + MAX_OFF;
    if (lo[r] > hi[r]) lo[r] = hi[r] = h->ld[i].dx;
    if (h->ld[i].dx < lo[r]) lo[r] = h->ld[i].dx;
    if (h->ld[i].dx > hi[r]) hi[r] = h->ld[i].dx;
  }
  /* boxes [ya, yb) x [xa, xb) of tile coordinates, merged while their column spans agree */
  int ya[2 * MAX_OFF + 1], yb[2 * MAX_OFF + 1], xa[2 * MAX_OFF + 1], xb[2 * MAX_OFF + 1], nb = 0;
  for (int r = 0; r <= 2 * MAX_OFF; r++) {
    if (lo[r] > hi[r]) continue;
    int a = r - MAX_OFF - h->y0, b = a + h->by, xl = lo[r] - h->x0, xh = hi[r] - h->x0 + h->bx;
    int m = 0;
    while (m < nb && !(xa[m] == xl && xb[m] == xh && a <= yb[m] && b >= ya[m])) m++;
    if (m < nb) {
      if (a < ya[m]) ya[m] = a;
      if (b > yb[m]) yb[m] = b;
      continue;
    }
    ya[nb] = a, yb[nb] = b, xa[nb] = xl, xb[nb] = xh;
    nb++;
  }
  if (nb == 1 && ya[0] == 0 && yb[0] == h->th && xa[0] == 0 && xb[0] == h->tw) return NULL;
  Node *any = NULL;
  for (int i = 0; i < nb; i++) {
    Node *t = NULL;
    Node *parts[4] = {ya[i] > 0 ? rw_bin(ND_GE, rw_var(at, ly), num(at, ya[i])) : NULL,
                      yb[i] < h->th ? rw_bin(ND_LT, rw_var(at, ly), num(at, yb[i])) : NULL,
                      xa[i] > 0 ? rw_bin(ND_GE, rw_var(at, lx), num(at, xa[i])) : NULL,
                      xb[i] < h->tw ? rw_bin(ND_LT, rw_var(at, lx), num(at, xb[i])) : NULL};
    for (int k = 0; k < 4; k++)
      if (parts[k]) t = t ? rw_bin(ND_LOGAND, t, parts[k]) : parts[k];
    if (!t) return NULL;
    any = any ? rw_bin(ND_LOGOR, any, t) : t;
  }
  return any;
}

/* the tile of plane p at tile row r, column col */
static Node *tile_at(Obj *tile, const Halo *h, int p, Node *r, Node *col, Token *at) {
  Node *t = rw_var(at, tile);
  if (h->np > 1) t = rw_index(t, num(at, p));
  return rw_index(rw_index(t, r), col);
}

static Node *stride_expr(const Halo *h, Token *at) {
  const Term *t = &h->S.t[0];
  if (t->deg == 0) return num(at, t->coef);
  return rw_var(at, t->sym[0].var);
}

/* the tile's origin is computed from the guarded statements' leading declarations: in the
 * tiled copy those are the copy's own variables (clone_node declares new ones), so the origin's
 * uses of the original's are renamed to them */
typedef struct {
  Obj *from[32], *to[32];
  int n;
} Renames;
static bool rename_pre(Node *n, void *ctx) {
  Renames *r = ctx;
  if (n->kind == ND_VAR && n->var)
    for (int i = 0; i < r->n; i++)
      if (n->var == r->from[i]) n->var = r->to[i];
  return true;
}

static bool apply(PassCtx *c) {
  Halo h = {0};
  if (halo_facts(c, &h) != LEGAL) return false;
  Node *body = c->k->body;
  Token *at = body->tok;
  Type *tt = h.et;
  if (h.np > 1) tt = array_of(array_of(array_of(h.et, h.tw), h.th), h.np);
  else tt = array_of(array_of(h.et, h.tw), h.th);
  Obj *tile = rw_new_var(c->p, c->k, fmt("%s_tile", h.in->name), tt, SC_SHARED, at);

  /* each plane's first index at thread (0, 0) of the block: the index as this thread computes
   * it, less threadIdx.y*S + threadIdx.x (its multipliers, from the facts) */
  Obj *base[MAX_PLANES];
  Node bh = {0}, *bcur = &bh;
  for (int p = 0; p < h.np; p++) {
    Type *it = unqual(h.ref[p]->rhs->ty);
    Node *e = clone_nodes(h.ref[p]->rhs);
    if (h.S.n)
      e = rw_bin(ND_SUB, e,
                 rw_bin(ND_MUL, as(rw_special(at, SR_TID, 1), it), as(stride_expr(&h, at), it)));
    e = rw_bin(ND_SUB, e, as(rw_special(at, SR_TID, 0), it));
    if (h.sy[p] && h.S.n)
      e = rw_bin(
        h.sy[p] > 0 ? ND_ADD : ND_SUB, e,
        rw_bin(ND_MUL, num(at, h.sy[p] > 0 ? h.sy[p] : -h.sy[p]), as(stride_expr(&h, at), it)));
    if (h.sx[p]) e = plus(e, h.sx[p]);
    base[p] =
      rw_new_var(c->p, c->k, p ? fmt("%s_base%d", h.in->name, p) : fmt("%s_base", h.in->name), it,
                 SC_LOCAL, at);
    bcur = bcur->next = rw_decl(base[p], e);
  }

  /* the fill: for (l = threadIdx.y*bx + threadIdx.x; l < th*tw; l += bx*by) */
  Obj *l = rw_new_var(c->p, c->k, "l", ty_int, SC_LOCAL, at);
  Obj *ly = rw_new_var(c->p, c->k, "ly", ty_int, SC_LOCAL, at);
  Obj *lx = rw_new_var(c->p, c->k, "lx", ty_int, SC_LOCAL, at);
  Node *first = rw_cast(rw_bin(ND_ADD, rw_bin(ND_MUL, rw_special(at, SR_TID, 1), rw_unum(at, h.bx)),
                               rw_special(at, SR_TID, 0)),
                        ty_int);
  Node *fb = rw_decl(ly, rw_bin(ND_DIV, rw_var(at, l), num(at, h.tw)));
  fb->next = rw_decl(lx, rw_bin(ND_MOD, rw_var(at, l), num(at, h.tw)));
  Node *fcur = fb->next;
  for (int p = 0; p < h.np; p++) {
    Type *it = unqual(h.ref[p]->rhs->ty);
    Node *idx = rw_var(at, base[p]);
    if (h.S.n) {
      Node *S = stride_expr(&h, at);
      idx = rw_bin(ND_ADD, idx, rw_bin(ND_MUL, as(plus(rw_var(at, ly), h.y0), it), as(S, it)));
    }
    int x0 = c->mutation == 1 ? h.x0 + 1 : h.x0; /* broken: the tile shifted one column */
    idx = rw_bin(ND_ADD, idx, as(plus(rw_var(at, lx), x0), it));
    Node *st = rw_expr_stmt(rw_assign(tile_at(tile, &h, p, rw_var(at, ly), rw_var(at, lx), at),
                                      rw_index(rw_var(at, h.in), idx)));
    Node *need = reached(&h, p, ly, lx, at);
    fcur = fcur->next = need ? rw_if(need, st, NULL) : st;
  }
  int step = c->mutation == 2 ? h.bx * h.by + 1 : h.bx * h.by; /* broken: elements skipped */
  Node *fill = rw_for(rw_decl(l, first), rw_bin(ND_LT, rw_var(at, l), num(at, h.th * h.tw)),
                      rw_assign_op(ND_ADD, rw_var(at, l), num(at, step)), rw_block(at, fb));
  Node *sync = rw_sync(at);
  fill->next = sync;
  bcur->next = fill;

  /* the tiled statements: each load of the input reads the tile (the loads swapped in, the
   * statements cloned, the loads restored) */
  Node *save_l[MAX_LOADS], *save_r[MAX_LOADS];
  for (int i = 0; i < h.n; i++) {
    Node *n = h.ld[i].node;
    Token *t = n->tok;
    save_l[i] = n->lhs;
    save_r[i] = n->rhs;
    Node *r = plus(rw_special(t, SR_TID, 1), h.ld[i].dy - h.y0);
    Node *col = plus(rw_special(t, SR_TID, 0), h.ld[i].dx - h.x0);
    if (c->mutation == 3 && i == 0) col = plus(rw_special(t, SR_TID, 0), h.ld[i].dx - h.x0 + 1);
    Node *e = tile_at(tile, &h, h.ld[i].plane, r, col, t);
    n->lhs = e->lhs;
    n->rhs = e->rhs;
  }
  Node **gslot = rw_nth_slot(&body->stmts, h.gi);
  Node *fast = NULL;
  if (h.form == 1) fast = clone_node((*gslot)->then);
  else fast = clone_nodes(h.form == 2 ? (*gslot)->next : *gslot);
  for (int i = 0; i < h.n; i++) {
    h.ld[i].node->lhs = save_l[i];
    h.ld[i].node->rhs = save_r[i];
  }
  /* the fill after the guarded statements' leading declarations that do not read the input */
  Node *tiled;
  if (h.form == 1 && fast->kind != ND_BLOCK) fast = rw_block(at, fast);
  Node **fl = h.form == 1 ? &fast->stmts : &fast;
  Renames rn = {.n = 0};
  Node *od = *tail_list(gslot, h.form);
  for (int k = decl_prefix(*fl, h.in); k > 0; k--, od = od->next) {
    if (rn.n < 32 && od && od->kind == ND_DECL && (*fl)->kind == ND_DECL) {
      rn.from[rn.n] = od->var;
      rn.to[rn.n++] = (*fl)->var;
    }
    fl = &(*fl)->next;
  }
  for (Node *b = bh.next; b != fill; b = b->next) walk(b, rename_pre, NULL, &rn);
  sync->next = *fl;
  *fl = bh.next;
  tiled = h.form == 1 ? fast : rw_block(at, fast);

  Node *orig = *gslot;
  *gslot = NULL;
  Obj *all = NULL;
  if (!h.form) {
    *gslot = tiled; /* no guard: every block takes the tile */
  } else {
    /* every thread of the block passes the guard: a barrier's vote (__syncthreads_and) */
    Node *g = clone_nodes(orig->cond);
    if (h.form == 2) g = rw_unary(ND_NOT, g);
    Node *test = new_node(ND_CALL, rw_tok(at, TK_IDENT, "__syncthreads_and"));
    test->builtin = BI_SYNCTHREADS_AND;
    test->args = g;
    test->nargs = 1;
    test->ty = ty_int;
    if (c->mutation == 4) test = num(at, 1); /* broken: border blocks take the tile too */
    all = rw_new_var(c->p, c->k, "all", ty_int, SC_LOCAL, at);
    Node *dall = rw_decl(all, test);
    Node *split = rw_if(rw_var(at, all), tiled, rw_block(at, orig));
    dall->next = split;
    *gslot = dall;
  }
  /* the tile's declaration first */
  Node *dt = rw_decl(tile, NULL);
  dt->next = body->stmts;
  body->stmts = dt;
  rw_restrict_params(c);
  int sx = (int)(h.th * h.tw), nthr = h.bx * h.by;
  snprintf(
    c->did, sizeof c->did,
    "'%s' read at %d offsets (rows %+d..%+d, columns %+d..%+d%s) staged through __shared__ "
    "%s[%s%d][%d]: %d elements loaded by %d threads per block (%.2f loads a thread, was %d)%s",
    h.in->name, h.n, h.y0, h.y1, h.x0, h.x1, h.np > 1 ? fmt(", %d planes", h.np) : "", tile->name,
    h.np > 1 ? fmt("%d][", h.np) : "", h.th, h.tw, h.np * sx, nthr, (double)h.np * sx / nthr, h.n,
    h.form ? "; blocks where some thread fails the guard run the original" : "");
  char l1[200];
  l1_note(c, &h, l1, sizeof l1);
  size_t dl = strlen(c->did);
  snprintf(c->did + dl, sizeof c->did - dl, "%s", l1);
  return true;
}

const Pass pass_halo = {
  .name = "halo",
  .summary = "a stencil's input staged through a shared tile plus its halo, loaded once per block",
  .source = "Micikevicius, GPGPU 2009, Sec. 3 (the tile and its halo in shared memory); "
            "Holewinski et al., ICS 2012 (overlapped tiling)",
  .nparams = 0,
  .motivation = "reuse",
  .legal = legal,
  .apply = apply,
  .nmutations = 4,
  .mutation_names = {"the fill reads one column to the right",
                     "the fill skips an element between strides",
                     "the first load reads its right neighbour in the tile",
                     "the border blocks take the tile too (guard dropped)"},
};
