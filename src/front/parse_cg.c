/* parse_cg.c: C++ cooperative groups, special registers and primary expressions (split from
 * parse.c; the parser's private interface is parse_int.h) */
#include "parse_int.h"

/* ---------------- C++ cooperative groups (docs/cxx.md) ----------------
 * thread_block and thread_block_tile<N> are values the interpreter does not need (an int);
 * what they do is in the calls: this_thread_block(), tiled_partition<N>(g), g.sync(),
 * g.thread_rank(), g.size(), tile.shfl_down(v, o), ..., reduce(tile, v, plus<T>()). */
Type *cg_type(int group) {
  Type *t = copy_type(group == -5 ? ty_uint : ty_int);
  t->typedef_name = group == -1   ? "cooperative_groups::thread_block"
                    : group == -2 ? "cooperative_groups::thread_block_tile"
                    : group == -3 ? "cooperative_groups::grid_group"
                    : group == -4 ? "cooperative_groups::thread_group"
                    : group == -5 ? "cooperative_groups::coalesced_group"
                    : group == -6 ? "cuda::barrier<cuda::thread_scope_block>"
                    : group == -7 ? "cuda::barrier<cuda::thread_scope_block>::arrival_token"
                    : group == -8 ? "cuda::pipeline<cuda::thread_scope_thread>"
                                  : fmt("cooperative_groups::thread_block_tile<%d>", group);
  t->cg_group = group;
  return t;
}

void define_cg_types(void) {
  push_global("cooperative_groups::thread_block")->type_def = cg_type(-1);
  push_global("cooperative_groups::thread_group")->type_def = cg_type(-4);
  push_global("cooperative_groups::thread_block_tile")->type_def = cg_type(-2);
  push_global("cooperative_groups::grid_group")->type_def = cg_type(-3);
  push_global("cooperative_groups::coalesced_group")->type_def = cg_type(-5);
  push_global("cuda::barrier")->type_def = cg_type(-6);
  push_global("cuda::pipeline")->type_def = cg_type(-8);
}

int tile_size(Token **rest, Token *tok) {
  tok = skip(tok, "<");
  Token *at = tok;
  Node *e = binary_level(&tok, tok, 7);
  add_type(e);
  int64_t n;
  if (!eval_const(e, &n)) error_tok(at, "tile size is not an integer constant");
  if (n < 1 || n > 32 || (n & (n - 1)))
    error_tok(at, "tile size %lld: a thread_block_tile has 1, 2, 4, 8, 16 or 32 threads",
              (long long)n);
  *rest = skip_angle(tok);
  return (int)n;
}

/* "x" when tok names cooperative_groups::x (through an alias or `using namespace`) */
static const char *cg_member(Token *tok) {
  if (tok->kind != TK_IDENT) return NULL;
  int len = tok->len;
  const char *n = resolve_alias(tok->loc, &len);
  if (len > 20 && !strncmp(n, "cooperative_groups::", 20))
    return arena_strndup(n + 20, (size_t)len - 20);
  for (int i = 0; i < ps.n_using && !memchr(n, ':', (size_t)len); i++)
    if (!strcmp(ps.using_ns[i], "cooperative_groups")) return arena_strndup(n, (size_t)len);
  return NULL;
}

static Node *cg_node(CgOp op, Token *tok, Node *args, Node *lowered, Type *ty) {
  Node *n = new_node(ND_CALL, tok);
  n->builtin = BI_CG;
  n->ival = op;
  n->args = args;
  n->nargs = args ? 1 : 0;
  n->lhs = lowered;
  n->ty = ty;
  return n;
}

static Node *sreg(Token *tok, SpecialReg r, int dim) {
  Node *n = new_node(ND_SPECIAL, tok);
  n->sreg = r;
  n->dim = dim;
  n->ty = ty_uint;
  return n;
}
static Node *uconst(Token *tok, int64_t v) {
  Node *n = new_num(v, tnum_token(tok, v));
  n->ty = ty_uint;
  return n;
}
static Node *typed(Node *n) {
  add_type(n);
  return n;
}

/* the thread's rank in its block and the block's size, as CUDA defines them */
static Node *block_rank(Token *t) {
  Node *yx = new_binary(ND_MUL, sreg(t, SR_TID, 1), sreg(t, SR_NTID, 0), t);
  Node *zxy = new_binary(ND_MUL, sreg(t, SR_TID, 2),
                         new_binary(ND_MUL, sreg(t, SR_NTID, 0), sreg(t, SR_NTID, 1), t), t);
  return typed(new_binary(ND_ADD, new_binary(ND_ADD, sreg(t, SR_TID, 0), yx, t), zxy, t));
}
static Node *block_size(Token *t) {
  return typed(new_binary(ND_MUL, new_binary(ND_MUL, sreg(t, SR_NTID, 0), sreg(t, SR_NTID, 1), t),
                          sreg(t, SR_NTID, 2), t));
}
/* the block's rank in the grid and the grid's blocks (grid_group::block_rank, num_blocks) */
static Node *grid_block_rank(Token *t) {
  Node *yx = new_binary(ND_MUL, sreg(t, SR_CTAID, 1), sreg(t, SR_NCTAID, 0), t);
  Node *zxy = new_binary(ND_MUL, sreg(t, SR_CTAID, 2),
                         new_binary(ND_MUL, sreg(t, SR_NCTAID, 0), sreg(t, SR_NCTAID, 1), t), t);
  return typed(new_binary(ND_ADD, new_binary(ND_ADD, sreg(t, SR_CTAID, 0), yx, t), zxy, t));
}
static Node *grid_blocks(Token *t) {
  return typed(new_binary(ND_MUL,
                          new_binary(ND_MUL, sreg(t, SR_NCTAID, 0), sreg(t, SR_NCTAID, 1), t),
                          sreg(t, SR_NCTAID, 2), t));
}

