/* walk: the one traversal of the AST, and the deep clone built on it. Every module that walks
 * the tree goes through node_kids, so a field added to Node is added here once and no walk
 * silently misses it. Walks use an explicit stack: generated code nests deeply. */
#include "front.h"
#include <stdlib.h>
#include <string.h>

int node_kids(Node *n, Node **kids[NODE_MAX_KIDS]) {
  int k = 0;
  /* source order, so a pre-order walk meets nodes as a reader does: declarations before uses */
  if (n->init) kids[k++] = &n->init;
  if (n->cond) kids[k++] = &n->cond;
  if (n->lhs) kids[k++] = &n->lhs;
  if (n->rhs) kids[k++] = &n->rhs;
  if (n->then) kids[k++] = &n->then;
  if (n->els) kids[k++] = &n->els;
  if (n->inc) kids[k++] = &n->inc;
  if (n->body) kids[k++] = &n->body;
  if (n->stmts) kids[k++] = &n->stmts;
  if (n->args) kids[k++] = &n->args;
  if (n->decl_init) kids[k++] = &n->decl_init;
  if (n->elems) kids[k++] = &n->elems;
  return k;
}

/* for loops: the increment runs after the body, but reads as written (init; cond; inc) */
typedef struct {
  Node *n;
  bool post;
} Frame;

static void walk_from(Node *list, bool siblings, WalkFn *pre, WalkFn *post, void *ctx) {
  Frame small[64];
  Frame *st = small;
  size_t sp = 0, cap = 64;
  /* push a list in reverse so its first element pops first */
#define PUSH(node, is_post)                             \
  do {                                                  \
    if (sp == cap) {                                    \
      Frame *bigger = xmalloc(sizeof(Frame) * cap * 2); \
      memcpy(bigger, st, sizeof(Frame) * cap);          \
      if (st != small) free(st);                        \
      st = bigger;                                      \
      cap *= 2;                                         \
    }                                                   \
    st[sp++] = (Frame){(node), (is_post)};              \
  } while (0)
  size_t base = sp;
  for (Node *m = list; m; m = siblings ? m->next : NULL) PUSH(m, false);
  for (size_t i = base, j = sp - 1; i < j; i++, j--) {
    Frame t = st[i];
    st[i] = st[j];
    st[j] = t;
  }
  while (sp) {
    Frame f = st[--sp];
    if (f.post) {
      post(f.n, ctx);
      continue;
    }
    if (pre && !pre(f.n, ctx)) continue;
    if (post) PUSH(f.n, true);
    Node **kids[NODE_MAX_KIDS];
    int nk = node_kids(f.n, kids);
    for (int k = nk - 1; k >= 0; k--) {
      size_t b = sp;
      for (Node *m = *kids[k]; m; m = m->next) PUSH(m, false);
      for (size_t i = b, j = sp - 1; sp > b && i < j; i++, j--) {
        Frame t = st[i];
        st[i] = st[j];
        st[j] = t;
      }
    }
  }
#undef PUSH
  if (st != small) free(st);
}

void walk(Node *list, WalkFn *pre, WalkFn *post, void *ctx) {
  walk_from(list, true, pre, post, ctx);
}
void walk_one(Node *n, WalkFn *pre, WalkFn *post, void *ctx) {
  if (n) walk_from(n, false, pre, post, ctx);
}

void walk_program(Program *p, WalkFn *pre, WalkFn *post, void *ctx) {
  for (Obj *f = p->funcs; f; f = f->next)
    if (f->body) walk(f->body, pre, post, ctx);
  for (Obj *g = p->globals; g; g = g->next)
    if (g->init) walk(g->init, pre, post, ctx);
}

/* ---- deep clone ----
 * Nodes are copied with an explicit stack too. Variables declared in the copied code get fresh
 * Objs (a rewrite may retype or rename them without touching the original); uses of them are
 * remapped through a small hash table, as are switch case lists (references into the body). */
typedef struct {
  void **from, **to;
  size_t cap, n;
} PtrMap;

static size_t ptr_hash(const void *p, size_t cap) {
  return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull & (cap - 1);
}

static void map_put(PtrMap *m, void *from, void *to) {
  if ((m->n + 1) * 2 > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    PtrMap g = {xmalloc(sizeof(void *) * cap), xmalloc(sizeof(void *) * cap), cap, 0};
    for (size_t i = 0; i < m->cap; i++)
      if (m->from[i]) map_put(&g, m->from[i], m->to[i]);
    free(m->from);
    free(m->to);
    *m = g;
  }
  size_t h = ptr_hash(from, m->cap);
  while (m->from[h] && m->from[h] != from) h = (h + 1) & (m->cap - 1);
  if (!m->from[h]) m->n++;
  m->from[h] = from;
  m->to[h] = to;
}

static void *map_get(PtrMap *m, void *from) {
  if (!m->cap || !from) return from;
  size_t h = ptr_hash(from, m->cap);
  while (m->from[h]) {
    if (m->from[h] == from) return m->to[h];
    h = (h + 1) & (m->cap - 1);
  }
  return from;
}

static void map_free(PtrMap *m) {
  free(m->from);
  free(m->to);
}

