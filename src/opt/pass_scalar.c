/* pass scalar: scalar replacement of global elements in loops. An element read and written in
 * every iteration (`out[idx] += ...`) is loaded into a register before the loop and stored once
 * after it; an element only read (`x[idx]`) is loaded once. nvcc cannot do this itself when a
 * store in the loop may alias the element (pointer parameters without __restrict__).
 *
 * Legal for a loop when: it has no barrier, no call of a user function, no break, continue or
 * return; every access in it is PARAM[index]; the element's index is the same expression each
 * time, depends on nothing the loop writes, and is computed before the loop; at least one access
 * to it runs in every iteration (so loading it before the loop reads nothing the original would
 * not); no other index of the same parameter is used in the loop (it could be the same element).
 * Different parameters are assumed not to alias: the launch binds each to its own buffer, and the
 * output says so with __restrict__. The loop's first test, evaluated before it, guards the load:
 * a loop that runs no iteration touches nothing. */
#include "opt.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_GROUPS = 16, MAX_ACC = 64 };
typedef struct {
  Obj *param;
  Node *index; /* the first access's index */
  Node *acc[MAX_ACC];
  int nacc;
  bool written, unconditional;
  Obj *reg;
} Group;

typedef struct {
  Node *loop;
  Group g[MAX_GROUPS];
  int ng;
  bool bad;
  char why[256];
  Obj *iv;
  Node *iv_init; /* for (int iv = init; ...) */
  Obj *poison[MAX_GROUPS];
  int npoison; /* parameters used with two indices */
} LoopScan;

static Obj *param_base(Node *idx) {
  Node *b = rw_strip(idx->lhs);
  if (b->kind == ND_VAR && b->var->sc == SC_PARAM && b->var->ty->kind == TY_PTR) return b->var;
  return NULL;
}

static void set_bad(LoopScan *s, Node *at, const char *why) {
  if (s->bad) return;
  s->bad = true;
  snprintf(s->why, sizeof s->why, "%s (line %d)", why, tok_loc(at->tok).line);
}

typedef struct {
  LoopScan *s;
  int cond_depth;
  Obj *fn;
} ScanCtx;

typedef struct {
  Node *loop;
  bool ok;
} InvCtx;
static bool inv_pre(Node *n, void *ctx) {
  InvCtx *c = ctx;
  if (n->kind == ND_VAR && n->var->sc == SC_LOCAL) {
    if (rw_writes_var(c->loop, n->var)) c->ok = false;
    if (n->var->in_memory) c->ok = false;
  }
  if (n->kind == ND_INDEX || n->kind == ND_DEREF || n->kind == ND_CALL || n->kind == ND_MEMBER)
    c->ok = false;
  if (n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP || n->kind == ND_PREINC ||
      n->kind == ND_POSTINC || n->kind == ND_PREDEC || n->kind == ND_POSTDEC)
    c->ok = false;
  return c->ok;
}

typedef struct {
  Obj *v;
  bool found;
} DeclFind;
static bool decl_pre(Node *n, void *ctx) {
  DeclFind *d = ctx;
  if (n->kind == ND_DECL && n->var == d->v) d->found = true;
  return !d->found;
}

static bool declared_in(Node *loop, Obj *v) {
  DeclFind d = {v, false};
  walk_one(loop, decl_pre, NULL, &d);
  return d.found;
}

typedef struct {
  Node *loop;
  bool ok;
} DeclOut;
static bool vars_outside(Node *n, void *ctx) {
  DeclOut *c = ctx;
  if (n->kind == ND_VAR && n->var->sc == SC_LOCAL && declared_in(c->loop, n->var)) c->ok = false;
  return c->ok;
}

static bool invariant(Node *e, Node *loop) {
  InvCtx c = {loop, true};
  walk_one(e, inv_pre, NULL, &c);
  DeclOut d = {loop, c.ok};
  if (c.ok) walk_one(e, vars_outside, NULL, &d);
  return c.ok && d.ok;
}

static bool poisoned(LoopScan *s, Obj *p) {
  for (int i = 0; i < s->npoison; i++)
    if (s->poison[i] == p) return true;
  return false;
}

