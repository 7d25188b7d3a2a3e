/* emit: the optimizer's outputs, printed from the Plan (nothing is computed here): the
 * optimized CUDA source with a header comment naming the passes, their parameters and how each
 * was verified; the plan as text or JSON. */
#include "opt.h"
#include <string.h>

static void params_text(Buf *b, const PlanStep *s) {
  for (int i = 0; i < s->pass->nparams; i++)
    buf_printf(b, "%s%s=%d", i ? "," : "(", s->pass->params[i].name, s->param[i]);
  if (s->pass->nparams) buf_puts(b, ")");
}

static void estimate_text(Buf *b, const PlanStep *s, const char *indent) {
  if (s->est_before_ms < 0 && s->est_after_ms < 0) return;
  buf_printf(b, "%sestimate: ", indent);
  if (s->est_before_ms >= 0) buf_printf(b, "%.4f ms (%s)", s->est_before_ms, s->est_bottleneck[0]);
  else buf_puts(b, "unknown");
  buf_puts(b, " -> ");
  if (s->est_after_ms >= 0) buf_printf(b, "%.4f ms (%s)", s->est_after_ms, s->est_bottleneck[1]);
  else buf_puts(b, "unknown");
  buf_puts(b, "\n");
}

static void verify_text(Buf *b, const VerifyResult *v, const char *indent) {
  for (int i = 0; i < v->nsizes; i++) {
    const VerifySize *z = &v->size[i];
    if (!z->ran && !z->skipped) continue;
    buf_printf(b, "%s%-8s %s: %s", indent, z->label, z->defines, z->skipped ? "skipped" : z->ok ? "equal" : "DIFFERENT");
    if (!z->skipped && z->ok) buf_printf(b, " (%lld elements compared)", (long long)z->compared);
    if (z->detail[0]) buf_printf(b, " (%s)", z->detail);
    buf_puts(b, "\n");
  }
}

void opt_emit_source(Buf *b, const Plan *plan, const char *file, const char *kernel) {
  buf_printf(b, "/* carve optimize %s --kernel %s\n", file, kernel);
  int n = 0;
  for (int i = 0; i < plan->nsteps; i++) {
    const PlanStep *s = &plan->steps[i];
    if (!s->applied || s->rejected || s->unprofitable) continue;
    buf_printf(b, " *   %s", s->pass->name);
    params_text(b, s);
    buf_printf(b, ": %s%s\n", s->did, s->verified ? " [verified]" : " [NOT verified: --no-verify]");
    if (s->assumed[0]) buf_printf(b, " *     assumes %s\n", s->assumed);
    n++;
  }
  if (!n) buf_puts(b, " *   no pass applied: the kernel is printed unchanged\n");
  buf_puts(b, " */\n");
  print_program(b, plan->result);
}

/* the values the model tried for a pass's first parameter, fastest first in the reader's eye */
static void candidates_text(Buf *b, const PlanStep *s) {
  if (!s->ncand) return;
  bool two = s->ncand_params == 2;
  if (two) buf_printf(b, "         %s,%s chosen by the estimate from", s->pass->params[0].name, s->pass->params[1].name);
  else buf_printf(b, "         %s chosen by the estimate from", s->pass->params[0].name);
  for (int k = 0; k < s->ncand; k++) {
    buf_printf(b, "%s %d", k ? "," : "", s->cand_value[k]);
    if (two) buf_printf(b, ",%d", s->cand_value2[k]);
    if (s->cand_ms[k] > 0) buf_printf(b, ": %.4f ms", s->cand_ms[k]);
    else buf_puts(b, ": not applicable");
  }
  buf_puts(b, "\n");
  if (!s->ncand3) return;
  buf_printf(b, "         then %s, with those, from", s->pass->params[2].name);
  for (int k = 0; k < s->ncand3; k++) {
    buf_printf(b, "%s %d", k ? "," : "", s->cand_value3[k]);
    if (s->cand_ms3[k] > 0) buf_printf(b, ": %.4f ms", s->cand_ms3[k]);
    else buf_puts(b, ": not applicable");
  }
  buf_puts(b, "\n");
}

