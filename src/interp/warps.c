/* interp warps: barriers, each warp on a coroutine stack of its own, the block loop with its
 * progress line, and interp_run, which runs one launch. */
#include "interp_impl.h"

static void yield_to_scheduler(Warp *w) {
  Interp *I = w->I;
#ifdef CARVE_ASAN
  __sanitizer_start_switch_fiber(&w->fake_stack, I->sched_stack_bottom, I->sched_stack_size);
#endif
  swapcontext(&w->ctx, &I->sched_ctx);
#ifdef CARVE_ASAN
  __sanitizer_finish_switch_fiber(w->fake_stack, NULL, NULL);
#endif
}

/* a barrier every live thread of the warp must reach: a fault naming one that does not */
static void whole_warp(Warp *w, Node *n, Mask m, const char *what) {
  Mask live = w->valid & ~w->exited;
  if (m != live) {
    int lane = __builtin_ctz(live & ~m ? live & ~m : live);
    char who[128];
    thread_desc(w, lane, who, sizeof who);
    fault_at(w, FAULT_DIVERGENT_BARRIER, n, __builtin_ctz(m),
             "%s reached by only part of a warp: %d of its %d live threads arrive (%s does not)",
             what, __builtin_popcount(m), __builtin_popcount(live), who);
  }
}

void barrier(Warp *w, Node *n, Mask m, int pred_count) {
  whole_warp(w, n, m, "__syncthreads");
  if (!w->I->coroutines) {
    /* single-warp blocks without coroutines: the barrier is trivially complete */
    w->barrier_result = pred_count;
    w->I->epoch++;
    return;
  }
  w->state = WS_BARRIER;
  w->barrier_at = n;
  w->barrier_mask = m;
  w->barrier_pred_count = pred_count;
  yield_to_scheduler(w);
  if (w->I->fault) unwind_warp(w);
  if (w->npending) pending_written(w);
}

/* grid_group::sync(): in a one-block grid a block barrier; otherwise the warp waits until every
 * block's live warps wait here (run_grid_together) */
void grid_barrier(Warp *w, Node *n, Mask m) {
  Interp *I = w->I;
  if (!I->nblocks) {
    Launch *L = I->L;
    if (L->grid[0] * L->grid[1] * L->grid[2] == 1) {
      whole_warp(w, n, m, "a grid-wide sync");
      barrier(w, n, m, 0);
      return;
    }
    fault_at(w, FAULT_RUNTIME_ERROR, n, __builtin_ctz(m),
             "unsupported: a grid-wide sync (grid_group::sync) reached from a launch whose "
             "kernel carve did not see use one");
  }
  whole_warp(w, n, m, "a grid-wide sync");
  w->state = WS_GRID;
  w->barrier_at = n;
  w->barrier_mask = m;
  yield_to_scheduler(w);
  if (I->fault) unwind_warp(w);
  if (w->npending) pending_written(w);
}

static void run_kernel_body(Warp *w) {
  Interp *I = w->I;
  Launch *L = I->L;
  Mask m = w->valid;
  w->sp = 0;
  w->depth = 0;
  w->exited = 0;
  Frame *f = push_frame(w, L->kernel, NULL);
  w->frame = f;
  int i = 0;
  for (Obj *p = L->kernel->params; p; p = p->next, i++) {
    Val v[W];
    for (int l = 0; l < W; l++) v[l] = L->args[i];
    bind_param(w, f, p, m, v, NULL);
  }
  exec(w, L->kernel->body, m);
  if (w->npending) { /* copies its threads never waited for: never performed (warned) */
    I->st->async_unwaited += (uint64_t)w->npending;
    if (!I->async_unwaited_at) I->async_unwaited_at = w->pending[0].at;
  }
  if (L->host_code) L->host_ret = f->ret[0];
  pop_frame(w, f);
  w->frame = NULL;
}

