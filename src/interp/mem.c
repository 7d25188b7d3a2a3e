/* interp memory: faults (reported, recorded as data, the warp unwound) and memory (addresses
 * resolved and checked, shared-memory races, loads, stores and copies for a whole warp). */
#include "interp_impl.h"

/* ---------------- faults ---------------- */
/* leave the warp's code for its warp_entry (a fault, or the sampling cap). Under ASan the frames
 * jumped over keep their poisoned redzones (ASan does not clean a stack this large on longjmp):
 * remember how deep, so the next warp to start on the stack unpoisons that much. */
_Noreturn void unwind_warp(Warp *w) {
#ifdef CARVE_ASAN
  size_t depth =
    (size_t)((uintptr_t)w->stack + STACK_BYTES(w->I) - (uintptr_t)__builtin_frame_address(0));
  if (depth > w->I->abandoned) w->I->abandoned = depth;
#endif
  longjmp(w->fault_jmp, 1);
}

void thread_desc(Warp *w, int lane, char *buf, size_t n) {
  Interp *I = w->I;
  snprintf(buf, n, "block (%lld,%lld,%lld) thread (%u,%u,%u)", (long long)I->block_id[0],
           (long long)I->block_id[1], (long long)I->block_id[2], w->tid[0][lane], w->tid[1][lane],
           w->tid[2][lane]);
}

const char *fault_kind_name(FaultKind k) {
  static const char *names[FAULT_NKINDS] = {
    [FAULT_OUT_OF_BOUNDS] = "out-of-bounds",
    [FAULT_MISALIGNED] = "misaligned",
    [FAULT_NULL_POINTER] = "null-pointer",
    [FAULT_INVALID_ADDRESS] = "invalid-address",
    [FAULT_MEMORY_SPACE] = "memory-space",
    [FAULT_FREED_MEMORY] = "freed-memory",
    [FAULT_CONSTANT_WRITE] = "constant-write",
    [FAULT_DIVISION_BY_ZERO] = "division-by-zero",
    [FAULT_RACE] = "race",
    [FAULT_DIVERGENT_BARRIER] = "divergent-barrier",
    [FAULT_DIVERGENT_COLLECTIVE] = "divergent-collective",
    [FAULT_SHUFFLE] = "shuffle",
    [FAULT_STACK_OVERFLOW] = "stack-overflow",
    [FAULT_UNDEFINED_FUNCTION] = "undefined-function",
    [FAULT_ASSERTION] = "assertion",
    [FAULT_RUNTIME_ERROR] = "runtime-error",
    [FAULT_UNSUPPORTED] = "unsupported",
    [FAULT_KERNEL_LAUNCH] = "kernel-fault",
    [FAULT_INTERNAL] = "internal",
  };
  return k >= 0 && k < FAULT_NKINDS && names[k] ? names[k] : "fault";
}

/* the fault as data, in RunStats (the first RUN_MAX_FAULT_RECORDS; the count has them all) */
void record_fault(Interp *I, FaultKind kind, Node *n, Node *other, const Warp *w, int lane,
                  const char *msg) {
  RunStats *st = I->st;
  if (st->nfault >= RUN_MAX_FAULT_RECORDS) return;
  Fault *f = &st->fault[st->nfault++];
  memset(f, 0, sizeof *f);
  f->kind = kind;
  f->at = n;
  f->other = other;
  f->in_kernel = !I->L->host_code;
  memcpy(f->block, I->block_id, sizeof f->block);
  f->lane = f->in_kernel && w ? lane : -1;
  if (f->lane >= 0)
    for (int d = 0; d < 3; d++) f->thread[d] = w->tid[d][lane];
  snprintf(f->message, sizeof f->message, "%s", msg);
}

/* a fault of the warp: counted, recorded, reported (the first max_reports: the error, then the
 * other access of a race as a note), and the warp unwound */
