/* parse_host.c: host code: C99 variable-length arrays, the host runtime's prelude, launches and
 * dim3 (split from parse.c; the parser's private interface is parse_int.h) */
#include "parse_int.h"

/* ---------------- C99 variable-length arrays (host code) ----------------
 * A VLA type is a TY_ARRAY whose array_len is VLA_LEN; its size in bytes is known when the
 * program runs, as C evaluates it (C11 6.7.6.2): a declaration evaluates the sizes of the
 * types it declares when it executes, into hidden locals (a parameter's at the function's
 * entry); a type name in a cast or sizeof, where the expression is evaluated. Every use that
 * depends on the size is written here as byte arithmetic, so nothing after the parser sees a
 * VLA's size: with row a VLA type, p[i] for p a pointer to rows is *(row *)((char *)p + i *
 * size(row)), p + i, p - q, p++, p += i likewise, and sizeof is the size's expression. The
 * sizes go through the host runtime's __carve_vla_size, which faults on a count that is not
 * positive (host.c). A local array `T v[n]` is host memory from __carve_vla_alloc, held by a
 * hidden pointer (NULL at the function's entry) that the name v dereferences; the allocation
 * is freed when the declaration executes again (a loop) and at every return. type.c rejects
 * anything else that would need a VLA's size (an error, never a wrong size). Device code
 * keeps nvcc's rule: no variable-length arrays. */

/* before each top-level declaration: no declarator of an unwound one is still open */
void vla_decl_reset(void) {
  ps.vla_param_head = NULL;
  ps.vla_host_decl = false;
}
/* no VLA state outlives a parse (its types live in that program's arena) */
void vla_reset(void) {
  ps.vlas = NULL;
  free(ps.vla_fn.arrays);
  memset(&ps.vla_fn, 0, sizeof ps.vla_fn);
  vla_decl_reset();
}

bool is_vla(const Type *t) { return t && t->kind == TY_ARRAY && t->array_len == VLA_LEN; }
/* a VLA at any level of pointers and arrays (a variably modified type) */
bool has_vla(const Type *t) {
  for (; t && (t->kind == TY_PTR || t->kind == TY_ARRAY); t = t->base)
    if (is_vla(t)) return true;
  return false;
}
static Vla *vla_of(const Type *t) {
  for (; t; t = t->origin)
    for (Vla *v = ps.vlas; v; v = v->next)
      if (v->ty == t) return v;
  return NULL;
}

Type *vla_type(Type *base, Node *len, Token *len_tok) {
  Type *t = array_of(base, -1);
  t->array_len = VLA_LEN;
  Vla *v = arena_alloc(sizeof(Vla));
  *v = (Vla){ps.vlas, t, len, len_tok, NULL};
  ps.vlas = v;
  return t;
}

Node *typed_cast(Node *e, Type *ty) {
  Node *c = new_node(ND_CAST, e->tok);
  c->lhs = e;
  c->cast_ty = ty;
  add_type(c);
  return c;
}

static Node *ulong_num(int64_t v, Token *tok) {
  Node *n = new_num(v, tok);
  n->ty = ty_ulong;
  return n;
}

/* a call of the host runtime's `fn` located at `at` (where a fault is reported) */
static Node *runtime_call(const char *fn, Token *at, Node *a, Node *b) {
  Obj *f = find_func(fn);
  if (!f) error_tok(at, "internal: the host runtime's '%s' is not declared", fn);
  Node *call = new_node(ND_CALL, at);
  call->args = a;
  call->nargs = 1 + (b != NULL);
  a->next = b;
  return user_call(at, call, f);
}

static bool side_effect(Node *n, void *ctx) {
  bool *found = ctx;
  bool runtime = n->kind == ND_CALL && n->fn && !strncmp(n->fn->name, "__carve_vla_", 12);
  if ((n->kind == ND_CALL && !runtime) || n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP ||
      n->kind == ND_PREINC || n->kind == ND_PREDEC || n->kind == ND_POSTINC ||
      n->kind == ND_POSTDEC)
    *found = true;
  return !*found;
}
bool has_side_effect(Node *n) {
  bool found = false;
  walk_one(n, side_effect, NULL, &found);
  return found;
}