/* The interpreter's one file-scope variable, and why it is not in a struct: makecontext's entry
 * point (warp_entry) takes no pointer argument portably, so resume leaves the launch's Interp here
 * for it. It is written before every switch into a warp (a host program's launch nests one
 * interp_run inside another), and thread-local so interpreters on two threads never share it. */
static __thread Interp *carve_current_interp;

static void warp_entry(void) {
  /* makecontext passes no pointer portably: the scheduler leaves the warp in I->running */
  Interp *I = carve_current_interp;
  Warp *w = I->running;
#ifdef CARVE_ASAN
  __sanitizer_finish_switch_fiber(NULL, &I->sched_stack_bottom, &I->sched_stack_size);
#endif
  if (!setjmp(w->fault_jmp)) run_kernel_body(w);
  else if (w->frame) { w->frame = NULL; }
  w->state = WS_DONE;
#ifdef CARVE_ASAN
  __sanitizer_start_switch_fiber(NULL, I->sched_stack_bottom, I->sched_stack_size);
#endif
  setcontext(&I->sched_ctx);
}

static void resume(Interp *I, Warp *w) {
  I->running = w;
  carve_current_interp = I;
#ifdef CARVE_ASAN
  __sanitizer_start_switch_fiber(&I->sched_fake_stack, w->stack, STACK_BYTES(I));
#endif
  swapcontext(&I->sched_ctx, &w->ctx);
#ifdef CARVE_ASAN
  __sanitizer_finish_switch_fiber(I->sched_fake_stack, NULL, NULL);
#endif
}

/* ASan: frames left poisoned on a stack, warp_entry's own (it ends by setcontext) and those a
 * longjmp skipped, are cleaned before the stack is used again */
static void unpoison_stack(Interp *I, void *stack) {
#ifdef CARVE_ASAN
  size_t dirty = I->abandoned + ((size_t)64 << 10);
  if (dirty > STACK_BYTES(I)) dirty = STACK_BYTES(I);
  __asan_unpoison_memory_region((unsigned char *)stack + STACK_BYTES(I) - dirty, dirty);
#else
  (void)I;
  (void)stack;
#endif
}

static void start_warp_context(Interp *I, Warp *w) {
  w->stack_floor = (uintptr_t)w->stack + STACK_MARGIN;
  unpoison_stack(I, w->stack);
  getcontext(&w->ctx);
  w->ctx.uc_stack.ss_sp = w->stack;
  w->ctx.uc_stack.ss_size = STACK_BYTES(I);
  w->ctx.uc_link = NULL;
  makecontext(&w->ctx, warp_entry, 0);
  w->state = WS_READY;
}

/* let every warp of the block suspended at a barrier unwind, so nothing is left half-run */
static void unwind_block(Interp *I) {
  for (int i = 0; i < I->nwarps; i++)
    if (I->warps[i].state == WS_BARRIER || I->warps[i].state == WS_GRID) {
      I->warps[i].state = WS_READY;
      resume(I, &I->warps[i]);
    }
}

/* one block with barriers (its warps started): run warps until all wait at a barrier, check it,
 * release them; 1 when the block's live warps all wait at a grid-wide sync, 0 when they ended
 * (or a fault stopped them) */