static void add_access(LoopScan *s, Node *acc, bool written, bool cond) {
  Obj *p = param_base(acc);
  if (!p) {
    set_bad(s, acc, "an access through something other than a pointer parameter");
    return;
  }
  if (poisoned(s, p)) return;
  for (int i = 0; i < s->ng; i++) {
    Group *g = &s->g[i];
    if (g->param != p) continue;
    if (!rw_same_expr(g->index, acc->rhs) || g->nacc == MAX_ACC) {
      /* two indices of one parameter may name the same element: neither is kept (other
       * parameters are other buffers, so their groups stand) */
      if (s->npoison == MAX_GROUPS) {
        set_bad(s, acc, "too many parameters used with several indices");
        return;
      }
      s->poison[s->npoison++] = p;
      *g = s->g[--s->ng];
      return;
    }
    g->acc[g->nacc++] = acc;
    g->written |= written;
    g->unconditional |= !cond;
    return;
  }
  if (s->ng == MAX_GROUPS) {
    set_bad(s, acc, "too many distinct elements in the loop");
    return;
  }
  Group *g = &s->g[s->ng++];
  memset(g, 0, sizeof *g);
  g->param = p;
  g->index = acc->rhs;
  g->acc[g->nacc++] = acc;
  g->written = written;
  g->unconditional = !cond;
}

/* the accesses of a loop body, knowing which run in every iteration */
static void scan_node(LoopScan *s, Node *n, bool cond, bool written);

static void scan_list(LoopScan *s, Node *n, bool cond) {
  for (; n; n = n->next) scan_node(s, n, cond, false);
}

static void scan_node(LoopScan *s, Node *n, bool cond, bool written) {
  if (s->bad || !n) return;
  switch (n->kind) {
  case ND_BREAK:
  case ND_CONTINUE:
  case ND_RETURN: set_bad(s, n, "the loop has break, continue or return"); return;
  case ND_CALL:
    if (n->fn) {
      set_bad(s, n, "the loop calls a function");
      return;
    }
    if (n->builtin != BI_NONE && n->builtin != BI_MATH && n->builtin != BI_MIN &&
        n->builtin != BI_MAX && n->builtin != BI_ABS && n->builtin != BI_MAKE_VECTOR) {
      set_bad(s, n, "the loop synchronizes, uses atomics or warp functions");
      return;
    }
    break;
  case ND_INDEX:
    if (n->ty->kind != TY_ARRAY && n->ty->kind != TY_STRUCT) {
      Node *b = rw_strip(n->lhs);
      if (b->ty->kind == TY_PTR || (b->kind == ND_VAR && b->var->sc == SC_PARAM)) {
        add_access(s, n, written, cond);
        scan_node(s, n->rhs, cond, false);
        return;
      }
      if (b->kind == ND_VAR && (b->var->sc == SC_LOCAL) && b->ty->kind == TY_ARRAY) {
        scan_node(s, n->rhs, cond, false);
        return;
      }
      set_bad(s, n, "an access the pass does not model");
      return;
    }
    break;
  case ND_DEREF:
  case ND_MEMBER:
    if (n->kind == ND_MEMBER && !n->arrow) break;
    set_bad(s, n, "an access through a pointer expression");
    return;
  case ND_ASSIGN:
    scan_node(s, n->lhs, cond, true);
    scan_node(s, n->rhs, cond, false);
    return;
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC:
    scan_node(s, n->lhs, cond, true);
    if (n->rhs) scan_node(s, n->rhs, cond, false);
    return;
  case ND_IF:
    scan_node(s, n->cond, cond, false);
    scan_list(s, n->then, true);
    scan_list(s, n->els, true);
    return;
  case ND_LOGAND:
  case ND_LOGOR:
    scan_node(s, n->lhs, cond, false);
    scan_node(s, n->rhs, true, false);
    return;
  case ND_COND:
    scan_node(s, n->cond, cond, false);
    scan_node(s, n->then, true, false);
    scan_node(s, n->els, true, false);
    return;
  case ND_FOR:
  case ND_WHILE:
  case ND_DO:
  case ND_SWITCH:
    /* inner loops may run no iteration: their accesses are conditional */
    if (n->init) scan_list(s, n->init, cond);
    scan_node(s, n->cond, n->kind == ND_DO ? true : cond, false);
    scan_list(s, n->then, true);
    if (n->inc) scan_node(s, n->inc, true, false);
    return;
  default: break;
  }
  Node **kids[NODE_MAX_KIDS];
  int nk = node_kids(n, kids);
  for (int k = 0; k < nk; k++)
    for (Node *m = *kids[k]; m; m = m->next) scan_node(s, m, cond, false);
}