/* the size in bytes of t (size_t): a number, or for a VLA its hidden local or its expression */
static Node *vla_size(Type *t, Token *at) {
  if (!is_vla(t)) return ulong_num(t->size, at);
  Vla *v = vla_of(t);
  if (v && v->size) return new_var(v->size, at);
  if (!v || !v->len)
    error_tok(at, "unsupported: the size of this variable-length array type is not known here");
  if (has_side_effect(v->len))
    error_tok(
      v->len_tok,
      "unsupported: a side effect in the size of a variable-length array in a type name (it would be evaluated at every use)");
  return runtime_call("__carve_vla_size", v->len_tok, typed_cast(clone_node(v->len), ty_long),
                      vla_size(t->base, at));
}

static Node *decl_node(Obj *v, Node *init, Token *tok) {
  Node *d = new_node(ND_DECL, tok);
  d->var = v;
  d->ty = v->ty;
  d->decl_init = v->init = init;
  return d;
}

/* a local of the current function that no name reaches */
Obj *hidden_local(const char *name, Type *ty, Token *tok) {
  Obj *o = new_obj(arena_strdup(name), ty, tok, SC_LOCAL);
  Obj **pp = &ps.cur_fn->locals;
  while (*pp) pp = &(*pp)->next_local;
  *pp = o;
  return o;
}

/* the sizes of the VLAs in t not yet evaluated (innermost first), each into a hidden local
 * declared at *cur (the declaration's list) */
void vla_materialize(Type *t, Token *at, Node **cur) {
  if (!t || (t->kind != TY_PTR && t->kind != TY_ARRAY)) return;
  vla_materialize(t->base, at, cur);
  Vla *v = is_vla(t) ? vla_of(t) : NULL;
  if (!v || v->size) return;
  Node *init = vla_size(t, at);
  v->size = hidden_local("(VLA size)", ty_ulong, v->len_tok ? v->len_tok : at);
  *cur = (*cur)->next = decl_node(v->size, init, at);
}

/* `T v[n]...;` in a host function: v's storage from the host runtime, through a hidden pointer
 * named v (messages name the allocation by it) */
Node *vla_local(Type *ty, Token *name, Token *tok) {
  if (tok_equal(tok, "=")) error_tok(tok, "a variable-length array cannot be initialized");
  VarScope *prev = find_in_current(name);
  if (prev && prev->var) error_tok(name, "redefinition of '%.*s'", name->len, name->loc);
  Obj *p = hidden_local(tok_text(name), pointer_to(ty), name);
  ps.vla_fn.tail = ps.vla_fn.tail->next = decl_node(p, typed_cast(new_num(0, name), p->ty), name);
  ps.vla_fn.arrays = xrealloc(ps.vla_fn.arrays, sizeof(Obj *) * (size_t)(ps.vla_fn.narrays + 1));
  ps.vla_fn.arrays[ps.vla_fn.narrays++] = p;
  VarScope *vs = push_scope(tok_text(name));
  vs->var = p;
  vs->vla_array = true;
  Node *alloc = runtime_call("__carve_vla_alloc", name, vla_size(ty, name), new_var(p, name));
  Node *set = new_binary(ND_ASSIGN, new_var(p, name), typed_cast(alloc, p->ty), name);
  add_type(set);
  Node *st = new_node(ND_EXPR_STMT, name);
  st->lhs = set;
  return st;
}

/* p + i rows (p a pointer to rows or an array of them), as a pointer to row */
static Node *vla_offset(Node *p, Node *i, bool sub, Type *row, Token *tok) {
  Node *bytes =
    new_binary(ND_MUL, typed_cast(i, ty_long), typed_cast(vla_size(row, tok), ty_long), tok);
  Node *sum = new_binary(sub ? ND_SUB : ND_ADD, typed_cast(p, pointer_to(ty_char)), bytes, tok);
  add_type(sum);
  return typed_cast(sum, pointer_to(row));
}

static Type *vla_row(Node *n) {
  add_type(n);
  return is_pointer_like(n->ty) && is_vla(n->ty->base) ? n->ty->base : NULL;
}

/* target op= step, ++target, target++ on a pointer to rows: an assignment (target is written
 * twice in the lowered form, so it must be free of side effects) */
