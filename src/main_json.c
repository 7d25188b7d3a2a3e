/* carve's command line, JSON summaries (main.h): check's kernels, run's launch, run's host
 * program. */
#include "main.h"
#include <string.h>

/* unread[n]: the lines of its launches in host code the front end could not read (C++) */
void check_kernel_json(Obj *f, LaunchSpec *s, bool first, const int *unread, int n) {
  printf("%s\n  {\"name\": ", first ? "" : ",");
  json_string(stdout, f->name);
  printf(", \"line\": %d, \"signature\": ", tok_loc(f->tok).line);
  json_string(stdout, signature(f));
  printf(", \"static_shared_bytes\": %d, \"uses_barrier\": %s", f->shared_size,
         f->uses_barrier ? "true" : "false");
  printf(", \"unread_host_launch_lines\": [");
  for (int i = 0; i < n; i++) printf("%s%d", i ? ", " : "", unread[i]);
  printf("]");
  if (!s) {
    printf(", \"launch\": null}");
    return;
  }
  printf(
    ", \"launch\": {\"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld], \"dynamic_shared_bytes\": %lld, \"args\": [",
    (long long)s->grid[0], (long long)s->grid[1], (long long)s->grid[2], (long long)s->block[0],
    (long long)s->block[1], (long long)s->block[2], (long long)s->dyn_shared);
  for (ArgSpec *a = s->args; a; a = a->next) {
    printf("%s{\"name\": ", a == s->args ? "" : ", ");
    json_string(stdout, a->name);
    if (a->is_buffer) {
      printf(", \"type\": ");
      json_string(stdout, type_name(a->elem_ty));
      printf(", \"count\": %lld, \"output\": %s}", (long long)a->count, a->out ? "true" : "false");
    } else if (a->scalar.is_float) printf(", \"value\": %.17g}", a->scalar.d);
    else printf(", \"value\": %lld}", (long long)a->scalar.i);
  }
  printf("]}}");
}

void run_summary_json(const Opts *o, Launch *L, int rc, const RunStats *st,
                      const NativeReport *nr) {
  printf("{\"file\": ");
  json_string(stdout, o->file);
  printf(", \"kernel\": ");
  json_string(stdout, L->kernel->name);
  printf(
    ", \"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld], \"status\": \"%s\", \"faults\": %d,\n",
    (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2], (long long)L->block[0],
    (long long)L->block[1], (long long)L->block[2], rc ? "fault" : "ok", st->faults);
  printf(" ");
  fault_json(stdout, st); /* the interpreter's records, not the diagnostics read back */
  printf(
    ",\n \"engine\": \"%s\", \"seconds\": %.6f, \"lane_ops\": %llu, \"warp_steps\": %llu, \"blocks\": %llu, \"outputs\": [",
    nr->engine, st->seconds, (unsigned long long)st->lane_ops, (unsigned long long)st->warp_steps,
    (unsigned long long)st->blocks_run);
  int no = 0;
  for (int b = 1; b < L->nbufs; b++) {
    if (!L->bufs[b].out) continue;
    printf("%s{\"name\": ", no++ ? ", " : "");
    json_string(stdout, L->bufs[b].name);
    printf(", \"type\": ");
    json_string(stdout, type_name(L->bufs[b].elem_ty));
    printf(", \"count\": %lld, \"checksum\": \"%016llx\"}", (long long)L->bufs[b].count,
           (unsigned long long)buffer_checksum(&L->bufs[b]));
  }
  printf("]}\n");
}

/* run on a host program, --format json: its status, launches and their distinct configurations */
void host_run_json(const Opts *o, int rc, const HostResult *r) {
  printf("{\"file\": ");
  json_string(stdout, o->file);
  printf(
    ", \"status\": \"%s\", \"exit_code\": %d, \"launches\": %d, \"invalid_launches\": %d, \"kernel_lane_ops\": %llu, \"distinct\": [",
    rc == 0   ? "ok"
    : rc == 1 ? "fault"
              : "error",
    r->exit_code, r->launches, r->invalid_launches, (unsigned long long)r->kernel_lane_ops);
  for (int i = 0; i < r->nrec; i++) {
    printf("%s{\"launch\": %d, \"kernel\": ", i ? ", " : "", i + 1);
    json_string(stdout, r->rec[i].kernel->name);
    printf(
      ", \"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld], \"count\": %d, \"line\": %d}",
      (long long)r->rec[i].grid[0], (long long)r->rec[i].grid[1], (long long)r->rec[i].grid[2],
      (long long)r->rec[i].block[0], (long long)r->rec[i].block[1], (long long)r->rec[i].block[2],
      r->rec[i].count, r->rec[i].site.line);
  }
  printf("], \"native_launches\": %d, \"native_seconds\": %.3f, \"blocks_checked\": %llu}\n",
         r->native_launches, r->native_seconds, (unsigned long long)r->blocks_checked);
}