/* grid_group::sync(): a barrier across every block of the grid. The interpreter runs the blocks
 * of a launch that has one together (warps.c, run_grid_together); the native engine refuses it */
static Node *grid_sync(Token *t) {
  Node *n = new_node(ND_CALL, t);
  n->builtin = BI_CG;
  n->ival = CG_GRID_SYNC;
  n->ty = ty_void;
  return n;
}

/* a call of the device library's function `name` (parse_template.c) made at t */
static Node *lib_call(Token *t, const char *name, Node *args, int nargs) {
  Token *nt = arena_alloc(sizeof(Token));
  *nt = *t;
  nt->kind = TK_IDENT;
  nt->loc = (char *)name;
  nt->len = (int)strlen(name);
  nt->origin = t;
  nt->macro = NULL;
  Obj *fn = device_lib_function(nt);
  if (!fn) error_tok(t, "internal error: no device library function '%s'", name);
  Node *c = new_node(ND_CALL, nt);
  c->args = args;
  c->nargs = nargs;
  return typed(user_call(nt, c, fn));
}

/* a coalesced_group's methods: its value is the mask of its lanes (coalesced_threads() is
 * __activemask(), a partition the lanes sharing a predicate or a label); the rank is the
 * thread's place among the mask's lanes, and shfl(v, r) reads the lane of rank r */
static Node *coalesced_method(Token *t, const char *m, Node *args, int nargs, Node *obj) {
  if (!strcmp(m, "thread_rank")) return lib_call(t, "__carve_cg_lane_rank", clone_nodes(obj), 1);
  if (!strcmp(m, "size") || !strcmp(m, "num_threads")) {
    Node *c = new_node(ND_CALL, t);
    c->args = clone_nodes(obj);
    c->nargs = 1;
    return typed(builtin_call(t, find_builtin("__popc"), c));
  }
  if (!strcmp(m, "meta_group_rank")) return uconst(t, 0);
  if (!strcmp(m, "meta_group_size")) return uconst(t, 1);
  if (!strcmp(m, "sync")) {
    Node *c = new_node(ND_CALL, t);
    c->args = clone_nodes(obj);
    c->nargs = 1;
    return typed(builtin_call(t, find_builtin("__syncwarp"), c));
  }
  if (!strcmp(m, "shfl")) {
    if (nargs != 2) error_tok(t, "'shfl' takes 2 arguments, %d given", nargs);
    add_type(args);
    if (!is_numeric(args->ty) || args->ty->is_half)
      error_tok(args->tok, "unsupported: shfl of a '%s' on a coalesced_group", type_name(args->ty));
    Node *rank = args->next;
    args->next = NULL;
    Node *mask = clone_nodes(obj);
    mask->next = rank;
    Node *lane = lib_call(t, "__carve_cg_rank_lane", mask, 2);
    Node *c = new_node(ND_CALL, t);
    c->args = clone_nodes(obj);
    c->args->next = args;
    args->next = lane;
    c->nargs = 3;
    return builtin_call(t, find_builtin("__shfl_sync"), c);
  }
  if (!strcmp(m, "any") || !strcmp(m, "all")) {
    if (nargs != 1) error_tok(t, "'%s' takes 1 argument, %d given", m, nargs);
    Node *c = new_node(ND_CALL, t);
    c->args = clone_nodes(obj);
    c->args->next = args;
    c->nargs = 2;
    return builtin_call(t, find_builtin(m[1] == 'n' ? "__any_sync" : "__all_sync"), c);
  }
  error_tok(t,
            "unsupported: cooperative groups method '%s' on a coalesced_group (carve has "
            "thread_rank, size, num_threads, meta_group_rank, meta_group_size, sync, shfl, any "
            "and all)",
            m);
}

/* cuda::barrier<cuda::thread_scope_block> (<cuda/barrier>): its value is the expected count
 * init(&bar, n) gave. carve runs a phase as a block barrier: arrive() does nothing and returns a
 * token, wait(token) and arrive_and_wait() are __syncthreads, checked (an assert whose text is
 * the reason) to expect every thread of the block. Work between arrive and wait is therefore
 * ordered as if the phase ended at arrive, and a race there is not reported. */