static Node *vla_step(Node *n, Node *target, Node *step, bool sub, Type *row) {
  if (has_side_effect(target))
    error_tok(
      n->tok,
      "unsupported: '%.*s' on a pointer to a variable-length array whose target has side effects",
      n->tok->len, n->tok->loc);
  Node *set =
    new_binary(ND_ASSIGN, target, vla_offset(clone_node(target), step, sub, row, n->tok), n->tok);
  add_type(set);
  if (n->kind != ND_POSTINC && n->kind != ND_POSTDEC) return set;
  Node *old = new_binary(
    ND_COMMA, set, vla_offset(clone_node(target), new_num(1, n->tok), !sub, row, n->tok), n->tok);
  add_type(old);
  return old;
}

/* an expression that needs a VLA's size, in byte arithmetic; anything else unchanged */
Node *vla_lower(Node *n) {
  if (!in_host_fn()) return n;
  Token *tok = n->tok;
  Type *row;
  switch (n->kind) {
  case ND_INDEX: {
    if (!vla_row(n->lhs) && vla_row(n->rhs)) {
      Node *t = n->lhs;
      n->lhs = n->rhs;
      n->rhs = t;
    }
    if (!(row = vla_row(n->lhs))) return n;
    add_type(n->rhs);
    if (!is_integer(n->rhs->ty))
      error_tok(n->rhs->tok, "array subscript is not an integer ('%s')", type_name(n->rhs->ty));
    Node *d = new_unary(ND_DEREF, vla_offset(n->lhs, n->rhs, false, row, tok), tok);
    d->end_tok = n->end_tok;
    add_type(d);
    return d;
  }
  case ND_ADD:
  case ND_SUB: {
    bool sub = n->kind == ND_SUB;
    Type *l = vla_row(n->lhs), *r = vla_row(n->rhs);
    if (!l && !r) return n;
    if (l && r && sub) { /* rows between two pointers */
      Node *d = new_binary(ND_SUB, typed_cast(n->lhs, pointer_to(ty_char)),
                           typed_cast(n->rhs, pointer_to(ty_char)), tok);
      Node *q = new_binary(ND_DIV, d, typed_cast(vla_size(l, tok), ty_long), tok);
      add_type(q);
      return q;
    }
    if (l && is_integer(n->rhs->ty)) return vla_offset(n->lhs, n->rhs, sub, l, tok);
    if (r && !sub && is_integer(n->lhs->ty)) return vla_offset(n->rhs, n->lhs, false, r, tok);
    return n; /* type.c says what is wrong */
  }
  case ND_ASSIGN_OP:
    if ((n->op != ND_ADD && n->op != ND_SUB) || !(row = vla_row(n->lhs)) ||
        n->lhs->ty->kind != TY_PTR)
      return n;
    add_type(n->rhs);
    if (!is_integer(n->rhs->ty)) return n;
    return vla_step(n, n->lhs, n->rhs, n->op == ND_SUB, row);
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC:
    if (!(row = vla_row(n->lhs)) || n->lhs->ty->kind != TY_PTR) return n;
    return vla_step(n, n->lhs, new_num(1, tok), n->kind == ND_PREDEC || n->kind == ND_POSTDEC, row);
  default: return n;
  }
}

/* sizeof of a VLA type or of an expression of one: its size (the operand evaluated first when
 * it has side effects, as C evaluates it) */
Node *vla_sizeof(Node *n, Node *e) {
  Node *size = vla_size(n->cast_ty, n->tok);
  if (!e || !has_side_effect(e)) return size;
  Node *c = new_binary(ND_COMMA, typed_cast(e, ty_void), size, n->tok);
  add_type(c);
  return c;
}

/* a parameter's array count: parsed where the earlier parameters are names (placeholders:
 * function() parses a count that is not constant again among the real parameters) */
Node *param_dim(Token **rest, Token *tok) {
  enter_scope();
  for (Type *p = ps.vla_param_head->next; p; p = p->next)
    if (p->name)
      push_scope(tok_text(p->name))->var = new_obj(tok_text(p->name), p, p->name, SC_PARAM);
  Node *e = conditional(rest, tok);
  add_type(e);
  leave_scope();
  return e;
}

/* function(): the counts of parameter p's VLAs, among the parameters before it */
void vla_param_counts(Type *p, bool host) {
  for (Type *t = p; t && (t->kind == TY_PTR || t->kind == TY_ARRAY); t = t->base) {
    Vla *v = is_vla(t) ? vla_of(t) : NULL;
    if (!v || v->len) continue;
    if (!host)
      error_tok(v->len_tok ? v->len_tok : p->name,
                "array size is not an integer constant (variable-length arrays are not CUDA)");
    if (!v->len_tok)
      error_tok(p->name, "'[*]' is allowed in a function prototype only, not in its definition");
    Token *end;
    v->len = conditional(&end, v->len_tok);
    add_type(v->len);
  }
}

