/* analyze: run sampled blocks of a launch in the interpreter and measure, for every memory
 * instruction and branch, what the hardware will do: 32-byte sectors per global request (sm_90
 * rule), shared-memory wavefronts (bank conflicts, 64/128-bit phases), divergence, reuse; then
 * turn the numbers into findings (Cornelis's catalogue) with the cost and the remedy. */
#include "analysis.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small set of addresses, for distinct elements per block ---- */
typedef struct {
  uint64_t *k;
  size_t cap, n;
} Set;
static bool set_add(Set *s, uint64_t key) {
  if ((s->n + 1) * 2 > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 1024;
    uint64_t *k = xmalloc(cap * sizeof *k);
    for (size_t i = 0; i < s->cap; i++)
      if (s->k[i]) {
        size_t h = (s->k[i] * 0x9E3779B97F4A7C15ull) >> 20 & (cap - 1);
        while (k[h]) h = (h + 1) & (cap - 1);
        k[h] = s->k[i];
      }
    free(s->k);
    s->k = k;
    s->cap = cap;
  }
  key |= 1ull << 63; /* never 0 */
  size_t h = (key * 0x9E3779B97F4A7C15ull) >> 20 & (s->cap - 1);
  while (s->k[h]) {
    if (s->k[h] == key) return false;
    h = (h + 1) & (s->cap - 1);
  }
  s->k[h] = key;
  s->n++;
  return true;
}
static void set_clear(Set *s) {
  if (s->k) memset(s->k, 0, s->cap * sizeof *s->k);
  s->n = 0;
}

/* ---- L1 over a block: LRU stack distances on the warps' common clock ----
 * Each warp's loads are numbered (its steps): the warps of a block start together and run the
 * same code at about the same rate, so their steps are a common clock whatever order the
 * interpreter ran them in. At the block's end its sector loads, ordered by step (then warp),
 * are one trace; each load's stack distance (the distinct sectors loaded since the last load of
 * its sector, by any warp of the block) is what an LRU L1 must hold for it to hit. The model
 * decides what fits (metrics.c l1_miss_ratio). */
typedef struct {
  uint64_t sector;
  uint32_t step, seq;
  int warp;
} Touch;
typedef struct {
  Set sec[32];
  uint32_t step[32]; /* per warp: the sectors it loaded (warp_sectors), its steps */
  Touch *t;
  size_t n, cap; /* every sector load, when recording */
  bool record;
} BlockL1;

/* addresses of a warp are short and usually ascending: insertion sort beats qsort here */
static void sort_u64(uint64_t *v, int n) {
  for (int i = 1; i < n; i++) {
    uint64_t x = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = x;
  }
}

/* the active lanes' distinct addresses, sorted, into e (32 at most); their count */
static int request_addresses(const uint64_t *addr, Mask m, uint64_t e[32]) {
  int n = 0, d = 0;
  for (int l = 0; l < 32; l++)
    if (m >> l & 1) e[n++] = addr[l];
  sort_u64(e, n);
  for (int i = 0; i < n; i++)
    if (!i || e[i] != e[i - 1]) e[d++] = e[i];
  return d;
}

/* the 32-byte sectors a request of `size`-byte accesses at the sorted distinct addresses e
 * touches, each once, ascending (sorted addresses give non-decreasing sectors); their count */
static int request_sectors(const uint64_t *e, int d, int size, uint64_t *xs, int max) {
  int nx = 0;
  for (int i = 0; i < d; i++)
    for (uint64_t x = e[i] >> 5; x <= (e[i] + (uint64_t)size - 1) >> 5; x++)
      if (!nx || x != xs[nx - 1]) {
        if (nx == max) return nx;
        xs[nx++] = x;
      }
  return nx;
}

static void l1_load(BlockL1 *b, int warp, const uint64_t *addr, Mask m, int size) {
  if (warp < 0 || warp >= 32) return;
  uint32_t step = b->step[warp]++;
  uint64_t e[32], small[256], *xs = small;
  int need = 32 * ((size + 31) / 32 + 1);
  if (need > 256) xs = xmalloc(sizeof *xs * (size_t)need);
  int nx = request_sectors(e, request_addresses(addr, m, e), size, xs, need > 256 ? need : 256);
  for (int i = 0; i < nx; i++) {
    set_add(&b->sec[warp], xs[i]);
    if (!b->record) continue;
    if (b->n == b->cap) {
      b->cap = b->cap ? 2 * b->cap : 4096;
      b->t = xrealloc(b->t, b->cap * sizeof *b->t);
    }
    b->t[b->n] = (Touch){xs[i], step, (uint32_t)b->n, warp};
    b->n++;
  }
  if (xs != small) free(xs);
}

