/* layout: everything derived from the final AST, computed by the consumer as chibicc's
 * assign_lvar_offsets is, so a rewritten program is laid out exactly like a parsed one:
 *   node ids (walk order), each function's locals (parameters, then declarations in order),
 *   register slots, what lives in thread-local memory (arrays, structs, address taken), frame
 *   offsets, the program-wide static __shared__ area (source order), barrier use and extern
 *   __shared__ use (a local declaration or a file-scope array's use), both through calls. */
#include "front.h"
#include <string.h>

typedef struct {
  Program *p;
  Obj *fn;
  Obj **locals_tail;
  int slots;
} Layout;

static bool is_barrier(Builtin b) {
  return b == BI_SYNCTHREADS || b == BI_SYNCTHREADS_COUNT || b == BI_SYNCTHREADS_AND ||
         b == BI_SYNCTHREADS_OR;
}

static void add_local(Layout *L, Obj *v) {
  v->slot = L->slots++;
  v->in_memory = v->ty->kind == TY_ARRAY || v->ty->kind == TY_STRUCT;
  v->next_local = NULL;
  *L->locals_tail = v;
  L->locals_tail = &v->next_local;
}

static bool number(Node *n, void *ctx) {
  Program *p = ctx;
  n->id = p->nodes++;
  return true;
}

static bool collect(Node *n, void *ctx) {
  Layout *L = ctx;
  Obj *fn = L->fn;
  if (n->kind == ND_DECL && n->var) {
    Obj *v = n->var;
    if (v->sc == SC_LOCAL) add_local(L, v);
    else if (v->sc == SC_SHARED) {
      /* one program-wide static shared area: a device function's __shared__ variables get
       * their own offsets too, so any kernel that calls it finds them in its block's area.
       * Aligned as nvcc guarantees, no more: the type's alignment or the declared one
       * (__align__, printed back), so an access that needs more (a 16-byte async copy into a
       * float array) faults here as it may on the GPU */
      int a = v->align > v->ty->align ? v->align : v->ty->align;
      v->offset = (L->p->shared_size + a - 1) / a * a;
      L->p->shared_size = v->offset + v->ty->size;
      fn->shared_size += v->ty->size;
    } else if (v->sc == SC_EXTERN_SHARED) fn->has_extern_shared = true;
  }
  /* a file-scope extern __shared__ array is the dynamic area too, seen where it is used */
  if (n->kind == ND_VAR && n->var && n->var->sc == SC_EXTERN_SHARED) fn->has_extern_shared = true;
  if (n->kind == ND_CALL && is_barrier(n->builtin)) fn->uses_barrier = true;
  if (n->kind == ND_CALL && n->builtin == BI_CG && n->ival == CG_GRID_SYNC)
    fn->uses_barrier = fn->uses_grid_sync = true;
  return true;
}

static bool mark_address_taken(Node *n, void *ctx) {
  (void)ctx;
  if (n->kind == ND_ADDR && n->lhs->kind == ND_VAR &&
      (n->lhs->var->sc == SC_LOCAL || n->lhs->var->sc == SC_PARAM))
    n->lhs->var->in_memory = true;
  return true;
}

/* what a function inherits from the functions it calls: barriers, the dynamic shared area */
static bool inherit_from_callee(Node *n, void *ctx) {
  Obj *f = ctx;
  if (n->kind == ND_CALL && n->fn && n->fn != f) {
    f->uses_barrier |= n->fn->uses_barrier;
    f->uses_grid_sync |= n->fn->uses_grid_sync;
    f->has_extern_shared |= n->fn->has_extern_shared;
  }
  return true;
}

static void layout_function(Program *p, Obj *fn) {
  Layout L = {p, fn, &fn->locals, 0};
  fn->locals = NULL;
  fn->shared_size = 0;
  fn->uses_barrier = false;
  fn->uses_grid_sync = false;
  fn->has_extern_shared = false;
  for (Obj *q = fn->params; q; q = q->next) add_local(&L, q);
  walk(fn->body, collect, NULL, &L);
  walk(fn->body, mark_address_taken, NULL, NULL);
  fn->nslots = L.slots;
  int off = 0;
  for (Obj *l = fn->locals; l; l = l->next_local) {
    if (!l->in_memory) continue;
    int a = l->ty->align < 8 ? 8 : l->ty->align;
    if (a < l->align) a = l->align;
    off = (off + a - 1) / a * a;
    l->offset = off;
    off += l->ty->size;
  }
  fn->frame_size = (off + 15) / 16 * 16;
}

void program_finish(Program *p) {
  p->nodes = 0;
  walk_program(p, number, NULL, p);
  p->shared_size = 0;
  /* frame_size -1: not laid out yet (a definition can appear as several items: prototypes) */
  for (Obj *f = p->funcs; f; f = f->next) f->frame_size = f->body ? -1 : 0;
  /* source order for the shared area: the items list holds each definition where it was written */
  for (TopItem *it = p->items; it; it = it->next)
    if (it->kind == TOP_FUNC && it->obj && it->obj->frame_size < 0) layout_function(p, it->obj);
  /* definitions not listed as items (made by a rewrite) come last */
  for (Obj *f = p->funcs; f; f = f->next)
    if (f->frame_size < 0) layout_function(p, f);
  /* barrier and extern __shared__ use through calls: iterate to a fixed point */
  for (bool changed = true; changed;) {
    changed = false;
    for (Obj *f = p->funcs; f; f = f->next) {
      if (!f->body || (f->uses_barrier && f->has_extern_shared)) continue;
      bool b = f->uses_barrier, e = f->has_extern_shared, g = f->uses_grid_sync;
      walk(f->body, inherit_from_callee, NULL, f);
      if (b != f->uses_barrier || e != f->has_extern_shared || g != f->uses_grid_sync)
        changed = true;
    }
  }
  p->generation++;
}