/* at the start of a host function's body: the parameters' sizes; its local VLAs come later */
void vla_function_start(Type *fnty) {
  free(ps.vla_fn.arrays);
  memset(&ps.vla_fn, 0, sizeof ps.vla_fn);
  ps.vla_fn.tail = &ps.vla_fn.head;
  for (Type *p = fnty->params; p; p = p->next) vla_materialize(p, p->name, &ps.vla_fn.tail);
}

typedef struct {
  Node **v;
  int n;
} NodeList;
static bool find_return(Node *n, void *ctx) {
  NodeList *l = ctx;
  if (n->kind != ND_RETURN) return true;
  l->v = xrealloc(l->v, sizeof(Node *) * (size_t)(l->n + 1));
  l->v[l->n++] = n;
  return true;
}

/* __carve_vla_free of every local VLA, as statements */
static Node *vla_frees(Token *at) {
  Node head = {0}, *cur = &head;
  for (int i = 0; i < ps.vla_fn.narrays; i++) {
    Node *st = new_node(ND_EXPR_STMT, at);
    st->lhs = runtime_call("__carve_vla_free", at, new_var(ps.vla_fn.arrays[i], at), NULL);
    cur = cur->next = st;
  }
  return head.next;
}

/* at the end of a host function's body: the hidden declarations first; with local VLAs, each
 * `return e;` becomes { T r = e; free...; return r; } and the end of the body frees them too */
void vla_function_end(Node *body) {
  if (ps.vla_fn.head.next) {
    ps.vla_fn.tail->next = body->stmts;
    body->stmts = ps.vla_fn.head.next;
  }
  if (ps.vla_fn.narrays) {
    NodeList rets = {0};
    walk(body->stmts, find_return, NULL, &rets);
    for (int i = 0; i < rets.n; i++) {
      Node *r = rets.v[i], *ret = new_node(ND_RETURN, r->tok), *frees = vla_frees(r->tok),
           *last = frees;
      while (last->next) last = last->next;
      last->next = ret;
      if (r->lhs) {
        Obj *t = hidden_local("(return value)", unqual(ps.cur_fn->ty->return_ty), r->tok);
        Node *d = decl_node(t, r->lhs, r->tok);
        ret->lhs = new_var(t, r->tok);
        d->next = frees;
        frees = d;
      }
      r->kind = ND_BLOCK;
      r->lhs = NULL;
      r->stmts = frees;
      r->end_tok = r->tok;
    }
    free(rets.v);
    Node **end = &body->stmts;
    while (*end) end = &(*end)->next;
    *end = vla_frees(body->end_tok ? body->end_tok : body->tok);
  }
  free(ps.vla_fn.arrays);
  memset(&ps.vla_fn, 0, sizeof ps.vla_fn);
}

/* ---------------- host programs ---------------- */
/* What a host program uses from <stdio.h>, <stdlib.h>, <string.h>, <time.h>, <sys/time.h> and
 * <cuda_runtime.h>, declared as C: carve's host runtime (src/interp/host.c) implements each
 * function here, by name. Names the device code also uses (printf, abs, min, max, clock, the
 * math library) are the parser's builtins and are not declared again. The enumerators' values
 * are CUDA's (driver_types.h: cudaError, cudaMemcpyKind); the structs hold the fields programs
 * read, in an order of carve's. Out-parameters of type T** are declared void * so that
 * cudaMalloc(&p, n) takes a float ** as CUDA's C++ overloads do. */