static Node *barrier_method(Token *t, const char *m, Node *args, int nargs, Node *obj) {
  if (!strcmp(m, "arrive")) {
    if (nargs) error_tok(t, "unsupported: arrive(n) on a cuda::barrier (carve has arrive())");
    Node *z = new_num(0, tnum_token(t, 0));
    z->ty = cg_type(-7);
    return z;
  }
  if (!strcmp(m, "wait") || !strcmp(m, "arrive_and_wait")) {
    if (nargs != (m[0] == 'w'))
      error_tok(t, "'%s' takes %d argument%s, %d given", m, m[0] == 'w', m[0] == 'w' ? "" : "s",
                nargs);
    Node *c = new_node(ND_CALL, t);
    c->builtin = BI_ASSERT;
    c->args = typed(new_binary(ND_EQ, clone_nodes(obj), block_size(t), t));
    coerce_arg(&c->args, ty_bool);
    Token *s = arena_alloc(sizeof(Token));
    *s = *t;
    s->kind = TK_STR;
    s->origin = t;
    s->macro = NULL;
    s->str = "unsupported: a cuda::barrier whose expected count (init's) is not the block's "
             "thread count: carve runs its phases as __syncthreads";
    Node *text = new_node(ND_STR, s);
    text->ty = array_of(ty_char, (int)strlen(s->str) + 1);
    c->args->next = text;
    c->nargs = 1;
    c->ty = ty_void;
    Node *bar = builtin_call(t, find_builtin("__syncthreads"), new_node(ND_CALL, t));
    return typed(new_binary(ND_COMMA, c, bar, t));
  }
  error_tok(t, "unsupported: '%s' on a cuda::barrier (carve has arrive, wait and arrive_and_wait)",
            m);
}

/* a call of the builtin `name` with args made at t */
static Node *builtin_at(Token *t, const char *name, Node *args, int nargs) {
  Node *c = new_node(ND_CALL, t);
  c->args = args;
  c->nargs = nargs;
  return typed(builtin_call(t, find_builtin(name), c));
}

/* cuda::pipeline<cuda::thread_scope_thread> (<cuda/pipeline>) on the pipeline primitives: its
 * value is the thread's stages committed and not yet released; producer_acquire() does nothing,
 * producer_commit() is __pipeline_commit() and one stage more, consumer_wait() waits for the
 * oldest stage (__pipeline_wait_prior(stages - 1)), consumer_release() one stage less;
 * cuda::memcpy_async(dst, src, size, pipe) is __pipeline_memcpy_async (4, 8 or 16 bytes) */
static Node *pipeline_method(Token *t, const char *m, int nargs, Node *obj) {
  if (nargs) error_tok(t, "'%s' of a cuda::pipeline takes no arguments, %d given", m, nargs);
  if (!lvalue_node(obj))
    error_tok(obj->tok, "unsupported: a cuda::pipeline that is not a variable");
  Node *one = new_num(1, tnum_token(t, 1));
  if (!strcmp(m, "producer_acquire")) return typed_cast(new_num(0, tnum_token(t, 0)), ty_void);
  if (!strcmp(m, "producer_commit") || !strcmp(m, "consumer_release")) {
    bool commit = m[0] == 'p';
    Node *step = typed(new_binary(commit ? ND_ADD : ND_SUB, clone_nodes(obj), one, t));
    Node *set = typed(new_binary(ND_ASSIGN, clone_nodes(obj), step, t));
    if (!commit) return typed_cast(set, ty_void);
    return typed_cast(new_binary(ND_COMMA, builtin_at(t, "__pipeline_commit", NULL, 0), set, t),
                      ty_void);
  }
  if (!strcmp(m, "consumer_wait")) {
    Node *c = new_node(ND_COND, t);
    c->cond = typed(new_binary(ND_GT, clone_nodes(obj), new_num(0, tnum_token(t, 0)), t));
    c->then = typed(new_binary(ND_SUB, clone_nodes(obj), one, t));
    c->els = new_num(0, tnum_token(t, 0));
    return builtin_at(t, "__pipeline_wait_prior", typed(c), 1);
  }
  error_tok(t,
            "unsupported: '%s' on a cuda::pipeline (carve has producer_acquire, producer_commit, "
            "consumer_wait and consumer_release)",
            m);
}

