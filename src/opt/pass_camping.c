/* pass camping: diagonal block reordering against partition camping (Yang et al., PLDI 2010,
 * Sec. 3.7; Ruetsch and Micikevicius, Optimizing Matrix Transpose in CUDA, NVIDIA 2009). On
 * GPUs whose DRAM partitions are interleaved linearly by address, blocks that run together and
 * walk a power-of-two pitch all hit one partition; renumbering blocks along diagonals
 * (x' = (x + y) mod gridDim.x, y' = x) spreads them. Applied where the machine description maps
 * partitions linearly (the papers' GPUs), or when force=1; on sm_90 the address hashing makes it
 * a question for the model.
 *
 * Legal when the grid is square and two-dimensional (and the renumbering applies only while
 * gridDim.x == gridDim.y at run time: the source also runs at other sizes) and blockIdx is read only in the kernel
 * itself (not in device functions it calls). Every block still computes one block's outputs, so
 * the result is the same set of stores; the verifier checks it at reduced and ragged sizes (at the
 * full size sampled blocks of the two kernels compute different outputs). */
#include "opt.h"
#include <string.h>

typedef struct {
  bool callee_uses;
  int uses;
} Use;
static bool callee_pre(Node *n, void *ctx);
static bool use_pre(Node *n, void *ctx) {
  Use *u = ctx;
  if (n->kind == ND_SPECIAL && n->sreg == SR_CTAID && n->dim < 2) u->uses++;
  if (n->kind == ND_CALL && n->fn && n->fn->body) walk(n->fn->body, callee_pre, NULL, u);
  return true;
}
static bool callee_pre(Node *n, void *ctx) {
  Use *u = ctx;
  if (n->kind == ND_SPECIAL && n->sreg == SR_CTAID) u->callee_uses = true;
  return !u->callee_uses;
}

static Legality legal(PassCtx *c) {
  const Launch *L = c->L;
  if (c->m->partition_map != PARTMAP_LINEAR && !c->param[0]) {
    snprintf(
      c->why, sizeof c->why,
      "%s hashes addresses across partitions: no camping to remove (force=1 applies it anyway)",
      c->m->name);
    return NOT_APPLICABLE;
  }
  if (L->grid[0] != L->grid[1] || L->grid[2] != 1 || L->grid[0] < 2) {
    snprintf(c->why, sizeof c->why,
             "the grid is not square (%lldx%lld): the diagonal mapping needs one",
             (long long)L->grid[0], (long long)L->grid[1]);
    return NOT_APPLICABLE;
  }
  Use u = {false, 0};
  walk(c->k->body, use_pre, NULL, &u);
  if (u.callee_uses) {
    snprintf(c->why, sizeof c->why, "a device function reads blockIdx");
    return ILLEGAL;
  }
  if (!u.uses) {
    snprintf(c->why, sizeof c->why, "the kernel does not read blockIdx.x or blockIdx.y");
    return NOT_APPLICABLE;
  }
  snprintf(c->why, sizeof c->why, "square %lldx%lld grid on %s", (long long)L->grid[0],
           (long long)L->grid[1], c->m->name);
  return LEGAL;
}

typedef struct {
  Node **slots[256];
  int n;
} Slots;
static void collect(Node **slot, Slots *s) {
  for (; *slot; slot = &(*slot)->next) {
    Node *n = *slot;
    if (n->kind == ND_SPECIAL && n->sreg == SR_CTAID && n->dim < 2 && s->n < 256)
      s->slots[s->n++] = slot;
    Node **kids[NODE_MAX_KIDS];
    int nk = node_kids(n, kids);
    for (int k = 0; k < nk; k++) collect(kids[k], s);
  }
}

static bool apply(PassCtx *c) {
  c->spec |= OPT_SPEC_GRID; /* the diagonal mapping is for the recorded square grid */
  Obj *k = c->k;
  Slots s = {.n = 0};
  collect(&k->body->stmts, &s);
  if (!s.n || s.n == 256) {
    snprintf(c->why, sizeof c->why, "blockIdx uses not found");
    return false;
  }
  Token *at = k->body->tok;
  Obj *bx = rw_new_var(c->p, k, "bid_x", ty_uint, SC_LOCAL, at);
  Obj *by = rw_new_var(c->p, k, "bid_y", ty_uint, SC_LOCAL, at);
  for (int i = 0; i < s.n; i++) {
    Node *old = *s.slots[i];
    Node *r = rw_var(old->tok, old->dim == 0 ? bx : by);
    r->next = old->next;
    *s.slots[i] = r;
  }
  /* the mapping needs a square grid at run time too: the same source runs at other sizes
   * (verification's ragged size, a tuner's block shapes), where the grid may not be square */
  Node *sum = rw_bin(ND_ADD, rw_special(at, SR_CTAID, 0), rw_special(at, SR_CTAID, 1));
  Node *diag = c->mutation == 1 ? sum : rw_bin(ND_MOD, sum, rw_special(at, SR_NCTAID, 0));
  Node *square = rw_bin(ND_EQ, rw_special(at, SR_NCTAID, 0), rw_special(at, SR_NCTAID, 1));
  Node *cx = new_node(ND_COND, at), *cy = new_node(ND_COND, at);
  cx->cond = square;
  cx->then = diag;
  cx->els = rw_special(at, SR_CTAID, 0);
  cy->cond = rw_bin(ND_EQ, rw_special(at, SR_NCTAID, 0), rw_special(at, SR_NCTAID, 1));
  cy->then = rw_special(at, SR_CTAID, 0);
  cy->els = rw_special(at, SR_CTAID, 1);
  add_type(cx);
  add_type(cy);
  Node *dx = rw_decl(bx, cx);
  Node *dy = rw_decl(by, cy);
  dx->next = dy;
  rw_insert_before(&k->body->stmts, dx);
  snprintf(c->did, sizeof c->did, "blocks renumbered along diagonals (%d blockIdx uses)", s.n);
  return true;
}

const Pass pass_camping = {
  .name = "camping",
  .summary = "diagonal block renumbering so concurrent blocks spread over DRAM partitions",
  .source = "Yang et al., PLDI 2010, Sec. 3.7; Ruetsch and Micikevicius 2009 (diagonal reordering)",
  .params = {{"force", "apply even where the machine hashes partitions (1) or not (0)", {0, 1}, 0}},
  .nparams = 1,
  .motivation = "partition-camping",
  .remaps_blocks = true,
  .legal = legal,
  .apply = apply,
  .nmutations = 1,
  .mutation_names = {"diagonal index not reduced modulo gridDim.x"},
};
