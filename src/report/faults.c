/* faults: run's fault records (RunStats.fault, filled where the interpreter raises each fault) as
 * JSON; nothing is read back from the diagnostics' text. */
#include "report.h"

static void json_loc(FILE *o, Node *n) {
  SrcLoc l = n ? tok_loc(n->tok) : (SrcLoc){0};
  fprintf(o, "\"file\": ");
  if (l.file) json_string(o, l.file->name);
  else fprintf(o, "null");
  fprintf(o, ", \"line\": %d, \"column\": %d", l.line, l.col);
}

static void fault_one(FILE *o, const Fault *f) {
  fprintf(o, "{\"kind\": \"%s\", ", fault_kind_name(f->kind));
  json_loc(o, f->at);
  fprintf(o, ", \"message\": ");
  json_string(o, f->message);
  if (f->in_kernel)
    fprintf(o, ", \"block\": [%lld, %lld, %lld]", (long long)f->block[0], (long long)f->block[1],
            (long long)f->block[2]);
  if (f->lane >= 0)
    fprintf(o, ", \"thread\": [%u, %u, %u]", f->thread[0], f->thread[1], f->thread[2]);
  bool race = f->kind == FAULT_RACE;
  fprintf(o, ", \"notes\": [");
  if (f->other && race) { /* the note the text prints under a race */
    fprintf(o, "{");
    json_loc(o, f->other);
    fprintf(o, ", \"message\": \"the other access of the race (by another warp)\"}");
  }
  fprintf(o, "]");
  if (f->other) {
    fprintf(o, ", \"%s\": {", race ? "other_access" : "other_barrier");
    json_loc(o, f->other);
    fprintf(o, "}");
  }
  fprintf(o, "}");
}

void fault_json(FILE *o, const RunStats *st) {
  fprintf(o, "\"fault_details\": [");
  for (int i = 0; i < st->nfault; i++) {
    if (i) fprintf(o, ", ");
    fault_one(o, &st->fault[i]);
  }
  fprintf(o, "], \"faults_dropped\": %d", st->faults > st->nfault ? st->faults - st->nfault : 0);
}