/* cuda::make_pipeline() | cuda::memcpy_async(dst, src, size, pipe) | cuda::aligned_size_t<A>(n) */
Node *cuda_pipeline_call(Token **rest, Token *tok) {
  if (tok_equal(tok, "cuda::make_pipeline")) {
    *rest = skip(skip(tok->next, "("), ")");
    Node *z = new_num(0, tnum_token(tok, 0));
    z->ty = cg_type(-8);
    return cg_node(CG_CALL, tok, NULL, z, cg_type(-8));
  }
  if (tok_equal(tok, "cuda::aligned_size_t")) { /* the size itself (its alignment a promise) */
    Token *t = skip(tok->next, "<");
    binary_level(&t, t, 7); /* the alignment: a promise carve does not need */
    t = skip(skip_angle(t), "(");
    Node *n = assign(&t, t);
    add_type(n);
    *rest = skip(t, ")");
    if (!is_integer(n->ty)) error_tok(n->tok, "cuda::aligned_size_t takes an integer size");
    return typed_cast(n, ty_ulong);
  }
  Node *call = new_node(ND_CALL, tok);
  Node *args = func_args(rest, skip(tok->next, "("), call);
  if (call->nargs != 4 || args->next->next->next->ty->cg_group != -8)
    error_tok(tok, "unsupported: cuda::memcpy_async other than (dst, src, size, pipeline) with a "
                   "cuda::pipeline<cuda::thread_scope_thread>");
  Node *a = clone_node(args); /* dst, src, size (one node each, not the list after it) */
  a->next = clone_node(args->next);
  a->next->next = clone_node(args->next->next);
  a->next->next->next = NULL;
  Node *low = builtin_at(tok, "__pipeline_memcpy_async", a, 3);
  Node *n = cg_node(CG_CALL, tok, args, low, ty_void);
  n->nargs = 4;
  return n;
}

/* init(&bar, count) of a cuda::barrier: the count stored in the barrier (call: its arguments) */
Node *barrier_init(Token **rest, Token *tok) {
  Node *call = new_node(ND_CALL, tok);
  Node *args = func_args(rest, tok->next->next, call);
  if (call->nargs != 2 || args->ty->kind != TY_PTR || args->ty->base->cg_group != -6) return NULL;
  if (!is_integer(args->next->ty))
    error_tok(args->next->tok, "the expected count of a cuda::barrier must be an integer");
  Node *store = new_binary(ND_ASSIGN, new_unary(ND_DEREF, clone_node(args), tok),
                           typed_cast(clone_nodes(args->next), ty_uint), tok);
  Node *n = cg_node(CG_CALL, tok, args, typed(store), ty_void);
  n->nargs = 2;
  return n;
}

/* what g.method(args) does, for a group of size n (-1: the block) */
/* a thread_group's methods, decided when the program runs: its value is 0 for a block and N for
 * a tile of N (what this_thread_block() and tiled_partition<N>() evaluate to), so
 * simpleCooperativeGroups' sumReduction(thread_group g, ...) works for either */
static Node *dyn_group(Token *t, const char *m, Node *obj) {
  Node *zero = typed(new_binary(ND_EQ, clone_nodes(obj), new_num(0, tnum_token(t, 0)), t));
  Node *c = new_node(ND_COND, t);
  c->cond = zero;
  if (!strcmp(m, "thread_rank")) {
    c->then = block_rank(t);
    c->els = typed(new_binary(ND_MOD, block_rank(t), typed_cast(clone_nodes(obj), ty_uint), t));
  } else if (!strcmp(m, "size") || !strcmp(m, "num_threads")) {
    c->then = block_size(t);
    c->els = typed_cast(clone_nodes(obj), ty_uint);
  } else if (!strcmp(m, "sync")) {
    Node *b = new_node(ND_CALL, t), *w = new_node(ND_CALL, t);
    c->then = builtin_call(t, find_builtin("__syncthreads"), b);
    w->args = uconst(t, 0xffffffffu);
    w->nargs = 1;
    c->els = builtin_call(t, find_builtin("__syncwarp"), w);
  } else {
    error_tok(
      t,
      "unsupported: cooperative groups method '%s' on a thread_group (carve has thread_rank, size, num_threads and sync)",
      m);
  }
  return typed(c);
}