static Obj *clone_obj(Obj *o) {
  Obj *c = arena_alloc(sizeof(Obj));
  *c = *o;
  c->next = NULL;
  c->next_local = NULL;
  return c;
}

typedef struct {
  Node **dst;
  Node *src;
  bool one;
} CloneTask;
typedef struct {
  Node **copies;
  size_t n, cap;
  PtrMap cases;
} Copied;

/* copy a list (one: only its first node) and (iteratively) everything below it; Obj fields
 * are remapped after */
static Node *copy_tree(Node *src, Copied *cp, bool one) {
  CloneTask small[64], *st = small;
  size_t sp = 0, cap = 64;
  Node *root = NULL;
  st[sp++] = (CloneTask){&root, src, one};
  while (sp) {
    CloneTask t = st[--sp];
    Node head = {0}, *cur = &head;
    for (Node *s = t.src; s; s = t.one ? NULL : s->next) {
      Node *c = arena_alloc(sizeof(Node));
      *c = *s;
      c->id = -1;
      c->next = NULL;
      cur = cur->next = c;
      if (cp->n == cp->cap) {
        cp->cap = cp->cap ? cp->cap * 2 : 256;
        cp->copies = xrealloc(cp->copies, sizeof(Node *) * cp->cap);
      }
      cp->copies[cp->n++] = c;
      if (s->kind == ND_CASE) map_put(&cp->cases, s, c);
      Node **kids[NODE_MAX_KIDS];
      int nk = node_kids(c, kids);
      for (int k = 0; k < nk; k++) {
        if (sp == cap) {
          CloneTask *bigger = xmalloc(sizeof(CloneTask) * cap * 2);
          memcpy(bigger, st, sizeof(CloneTask) * cap);
          if (st != small) free(st);
          st = bigger;
          cap *= 2;
        }
        st[sp++] = (CloneTask){kids[k], *kids[k], false};
        *kids[k] = NULL;
      }
    }
    *t.dst = head.next;
  }
  if (st != small) free(st);
  return root;
}

/* the clone of a list, with declared variables copied into `map` (which already holds any the
 * caller copied: functions, globals, parameters) */
static Node *clone_with(Node *n, PtrMap *map, bool one) {
  Copied cp = {0};
  Node *r = copy_tree(n, &cp, one);
  for (size_t i = 0; i < cp.n; i++) {
    Node *c = cp.copies[i];
    if (c->kind == ND_DECL && c->var && map_get(map, c->var) == c->var)
      map_put(map, c->var, clone_obj(c->var));
  }
  for (size_t i = 0; i < cp.n; i++) {
    Node *c = cp.copies[i];
    c->var = map_get(map, c->var);
    if (c->kind == ND_DECL && c->var && c->var->init) c->var->init = c->decl_init;
    c->fn = map_get(map, c->fn);
    c->cases = map_get(&cp.cases, c->cases);
    c->case_next = map_get(&cp.cases, c->case_next);
  }
  free(cp.copies);
  map_free(&cp.cases);
  return r;
}

Node *clone_nodes(Node *n) {
  PtrMap map = {0};
  Node *r = clone_with(n, &map, false);
  map_free(&map);
  return r;
}

Node *clone_node(Node *n) {
  PtrMap map = {0};
  Node *r = clone_with(n, &map, true);
  map_free(&map);
  return r;
}

/* load.c's program_clone: functions, parameters, globals and items copied; calls and uses
 * anywhere remapped to the copies */
Program *program_copy(Program *p);
Program *program_copy(Program *p) {
  Program *c = arena_alloc(sizeof(Program));
  *c = *p;
  c->items = NULL;
  c->funcs = NULL;
  c->globals = NULL;
  PtrMap map = {0};
  Obj **ft = &c->funcs;
  for (Obj *f = p->funcs; f; f = f->next) {
    Obj *k = clone_obj(f);
    map_put(&map, f, k);
    *ft = k;
    ft = &k->next;
  }
  Obj **gt = &c->globals;
  for (Obj *g = p->globals; g; g = g->next) {
    Obj *k = clone_obj(g);
    map_put(&map, g, k);
    *gt = k;
    gt = &k->next;
  }
  for (Obj *f = c->funcs; f; f = f->next) {
    Obj **pt = &f->params;
    for (Obj *q = f->params; q; q = q->next) {
      Obj *k = clone_obj(q);
      map_put(&map, q, k);
      *pt = k;
      pt = &k->next;
    }
    *pt = NULL;
    f->locals = NULL;
  }
  for (Obj *f = c->funcs; f; f = f->next)
    if (f->body) f->body = clone_with(f->body, &map, false);
  for (Obj *g = c->globals; g; g = g->next)
    if (g->init) g->init = clone_with(g->init, &map, false);
  TopItem **it = &c->items;
  for (TopItem *i = p->items; i; i = i->next) {
    TopItem *k = arena_alloc(sizeof(TopItem));
    *k = *i;
    k->next = NULL;
    k->obj = map_get(&map, i->obj);
    *it = k;
    it = &k->next;
  }
  map_free(&map);
  return c;
}