static const char host_prelude_text[] =
  "typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,\n"
  "  cudaErrorInitializationError = 3, cudaErrorInvalidConfiguration = 9, cudaErrorInvalidDevicePointer = 17,\n"
  "  cudaErrorInvalidMemcpyDirection = 21, cudaErrorInvalidResourceHandle = 400, cudaErrorNotReady = 600,\n"
  "  cudaErrorIllegalAddress = 700, cudaErrorLaunchFailure = 719 } cudaError_t;\n"
  "enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,\n"
  "  cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };\n"
  "enum { cudaMemAttachGlobal = 1, cudaMemAttachHost = 2, cudaHostAllocDefault = 0, cudaEventDefault = 0,\n"
  "  cudaStreamDefault = 0, cudaStreamNonBlocking = 1, RAND_MAX = 2147483647, EXIT_SUCCESS = 0, EXIT_FAILURE = 1,\n"
  "  CLOCKS_PER_SEC = 1000000, CLOCK_REALTIME = 0, CLOCK_MONOTONIC = 1 };\n"
  "typedef struct CUevent_st *cudaEvent_t;\n"
  "typedef struct CUstream_st *cudaStream_t;\n"
  "typedef struct carve_FILE FILE;\n"
  "typedef long clock_t;\n"
  "typedef long time_t;\n"
  "struct timeval { long tv_sec; long tv_usec; };\n"
  "struct timespec { long tv_sec; long tv_nsec; };\n"
  "struct cudaDeviceProp { char name[256]; size_t totalGlobalMem; size_t sharedMemPerBlock; int regsPerBlock;\n"
  "  int warpSize; int maxThreadsPerBlock; int maxThreadsDim[3]; int maxGridSize[3]; int clockRate;\n"
  "  size_t totalConstMem; int major; int minor; int multiProcessorCount; int memoryClockRate;\n"
  "  int memoryBusWidth; int l2CacheSize; int maxThreadsPerMultiProcessor; size_t sharedMemPerMultiprocessor;\n"
  "  int regsPerMultiprocessor; size_t sharedMemPerBlockOptin; int maxBlocksPerMultiProcessor;\n"
  "  int concurrentKernels; int deviceOverlap; int managedMemory; int unifiedAddressing; };\n"
  "typedef struct cudaDeviceProp cudaDeviceProp;\n"
  "extern FILE *stdin, *stdout, *stderr;\n"
  "void *malloc(size_t); void *calloc(size_t, size_t); void *realloc(void *, size_t); void free(void *);\n"
  "int posix_memalign(void *, size_t, size_t); void *aligned_alloc(size_t, size_t);\n"
  "void *memcpy(void *, const void *, size_t); void *memmove(void *, const void *, size_t);\n"
  "void *memset(void *, int, size_t); int memcmp(const void *, const void *, size_t);\n"
  "size_t strlen(const char *); int strcmp(const char *, const char *); int strncmp(const char *, const char *, size_t);\n"
  "char *strcpy(char *, const char *); char *strncpy(char *, const char *, size_t);\n"
  "char *strcat(char *, const char *); char *strncat(char *, const char *, size_t);\n"
  "char *strchr(const char *, int); char *strrchr(const char *, int); char *strstr(const char *, const char *);\n"
  "unsigned int sleep(unsigned int); int usleep(unsigned int);\n"
  "int rand(void); void srand(unsigned int); double drand48(void); void srand48(long);\n"
  "int atoi(const char *); long atol(const char *); double atof(const char *);\n"
  "long strtol(const char *, void *, int); unsigned long strtoul(const char *, void *, int); double strtod(const char *, void *);\n"
  "int __carve_printf(const char *, ...); int fprintf(FILE *, const char *, ...); int sprintf(char *, const char *, ...);\n"
  "int snprintf(char *, size_t, const char *, ...); int puts(const char *); int putchar(int);\n"
  "int fputs(const char *, FILE *); int fputc(int, FILE *); int fflush(FILE *);\n"
  "void exit(int); void abort(void);\n"
  "time_t time(void *); int gettimeofday(struct timeval *, void *); int clock_gettime(int, struct timespec *);\n"
  "cudaError_t cudaMalloc(void *, size_t); cudaError_t cudaMallocManaged(void *, size_t, ...);\n"
  "cudaError_t cudaMallocHost(void *, size_t); cudaError_t cudaHostAlloc(void *, size_t, unsigned int);\n"
  "cudaError_t cudaFree(void *); cudaError_t cudaFreeHost(void *);\n"
  "cudaError_t cudaMemcpy(void *, const void *, size_t, enum cudaMemcpyKind);\n"
  "cudaError_t cudaMemcpyAsync(void *, const void *, size_t, enum cudaMemcpyKind, ...);\n"
  "cudaError_t cudaMemset(void *, int, size_t); cudaError_t cudaMemsetAsync(void *, int, size_t, ...);\n"
  "cudaError_t cudaMemcpyToSymbol(const void *, const void *, size_t, ...);\n"
  "cudaError_t cudaMemcpyFromSymbol(void *, const void *, size_t, ...);\n"
  "cudaError_t cudaDeviceSynchronize(void); cudaError_t cudaThreadSynchronize(void);\n"
  "cudaError_t cudaDeviceReset(void); cudaError_t cudaThreadExit(void);\n"
  "cudaError_t cudaGetLastError(void); cudaError_t cudaPeekAtLastError(void);\n"
  "const char *cudaGetErrorString(cudaError_t); const char *cudaGetErrorName(cudaError_t);\n"
  "cudaError_t cudaGetDeviceCount(int *); cudaError_t cudaGetDevice(int *); cudaError_t cudaSetDevice(int);\n"
  "cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *, int);\n"
  "cudaError_t cudaEventCreate(cudaEvent_t *); cudaError_t cudaEventCreateWithFlags(cudaEvent_t *, unsigned int);\n"
  "cudaError_t cudaEventRecord(cudaEvent_t, ...); cudaError_t cudaEventSynchronize(cudaEvent_t);\n"
  "cudaError_t cudaEventQuery(cudaEvent_t);\n"
  "cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t); cudaError_t cudaEventDestroy(cudaEvent_t);\n"
  "cudaError_t cudaStreamCreate(cudaStream_t *); cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned int);\n"
  "cudaError_t cudaStreamSynchronize(cudaStream_t); cudaError_t cudaStreamDestroy(cudaStream_t);\n"
  /* C99 variable-length arrays: the parser's lowering calls these (the VLA section) */
  "size_t __carve_vla_size(long, size_t); void *__carve_vla_alloc(size_t, void *); void __carve_vla_free(void *);\n"
  /* <sys/time.h>'s timezone (gettimeofday's second argument, ignored); the legacy cudaThread*
   * calls CUDA 13 removed and their cudaDevice* successors (limits and cache preference) */
  "struct timezone { int tz_minuteswest; int tz_dsttime; };\n"
  "enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };\n"
  "enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,\n"
  "  cudaFuncCachePreferEqual = 3 };\n"
  "cudaError_t cudaThreadSetLimit(enum cudaLimit, size_t); cudaError_t cudaThreadGetLimit(size_t *, enum cudaLimit);\n"
  "cudaError_t cudaDeviceSetLimit(enum cudaLimit, size_t); cudaError_t cudaDeviceGetLimit(size_t *, enum cudaLimit);\n"
  "cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache); cudaError_t cudaThreadGetCacheConfig(void *);\n"
  "cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache); cudaError_t cudaDeviceGetCacheConfig(void *);\n";