static Node *cg_lowered(Token *t, const char *m, int n, Node *args, int nargs, Node *obj) {
  if (n == -4) return dyn_group(t, m, obj);
  if (n == -5) return coalesced_method(t, m, args, nargs, obj);
  if (n == -6) return barrier_method(t, m, args, nargs, obj);
  if (n == -8) return pipeline_method(t, m, nargs, obj);
  if (n == -7) error_tok(t, "unsupported: methods of a cuda::barrier's arrival_token");
  if (n == -3) { /* grid_group */
    if (!strcmp(m, "sync")) return grid_sync(t);
    if (!strcmp(m, "thread_rank"))
      return typed(new_binary(ND_ADD, new_binary(ND_MUL, grid_block_rank(t), block_size(t), t),
                              block_rank(t), t));
    if (!strcmp(m, "size") || !strcmp(m, "num_threads"))
      return typed(new_binary(ND_MUL, grid_blocks(t), block_size(t), t));
    if (!strcmp(m, "block_rank")) return grid_block_rank(t);
    if (!strcmp(m, "num_blocks")) return grid_blocks(t);
    if (!strcmp(m, "is_valid")) return uconst(t, 1);
    error_tok(t, "unsupported: cooperative groups method '%s' on a grid_group", m);
  }
  if (!strcmp(m, "sync")) {
    Node *c = new_node(ND_CALL, t);
    if (n < 0) return builtin_call(t, find_builtin("__syncthreads"), c);
    c->args = uconst(t, 0xffffffffu);
    c->nargs = 1;
    return builtin_call(t, find_builtin("__syncwarp"), c);
  }
  if (!strcmp(m, "thread_rank"))
    return n < 0 ? block_rank(t) : typed(new_binary(ND_MOD, block_rank(t), uconst(t, n), t));
  if (!strcmp(m, "size") || !strcmp(m, "num_threads")) return n < 0 ? block_size(t) : uconst(t, n);
  if (n > 0 && !strcmp(m, "meta_group_rank"))
    return typed(new_binary(ND_DIV, block_rank(t), uconst(t, n), t));
  if (n > 0 && !strcmp(m, "meta_group_size"))
    return typed(
      new_binary(ND_DIV, new_binary(ND_ADD, block_size(t), uconst(t, n - 1), t), uconst(t, n), t));
  static const char *shfl[][2] = {{"shfl", "__shfl_sync"},
                                  {"shfl_down", "__shfl_down_sync"},
                                  {"shfl_up", "__shfl_up_sync"},
                                  {"shfl_xor", "__shfl_xor_sync"}};
  for (int i = 0; n > 0 && i < 4; i++)
    if (!strcmp(m, shfl[i][0])) {
      if (nargs != 2) error_tok(t, "'%s' takes 2 arguments, %d given", shfl[i][0], nargs);
      add_type(args);
      Type *vt = args->ty;
      while (vt && !(vt->is_vector && vt->tag && vt->members)) vt = vt->origin;
      if (vt) { /* a vector (cooperative groups shuffle any type): each component, make_T of them */
        if (has_side_effect(args) || has_side_effect(args->next))
          error_tok(
            args->tok,
            "unsupported: shuffling a vector whose value or lane has side effects (each component evaluates them)");
        Token *mk = arena_alloc(sizeof(Token));
        *mk = *t;
        mk->kind = TK_IDENT;
        mk->loc = fmt("make_%s", vt->tag);
        mk->len = (int)strlen(mk->loc);
        mk->origin = t;
        mk->macro = NULL;
        Node *call = new_node(ND_CALL, mk), **pp = &call->args;
        for (Member *mb = vt->members; mb; mb = mb->next) {
          Node *v = clone_node(args), *lane = clone_node(args->next);
          Node *comp = new_node(ND_MEMBER, v->tok);
          comp->lhs = v;
          comp->member = mb;
          comp->ty = mb->ty;
          comp->next = lane;
          lane->next = NULL;
          *pp = cg_lowered(t, m, n, comp, 2, obj);
          pp = &(*pp)->next;
          call->nargs++;
        }
        return make_vector_call(mk, vt, call);
      }
      Node *c = new_node(ND_CALL, t);
      Node *mask = uconst(t, 0xffffffffu);
      mask->next = args;
      args->next->next = uconst(t, n);
      c->args = mask;
      c->nargs = 4;
      return builtin_call(t, find_builtin(shfl[i][1]), c);
    }
  static const char *vote[][2] = {
    {"any", "__any_sync"}, {"all", "__all_sync"}, {"ballot", "__ballot_sync"}};
  for (int i = 0; n > 0 && i < 3; i++)
    if (!strcmp(m, vote[i][0])) {
      if (n != 32)
        error_tok(t, "unsupported: '%s' on a tile of %d threads (carve has it for tiles of 32)",
                  vote[i][0], n);
      if (nargs != 1) error_tok(t, "'%s' takes 1 argument, %d given", vote[i][0], nargs);
      Node *c = new_node(ND_CALL, t);
      c->args = uconst(t, 0xffffffffu);
      c->args->next = args;
      c->nargs = 2;
      return builtin_call(t, find_builtin(vote[i][1]), c);
    }
  error_tok(t, "unsupported: cooperative groups method '%s' on a %s", m,
            n < 0 ? "thread_block" : "thread_block_tile");
}

/* g.method(args) */
Node *cg_method(Token **rest, Node *obj, Token *m) {
  if (m->kind != TK_IDENT) error_tok(m, "expected a member name");
  Node *tmp = new_node(ND_CALL, m);
  Node *args = NULL;
  if (!tok_equal(m->next, "("))
    error_tok(m->next, "expected '(' after '%.*s' (cooperative groups have methods, not members)",
              m->len, m->loc);
  args = func_args(rest, m->next->next, tmp);
  Node *low = cg_lowered(m, tok_text(m), obj->ty->cg_group, args, tmp->nargs, obj);
  Node *n = cg_node(CG_METHOD, m, obj, low, low->ty);
  if (obj->ty->cg_group == -6 && args) obj->next = args; /* wait(token): printed as written */
  n->end_tok = tmp->end_tok;
  return n;
}

static Node *cg_group_arg(Token **rest, Token *tok) {
  Node *g = assign(rest, tok);
  add_type(g);
  if (!g->ty->cg_group)
    error_tok(g->tok, "expected a cooperative group, not '%s'", type_name(g->ty));
  return g;
}

