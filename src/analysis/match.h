/* match: a small pattern-matching library over the AST, in the spirit of LLVM's PatternMatch.h.
 * Each matcher looks only (it never changes a node) and answers for one expression the question
 * a pass or a canonicalization would otherwise re-derive with its own walk callback:
 *   m_strip        the one cast stripper: implicit conversions, and explicit casts between integer
 *                  types that cannot change an index's value in range (size_t, unsigned, long)
 *   m_bin          a binary operator of kind k, either operand order where the operator commutes
 *   m_special      threadIdx/blockIdx/blockDim/gridDim along a dimension
 *   m_global_index blockIdx.d * S + threadIdx.d with S blockDim.d or a constant (S reported)
 *   m_uses/m_writes/m_addr_taken  how a variable occurs in a subtree
 * Facts about whole kernels (loops, trip counts, accesses) stay in facts.c; these are the local
 * shapes those facts do not name. */
#ifndef CARVE_MATCH_H
#define CARVE_MATCH_H
#include "../front/front.h"

Node *m_strip(Node *n);
/* n is `a k b` (either order when k commutes: + * & | ^ == !=); with p1 given, the operand
 * order in which p1(first) holds is chosen; *a and *b get the operands (either may be NULL) */
typedef bool MatchPred(Node *n, void *ctx);
bool m_bin(Node *n, NodeKind k, MatchPred *p1, void *ctx, Node **a, Node **b);
/* n (stripped) is special register r; *dim gets its dimension (dim NULL: any) */
bool m_special(Node *n, SpecialReg r, int *dim);
/* an integer constant (after stripping) */
bool m_const(Node *n, int64_t *v);
/* blockIdx.d * S + threadIdx.d, any operand order. *dim gets d; *scale the node S (blockDim.d,
 * or a constant expression whose value is *cval, *by_const set). false otherwise. */
bool m_global_index(Node *e, int *dim, Node **scale, bool *by_const, int64_t *cval);
/* occurrences of v in the subtree at n (each ND_VAR of it; not the statements after n) */
int m_uses(Node *n, const Obj *v);
/* v assigned, incremented or declared-with-init in the subtree at n */
bool m_writes(Node *n, const Obj *v);
/* &v anywhere in the subtree at n (its value may then change through a pointer) */
bool m_addr_taken(Node *n, const Obj *v);
/* e reads threadIdx, directly or through locals of body whose initializers do (four levels
 * deep): e may name a different element in each thread of a block */
bool m_thread_dependent(Node *body, Node *e);
/* the subtree at n contains break, continue, return, goto-like jumps that
 * leave the innermost loop or function at this level (loops inside count only their return) */
bool m_has_jump(Node *n, bool returns_only);
#endif