void host_prelude(void) {
  Token *tok = tokenize_string("<host runtime>", host_prelude_text);
  convert_pp_tokens(tok);
  ps.in_prelude = true;
  while (tok->kind != TK_EOF) toplevel(&tok, tok, false);
  ps.in_prelude = false;
}

bool in_host_fn(void) { return ps.cur_fn && ps.cur_fn->is_host && !ps.cur_fn->is_device; }

/* cudaMemcpyToSymbol(sym, ...) takes the variable itself (a C++ reference in CUDA's headers):
 * a scalar or struct __constant__/__device__ variable is passed by its address, as an array is */
void symbol_arg(Obj *fn, Node *call) {
  int i = !strcmp(fn->name, "cudaMemcpyToSymbol")     ? 0
          : !strcmp(fn->name, "cudaMemcpyFromSymbol") ? 1
                                                      : -1;
  if (i < 0 || call->nargs <= i) return;
  Node **a = nthp(&call->args, i);
  Node *v = *a;
  if (v->kind != ND_VAR || (v->var->sc != SC_CONSTANT && v->var->sc != SC_DEVICE_GLOBAL) ||
      v->ty->kind == TY_ARRAY)
    return;
  Node *next = v->next;
  v->next = NULL;
  Node *addr = new_unary(ND_ADDR, v, v->tok);
  add_type(addr);
  addr->next = next;
  *a = addr;
}

/* dim3: the predefined uint3 whose omitted components are 1 (builtin_typedef) */
bool is_dim3(const Type *t) { return t && t->typedef_name && !strcmp(t->typedef_name, "dim3"); }

