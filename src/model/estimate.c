/* estimate: resources, occupancy, waves, the instruction mix, loops, the time estimate and the
 * roofline of one launch, gathered into an EstimateResult (printed by src/report/). */
#include "estimate.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  Program *p;
  Obj *k;
  const LaunchOverrides *ov;
  const Machine *m;
  const EstimateOptions *o;
  EstimateResult *r;
  Launch L; /* freed by estimate_kernel, whatever happened */
  Counts cn;
  Analysis an;
} Work;

/* registers, shared memory, spills: --regs, else ptxas (NVRTC or nvcc) for sm_70 and later */
static void resources(Work *w) {
  EstimateResult *r = w->r;
  const Machine *m = w->m;
  r->res = (Resources){.instructions = -1};
  if (w->o->regs > 0) {
    r->res.known = true;
    r->res.regs = w->o->regs;
    r->res.smem = kernel_static_shared(w->k);
  } else if (m->cc_major >= 7)
    r->res = kernel_resources(w->p, w->k, fmt("sm_%d%d", m->cc_major, m->cc_minor));
  else
    snprintf(r->res.why, sizeof r->res.why,
             "NVRTC cannot compile for compute capability %d.%d: give --regs", m->cc_major,
             m->cc_minor);
  r->compiler = w->o->regs > 0 ? "--regs" : r->res.via_nvcc ? "nvcc" : "nvrtc";
}

static void occupancy_and_waves(Work *w) {
  EstimateResult *r = w->r;
  const Machine *m = w->m;
  Launch *L = &w->L;
  r->threads = (int)(L->block[0] * L->block[1] * L->block[2]);
  r->smem = (r->res.known ? r->res.smem : kernel_static_shared(w->k)) + (int)L->dyn_shared;
  r->oc = occupancy(m, r->threads, r->res.known ? r->res.regs : 0, r->smem);
  r->blocks = L->grid[0] * L->grid[1] * L->grid[2];
  r->per_wave = (int64_t)r->oc.blocks_per_sm * m->sm_count;
  int64_t per_wave = r->per_wave,
          last = per_wave && r->blocks % per_wave ? r->blocks % per_wave : per_wave;
  r->waves = per_wave ? (double)r->blocks / (double)per_wave : 0;
  r->tail = per_wave ? (double)last / (double)per_wave : 0;
}

static void counts_and_loops(Work *w) {
  EstimateResult *r = w->r;
  const Counts *cn = &w->cn;
  r->threads_sampled = cn->threads_sampled;
  r->truncated = cn->truncated;
  for (int i = 0; i < CL_N; i++) {
    r->lanes[i] = cn->lanes[i];
    r->per_thread[i] = cn->threads_sampled > 0 ? cn->lanes[i] / cn->threads_sampled : 0.0;
  }
  r->nloops = cn->nloops;
  for (int i = 0; i < cn->nloops; i++) {
    const struct LoopCount *lc = &cn->loops[i];
    EstimateLoop *l = &r->loops[i];
    l->line = tok_loc(lc->loop->tok).line;
    l->entries_per_thread = lc->entries / cn->threads_sampled;
    l->iterations_per_entry = lc->iterations / lc->entries;
    l->unroll = lc->unroll;
    l->static_trip = lc->static_trip;
    l->unrolled = lc->static_trip >= 0 && lc->unroll >= (double)lc->static_trip ? UNROLL_FULL
                  : lc->unroll > 1                                              ? UNROLL_PARTIAL
                                                                                : UNROLL_NONE;
  }
}

/* the roofline: the declared (or counted) work at the machine's ceilings */
static void roofline(Work *w, const Ceilings *ce) {
  EstimateResult *r = w->r;
  LaunchSpec *spec = find_spec(w->p, w->k->name);
  bool declared = spec && spec->flops > 0;
  double ts = w->cn.threads_sampled > 0 ? w->cn.threads_sampled : 1;
  double flops = declared ? spec->flops : 2.0 * w->cn.lanes[CL_FP32] / ts * r->e.threads;
  double t_mem = r->e.dram_min_bytes / (ce->dram_gbps * 1e9),
         t_flop = flops / (ce->fp32_gflops * 1e9);
  r->roofline = t_mem > t_flop ? t_mem : t_flop;
  r->roofline_by = t_mem > t_flop ? "DRAM: every buffer once"
                   : declared     ? "FP32: the declared flops"
                                  : "FP32: counted operations";
  r->vs_roofline = r->e.total / r->roofline;
}

static void estimate_in_arena(Work *w) {
  EstimateResult *r = w->r;
  r->file = arena_strdup(w->p->path ? w->p->path : "");
  r->kernel = arena_strdup(w->k->name);
  r->m = w->m;
  if (launch_prepare(&w->L, w->p, w->k, w->ov)) {
    r->status = 2;
    return;
  }
  w->L.machine = w->m; /* the machine's limits apply to the counting run */
  resources(w);
  occupancy_and_waves(w);
  Ceilings ce = w->o->ceilings ? *w->o->ceilings : ceilings_for(w->m, NULL);
  r->ceilings_source = ce.source;
  /* dynamic counts and traffic, from the interpreter on sampled blocks */
  int rc = count_instructions(&w->L, &w->cn, 2);
  if (!rc) rc = analyze(&w->an, &w->L, w->m, NULL);
  if (rc) {
    r->status = rc;
    return;
  }
  counts_and_loops(w);
  r->e = estimate_time(&w->L, w->m, &w->cn, &w->an, r->oc, ce);
  r->cz = cumapz_factors(&w->an, w->m, r->oc);
  roofline(w, &ce);
  r->status = 0;
}

static void estimate_work(void *ud) {
  Work *w = ud;
  w->r->arena = arena_new();
  Arena *prev = arena_enter(w->r->arena);
  estimate_in_arena(w);
  arena_enter(prev);
}

int estimate_kernel(Program *p, Obj *k, const LaunchOverrides *ov, const Machine *m,
                    const EstimateOptions *o, EstimateResult *r) {
  memset(r, 0, sizeof *r);
  r->status = 2;
  EstimateOptions none = {0};
  Work w = {.p = p, .k = k, .ov = ov, .m = m, .o = o ? o : &none, .r = r};
  /* an error raised inside (out of memory, a named limit) costs this estimate, not the caller */
  if (!carve_pcall(estimate_work, &w)) r->status = 2;
  analysis_free(&w.an);
  counts_free(&w.cn);
  launch_free(&w.L);
  return r->status;
}

void estimate_free(EstimateResult *r) {
  arena_delete(r->arena);
  r->arena = NULL;
}

Ranking estimate_rank(const EstimateResult *rs, int n) {
  Ranking rk = {xmalloc(sizeof(RankEntry) * (size_t)(n > 0 ? n : 1)), n};
  for (int i = 0; i < n; i++) {
    int j = i;
    /* insertion: equal times keep the order given */
    for (; j > 0 && rs[i].e.total < rk.e[j - 1].r->e.total; j--) rk.e[j] = rk.e[j - 1];
    rk.e[j] = (RankEntry){.r = &rs[i]};
  }
  for (int i = 0; i < n; i++) {
    rk.e[i].vs_best = rk.e[i].r->e.total / rk.e[0].r->e.total;
    rk.e[i].close = rk.e[i].r->e.total < rk.e[0].r->e.total * 1.05;
  }
  return rk;
}

void ranking_free(Ranking *rk) {
  free(rk->e);
  rk->e = NULL;
  rk->n = 0;
}