static int touch_cmp(const void *x, const void *y) {
  const Touch *a = x, *b = y;
  if (a->step != b->step) return a->step < b->step ? -1 : 1;
  if (a->warp != b->warp) return a->warp < b->warp ? -1 : 1;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

/* the bucket of a distance in bytes: the least k with bytes <= 2^k */
static int byte_bucket(double bytes) {
  int k = 0;
  while (k < L1_SHARE_BUCKETS - 1 && (double)(1ull << k) < bytes) k++;
  return k;
}

/* loads of one sector next to each other, in trace order */
static int by_sector(const void *x, const void *y) {
  const Touch *a = x, *b = y;
  if (a->sector != b->sector) return a->sector < b->sector ? -1 : 1;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

/* stack distances of the block's trace (Bennett and Kruskal's counting: a Fenwick tree marks
 * the position of each sector's latest load; the marks between two loads of a sector are the
 * distinct sectors in between) into a; the per-warp distinct sectors added to *warp_sectors
 * (when given); the state cleared for the next block */
static void l1_fold(BlockL1 *b, Analysis *a, double *warp_sectors) {
  for (int w = 0; w < 32; w++) {
    if (warp_sectors) *warp_sectors += (double)b->sec[w].n;
    if (b->record) a->l1_first += (double)b->sec[w].n;
  }
  if (b->record && b->n) {
    size_t n = b->n;
    qsort(b->t, n, sizeof *b->t, touch_cmp);
    /* each load's previous load of its sector (1-based position, 0: none), from a copy sorted
     * by sector with the trace position as seq */
    size_t *prev = xmalloc(n * sizeof *prev);
    Touch *s = xmalloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++) {
      s[i] = b->t[i];
      s[i].seq = (uint32_t)i;
    }
    qsort(s, n, sizeof *s, by_sector);
    for (size_t i = 0; i < n; i++)
      prev[s[i].seq] = i && s[i - 1].sector == s[i].sector ? s[i - 1].seq + 1 : 0;
    free(s);
    int64_t *bit = xmalloc((n + 1) * sizeof *bit);
    memset(bit, 0, (n + 1) * sizeof *bit);
    for (size_t i = 0; i < n; i++) {
      size_t p = prev[i];
      a->l1_loads += 1;
      if (p) {
        int64_t between = 0;
        for (size_t j = i; j > 0; j -= j & -j) between += bit[j];
        for (size_t j = p; j > 0; j -= j & -j) between -= bit[j];
        a->l1_reuse[byte_bucket((double)between * 32.0)] += 1;
        for (size_t j = p; j <= n; j += j & -j) bit[j]--;
      } else {
        a->l1_cold += 1;
      }
      for (size_t j = i + 1; j <= n; j += j & -j) bit[j]++;
    }
    free(bit);
    free(prev);
  }
  b->n = 0;
  for (int w = 0; w < 32; w++) {
    set_clear(&b->sec[w]);
    b->step[w] = 0;
  }
}

static void l1_free(BlockL1 *b) {
  for (int w = 0; w < 32; w++) free(b->sec[w].k);
  free(b->t);
}

typedef struct {
  Analysis *a;
  int *acc_of; /* node id -> index in a->acc, -1 */
  int *br_of;
  Set *seen; /* per access: elements seen in the current block */
  int64_t cur_block;
  int64_t *blocks;
  int nblocks;
  BlockL1 l1; /* per warp of the current block: the global sectors it loaded */
  /* global atomics: warp-requests per 128-byte line, and which sampled blocks sent them */
  uint64_t *aline;
  uint32_t *acount;
  uint64_t *ablocks, *awarps;
  int *aacc;
  size_t acap, an;
  int cur_ordinal;
} Ctx;

/* one more atomic warp-request on `line` from sampled block number `ordinal` */
static void atomic_line_add(Ctx *c, uint64_t line, int ordinal, int warp, int acc) {
  if (c->an * 2 >= c->acap) {
    size_t ncap = c->acap ? 2 * c->acap : 256;
    uint64_t *nl = xmalloc(ncap * sizeof *nl), *nb = xmalloc(ncap * sizeof *nb),
             *nw = xmalloc(ncap * sizeof *nw);
    uint32_t *nc = xmalloc(ncap * sizeof *nc);
    int *na = xmalloc(ncap * sizeof *na);
    for (size_t i = 0; i < c->acap; i++) {
      if (!c->aline[i]) continue;
      size_t h = (c->aline[i] * 0x9E3779B97F4A7C15ull) >> 20 & (ncap - 1);
      while (nl[h]) h = (h + 1) & (ncap - 1);
      nl[h] = c->aline[i];
      nc[h] = c->acount[i];
      nb[h] = c->ablocks[i];
      nw[h] = c->awarps[i];
      na[h] = c->aacc[i];
    }
    free(c->aline);
    free(c->acount);
    free(c->ablocks);
    free(c->awarps);
    free(c->aacc);
    c->aline = nl;
    c->acount = nc;
    c->ablocks = nb;
    c->awarps = nw;
    c->aacc = na;
    c->acap = ncap;
  }
  uint64_t key = line | 1ull << 63;
  size_t h = (key * 0x9E3779B97F4A7C15ull) >> 20 & (c->acap - 1);
  while (c->aline[h] && c->aline[h] != key) h = (h + 1) & (c->acap - 1);
  if (!c->aline[h]) {
    c->aline[h] = key;
    c->an++;
  }
  c->acount[h]++;
  c->ablocks[h] |= 1ull << (ordinal & 63);
  c->awarps[h] |= 1ull << (warp & 63);
  c->aacc[h] = acc;
}

static const char *expr_text(Node *n) {
  while (n->kind == ND_CAST && n->implicit) n = n->lhs;
  Buf b = {0};
  print_expr(&b, n);
  char *s = arena_strdup(b.s ? b.s : "?");
  buf_free(&b);
  return s;
}

static Node *array_base(Node *n) {
  while (n->kind == ND_INDEX) {
    Node *l = n->lhs;
    while (l->kind == ND_CAST && l->implicit) l = l->lhs;
    n = l;
  }
  return n;
}

/* the affine form and stride of an access at element e */
static void stat_form(const Facts *f, Node *e, AccessStat *s) {
  Affine form = facts_index_form(f, e, &s->indirect);
  if (!form.ok) return;
  s->index = affine_text(&form);
  s->have_stride = affine_x_stride(&form, &s->stride);
  if (!s->have_stride) s->stride_text = affine_x_stride_text(&form);
}

/* __pipeline_memcpy_async(dst, src, ...) is a global load from its source and a shared store to
 * its destination at one node: each is described by its own operand, &a[i] by a's element i */
static void async_copy_stat(const Facts *f, Node *call, AccessKind kind, AccessStat *s) {
  Node *p = kind == ACC_LOAD ? call->args->next : call->args;
  while (p->kind == ND_CAST) p = p->lhs;
  s->array = expr_text(p);
  if (p->kind == ND_ADDR && p->lhs->kind == ND_INDEX) {
    s->array = expr_text(array_base(p->lhs));
    stat_form(f, p->lhs, s);
  } else s->indirect = facts_reads_memory(f, p);
}

static AccessStat *stat_for(Ctx *c, Node *at, int space, AccessKind kind, int size) {
  Analysis *a = c->a;
  /* one statistic per node and kind: "c[i] += x" is a load and a store at one node */
  int slot = at->id * 3 + (int)kind;
  int i = c->acc_of[slot];
  if (i >= 0) return &a->acc[i];
  a->acc = xrealloc(a->acc, sizeof(AccessStat) * (size_t)(a->nacc + 1));
  c->seen = xrealloc(c->seen, sizeof(Set) * (size_t)(a->nacc + 1));
  memset(&c->seen[a->nacc], 0, sizeof(Set));
  AccessStat *s = &a->acc[a->nacc];
  memset(s, 0, sizeof *s);
  c->acc_of[slot] = a->nacc++;
  s->node = at;
  s->space = space;
  s->kind = kind;
  s->size = size;
  s->min_units = UINT64_MAX;
  const Facts *f = a->facts;
  if (at->kind == ND_CALL && at->builtin == BI_PIPE_COPY) {
    async_copy_stat(f, at, kind, s);
    return s;
  }
  if (at->kind == ND_INDEX) s->array = expr_text(array_base(at));
  else if (at->kind == ND_DEREF) s->array = expr_text(at->lhs);
  else if (at->kind == ND_DECL) s->array = at->decl_init ? expr_text(at->decl_init) : at->var->name;
  else if (at->kind == ND_CALL && at->args) s->array = expr_text(at->args);
  else s->array = expr_text(at);
  /* the index's affine form: the facts have every access the source makes (a member's index
   * counts whole structs, not the lanes' words: its stride is left to the addresses) */
  const Access *ac = facts_access_at(f, at);
  Affine form = {.ok = false};
  if (ac) {
    s->indirect = ac->indirect;
    if (at->kind != ND_MEMBER) form = ac->index;
  } else if (at->kind == ND_INDEX) form = facts_index_form(f, at, &s->indirect);
  else if (at->kind == ND_DEREF) s->indirect = facts_reads_memory(f, at->lhs);
  else if (at->kind == ND_CALL && at->args) s->indirect = facts_reads_memory(f, at->args);
  if (form.ok) {
    s->index = affine_text(&form);
    s->have_stride = affine_x_stride(&form, &s->stride);
    if (!s->have_stride) s->stride_text = affine_x_stride_text(&form);
  }
  return s;
}

/* cc 1.0/1.1 (G80): a half-warp is one transaction only when thread k reads word k of an aligned
 * segment; otherwise one transaction per thread */
static uint64_t cc10_transactions(const uint64_t *addr, Mask m, int size, uint64_t *bytes) {
  uint64_t t = 0;
  *bytes = 0;
  for (int h = 0; h < 32; h += 16) {
    Mask hm = (m >> h) & 0xffff;
    if (!hm) continue;
    int first = __builtin_ctz(hm) + h;
    uint64_t base = addr[first] - (uint64_t)(first - h) * (uint64_t)size;
    bool ok = (size == 4 || size == 8 || size == 16) && base % (uint64_t)(16 * size) == 0;
    for (int l = h; l < h + 16 && ok; l++)
      if ((m >> l & 1) && addr[l] != base + (uint64_t)(l - h) * (uint64_t)size) ok = false;
    if (ok) {
      int n = size == 16 ? 2 : 1;
      t += (uint64_t)n;
      *bytes += (uint64_t)(16 * size);
    } else {
      int n = __builtin_popcount(hm);
      t += (uint64_t)n;
      *bytes += (uint64_t)n * (uint64_t)(size < 32 ? 32 : size);
    }
  }
  return t;
}

/* cc 1.2/1.3 (GT200): per half-warp, the segment of the lowest active thread (32/64/128 B for
 * 1/2/4+-byte words), shrunk to the half actually used, then the next, until all are served */
static uint64_t cc12_transactions(const uint64_t *addr, Mask m, int size, uint64_t *bytes) {
  uint64_t t = 0;
  *bytes = 0;
  uint64_t seg = size == 1 ? 32 : size == 2 ? 64 : 128;
  for (int h = 0; h < 32; h += 16) {
    Mask left = (m >> h) & 0xffff;
    while (left) {
      int first = __builtin_ctz(left) + h;
      uint64_t s0 = addr[first] / seg * seg, lo = UINT64_MAX, hi = 0;
      for (int l = h; l < h + 16; l++) {
        if (!(left >> (l - h) & 1)) continue;
        if (addr[l] / seg * seg != s0) continue;
        if (addr[l] < lo) lo = addr[l];
        if (addr[l] + (uint64_t)size > hi) hi = addr[l] + (uint64_t)size;
        left &= ~(1u << (l - h));
      }
      uint64_t len = seg;
      while (len > 32 && (lo / (len / 2)) == ((hi - 1) / (len / 2))) len /= 2;
      t++;
      *bytes += len;
    }
  }
  return t;
}

/* sm_90 shared memory: 32 banks of 4 bytes; 64-bit accesses are served per half-warp and
 * 128-bit ones per quarter-warp; within a phase the cost is the largest number of distinct
 * words any bank must deliver (one word to many lanes is a broadcast) */
static uint64_t shared_wavefronts(const uint64_t *addr, Mask m, int size, uint64_t *ideal,
                                  const Machine *mc) {
  /* cc 1.x: 16 banks, conflicts counted per half-warp */
  int banks = mc && mc->smem_banks ? mc->smem_banks : 32;
  int per_phase = mc && mc->smem_conflict_threads == 16 ? 16 : size <= 4 ? 32 : size == 8 ? 16 : 8;
  uint64_t total = 0;
  *ideal = 0;
  for (int p = 0; p < 32; p += per_phase) {
    uint64_t words[32 * 4];
    int n = 0;
    for (int l = p; l < p + per_phase; l++) {
      if (!(m >> l & 1)) continue;
      uint64_t off = addr[l] & ((1ull << 40) - 1);
      for (uint64_t w = off >> 2; w <= (off + (uint64_t)size - 1) >> 2 && n < 128; w++)
        words[n++] = w;
    }
    if (!n) continue;
    sort_u64(words, n);
    int count[32] = {0}, worst = 0;
    for (int i = 0; i < n; i++) {
      if (i && words[i] == words[i - 1]) continue;
      int b = (int)(words[i] % (uint64_t)banks);
      if (++count[b] > worst) worst = count[b];
    }
    total += (uint64_t)worst;
    (*ideal)++;
  }
  return total;
}

static void on_access(void *ctx, Node *at, int space, AccessKind kind, int size,
                      const uint64_t *addr, Mask m, int64_t blk, int warp) {
  Ctx *c = ctx;
  if (space != SPACE_GLOBAL && space != SPACE_SHARED) return;
  AccessStat *s = stat_for(c, at, space, kind, size);
  int idx = (int)(s - c->a->acc);
  if (blk != c->cur_block) {
    /* a new block: fold the per-block distinct counts */
    for (int i = 0; i < c->a->nacc; i++) {
      if (c->seen[i].n) {
        c->a->acc[i].distinct += c->seen[i].n;
        c->a->acc[i].blocks++;
      }
      set_clear(&c->seen[i]);
    }
    l1_fold(&c->l1, c->a, &c->a->warp_sectors);
    c->cur_block = blk;
    c->cur_ordinal++;
  }
  if (space == SPACE_GLOBAL && kind == ACC_ATOMIC) {
    uint64_t last = UINT64_MAX;
    uint64_t lines[32];
    int nl = 0;
    for (int l = 0; l < 32; l++)
      if (m >> l & 1) lines[nl++] = addr[l] >> 7;
    sort_u64(lines, nl);
    for (int i = 0; i < nl; i++)
      if (lines[i] != last) {
        atomic_line_add(c, lines[i], c->cur_ordinal, warp, idx);
        last = lines[i];
      }
  }
  /* loads that L1 may serve again; stores write through to L2 and are counted per request */
  if (space == SPACE_GLOBAL && kind != ACC_STORE) l1_load(&c->l1, warp, addr, m, size);
  /* the active lanes' addresses, sorted once: distinct elements, sectors and the reuse set */
  uint64_t e[32];
  int d = request_addresses(addr, m, e);
  uint64_t units, ideal = 0, moved = 0;
  const Machine *mc = c->a->m;
  if (space == SPACE_GLOBAL) {
    if (mc && mc->partition_map == PARTMAP_LINEAR && mc->mem_partitions > 0 &&
        mc->mem_partitions <= 16) {
      /* which partition each half-warp's segment falls in (CuMAPz's channel skew) */
      for (int h = 0; h < 32; h += 16) {
        Mask hm = (m >> h) & 0xffff;
        if (hm)
          s->part[(addr[__builtin_ctz(hm) + h] & ((1ull << 40) - 1)) /
                  (uint64_t)mc->mem_partition_bytes % (uint64_t)mc->mem_partitions]++;
      }
    }
    if (mc && mc->mem_rule == MEMRULE_CC10) units = cc10_transactions(addr, m, size, &moved);
    else if (mc && mc->mem_rule == MEMRULE_CC12) units = cc12_transactions(addr, m, size, &moved);
    else {
      uint64_t small[256], *xs = small, last_line = UINT64_MAX;
      int need = 32 * ((size + 31) / 32 + 1);
      if (need > 256) xs = xmalloc(sizeof *xs * (size_t)need);
      units = (uint64_t)request_sectors(e, d, size, xs, need > 256 ? need : 256);
      for (uint64_t i = 0; i < units; i++)
        if (xs[i] >> 2 != last_line) {
          s->lines++;
          last_line = xs[i] >> 2;
        }
      if (xs != small) free(xs);
      moved = units * 32;
    }
    s->moved += moved;
  } else {
    units = shared_wavefronts(addr, m, size, &ideal, mc);
  }
  s->requests++;
  s->lanes += (uint64_t)__builtin_popcount(m);
  s->used += (uint64_t)d * (uint64_t)size;
  {
    uint64_t is = ((uint64_t)d * (uint64_t)size + 31) / 32;
    s->ideal_sectors += is ? is : 1;
  }
  if (space == SPACE_GLOBAL) s->sectors += units;
  else {
    s->wavefronts += units;
    s->ideal += ideal;
  }
  if (units < s->min_units) s->min_units = units;
  if (units > s->max_units) s->max_units = units;
  if (kind == ACC_LOAD)
    for (int i = 0; i < d; i++) set_add(&c->seen[idx], e[i]);
  if (!s->have_stride && s->requests == 1 && !s->index) {
    /* the stride this warp shows between neighbouring lanes, when it is regular */
    int prev = -1;
    int64_t st = 0;
    bool regular = true, any = false;
    for (int l = 0; l < 32; l++) {
      if (!(m >> l & 1)) continue;
      if (prev >= 0 && c->a->L->block[0] >= 32) {
        int64_t d = (int64_t)(addr[l] - addr[prev]) / size / (l - prev);
        if (any && d != st) regular = false;
        st = d;
        any = true;
      }
      prev = l;
    }
    if (any && regular) {
      s->stride = st;
      s->have_stride = true;
    }
  }
}

static void on_branch(void *ctx, Node *at, Mask active, Mask taken, int64_t blk, int warp) {
  Ctx *c = ctx;
  Analysis *a = c->a;
  int i = c->br_of[at->id];
  if (i < 0) {
    a->br = xrealloc(a->br, sizeof(BranchStat) * (size_t)(a->nbr + 1));
    i = c->br_of[at->id] = a->nbr++;
    memset(&a->br[i], 0, sizeof(BranchStat));
    a->br[i].node = at;
    Node *cond = at->kind == ND_LOGAND || at->kind == ND_LOGOR ? at->lhs : at->cond;
    a->br[i].thread_dependent = facts_thread_dependent(a->facts, cond);
  }
  BranchStat *b = &a->br[i];
  b->evals++;
  b->active += (uint64_t)__builtin_popcount(active);
  b->taken += (uint64_t)__builtin_popcount(taken);
  if (taken && taken != active) b->divergent++;
}

/* within a block: the first, a middle and the last warp (when the kernel has no barriers) */
static bool want_warp(void *ctx, int64_t b, int w, int nwarps) {
  (void)ctx;
  (void)b;
  return w == 0 || w == nwarps - 1 || w == nwarps / 2;
}

static bool want(void *ctx, int64_t b) {
  Ctx *c = ctx;
  for (int i = 0; i < c->nblocks; i++)
    if (c->blocks[i] == b) return true;
  return false;
}

/* ---- reuse over a whole block: block 0 with every warp, loads only, quietly ---- */
typedef struct {
  Analysis *a;
  const int *acc_of;
  Set *seen;
  uint64_t *lanes;
  BlockL1 l1;
} ReuseCtx;

static void on_reuse_access(void *ctx, Node *at, int space, AccessKind kind, int size,
                            const uint64_t *addr, Mask m, int64_t blk, int warp) {
  ReuseCtx *r = ctx;
  if (kind == ACC_STORE || (space != SPACE_GLOBAL && space != SPACE_SHARED)) return;
  if (space == SPACE_GLOBAL) l1_load(&r->l1, warp, addr, m, size);
  if (kind != ACC_LOAD) return;
  int slot = at->id * 3 + (int)kind, i = r->acc_of[slot];
  if (i < 0) return; /* not an access the sampled run measured */
  for (int l = 0; l < 32; l++)
    if (m >> l & 1) {
      set_add(&r->seen[i], addr[l]);
      r->lanes[i]++;
    }
}

static bool want_block0(void *ctx, int64_t b) {
  (void)ctx;
  return b == 0;
}

/* Reads per element within a block, from a block run whole: the sampled warps of a kernel
 * without barriers see only their own share of the reuse (mm's B: 6 reads by 3 of 8 warps where
 * a whole block makes 16). Diagnostics are counted and printed by the sampled run only. */
static void whole_block_reuse(Analysis *a, Launch *L, const int *acc_of, uint64_t cap) {
  ReuseCtx r = {.a = a, .acc_of = acc_of, .l1.record = true};
  r.seen = xmalloc(sizeof(Set) * (size_t)(a->nacc + 1));
  r.lanes = xmalloc(sizeof(uint64_t) * (size_t)(a->nacc + 1));
  memset(r.seen, 0, sizeof(Set) * (size_t)(a->nacc + 1));
  memset(r.lanes, 0, sizeof(uint64_t) * (size_t)(a->nacc + 1));
  Hooks h = {.ctx = &r, .access = on_reuse_access, .want_block = want_block0};
  FILE *null = fopen("/dev/null", "w");
  RunOptions ro = {.hooks = &h, .warp_step_cap = cap, .printf_out = null, .no_race_check = true};
  RunStats st;
  int errors = diag_errors, warnings = diag_warnings;
  bool quiet = diag_quiet;
  diag_quiet = true;
  int rc = interp_run(L, &ro, &st);
  diag_quiet = quiet;
  diag_errors = errors;
  diag_warnings = warnings;
  if (null) fclose(null);
  for (int i = 0; i < a->nacc; i++) {
    if (rc == 0 && r.seen[i].n)
      a->acc[i].whole_block_reuse = (double)r.lanes[i] / (double)r.seen[i].n;
    free(r.seen[i].k);
  }
  free(r.seen);
  free(r.lanes);
  if (rc == 0) l1_fold(&r.l1, a, NULL);
  l1_free(&r.l1);
}

/* the accesses of the kernel (and the device functions it calls) that no sampled warp reached,
 * in global or shared memory (what the analyzer measures); an atomic counts as its call */
static void list_unreached(Analysis *a) {
  const Facts *f = a->facts;
  int nn = a->L->prog->nodes;
  bool *seen = xmalloc((size_t)nn + 1);
  for (int i = 0; i < a->nacc; i++)
    if (a->acc[i].node->id >= 0 && a->acc[i].node->id < nn) seen[a->acc[i].node->id] = true;
  for (int i = 0; i < facts_naccesses(f); i++) {
    const Access *ac = facts_access(f, i);
    Node *n = ac->node;
    if (seen[n->id] || ac->space == SPACE_LOCAL || ac->space == SPACE_CONST) continue;
    /* a struct element is copied where it is used; a pointer's target is known only at run time */
    if (n->kind != ND_CALL && n->ty->kind == TY_STRUCT) continue;
    if ((n->kind == ND_DEREF || n->kind == ND_MEMBER) && ac->space == SPACE_NONE) continue;
    a->unreached = xrealloc(a->unreached, sizeof(char *) * (size_t)(a->nunreached + 1));
    SrcLoc l = tok_loc(n->tok);
    a->unreached[a->nunreached++] = fmt("%d:%d %s", l.line, l.col, expr_text(n));
  }
  free(seen);
}

int analyze(Analysis *a, Launch *L, const Machine *m, const AnalyzeOptions *o) {
  memset(a, 0, sizeof *a);
  a->L = L;
  a->m = m;
  a->facts = facts_new(L->prog, L->kernel);
  Ctx c = {.a = a, .cur_block = -1};
  int nn = L->prog->nodes + 1;
  c.acc_of = xmalloc(sizeof(int) * (size_t)nn * 3);
  c.br_of = xmalloc(sizeof(int) * (size_t)nn);
  for (int i = 0; i < nn * 3; i++) c.acc_of[i] = -1;
  for (int i = 0; i < nn; i++) c.br_of[i] = -1;
  a->blocks_total = L->grid[0] * L->grid[1] * L->grid[2];
  int want_blocks = o && o->max_blocks > 0 ? o->max_blocks : 8;
  bool sample_blocks = a->blocks_total > want_blocks;
  bool first_wave = m && m->partition_map == PARTMAP_LINEAR && m->mem_partitions > 0;
  if (sample_blocks && first_wave) {
    /* partition camping is a property of the blocks that run together: the first wave */
    want_blocks = m->sm_count < a->blocks_total ? m->sm_count : (int)a->blocks_total;
    c.blocks = xmalloc(sizeof(int64_t) * (size_t)want_blocks);
    for (int i = 0; i < want_blocks; i++) c.blocks[c.nblocks++] = i;
  } else if (sample_blocks) {
    c.blocks = xmalloc(sizeof(int64_t) * (size_t)want_blocks);
    /* first, last and evenly spread in between, deterministic */
    for (int i = 0; i < want_blocks; i++)
      c.blocks[c.nblocks++] =
        (int64_t)((double)i * (double)(a->blocks_total - 1) / (double)(want_blocks - 1));
  }
  Hooks h = {.ctx = &c,
             .access = on_access,
             .branch = on_branch,
             .want_block = sample_blocks ? want : NULL,
             .want_warp = want_warp};
  /* a budget of warp-steps keeps one analysis near 100 ms; each warp gets an equal share, so
   * long loops are sampled by their first iterations (reported as such) */
  uint64_t budget = o && o->budget ? o->budget : 2000000;
  int64_t nblocks = sample_blocks ? want_blocks : a->blocks_total;
  int64_t warps = (L->block[0] * L->block[1] * L->block[2] + 31) / 32;
  /* a small launch (every block run, at most SMALL_LAUNCH_WARPS warps in all) runs every warp:
   * a fault in a warp the sample would skip (thread 40 of one 4-warp block) is then found */
  enum { SMALL_LAUNCH_WARPS = 64 };
  bool small = !sample_blocks && a->blocks_total * warps <= SMALL_LAUNCH_WARPS;
  if (!L->kernel->uses_barrier && !small && warps > 3) warps = 3;
  if (warps == (L->block[0] * L->block[1] * L->block[2] + 31) / 32) h.want_warp = NULL;
  /* the L1 shared by a block's warps is measured where whole blocks run (else by
   * whole_block_reuse) */
  c.l1.record = warps == (L->block[0] * L->block[1] * L->block[2] + 31) / 32;
  uint64_t cap = budget / (uint64_t)(nblocks * warps > 0 ? nblocks * warps : 1);
  /* device printf of sampled warps is not the command's output (it would break JSON) */
  FILE *null = fopen("/dev/null", "w");
  RunOptions ro = {.hooks = &h, .warp_step_cap = cap < 20000 ? 20000 : cap, .printf_out = null};
  RunStats st;
  int rc = interp_run(L, &ro, &st);
  if (null) fclose(null);
  a->warps_truncated = st.warps_truncated;
  {
    /* the lanes that ran: all of a block, or its first, middle and last warp (the last may be
     * partial) */
    int64_t tpb = L->block[0] * L->block[1] * L->block[2], nw = (tpb + 31) / 32;
    double per_block = (double)tpb;
    if (warps < nw) per_block = 32.0 * (double)(warps - 1) + (double)(tpb - 32 * (nw - 1));
    a->threads_run = (double)st.blocks_run * per_block;
  }
  if (rc == 0) list_unreached(a);
  int64_t all_warps = (L->block[0] * L->block[1] * L->block[2] + 31) / 32;
  if (rc == 0 && warps < all_warps) whole_block_reuse(a, L, c.acc_of, ro.warp_step_cap);
  else
    for (int i = 0; rc == 0 && i < a->nacc; i++)
      a->acc[i].whole_block_reuse = -1; /* below: the sampled blocks are whole */
  for (int i = 0; i < a->nacc; i++) {
    if (c.seen[i].n) {
      a->acc[i].distinct += c.seen[i].n;
      a->acc[i].blocks++;
    }
    free(c.seen[i].k);
    /* every warp of the sampled blocks ran: their reuse is whole-block reuse */
    if (a->acc[i].whole_block_reuse < 0)
      a->acc[i].whole_block_reuse =
        a->acc[i].distinct ? (double)a->acc[i].lanes / (double)a->acc[i].distinct : 0;
  }
  l1_fold(&c.l1, a, &a->warp_sectors);
  l1_free(&c.l1);
  /* the busiest line's atomic requests over the grid: a line that two or more sampled blocks
   * update is taken as updated by every warp alike (scaled from the warps run to the grid); one
   * that a single block updates, as that block's own (scaled to all its warps when two sampled
   * warps share it, else a single warp's) */
  for (size_t i = 0; i < c.acap; i++) {
    if (!c.aline[i]) continue;
    bool shared = __builtin_popcountll(c.ablocks[i]) >= 2;
    double tpb = (double)(L->block[0] * L->block[1] * L->block[2]),
           grid_threads = (double)a->blocks_total * tpb;
    double block_share = st.blocks_run > 0 && a->threads_run > 0
                           ? tpb / (a->threads_run / (double)st.blocks_run)
                           : 1.0;
    bool block_wide = __builtin_popcountll(c.awarps[i]) >= 2;
    double est = (double)c.acount[i] * (shared && a->threads_run > 0 ? grid_threads / a->threads_run
                                        : block_wide                 ? block_share
                                                                     : 1.0);
    if (!shared) {
      /* neighbouring blocks the sample never holds together may share the line: the index's
       * stride between consecutive blockIdx.x says how many */
      const AccessStat *s = &a->acc[c.aacc[i]];
      Node *at = s->node->kind == ND_CALL && s->node->args ? s->node->args
                                                           : s->node; /* atomicAdd(&a[i], v) */
      while (at->kind == ND_CAST || at->kind == ND_ADDR) at = at->lhs;
      Node *ix = at->kind == ND_INDEX ? at->rhs : NULL;
      int64_t stride;
      Affine fx = ix ? facts_affine(a->facts, ix) : (Affine){.ok = false};
      if (affine_block_stride(&fx, L->block, &stride) && stride != 0) {
        double bytes = (double)(stride < 0 ? -stride : stride) * (double)s->size;
        double per_line = bytes < 128 ? 128.0 / bytes : 1.0;
        if (per_line > (double)L->grid[0]) per_line = (double)L->grid[0];
        est *= per_line;
      }
    }
    if (est > a->atomic_line_requests) a->atomic_line_requests = est;
  }
  free(c.aline);
  free(c.acount);
  free(c.ablocks);
  free(c.awarps);
  free(c.aacc);
  free(c.seen);
  free(c.acc_of);
  free(c.br_of);
  free(c.blocks);
  a->blocks_run = st.blocks_run;
  a->lane_ops = st.lane_ops;
  a->warp_steps = st.warp_steps;
  a->seconds = st.seconds;
  a->fault = rc;
  /* what was checked: these warps of these blocks, each up to the cap */
  int64_t nw = (L->block[0] * L->block[1] * L->block[2] + 31) / 32;
  a->warps_per_block = (int)nw;
  a->warps_run_per_block = (int)warps;
  a->step_cap = ro.warp_step_cap;
  a->faults = st.faults;
  a->nfault = st.nfault;
  memcpy(a->fault_rec, st.fault, sizeof(Fault) * (size_t)st.nfault);
  a->complete =
    rc == 0 && st.blocks_run == (uint64_t)a->blocks_total && warps == nw && st.warps_truncated == 0;
  /* sampled: anything skipped (blocks, warps of a block, a warp's steps past the cap) */
  a->sampled = st.blocks_run < (uint64_t)a->blocks_total || warps < nw || st.warps_truncated > 0;
  if (rc == 2) analysis_free(a); /* nothing to report: the caller returns at once */
  return rc;
}

void analysis_free(Analysis *a) {
  free(a->acc);
  free(a->br);
  free(a->unreached);
  facts_free(a->facts);
  a->acc = NULL;
  a->br = NULL;
  a->unreached = NULL;
  a->facts = NULL;
  a->nacc = a->nbr = a->nunreached = 0;
}