static bool scan_loop(Node *loop, LoopScan *s) {
  memset(s, 0, sizeof *s);
  s->loop = loop;
  if (loop->kind == ND_FOR) {
    Node *init = loop->init;
    if (!init || init->kind != ND_DECL || init->next || !init->decl_init || !loop->cond) {
      set_bad(s, loop, "the loop is not 'for (T i = START; COND; ...)'");
      return false;
    }
    s->iv = init->var;
    s->iv_init = init->decl_init;
    if (!invariant(init->decl_init, loop)) {
      set_bad(s, loop, "the loop's start depends on the loop");
      return false;
    }
  } else if (loop->kind != ND_WHILE && loop->kind != ND_DO) return false;
  scan_node(s, loop->cond, loop->kind == ND_DO, false);
  scan_list(s, loop->then, false);
  if (loop->inc) scan_node(s, loop->inc, false, false);
  if (s->bad) return false;
  /* keep the groups worth a register: invariant index, unconditional, no poisoned parameter */
  int kept = 0;
  for (int i = 0; i < s->ng; i++) {
    Group *g = &s->g[i];
    if (g->unconditional && invariant(g->index, loop)) s->g[kept++] = *g;
  }
  s->ng = kept;
  return kept > 0;
}

typedef struct {
  Node **loops;
  int n, cap;
} Loops;
static bool collect_loops(Node *n, void *ctx) {
  Loops *l = ctx;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO) {
    if (l->n == l->cap) {
      l->cap = l->cap ? l->cap * 2 : 8;
      l->loops = xrealloc(l->loops, sizeof(Node *) * (size_t)l->cap);
    }
    l->loops[l->n++] = n;
  }
  return true;
}

static int written_groups(const LoopScan *s) {
  int n = 0;
  for (int i = 0; i < s->ng; i++) n += s->g[i].written;
  return n;
}

static Legality legal(PassCtx *c) {
  Loops l = {0};
  /* the rewrite keeps values in registers past other pointers' accesses: an aliased launch (one
   * buffer bound to two parameters, as the program made it) would see stale values */
  if (c->mutation != 3 && rw_launch_aliases(c, c->why, sizeof c->why))
    return ILLEGAL; /* mutation 3: aliasing ignored */
  walk(c->k->body, collect_loops, NULL, &l);
  Legality r = NOT_APPLICABLE;
  snprintf(c->why, sizeof c->why, "no loop accesses a global element in every iteration");
  int nw = 0, nr = 0;
  for (int i = 0; i < l.n; i++) {
    LoopScan s;
    if (scan_loop(l.loops[i], &s)) {
      int w = written_groups(&s);
      nw += w;
      nr += s.ng - w;
      if (r != LEGAL) c->site = l.loops[i];
      r = LEGAL;
    } else if (s.bad && r != LEGAL) {
      snprintf(c->why, sizeof c->why, "loop at line %d: %s", tok_loc(l.loops[i]->tok).line, s.why);
      r = ILLEGAL;
    }
  }
  free(l.loops);
  if (r == LEGAL) {
    if (!nw && !c->param[0]) { /* only read-only hoists, and hoisting is off */
      snprintf(c->why, sizeof c->why, "only loop-invariant loads, and hoist=0");
      return NOT_APPLICABLE;
    }
    snprintf(c->why, sizeof c->why,
             "%d element%s read and written in every iteration, %d loop-invariant load%s", nw,
             nw == 1 ? "" : "s", nr, nr == 1 ? "" : "s");
  }
  return r;
}