/* dim3(x, y, z) with the missing dimensions 1, as CUDA's constructor: a make_vector call */
static Node *dim3_call(Token *name, Node *call, Type *t) {
  if (call->nargs > 3) error_tok(name, "dim3 takes at most 3 dimensions, %d given", call->nargs);
  if (call->nargs == 1 && is_dim3(call->args->ty)) return call->args; /* a copy */
  Node **a = &call->args;
  for (int i = 0; i < 3; i++, a = &(*a)->next) {
    if (!*a) {
      *a = new_num(1, name);
      (*a)->ty = ty_uint;
    }
    if (!is_integer((*a)->ty))
      error_tok((*a)->tok, "a dim3 dimension must be an integer, not '%s'", type_name((*a)->ty));
    coerce_arg(a, ty_uint);
  }
  call->nargs = 3;
  call->builtin = BI_MAKE_VECTOR;
  call->ty = t;
  return call;
}

/* dim3-ctor = "dim3" "(" (assign ("," assign)*)? ")" */
Node *dim3_ctor(Token **rest, Token *tok) {
  Node *call = new_node(ND_CALL, tok);
  call->args = func_args(rest, tok->next->next, call);
  return dim3_call(tok, call, find_typedef(tok));
}

/* dim3-declarator = ident ("(" args ")" | "=" "{" args "}" | "=" assign)?: CUDA's constructors;
 * without an initializer every dimension is 1 */
Node *dim3_declarator(Token **rest, Token *tok, Type *base) {
  if (tok->kind != TK_IDENT) error_tok(tok, "expected a variable name");
  Token *name = tok;
  Node *init;
  tok = tok->next;
  if (tok_equal(tok, "(") || (tok_equal(tok, "=") && tok_equal(tok->next, "{"))) {
    Node *call = new_node(ND_CALL, name);
    if (tok_equal(tok, "(")) call->args = func_args(&tok, tok->next, call);
    else {
      Token *open = tok->next;
      Node head = {0}, *cur = &head;
      tok = open->next;
      while (!consume(&tok, tok, "}")) {
        if (cur != &head) tok = skip(tok, ",");
        cur = cur->next = assign(&tok, tok);
        add_type(cur);
        call->nargs++;
      }
      call->args = head.next;
    }
    init = dim3_call(name, call, base);
  } else if (consume(&tok, tok, "=")) {
    init = assign(&tok, tok);
    add_type(init);
    if (is_integer(init->ty)) { /* dim3 g = 256: the converting constructor */
      Node *call = new_node(ND_CALL, name);
      call->args = init;
      call->nargs = 1;
      init = dim3_call(name, call, base);
    } else if (!is_dim3(init->ty))
      error_tok(init->tok, "cannot initialize a dim3 with '%s'", type_name(init->ty));
  } else {
    init = dim3_call(name, new_node(ND_CALL, name), base);
  }
  Obj *var = new_local(tok_text(name), base, name, SC_LOCAL);
  Node *d = new_node(ND_DECL, name);
  d->var = var;
  d->ty = base;
  d->decl_init = init;
  var->init = init;
  *rest = tok;
  return d;
}

/* launch-config operand: an integer or a dim3 */
static Node *launch_operand(Token **rest, Token *tok, const char *what, bool dim) {
  Node *e = assign(rest, tok);
  add_type(e);
  if (is_integer(e->ty) || (dim && is_dim3(e->ty)) ||
      (!dim && e->ty->kind == TY_PTR && !strcmp(what, "stream")))
    return e;
  error_tok(e->tok, "the launch's %s must be %s, not '%s'", what,
            dim                       ? "an integer or a dim3"
            : !strcmp(what, "stream") ? "a cudaStream_t"
                                      : "an integer",
            type_name(e->ty));
}

/* launch = ident "<<<" grid "," block ("," shmem ("," stream)?)? ">>>" "(" args ")" */
Node *launch_expr(Token **rest, Token *tok) {
  Token *name = tok;
  VarScope *vs = find_var(name);
  Obj *k = vs && vs->var && vs->var->sc == SC_FUNC ? vs->var : NULL;
  VarScope *ts = k ? NULL : find_template(name);
  if (ts && ts->tmpl && !ts->tmpl->is_class) /* K<<<...>>>(args): its arguments deduced */
    return launch_config(rest, name, tok->next, NULL, ts->tmpl, NULL);
  return launch_config(rest, name, tok->next, k, NULL, NULL);
}

/* the launch of k (or, k NULL, of the instance of template t its arguments deduce, targs the
 * template arguments given) from "<<<" at tok: name<ARGS><<<...>>>(args) as well as name<<<...
 */