_Noreturn void fault_raise(Warp *w, FaultKind kind, Node *n, Node *other, int lane, const char *f,
                           ...) {
  Interp *I = w->I;
  I->fault = true;
  I->st->faults++;
  bool print = I->reports++ < (I->opt->max_reports ? I->opt->max_reports : 10);
  if (print || I->st->nfault < RUN_MAX_FAULT_RECORDS) {
    va_list ap;
    va_start(ap, f);
    char *msg = vfmt(f, ap);
    va_end(ap);
    char where[128] = "";
    if (lane >= 0 && !I->L->host_code) thread_desc(w, lane, where, sizeof where);
    else lane = -1;
    char *text = fmt("%s%s%s", msg, lane >= 0 ? " in " : "", where);
    record_fault(I, kind, n, other, w, lane, text);
    if (print) {
      diag_at(DIAG_ERROR, n ? tok_loc(n->tok) : (SrcLoc){0}, "%s", text);
      if (other)
        diag_at(DIAG_NOTE, tok_loc(other->tok), "the other access of the race (by another warp)");
    }
  }
  unwind_warp(w);
}

/* ---------------- memory ---------------- */
const char *space_name(int s) {
  static const char *names[] = {"invalid", "global", "shared", "local", "constant", "host"};
  return s >= 0 && s <= 5 ? names[s] : "invalid";
}

/* a host program's buffer for a message: its name and where it was allocated */
static const char *buffer_desc(const Buffer *buf) {
  if (!buf) return "a host stack variable or an invalid address";
  if (!buf->how) return fmt("'%s'", buf->name);
  return fmt("'%s', %s at %s:%d", buf->name, buf->how, buf->at.file ? buf->at.file->name : "?",
             buf->at.line);
}

/* host programs: whether this code may touch the memory at a (host or global space): kernels
 * reach device and managed memory, host code host and managed memory (and device memory only
 * inside cudaMemcpy and its kin); freed memory is nobody's */
static NOINLINE __attribute__((cold)) void host_memory_check(Warp *w, Node *at, int lane,
                                                             uint64_t a, const char *what) {
  Interp *I = w->I;
  uint64_t b = (a >> 40) & 0xfffff;
  Buffer *buf = b < (uint64_t)I->L->nbufs ? &I->L->bufs[b] : NULL;
#define desc buffer_desc(buf)
  bool host_space = ADDR_SPACE(a) == SPACE_HOST;
  if (host_space && !I->L->host_code)
    fault_at(
      w, FAULT_MEMORY_SPACE, at, lane,
      "the kernel %ss host memory (%s): a kernel reaches device memory only (cudaMalloc, cudaMallocManaged)",
      what, desc);
  if (!buf)
    fault_at(w, FAULT_INVALID_ADDRESS, at, lane, "%s at an invalid address 0x%llx", what,
             (unsigned long long)a);
  if (host_space != (buf->kind == BUF_HOST))
    fault_at(w, FAULT_INVALID_ADDRESS, at, lane, "%s at an invalid address 0x%llx", what,
             (unsigned long long)a);
  if (buf->freed) fault_at(w, FAULT_FREED_MEMORY, at, lane, "%s of freed memory (%s)", what, desc);
  if (I->L->host_code && buf->kind == BUF_DEVICE && !I->dev_ok)
    fault_at(
      w, FAULT_MEMORY_SPACE, at, lane,
      "host code %ss device memory (%s): copy it with cudaMemcpy, or allocate it with cudaMallocManaged",
      what, desc);
#undef desc
}

/* host code reaching device memory (outside cudaMemcpy and its kin): checked once per warp-wide
 * access, in host code only, so kernels pay nothing for it */
void host_device_check(Warp *w, Node *at, const uint64_t *addr, Mask m, bool write) {
  Interp *I = w->I;
  if (__builtin_expect(!I->host, 1) || I->dev_ok) return;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1) || ADDR_SPACE(addr[l]) != SPACE_GLOBAL) continue;
    uint64_t b = (addr[l] >> 40) & 0xfffff;
    if (b < (uint64_t)I->L->nbufs && I->L->bufs[b].kind == BUF_DEVICE)
      host_memory_check(w, at, l, addr[l], write ? "write" : "read");
  }
}