/* the loop's first test, evaluated before the loop: NULL if it is always true */
static Node *first_test(PassCtx *c, LoopScan *s, bool *ok) {
  *ok = true;
  Node *loop = s->loop;
  if (loop->kind == ND_DO) return NULL;
  Subst sub = {0};
  if (s->iv) {
    sub.nv = 1;
    sub.vfrom[0] = s->iv;
    sub.vto[0] = s->iv_init;
  }
  char why[256];
  Node *g = remat(c->k, loop->cond, &sub, why, sizeof why);
  if (!g) {
    *ok = false;
    snprintf(c->why, sizeof c->why, "the loop's first test cannot be computed before it: %s", why);
    return NULL;
  }
  int64_t v;
  if (node_int_constant(g, &v) && v) return NULL;
  return g;
}

static bool transform_loop(PassCtx *c, LoopScan *s, Node **slot) {
  Node *loop = s->loop;
  bool ok;
  Node *guard = first_test(c, s, &ok);
  if (!ok) return false;
  Node head = {0}, *pre = &head;
  Node tail_head = {0}, *post = &tail_head;
  for (int i = 0; i < s->ng; i++) {
    Group *g = &s->g[i];
    if (!g->written && !c->param[0]) continue;
    Type *ty = g->acc[0]->ty;
    Token *at = g->acc[0]->tok;
    const char *hint = fmt("%s_%s", g->param->name, g->written ? "acc" : "val");
    g->reg = rw_new_var(c->p, c->k, hint, unqual(ty), SC_LOCAL, at);
    Node *load = rw_index(rw_var(at, g->param), clone_nodes(g->index));
    if (c->mutation == 2 && g->written) load = rw_num(at, 0); /* mutation: accumulator not loaded */
    pre = pre->next = rw_decl(g->reg, load);
    for (int a = 0; a < g->nacc; a++) {
      Node **as = rw_slot_of(&loop->then, g->acc[a]);
      if (!as) as = rw_slot_of(&loop->cond, g->acc[a]);
      if (!as && loop->inc) as = rw_slot_of(&loop->inc, g->acc[a]);
      if (!as) {
        snprintf(c->why, sizeof c->why, "internal: access not found in its loop");
        return false;
      }
      Node *r = rw_var(g->acc[a]->tok, g->reg);
      r->next = (*as)->next;
      *as = r;
    }
    if (g->written && c->mutation != 1) /* mutation 1: the store after the loop is dropped */
      post = post->next = rw_expr_stmt(
        rw_assign(rw_index(rw_var(at, g->param), clone_nodes(g->index)), rw_var(at, g->reg)));
  }
  Node *next = loop->next;
  loop->next = tail_head.next;
  pre->next = loop;
  Node *blk = rw_block(loop->tok, head.next);
  Node *stmt = guard ? rw_if(guard, blk, NULL) : blk;
  stmt->next = next;
  *slot = stmt;
  return true;
}

static bool apply(PassCtx *c) {
  Loops l = {0};
  walk(c->k->body, collect_loops, NULL, &l);
  int done = 0, regs = 0;
  for (int i = 0; i < l.n; i++) {
    LoopScan s;
    if (!scan_loop(l.loops[i], &s)) continue;
    Node **slot = rw_slot_of(&c->k->body, l.loops[i]);
    if (!slot) continue;
    if (!transform_loop(c, &s, slot)) {
      free(l.loops);
      return false;
    }
    done++;
    for (int g = 0; g < s.ng; g++) regs += s.g[g].reg != NULL;
  }
  free(l.loops);
  if (!done) {
    snprintf(c->why, sizeof c->why, "no loop left to transform");
    return false;
  }
  rw_restrict_params(c);
  snprintf(c->did, sizeof c->did, "%d loop%s: %d global element%s kept in registers", done,
           done == 1 ? "" : "s", regs, regs == 1 ? "" : "s");
  return true;
}

const Pass pass_scalar = {
  .name = "scalar",
  .summary =
    "keep global elements read and written in a loop in registers; load invariant elements once",
  .source =
    "scalar replacement (Carr and Kennedy 1994); needed before Yang et al. PLDI 2010 Sec. 3 on naive code",
  .params =
    {{"hoist", "also load loop-invariant read-only elements once (1) or not (0)", {0, 1}, 1}},
  .nparams = 1,
  .motivation = "reuse",
  .legal = legal,
  .apply = apply,
  .nmutations = 3,
  .mutation_names = {"write-back after the loop dropped", "accumulator not loaded before the loop",
                     "the launch's aliasing ignored (one buffer bound twice)"},
};