void opt_emit_plan(FILE *out, const Plan *plan, bool json, bool explain) {
  Buf b = {0};
  if (!json && !explain) {
    /* one line a pass */
    for (int i = 0; i < plan->nsteps; i++) {
      const PlanStep *s = &plan->steps[i];
      buf_printf(&b, "carve optimize: %-8s ", s->pass->name);
      if (s->applied && !s->rejected && !s->unprofitable) {
        buf_printf(&b, "applied%s", s->verified ? ", verified" : ", NOT verified (--no-verify)");
        if (s->est_before_ms > 0 && s->est_after_ms > 0) buf_printf(&b, ", estimate %.4f -> %.4f ms", s->est_before_ms, s->est_after_ms);
        if (s->motivation[0]) buf_printf(&b, ", for %.*s", (int)(strchr(s->motivation, ':') ? strchr(s->motivation, ':') - s->motivation : (long)strlen(s->motivation)), s->motivation);
        buf_printf(&b, ": %s\n", s->did);
      } else if (s->unprofitable) buf_printf(&b, "not kept, the estimate says not faster (%.4f -> %.4f ms): %s\n", s->est_before_ms, s->est_after_ms, s->did);
      else if (s->rejected) {
        const VerifySize *z = NULL;
        for (int k = 0; k < s->verify.nsizes; k++) if (s->verify.size[k].ran && !s->verify.size[k].skipped && !s->verify.size[k].ok) z = &s->verify.size[k];
        buf_printf(&b, "REJECTED by verification%s%s%s%s\n", z ? " at " : "", z ? z->defines : "", z ? ": " : "", z ? z->detail : "");
      } else buf_printf(&b, "%s: %s\n", s->legality == ILLEGAL ? "not legal" : s->legality == LEGAL ? "FAILED to apply" : "not applicable", s->why);
    }
  } else if (!json) {
    for (int i = 0; i < plan->nsteps; i++) {
      const PlanStep *s = &plan->steps[i];
      buf_printf(&b, "%-8s ", s->pass->name);
      if (s->applied && !s->rejected && !s->unprofitable) {
        buf_puts(&b, "applied");
        params_text(&b, s);
        buf_printf(&b, ": %s\n", s->did);
        if (s->motivation[0]) buf_printf(&b, "         motivated by %s\n", s->motivation);
        if (s->assumed[0]) buf_printf(&b, "         assumes %s\n", s->assumed);
        if (s->verified) verify_text(&b, &s->verify, "         verified ");
        else buf_puts(&b, "         not verified (--no-verify)\n");
        estimate_text(&b, s, "         ");
        candidates_text(&b, s);
      } else if (s->unprofitable) {
        buf_printf(&b, "not kept: the estimate says it is not faster (%.4f ms against %.4f ms)", s->est_after_ms, s->est_before_ms);
        params_text(&b, s);
        buf_printf(&b, ": %s\n", s->did);
        if (s->verified) verify_text(&b, &s->verify, "         verified ");
      } else if (s->rejected) {
        buf_puts(&b, "REJECTED by verification");
        params_text(&b, s);
        buf_printf(&b, ": %s\n", s->did);
        verify_text(&b, &s->verify, "         ");
      } else {
        buf_printf(&b, "%s: %s\n", s->legality == ILLEGAL ? "not legal" : s->legality == LEGAL ? "FAILED to apply" : "not applicable", s->why);
      }
    }
  } else {
    buf_puts(&b, "{\"steps\": [");
    for (int i = 0; i < plan->nsteps; i++) {
      const PlanStep *s = &plan->steps[i];
      const char *status = s->rejected ? "rejected" : s->unprofitable ? "not_profitable" : s->applied ? "applied" : s->legality == ILLEGAL ? "illegal" : s->legality == LEGAL ? "failed" : "not_applicable";
      buf_printf(&b, "%s{\"pass\": \"%s\", \"status\": \"%s\", \"params\": {", i ? ", " : "", s->pass->name, status);
      for (int j = 0; j < s->pass->nparams; j++) buf_printf(&b, "%s\"%s\": %d", j ? ", " : "", s->pass->params[j].name, s->param[j]);
      buf_puts(&b, "}, \"why\": \"");
      for (const char *c = s->applied ? s->did : s->why; *c; c++) {
        if (*c == '"' || *c == '\\') buf_putc(&b, '\\');
        if ((unsigned char)*c >= 0x20) buf_putc(&b, *c);
      }
      buf_printf(&b, "\", \"verified\": %s, \"estimate_before_ms\": %.6g, \"estimate_after_ms\": %.6g, ", s->verified ? "true" : "false",
                 s->est_before_ms, s->est_after_ms);
      if (s->motivation[0]) {
        buf_puts(&b, "\"motivation\": \"");
        for (const char *c = s->motivation; *c; c++) {
          if (*c == '"' || *c == '\\') buf_putc(&b, '\\');
          if ((unsigned char)*c >= 0x20) buf_putc(&b, *c);
        }
        buf_puts(&b, "\", ");
      }
      if (s->ncand) {
        buf_printf(&b, "\"chosen_by_model\": {\"param\": \"%s\", ", s->pass->params[0].name);
        if (s->ncand_params == 2) buf_printf(&b, "\"param2\": \"%s\", ", s->pass->params[1].name);
        buf_puts(&b, "\"tried\": [");
        for (int k = 0; k < s->ncand; k++) {
          buf_printf(&b, "%s{\"value\": %d, ", k ? ", " : "", s->cand_value[k]);
          if (s->ncand_params == 2) buf_printf(&b, "\"value2\": %d, ", s->cand_value2[k]);
          buf_printf(&b, "\"estimate_ms\": %.6g}", s->cand_ms[k]);
        }
        buf_puts(&b, "]");
        if (s->ncand3) {
          buf_printf(&b, ", \"then\": {\"param\": \"%s\", \"tried\": [", s->pass->params[2].name);
          for (int k = 0; k < s->ncand3; k++) buf_printf(&b, "%s{\"value\": %d, \"estimate_ms\": %.6g}", k ? ", " : "", s->cand_value3[k], s->cand_ms3[k]);
          buf_puts(&b, "]}");
        }
        buf_puts(&b, "}, ");
      }
      buf_puts(&b, "\"sizes\": [");
      for (int k = 0; k < s->verify.nsizes; k++) {
        const VerifySize *z = &s->verify.size[k];
        buf_printf(&b, "%s{\"size\": \"%s\", \"defines\": \"%s\", \"result\": \"%s\", \"compared\": %lld}", k ? ", " : "", z->label, z->defines,
                   z->skipped ? "skipped" : z->ok ? "equal" : "different", (long long)z->compared);
      }
      buf_puts(&b, "]}");
    }
    buf_puts(&b, "]}");
  }
  if (b.s) fputs(b.s, out);
  buf_free(&b);
}