/* host pointer for `size` bytes at device address a, or a fault */
unsigned char *resolve(Warp *w, Node *at, int lane, uint64_t a, int size, bool write) {
  Interp *I = w->I;
  int space = ADDR_SPACE(a);
  uint64_t off = a & OFF_MASK;
  const char *what = write ? "write" : "read";
  if (a == 0)
    fault_at(w, FAULT_NULL_POINTER, at, lane, "%s of %d bytes through a null pointer", what, size);
  if (size > 1 && (a & (uint64_t)(size > 16 ? 15 : size - 1)) && size <= 16 &&
      (size & (size - 1)) == 0)
    fault_at(w, FAULT_MISALIGNED, at, lane, "misaligned %s %s of %d bytes at offset %llu",
             space_name(space), what, size, (unsigned long long)off);
  switch (space) {
  case SPACE_HOST: /* the same table as global memory; kernels may not (host_memory_check) */
    host_memory_check(w, at, lane, a, what);
    /* fallthrough */
  case SPACE_GLOBAL: {
    uint64_t b = (a >> 40) & 0xfffff;
    if (b >= (uint64_t)I->L->nbufs)
      fault_at(w, FAULT_INVALID_ADDRESS, at, lane, "%s of %d bytes at an invalid global address",
               what, size);
    Buffer *buf = &I->L->bufs[b];
    if (off + (uint64_t)size > buf->bytes) {
      if (buf->freed) host_memory_check(w, at, lane, a, what); /* freed: 0 bytes, and said so */
      /* an index below 0 borrows from the buffer number: report it against the buffer above */
      if (b + 1 < (uint64_t)I->L->nbufs && off + size > OFF_MASK / 2) {
        Buffer *nb = &I->L->bufs[b + 1];
        long long el = (long long)(off - (OFF_MASK + 1)) / (nb->elem_ty ? nb->elem_ty->size : 1);
        fault_at(w, FAULT_OUT_OF_BOUNDS, at, lane,
                 "out-of-bounds global %s of %d bytes: element %lld of '%s' (%lld elements)", what,
                 size, el, nb->name, (long long)nb->count);
      }
      long long el = (long long)off / (buf->elem_ty ? buf->elem_ty->size : 1);
      fault_at(w, FAULT_OUT_OF_BOUNDS, at, lane,
               "out-of-bounds %s %s of %d bytes: element %lld of '%s' (%lld elements)",
               space_name(space), what, size, el, buf->name, (long long)buf->count);
    }
    return buf->data + off;
  }
  case SPACE_SHARED:
    if (off + (uint64_t)size > I->shared_size)
      fault_at(
        w, FAULT_OUT_OF_BOUNDS, at, lane,
        "out-of-bounds shared %s of %d bytes at byte %lld (the block has %zu bytes of shared memory)",
        what, size, (long long)(int64_t)off, I->shared_size);
    return I->shared + off;
  case SPACE_LOCAL: {
    uint64_t t = (a >> 40) & 0xfffff;
    if (t >= (uint64_t)I->nthreads || off + (uint64_t)size > I->local_size)
      fault_at(w, FAULT_OUT_OF_BOUNDS, at, lane,
               "out-of-bounds local %s of %d bytes (a local array indexed out of range?)", what,
               size);
    return I->local + t * I->local_size + off;
  }
  case SPACE_CONST:
    if (write) fault_at(w, FAULT_CONSTANT_WRITE, at, lane, "write to __constant__ memory");
    if (off + (uint64_t)size > (uint64_t)I->L->prog->constant_size)
      fault_at(w, FAULT_OUT_OF_BOUNDS, at, lane, "out-of-bounds constant read of %d bytes", size);
    return I->L->constant + off;
  default:
    fault_at(w, FAULT_INVALID_ADDRESS, at, lane, "%s of %d bytes at an invalid address 0x%llx",
             what, size, (unsigned long long)a);
  }
}