static int run_block_coroutines(Interp *I) {
  for (;;) {
    for (int i = 0; i < I->nwarps && !I->fault; i++)
      if (I->warps[i].state == WS_READY) resume(I, &I->warps[i]);
    if (I->fault) {
      unwind_block(I);
      return 0;
    }
    Warp *first = NULL, *grid = NULL;
    int waiting = 0, total = 0;
    for (int i = 0; i < I->nwarps; i++) {
      Warp *w = &I->warps[i];
      if (w->state == WS_GRID && !grid) grid = w;
      if (w->state != WS_BARRIER) continue;
      waiting++;
      total += w->barrier_pred_count;
      if (!first) first = w;
      else if (w->barrier_at != first->barrier_at) {
        I->fault = true;
        I->st->faults++;
        const char *msg = fmt(
          "divergent __syncthreads: warp %d waits here while warp %d waits at line %d, in block (%lld,%lld,%lld)",
          w->index, first->index, tok_loc(first->barrier_at->tok).line, (long long)I->block_id[0],
          (long long)I->block_id[1], (long long)I->block_id[2]);
        record_fault(I, FAULT_DIVERGENT_BARRIER, w->barrier_at, first->barrier_at, NULL, -1, msg);
        if (I->reports++ < (I->opt->max_reports ? I->opt->max_reports : 10))
          diag_at(DIAG_ERROR, tok_loc(w->barrier_at->tok), "%s", msg);
        unwind_block(I);
        return 0;
      }
    }
    if (grid && first) {
      I->fault = true;
      I->st->faults++;
      const char *msg = fmt(
        "divergent barriers: warp %d waits at a grid-wide sync while warp %d waits at __syncthreads at line %d, in block (%lld,%lld,%lld)",
        grid->index, first->index, tok_loc(first->barrier_at->tok).line, (long long)I->block_id[0],
        (long long)I->block_id[1], (long long)I->block_id[2]);
      record_fault(I, FAULT_DIVERGENT_BARRIER, grid->barrier_at, first->barrier_at, NULL, -1, msg);
      if (I->reports++ < (I->opt->max_reports ? I->opt->max_reports : 10))
        diag_at(DIAG_ERROR, tok_loc(grid->barrier_at->tok), "%s", msg);
      unwind_block(I);
      return 0;
    }
    if (!waiting) return grid ? 1 : 0; /* all done, or all at the grid-wide sync */
    I->epoch++;
    for (int i = 0; i < I->nwarps; i++)
      if (I->warps[i].state == WS_BARRIER) {
        I->warps[i].state = WS_READY;
        I->warps[i].barrier_result = total;
      }
  }
}

/* warps of a kernel without barriers run one after the other, each to its end, on one stack */
static void run_block_plain(Interp *I) {
  const Hooks *h = I->opt->hooks;
  for (int i = 0; i < I->nwarps && !I->fault; i++)
    if (!h || !h->want_warp || h->want_warp(h->ctx, I->block_linear, i, I->nwarps)) {
      Warp *w = &I->warps[i];
      w->stack = I->warps[0].stack;
      start_warp_context(I, w);
      resume(I, w);
    }
}

static void setup_block(Interp *I, int64_t bx, int64_t by, int64_t bz) {
  Launch *L = I->L;
  I->block_id[0] = bx;
  I->block_id[1] = by;
  I->block_id[2] = bz;
  I->block_linear = bx + L->grid[0] * (by + L->grid[1] * bz);
  memset(I->shared, I->opt->poison_shared ? 0xff : 0, I->shared_size);
  I->epoch++;
  I->async_pending = 0;
  for (int wi = 0; wi < I->nwarps; wi++) {
    Warp *w = &I->warps[wi];
    w->I = I;
    w->index = wi;
    w->valid = 0;
    w->steps = 0;
    w->state = WS_READY;
    w->npending = 0;
    memset(w->committed, 0, sizeof w->committed);
    for (int l = 0; l < W; l++) {
      int t = wi * W + l;
      w->linear_tid[l] = t < I->nthreads ? t : 0;
      if (t < I->nthreads) {
        w->valid |= 1u << l;
        w->tid[0][l] = (uint32_t)(t % L->block[0]);
        w->tid[1][l] = (uint32_t)((t / L->block[0]) % L->block[1]);
        w->tid[2][l] = (uint32_t)(t / (L->block[0] * L->block[1]));
      } else {
        w->tid[0][l] = w->tid[1][l] = w->tid[2][l] = 0;
      }
    }
  }
}

static size_t kernel_local_size(Program *p, bool host) {
  size_t max_frame = 16;
  for (Obj *f = p->funcs; f; f = f->next)
    if ((size_t)f->frame_size > max_frame) max_frame = (size_t)f->frame_size;
  size_t s =
    max_frame * 8 + 4096 + (size_t)16 * MAX_CALL_DEPTH; /* and MAX_CALL_DEPTH small frames */
  /* the host program is one thread: a C stack's worth (arrays in main's frame) */
  if (host) s = max_frame * 8 + ((size_t)8 << 20);
  return s < 16384 ? 16384 : s;
}