/* cooperative_groups::this_thread_block() | this_grid() | tiled_partition<N>(g) | sync(g)
 *   | reduce(tile, v, op<T>()) | coalesced_threads() | binary_partition(g, pred)
 *   | labeled_partition(g, label) */
static Node *cg_call(Token **rest, Token *tok, const char *f) {
  Token *name = tok;
  if (!strcmp(f, "this_thread_block")) {
    tok = skip(skip(tok->next, "("), ")");
    *rest = tok;
    return cg_node(CG_THIS_BLOCK, name, NULL, NULL, cg_type(-1));
  }
  if (!strcmp(f, "this_grid")) { /* a value like this_thread_block()'s; its methods are lowered */
    tok = skip(skip(tok->next, "("), ")");
    *rest = tok;
    return cg_node(CG_THIS_BLOCK, name, NULL, NULL, cg_type(-3));
  }
  if (!strcmp(f, "coalesced_threads")) {
    tok = skip(skip(tok->next, "("), ")");
    *rest = tok;
    Node *low = typed(builtin_call(name, find_builtin("__activemask"), new_node(ND_CALL, name)));
    return cg_node(CG_CALL, name, NULL, low, cg_type(-5));
  }
  if (!strcmp(f, "binary_partition") || !strcmp(f, "labeled_partition")) {
    bool binary = f[0] == 'b';
    Node *g = cg_group_arg(&tok, skip(tok->next, "("));
    Node *v = assign(&tok, skip(tok, ","));
    add_type(v);
    *rest = skip(tok, ")");
    if (!is_integer(v->ty) && !(binary && v->ty->kind == TY_BOOL))
      error_tok(v->tok, "the %s of %s must be an integer, not '%s'", binary ? "predicate" : "label",
                f, type_name(v->ty));
    Node *mask;
    if (g->ty->cg_group > 0)
      mask = lib_call(name, "__carve_cg_tile_mask", uconst(name, g->ty->cg_group), 1);
    else if (g->ty->cg_group == -5) mask = clone_nodes(g);
    else
      error_tok(g->tok, "%s partitions a thread_block_tile or a coalesced_group, not a '%s'", f,
                type_name(g->ty));
    mask->next = clone_nodes(v);
    Node *low =
      lib_call(name, binary ? "__carve_cg_binary_partition" : "__match_any_sync", mask, 2);
    g->next = v;
    v->next = NULL;
    Node *n = cg_node(CG_CALL, name, g, low, cg_type(-5));
    n->nargs = 2;
    return n;
  }
  if (!strcmp(f, "tiled_partition")) {
    if (!tok_equal(tok->next, "<"))
      error_tok(
        tok->next,
        "unsupported: tiled_partition with a size at run time (write tiled_partition<N>(g))");
    int n = tile_size(&tok, tok->next);
    Node *g = cg_group_arg(&tok, skip(tok, "("));
    *rest = skip(tok, ")");
    if (g->ty->cg_group == -3)
      error_tok(g->tok,
                "a thread_block_tile comes from a thread_block or a tile, not a grid_group");
    if (g->ty->cg_group > 0 && n > g->ty->cg_group)
      error_tok(name, "a tile of %d threads cannot come from a tile of %d", n, g->ty->cg_group);
    return cg_node(CG_TILED, name, g, NULL, cg_type(n));
  }
  if (!strcmp(f, "sync")) {
    Node *g = cg_group_arg(&tok, skip(tok->next, "("));
    *rest = skip(tok, ")");
    Node *low = cg_lowered(name, "sync", g->ty->cg_group, NULL, 0, g);
    return cg_node(CG_SYNC, name, g, low, ty_void);
  }
  if (!strcmp(f, "reduce")) {
    Node *g = cg_group_arg(&tok, skip(tok->next, "("));
    if (g->ty->cg_group == -3 || g->ty->cg_group == -4)
      error_tok(g->tok,
                "unsupported: reduce over a %s (cooperative groups reduce a thread_block_tile)",
                g->ty->cg_group == -3 ? "grid_group" : "thread_group");
    if (g->ty->cg_group < 0 && g->ty->cg_group != -5)
      error_tok(
        g->tok,
        "unsupported: reduce over a thread_block (cooperative groups reduce a thread_block_tile or a coalesced_group)");
    Node *v = assign(&tok, skip(tok, ","));
    add_type(v);
    tok = skip(tok, ",");
    const char *op = cg_member(tok);
    static const struct {
      const char *name;
      NodeKind k;
    } ops[] = {{"plus", ND_ADD},       {"less", ND_LT},      {"greater", ND_GT},
               {"bit_and", ND_BITAND}, {"bit_or", ND_BITOR}, {"bit_xor", ND_BITXOR}};
    int k = -1;
    for (int i = 0; op && i < 6; i++)
      if (!strcmp(op, ops[i].name)) k = i;
    if (k < 0)
      error_tok(
        tok, "expected cooperative_groups::plus<T>(), less, greater, bit_and, bit_or or bit_xor");
    Type *t = typename_(&tok, skip(tok->next, "<"));
    tok = skip(skip(skip_angle(tok), "("), ")");
    *rest = skip(tok, ")");
    if (!is_numeric(t) || t->is_half)
      error_tok(name, "unsupported: reduce over '%s'", type_name(t));
    if (ops[k].k >= ND_BITAND && ops[k].k <= ND_BITXOR && !is_integer(t))
      error_tok(name, "'%s' needs an integer type", ops[k].name);
    g->next = v;
    coerce_arg(&g->next, unqual(t));
    Node *n = cg_node(CG_REDUCE, name, g, NULL, unqual(t));
    n->nargs = 2;
    n->op = ops[k].k;
    return n;
  }
  error_tok(tok, "unsupported: cooperative_groups::%s", f);
}