void race_check(Warp *w, Node *at, int lane, uint64_t a, int size, bool write) {
  Interp *I = w->I;
  if (I->opt->no_race_check) return;
  uint64_t off = a & OFF_MASK;
  uint16_t me = (uint16_t)w->index;
  for (uint64_t b = off; b < off + (uint64_t)size; b++) {
    Node *other = NULL;
    const char *msg = NULL;
    /* an async copy's write lands at any time from its issue to its thread's wait: say so */
    const char *mine = at->kind == ND_CALL && at->builtin == BI_PIPE_COPY ? "async copy's write"
                       : write                                            ? "write"
                                                                          : "read";
    if (I->w_epoch[b] == I->epoch && I->w_warp[b] != me) {
      other = I->w_node[b];
      bool async = other && other->kind == ND_CALL && other->builtin == BI_PIPE_COPY;
      msg = fmt(
        "shared-memory race: this %s of byte %llu and %s by warp %d with no __syncthreads between them",
        mine, (unsigned long long)b,
        async ? "an async copy's write (pending until its thread's __pipeline_wait_prior)"
              : "a write",
        I->w_warp[b]);
    } else if (write && I->r_epoch[b] == I->epoch && I->r_warp[b] != me) {
      other = I->r_node[b];
      msg = fmt(
        "shared-memory race: this %s of byte %llu and a read by %s with no __syncthreads between them",
        mine, (unsigned long long)b,
        I->r_warp[b] == 0xffff ? "several warps" : fmt("warp %d", I->r_warp[b]));
    }
    if (msg) fault_raise(w, FAULT_RACE, at, other, lane, "%s", msg);
  }
  for (uint64_t b = off; b < off + (uint64_t)size; b++) {
    if (write) {
      I->w_epoch[b] = I->epoch;
      I->w_warp[b] = me;
      I->w_node[b] = at;
    } else if (I->r_epoch[b] != I->epoch) {
      I->r_epoch[b] = I->epoch;
      I->r_warp[b] = me;
      I->r_node[b] = at;
    } else if (I->r_warp[b] != me) I->r_warp[b] = 0xffff;
  }
}

void hook_access(Warp *w, Node *at, AccessKind k, int size, const uint64_t *addr, Mask m) {
  const Hooks *h = w->I->opt->hooks;
  if (h && h->access && m) {
    int space = ADDR_SPACE(addr[__builtin_ctz(m)]);
    h->access(h->ctx, at, space, k, size, addr, m, w->I->block_linear, w->index);
  }
}

void load(Warp *w, Node *at, Type *t, const uint64_t *addr, Mask m, Val *out) {
  hook_access(w, at, ACC_LOAD, t->size, addr, m);
  host_device_check(w, at, addr, m, false);
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) {
      out[l].u = 0;
      continue;
    }
    unsigned char *p = resolve(w, at, l, addr[l], t->size, false);
    if (ADDR_SPACE(addr[l]) == SPACE_SHARED) race_check(w, at, l, addr[l], t->size, false);
    out[l] = read_scalar(p, t);
  }
}

/* Lanes of one warp that store different bytes to one shared-memory address in one
 * instruction: "which thread performs the final write is undefined" (CUDA C++ Programming
 * Guide, SIMT Architecture). Accesses are aligned, so lanes overlap only at equal addresses.
 * bytes(l) gives what lane l stores. */