Node *launch_config(Token **rest, Token *name, Token *tok, Obj *k, Template *t, TArg *targs) {
  if (!in_host_fn())
    error_tok(tok, "a kernel launch in device code (dynamic parallelism) is not supported");
  if (!k && !t)
    error_tok(name, "'%.*s' is launched but not declared as a __global__ function", name->len,
              name->loc);
  if (k && !k->is_kernel)
    error_tok(name, "'%s' is launched with <<<...>>> but is not a __global__ function", k->name);
  Node *n = new_node(ND_LAUNCH, name);
  n->fn = k;
  tok = tok->next;
  n->cond = launch_operand(&tok, tok, "grid", true);
  tok = skip(tok, ",");
  n->then = launch_operand(&tok, tok, "block", true);
  if (consume(&tok, tok, ",")) {
    n->els = launch_operand(&tok, tok, "dynamic shared memory size", false);
    if (consume(&tok, tok, ",")) n->inc = launch_operand(&tok, tok, "stream", false);
  }
  tok = skip(tok, ">>>");
  tok = skip(tok, "(");
  n->args = func_args(&tok, tok, n);
  if (!k) {
    k = n->fn = template_launch_instance(t, targs, n->args, name);
    if (!k->is_kernel)
      error_tok(name, "'%s' is launched with <<<...>>> but is not a __global__ function", k->name);
  }
  fill_defaults(n, k->ty);
  int np = 0;
  for (Type *p = k->ty->params; p; p = p->next) np++;
  if (n->nargs != np)
    error_tok(name, "kernel '%s' takes %d argument%s, the launch gives %d", k->name, np,
              np == 1 ? "" : "s", n->nargs);
  int i = 0;
  for (Type *p = k->ty->params; p; p = p->next, i++) {
    /* carve's interpreted host passes each argument as one scalar: a struct by value would arrive
     * as zeros (silently wrong), so it is an error here and the nvcc route takes the program */
    if (p->kind == TY_STRUCT)
      error_tok(
        (*nthp(&n->args, i))->tok,
        "unsupported: the %s '%s' passed by value to kernel '%s' from host code carve interprets "
        "(the nvcc route, host code built as C++ by nvcc, runs it: --route nvcc)",
        p->is_vector ? "vector" : "struct", type_name(p), k->name);
    coerce_arg(nthp(&n->args, i), p);
  }
  n->ty = ty_void;
  *rest = tok;
  return n;
}

Obj *find_host_function(Program *p, const char *name) {
  if (!name) name = "main";
  for (Obj *f = p->funcs; f; f = f->next)
    if (f->is_host && f->is_definition && f->body && !f->is_kernel && !strcmp(f->name, name))
      return f;
  return NULL;
}

/* the host functions reachable from f by calls: the first one called whose body carve could not
 * read (a HostSkip) and, in *caller, the function that calls it; NULL when every callee that has
 * no body is a library function (the host runtime's) */
typedef struct {
  Program *p;
  Obj **seen;
  int n;
  HostSkip *hit;
  Obj *caller, *cur;
} Unread;
static bool unread_call(Node *n, void *ctx);
static void unread_fn(Unread *u, Obj *f) {
  for (int i = 0; i < u->n; i++)
    if (u->seen[i] == f) return;
  u->seen = xrealloc(u->seen, sizeof(Obj *) * (size_t)(u->n + 1));
  u->seen[u->n++] = f;
  Obj *saved = u->cur;
  u->cur = f;
  if (f->body) walk(f->body, unread_call, NULL, u);
  u->cur = saved;
}
static bool unread_call(Node *n, void *ctx) {
  Unread *u = ctx;
  if (u->hit || n->kind != ND_CALL || !n->fn || n->fn->is_host_lib) return !u->hit;
  Obj *def = n->fn->body ? n->fn : find_host_function(u->p, n->fn->name);
  if (def) {
    unread_fn(u, def);
    return !u->hit;
  }
  for (HostSkip *h = u->p->host_skipped; h; h = h->next)
    if (!strcmp(h->name, n->fn->name)) {
      u->hit = h;
      u->caller = u->cur;
      return false;
    }
  return true;
}
HostSkip *host_unread_callee(Program *p, Obj *f, Obj **caller) {
  Unread u = {p, NULL, 0, NULL, NULL, NULL};
  unread_fn(&u, f);
  free(u.seen);
  if (caller) *caller = u.caller;
  return u.hit;
}