static Node *special_reg(Token **rest, Token *tok) {
  SpecialReg r = tok_equal(tok, "threadIdx")  ? SR_TID
                 : tok_equal(tok, "blockIdx") ? SR_CTAID
                 : tok_equal(tok, "blockDim") ? SR_NTID
                                              : SR_NCTAID;
  if (!tok_equal(tok->next, ".")) {
    /* C++: the whole uint3 (dim3 for blockDim and gridDim), built from its components */
    Node *call = new_node(ND_CALL, tok);
    Node head = {0}, *cur = &head;
    for (int d = 0; d < 3; d++) {
      cur = cur->next = new_node(ND_SPECIAL, tok);
      cur->sreg = r;
      cur->dim = d;
      cur->ty = ty_uint;
    }
    call->args = head.next;
    call->nargs = 3;
    call->builtin = BI_MAKE_VECTOR;
    call->implicit = true; /* printed as the name */
    Type *t = vector_type("uint3");
    if (r == SR_NTID || r == SR_NCTAID) {
      t = copy_type(t);
      t->typedef_name = "dim3";
    }
    call->ty = t;
    *rest = tok->next;
    return call;
  }
  if (tok->next->next->kind != TK_IDENT)
    error_tok(tok, "'%.*s' must be used with a component: '%.*s.x', '.y' or '.z'", tok->len,
              tok->loc, tok->len, tok->loc);
  Token *c = tok->next->next;
  int dim = tok_equal(c, "x") ? 0 : tok_equal(c, "y") ? 1 : tok_equal(c, "z") ? 2 : -1;
  if (dim < 0)
    error_tok(c, "no member named '%.*s' in '%.*s' (use x, y or z)", c->len, c->loc, tok->len,
              tok->loc);
  Node *n = new_node(ND_SPECIAL, tok);
  n->sreg = r;
  n->dim = dim;
  n->ty = ty_uint;
  n->end_tok = c;
  *rest = c->next;
  return n;
}

/* primary = "(" expr ")" | num | str | ident | funcall | special-register
 *         | type-name "(" expr ")" | ("static_cast" | "reinterpret_cast") "<" type-name ">" "(" expr ")" */