/* a warp stack with a guard page below it; NULL if it cannot be mapped */
static void *map_stack(Interp *I) {
  unsigned char *s = mmap(NULL, STACK_BYTES(I) + PAGE_BYTES, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (s == MAP_FAILED) return NULL;
  mprotect(s, PAGE_BYTES, PROT_NONE);
  return s + PAGE_BYTES;
}
static void unmap_stack(Interp *I, void *s) {
  if (!s) return;
  unpoison_stack(I, s); /* the next mapping there starts clean */
  munmap((unsigned char *)s - PAGE_BYTES, STACK_BYTES(I) + PAGE_BYTES);
}

/* The configuration against the machine's limits (CUDA's, common to every machine, are
 * launch_check_dims's); 0, or 2 after a diagnostic. */
static int check_config(Interp *I, const Machine *M) {
  Launch *L = I->L;
  SrcLoc at = L->where.file ? L->where : tok_loc(L->kernel->tok);
  if (launch_check_dims(L)) return 2;
  int64_t nthreads = L->block[0] * L->block[1] * L->block[2];
  if (nthreads > M->max_threads_per_block) {
    diag_at(DIAG_ERROR, at, "block of %lld threads: CUDA allows 1 to %d on the %s",
            (long long)nthreads, M->max_threads_per_block, M->long_name);
    return 2;
  }
  I->nthreads = (int)nthreads;
  I->nwarps = (I->nthreads + W - 1) / W;
  double total_warps = (double)L->grid[0] * (double)L->grid[1] * (double)L->grid[2] * I->nwarps;
  if (total_warps > (double)I->max_steps) {
    diag_at(
      DIAG_ERROR, at,
      "the launch has %.3g warps, more than the step limit (%llu) lets the interpreter run; use a smaller problem or raise --max-steps",
      total_warps, (unsigned long long)I->max_steps);
    return 2;
  }
  I->dyn_base = ((size_t)L->prog->shared_size + 15) & ~(size_t)15;
  if (L->kernel->has_extern_shared && L->dyn_shared == 0)
    diag_at(
      DIAG_WARNING, tok_loc(L->kernel->tok),
      "kernel '%s' declares extern __shared__ memory but the launch gives 0 bytes (use shared(BYTES))",
      L->kernel->name);
  int64_t limit = M->smem_per_block_optin;
  if (L->dyn_shared < 0 || L->dyn_shared > limit || (int64_t)I->dyn_base + L->dyn_shared > limit) {
    diag_at(DIAG_ERROR, tok_loc(L->kernel->tok),
            "block needs %lld bytes of shared memory; a block on the %s can have at most %lld",
            (long long)I->dyn_base + (long long)L->dyn_shared, M->long_name, (long long)limit);
    return 2;
  }
  I->shared_size = I->dyn_base + (size_t)L->dyn_shared;
  return 0;
}

static int alloc_interp(Interp *I) {
  Launch *L = I->L;
  size_t sh = I->shared_size + 1;
  I->shared = xmalloc(sh);
  I->w_epoch = xmalloc(sh * 4);
  I->r_epoch = xmalloc(sh * 4);
  I->w_warp = xmalloc(sh * 2);
  I->r_warp = xmalloc(sh * 2);
  I->w_node = xmalloc(sh * sizeof(Node *));
  I->r_node = xmalloc(sh * sizeof(Node *));
  I->local_size = kernel_local_size(L->prog, L->host_code);
  I->local = xmalloc(I->local_size * (size_t)I->nthreads);
  I->warps = xmalloc(sizeof(Warp) * (size_t)I->nwarps); /* zeroed: no pending copies */
  I->coroutines = (L->kernel->uses_barrier && I->nwarps > 1) || I->nblocks;
  /* warps that wait at barriers each keep a stack; others run one at a time on one */
  I->nstacks = I->coroutines ? I->nwarps : 1;
  for (int i = 0; i < I->nstacks; i++)
    if (!(I->warps[i].stack = map_stack(I))) {
      diag_at(DIAG_ERROR, tok_loc(L->kernel->tok), "cannot map a warp stack of %zu MiB",
              STACK_BYTES(I) >> 20);
      return 2;
    }
  return 0;
}

static void free_interp(Interp *I) {
  if (I->warps) {
    for (int i = 0; i < I->nstacks; i++) unmap_stack(I, I->warps[i].stack);
    for (int i = 0; i < I->nwarps; i++)
      for (int d = 0; d < I->warps[i].nframes; d++) {
        if (I->warps[i].frames[d]) free(I->warps[i].frames[d]->regs);
        free(I->warps[i].frames[d]);
      }
    for (int i = 0; i < I->nwarps; i++) {
      free(I->warps[i].frames);
      free(I->warps[i].reg_cap);
    }
    for (int i = 0; i < I->nwarps; i++) free(I->warps[i].pending);
  }
  free(I->warps);
  free(I->local);
  free(I->shared);
  free(I->w_epoch);
  free(I->r_epoch);
  free(I->w_warp);
  free(I->r_warp);
  free(I->w_node);
  free(I->r_node);
}

/* this thread's processor time: the slice (cut_seconds) is the interpreter's work, not the
 * machine's load */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *duration(double s) {
  if (s < 60) return fmt("%.0f s", s);
  if (s < 3600) return fmt("%.0f min %02.0f s", floor(s / 60), fmod(s, 60));
  return fmt("%.0f h %02.0f min", floor(s / 3600), fmod(s / 60, 60));
}

/* a line on the terminal, rewritten in place, for launches running over a second: blocks done,
 * the rate and the time left at that rate (final: erase it) */
static void progress(Interp *I, int64_t done, int64_t total, bool final) {
  if (!I->opt->progress) return;
  if (final) {
    if (I->progress_shown) fputs("\r\033[K", stderr);
    I->progress_shown = false;
    return;
  }
  double t = now_seconds(), el = t - I->t0;
  if (I->L->host_code || el < 1.0 || t - I->last_progress < 0.5 || !done) return;
  I->last_progress = t;
  I->progress_shown = true;
  double rate = (double)I->st->lane_ops / el / 1e6;
  fprintf(stderr, "\r\033[K%s: block %lld of %lld, %.0f M lane-ops/s, %s left", I->L->kernel->name,
          (long long)done, (long long)total, rate,
          duration(el * (double)(total - done) / (double)done));
  fflush(stderr);
}

static void block_save(const Interp *I, BlockCtx *b) {
  memcpy(b->block_id, I->block_id, sizeof b->block_id);
  b->block_linear = I->block_linear;
  b->warps = I->warps;
  b->shared = I->shared;
  b->local = I->local;
  b->w_epoch = I->w_epoch;
  b->r_epoch = I->r_epoch;
  b->w_warp = I->w_warp;
  b->r_warp = I->r_warp;
  b->w_node = I->w_node;
  b->r_node = I->r_node;
  b->async_pending = I->async_pending;
}
static void block_load(Interp *I, const BlockCtx *b) {
  memcpy(I->block_id, b->block_id, sizeof I->block_id);
  I->block_linear = b->block_linear;
  I->warps = b->warps;
  I->shared = b->shared;
  I->local = b->local;
  I->w_epoch = b->w_epoch;
  I->r_epoch = b->r_epoch;
  I->w_warp = b->w_warp;
  I->r_warp = b->r_warp;
  I->w_node = b->w_node;
  I->r_node = b->r_node;
  I->async_pending = b->async_pending;
}

/* A launch whose kernel has a grid-wide sync: every block is set up at once (each with its own
 * shared memory, race shadow and warp stacks), and the blocks take turns, each running until its
 * live warps all wait at the grid-wide sync or end; when every unfinished block waits there, all
 * are released together. A block that ends while others wait would hang the GPU: a fault. The
 * blocks' order within a turn is their linear order, so runs are repeatable. */
static void run_grid_together(Interp *I) {
  Launch *L = I->L;
  BlockCtx *B = I->blocks;
  for (int64_t b = 0; b < I->nblocks; b++) {
    block_load(I, &B[b]);
    setup_block(I, b % L->grid[0], b / L->grid[0] % L->grid[1], b / (L->grid[0] * L->grid[1]));
    for (int i = 0; i < I->nwarps; i++) start_warp_context(I, &I->warps[i]);
    block_save(I, &B[b]);
  }
  for (;;) {
    int64_t finished = 0, ended_now = -1;
    for (int64_t b = 0; b < I->nblocks && !I->fault; b++) {
      if (B[b].finished) {
        finished++;
        continue;
      }
      block_load(I, &B[b]);
      int parked = run_block_coroutines(I);
      block_save(I, &B[b]);
      if (!parked) {
        B[b].finished = true;
        finished++;
        I->st->blocks_run++;
        if (ended_now < 0) ended_now = b;
      }
    }
    if (finished == I->nblocks && !I->fault) return;
    if (!I->fault && finished) { /* some blocks wait at the grid-wide sync, others ended */
      int64_t e = ended_now >= 0 ? ended_now : 0;
      while (e < I->nblocks && !B[e].finished) e++;
      Node *at = NULL;
      for (int64_t b = 0; b < I->nblocks && !at; b++)
        for (int i = 0; i < I->nwarps && !B[b].finished && !at; i++)
          if (B[b].warps[i].state == WS_GRID) at = B[b].warps[i].barrier_at;
      I->fault = true;
      I->st->faults++;
      const char *msg = fmt(
        "grid-wide sync not reached by every block: block (%lld,%lld,%lld) ended while %lld blocks wait here (the GPU would hang)",
        (long long)B[e].block_id[0], (long long)B[e].block_id[1], (long long)B[e].block_id[2],
        (long long)(I->nblocks - finished));
      record_fault(I, FAULT_DIVERGENT_BARRIER, at, NULL, NULL, -1, msg);
      if (I->reports++ < (I->opt->max_reports ? I->opt->max_reports : 10))
        diag_at(DIAG_ERROR, tok_loc(at->tok), "%s", msg);
    }
    if (I->fault) { /* every block's suspended warps unwind */
      for (int64_t b = 0; b < I->nblocks; b++) {
        if (B[b].finished) continue;
        block_load(I, &B[b]);
        unwind_block(I);
        block_save(I, &B[b]);
      }
      return;
    }
    I->epoch++;
    for (int64_t b = 0; b < I->nblocks; b++)
      for (int i = 0; i < I->nwarps && !B[b].finished; i++)
        if (B[b].warps[i].state == WS_GRID) B[b].warps[i].state = WS_READY;
  }
}

static void run_blocks(Interp *I) {
  Launch *L = I->L;
  const Hooks *h = I->opt->hooks;
  int64_t total = L->grid[0] * L->grid[1] * L->grid[2], done = 0;
  for (int64_t bz = 0; bz < L->grid[2] && !I->fault; bz++)
    for (int64_t by = 0; by < L->grid[1] && !I->fault; by++)
      for (int64_t bx = 0; bx < L->grid[0] && !I->fault; bx++) {
        int64_t lin = bx + L->grid[0] * (by + L->grid[1] * bz);
        if (h && h->want_block && !h->want_block(h->ctx, lin)) continue;
        setup_block(I, bx, by, bz);
        if (I->coroutines) {
          for (int i = 0; i < I->nwarps; i++) start_warp_context(I, &I->warps[i]);
          run_block_coroutines(I);
        } else run_block_plain(I);
        I->st->blocks_run++;
        if (!I->fault) progress(I, ++done, total, false);
        if (I->opt->cut_seconds > 0 && !I->fault && done < total &&
            cpu_seconds() - I->cpu0 > I->opt->cut_seconds) {
          I->st->cut = I->stopped = I->fault = true; /* quiet: the caller runs it another way */
          break;
        }
      }
  progress(I, done, total, true);
}

uint64_t launch_step_limit(const Launch *L, uint64_t given) {
  if (given) return given;
  if (L->host_code) return 100000000000ull;
  double warps = (double)L->grid[0] * (double)L->grid[1] * (double)L->grid[2] *
                 (double)((L->block[0] * L->block[1] * L->block[2] + W - 1) / W);
  double scaled = warps * 1e6;
  return scaled > 2e9 ? (scaled < 1.8e19 ? (uint64_t)scaled : UINT64_MAX) : 2000000000ull;
}

int interp_run(Launch *L, const RunOptions *opt, RunStats *st) {
  static const RunOptions defaults;
  if (!opt) opt = &defaults;
  memset(st, 0, sizeof *st);
  Interp I = {0};
  I.L = L;
  I.opt = opt;
  I.st = st;
  I.max_steps = launch_step_limit(L, opt->max_steps);
  I.host = L->host_code;
  I.world = L->world != NULL;
  st->step_limit = I.max_steps;
  const Machine *M = L->machine ? L->machine : machine_find("h100");
  if (check_config(&I, M)) return 2;
  int64_t nblocks = L->grid[0] * L->grid[1] * L->grid[2];
  if (L->kernel->uses_grid_sync && nblocks > 1 && !L->host_code) {
    if (nblocks * I.nwarps > GRID_SYNC_MAX_WARPS) {
      diag_at(DIAG_ERROR, L->where.file ? L->where : tok_loc(L->kernel->tok),
              "unsupported: kernel '%s' has a grid-wide sync and the launch %lld warps: carve "
              "runs the blocks of such a launch together and holds at most %d warps",
              L->kernel->name, (long long)(nblocks * I.nwarps), GRID_SYNC_MAX_WARPS);
      return 2;
    }
    I.nblocks = nblocks;
    I.blocks = xmalloc((size_t)nblocks * sizeof(BlockCtx)); /* zeroed */
  }
  int failed = 0;
  for (int64_t b = 0; b < (I.nblocks ? I.nblocks : 1) && !failed; b++) {
    failed = alloc_interp(&I);
    if (I.nblocks) {
      block_save(&I, &I.blocks[b]);
      I.blocks[b].finished = failed != 0;
      if (failed) I.nblocks = b + 1; /* what free_interp must free */
    }
  }
  I.t0 = I.last_progress = now_seconds();
  if (opt->cut_seconds > 0) I.cpu0 = cpu_seconds();
  if (!failed) {
    if (I.nblocks) run_grid_together(&I);
    else run_blocks(&I);
  }
  st->seconds = now_seconds() - I.t0;
  for (int64_t b = 0; b < (I.nblocks ? I.nblocks : 1); b++) {
    if (I.nblocks) block_load(&I, &I.blocks[b]);
    free_interp(&I);
  }
  free(I.blocks);
  if (failed) return 2;
  if (I.reports > 10) diag_at(DIAG_NOTE, (SrcLoc){0}, "%d more faults not shown", I.reports - 10);
  if (st->async_unwaited && !I.fault && !I.stopped)
    diag_at(
      DIAG_WARNING, tok_loc(I.async_unwaited_at->tok),
      "%llu async cop%s (__pipeline_memcpy_async, the first issued here) never waited for by %s thread: %s data never arrives "
      "(carve performs a copy at the __pipeline_wait_prior that covers it; on the GPU when it lands is undefined)",
      (unsigned long long)st->async_unwaited, st->async_unwaited == 1 ? "y" : "ies",
      st->async_unwaited == 1 ? "its" : "their", st->async_unwaited == 1 ? "its" : "their");
  return I.stopped ? 2 : I.fault ? 1 : 0;
}