typedef const void *StoredBytes(Warp *w, Node *at, int lane, const void *ctx);
static void same_address_check(Warp *w, Node *at, int size, const uint64_t *addr, Mask m,
                               StoredBytes *bytes, const void *ctx) {
  /* m: the lanes that store to shared memory */
  if (w->I->opt->no_race_check) return;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    for (int k = 0; k < l; k++) {
      if (!(m >> k & 1) || addr[k] != addr[l]) continue;
      if (!memcmp(bytes(w, at, k, ctx), bytes(w, at, l, ctx), (size_t)size)) continue;
      Interp *I = w->I;
      fault_at(
        w, FAULT_RACE, at, -1,
        "shared-memory race: threads (%u,%u,%u) and (%u,%u,%u) of block (%lld,%lld,%lld), in one warp, store different "
        "values to byte %llu in one instruction (which value remains is undefined)",
        w->tid[0][k], w->tid[1][k], w->tid[2][k], w->tid[0][l], w->tid[1][l], w->tid[2][l],
        (long long)I->block_id[0], (long long)I->block_id[1], (long long)I->block_id[2],
        (unsigned long long)(addr[l] & OFF_MASK));
    }
  }
}

typedef struct {
  Type *t;
  const Val *v;
  unsigned char buf[2][8];
  int which;
} ScalarBytes;
static const void *scalar_bytes(Warp *w, Node *at, int lane, const void *ctx) {
  ScalarBytes *sb = (ScalarBytes *)ctx;
  unsigned char *b = sb->buf[sb->which ^= 1];
  write_scalar(b, sb->t, sb->v[lane]);
  return b;
}
typedef struct {
  const uint64_t *src;
  int size;
} CopiedBytes;
static const void *copied_bytes(Warp *w, Node *at, int lane, const void *ctx) {
  const CopiedBytes *cb = ctx;
  return resolve(w, at, lane, cb->src[lane], cb->size, false);
}

void store(Warp *w, Node *at, Type *t, const uint64_t *addr, Mask m, const Val *v) {
  hook_access(w, at, ACC_STORE, t->size, addr, m);
  host_device_check(w, at, addr, m, true);
  Mask shared = 0;
  bool rising = true; /* lane addresses rising: no two lanes share one (the usual case) */
  uint64_t prev = 0;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    unsigned char *p = resolve(w, at, l, addr[l], t->size, true);
    if (ADDR_SPACE(addr[l]) == SPACE_SHARED) {
      race_check(w, at, l, addr[l], t->size, true);
      shared |= 1u << l;
      rising &= addr[l] > prev;
      prev = addr[l];
    }
    write_scalar(p, t, v[l]);
  }
  if (shared && !rising) {
    ScalarBytes sb = {t, v, {{0}}, 0};
    same_address_check(w, at, t->size, addr, shared, scalar_bytes, &sb);
  }
}

/* struct copies: dst <- src, size bytes, per lane */
void copy_bytes(Warp *w, Node *at, int size, const uint64_t *dst, const uint64_t *src, Mask m) {
  hook_access(w, at, ACC_LOAD, size, src, m);
  hook_access(w, at, ACC_STORE, size, dst, m);
  host_device_check(w, at, src, m, false);
  host_device_check(w, at, dst, m, true);
  Mask shared = 0;
  for (int l = 0; l < W; l++)
    if ((m >> l & 1) && ADDR_SPACE(dst[l]) == SPACE_SHARED) shared |= 1u << l;
  CopiedBytes cb = {src, size};
  if (shared) same_address_check(w, at, size, dst, shared, copied_bytes, &cb);
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    unsigned char *s = resolve(w, at, l, src[l], size, false);
    unsigned char *d = resolve(w, at, l, dst[l], size, true);
    if (ADDR_SPACE(src[l]) == SPACE_SHARED) race_check(w, at, l, src[l], size, false);
    if (ADDR_SPACE(dst[l]) == SPACE_SHARED) race_check(w, at, l, dst[l], size, true);
    memmove(d, s, (size_t)size);
  }
}

/* reserve `size` bytes of per-thread temporary storage; returns its offset */
uint64_t alloc_local(Warp *w, Node *at, int size) {
  uint64_t a = (w->sp + 15) & ~15ull;
  if (a + (uint64_t)size > w->I->local_size)
    fault_at(
      w, FAULT_STACK_OVERFLOW, at, -1,
      "thread-local stack overflow (%zu bytes per thread); deep recursion or large local arrays?",
      w->I->local_size);
  w->sp = a + (uint64_t)size;
  return a;
}