Node *primary(Token **rest, Token *tok) {
  if (tok_equal(tok, "(")) {
    Node *n = expr(&tok, tok->next);
    *rest = skip(tok, ")");
    return n;
  }
  if (tok->kind == TK_NUM) {
    Node *n = new_node(ND_NUM, tok);
    n->ty = tok->ty;
    if (is_flonum(tok->ty)) n->fval = tok->fval;
    else n->ival = tok->ival;
    *rest = tok->next;
    return n;
  }
  if (tok->kind == TK_STR) {
    Node *n = new_node(ND_STR, tok);
    n->ty = tok->ty; /* char[N]: sizeof "abc" is 4 */
    *rest = tok->next;
    return n;
  }
  if (tok_equal(tok, "true") || tok_equal(tok, "false")) {
    Node *n = new_num(tok_equal(tok, "true"), tok);
    n->ty = ty_bool;
    *rest = tok->next;
    return n;
  }
  if (tok_equal(tok, "static_cast") || tok_equal(tok, "reinterpret_cast") ||
      tok_equal(tok, "const_cast")) {
    Token *start = tok;
    tok = skip(tok->next, "<");
    Type *ty = typename_(&tok, tok);
    tok = skip(tok, ">");
    tok = skip(tok, "(");
    Node *n = new_node(ND_CAST, start);
    n->lhs = expr(&tok, tok);
    add_type(n->lhs);
    n->cast_ty = ty;
    *rest = skip(tok, ")");
    return n;
  }
  if (tok_equal(tok, "[")) error_tok(tok, "unsupported C++: lambdas");
  if (tok_equal(tok, "this")) error_tok(tok, "unsupported C++: 'this'");
  if (tok->kind == TK_KEYWORD && is_typename(tok) && tok_equal(tok->next, "(")) {
    /* C++ functional cast: float(x) */
    Token *start = tok;
    Type *ty = declspec(&tok, tok, NULL);
    tok = skip(tok, "(");
    Node *n = new_node(ND_CAST, start);
    n->lhs = expr(&tok, tok);
    add_type(n->lhs);
    n->cast_ty = ty;
    *rest = skip(tok, ")");
    return n;
  }
  if (tok->kind == TK_IDENT) {
    if (tok_equal(tok->next, "::")) error_tok(tok, "unsupported C++: qualified names ('::')");
    if (tok_equal(tok, "threadIdx") || tok_equal(tok, "blockIdx") || tok_equal(tok, "blockDim") ||
        tok_equal(tok, "gridDim"))
      return special_reg(rest, tok);
    if (tok_equal(tok, "warpSize")) {
      Node *n = new_node(ND_SPECIAL, tok);
      n->sreg = SR_WARPSIZE;
      n->ty = ty_int;
      *rest = tok->next;
      return n;
    }
    if (tok_equal(tok->next, "<<<")) return launch_expr(rest, tok);
    Type *td = find_typedef(tok);
    if (td && is_dim3(td) && tok_equal(tok->next, "(")) return dim3_ctor(rest, tok);
    if (td && td->is_vector && tok_equal(tok->next, "(")) { /* C++: float2(x, y), dim3(16, 16) */
      Node *call = new_node(ND_CALL, tok);
      call->args = func_args(rest, tok->next->next, call);
      return make_vector_call(tok, td, call);
    }
    if (td && tok_equal(tok->next, "(")) {
      Token *start = tok;
      tok = skip(tok->next, "(");
      Node *n = new_node(ND_CAST, start);
      n->lhs = expr(&tok, tok);
      add_type(n->lhs);
      n->cast_ty = td;
      *rest = skip(tok, ")");
      return n;
    }
    VarScope *vs = find_template(tok);
    if (vs && vs->tmpl) return template_call(rest, tok, vs->tmpl);
    const char *cgf = vs ? NULL : cg_member(tok);
    if (cgf && (!strcmp(cgf, "this_thread_block") || !strcmp(cgf, "this_grid") ||
                !strcmp(cgf, "tiled_partition") || !strcmp(cgf, "sync") || !strcmp(cgf, "reduce") ||
                !strcmp(cgf, "coalesced_threads") || !strcmp(cgf, "binary_partition") ||
                !strcmp(cgf, "labeled_partition")))
      return cg_call(rest, tok, cgf);
    if (!vs && tok_equal(tok, "std::move") && tok_equal(tok->next, "(")) {
      Node *n = assign(&tok, tok->next->next); /* the value itself (printed as std::move(x)) */
      *rest = skip(tok, ")");
      return n;
    }
    if (!vs && (tok_equal(tok, "cuda::make_pipeline") || tok_equal(tok, "cuda::memcpy_async") ||
                tok_equal(tok, "cuda::aligned_size_t")))
      return cuda_pipeline_call(rest, tok);
    if (!vs && tok_equal(tok, "init") && tok_equal(tok->next, "(")) {
      Node *n = barrier_init(rest, tok);
      if (n) return n;
      error_tok(tok,
                "use of undeclared function 'init' (carve knows init(&bar, n) of a cuda::barrier)");
    }
    if (tok_equal(tok->next, "(")) return funcall(rest, tok);
    if (vs && vs->var) {
      if (vs->var->sc == SC_FUNC)
        error_tok(tok, "function '%s' used as a value (function pointers are not supported)",
                  vs->var->name);
      *rest = tok->next;
      Node *v = new_var(vs->var, tok);
      if (vs->vla_array) { /* a local VLA: the array its hidden pointer holds */
        v = new_unary(ND_DEREF, v, tok);
        v->implicit = true;
        add_type(v);
        return v;
      }
      if (vs->var->ty->is_ref && vs->var->ty->kind == TY_PTR) { /* a reference: what it refers to */
        v = new_unary(ND_DEREF, v, tok);
        v->implicit = true;
      }
      return v;
    }
    if (vs && vs->enum_ty && vs->tparam) { /* a template's value parameter: its value */
      Node *n = new_num(vs->enum_val, tnum_token(tok, vs->enum_val));
      n->ty = vs->enum_ty->kind == TY_ENUM ? ty_int : unqual(vs->enum_ty);
      *rest = tok->next;
      return n;
    }
    if (vs && vs->enum_ty) {
      Node *n = new_num(vs->enum_val, tok);
      *rest = tok->next;
      return n;
    }
    if (vs && vs->type_def)
      error_tok(tok, "unexpected type name '%.*s' in an expression", tok->len, tok->loc);
    error_tok(tok, "use of undeclared identifier '%.*s'", tok->len, tok->loc);
  }
  if (tok->kind == TK_EOF) error_tok(tok, "expected an expression at end of input");
  if (tok->kind == TK_PRAGMA) error_tok(tok, "unexpected #pragma inside an expression");
  error_tok(tok, "expected an expression before '%.*s'", tok->len, tok->loc);
}
