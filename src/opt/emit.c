/* emit: the optimizer's outputs, printed from the Plan (nothing is computed here): the
 * optimized CUDA source with a header comment naming the passes, their parameters and how each
 * was verified; the plan as text or JSON. */
#include "opt.h"
#include "../json.h"
#include <limits.h>
#include <stdlib.h>
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
    buf_printf(b, "%s%-8s %s: %s", indent, z->label, z->defines,
               z->skipped ? "skipped"
               : z->ok    ? "equal"
                          : "DIFFERENT");
    if (!z->skipped && z->ok) buf_printf(b, " (%lld elements compared)", (long long)z->compared);
    if (z->detail[0]) buf_printf(b, " (%s)", z->detail);
    buf_puts(b, "\n");
  }
}

static void plan_comment(Buf *b, const Plan *plan, const char *file, const char *kernel) {
  buf_printf(b, "/* carve optimize %s --kernel %s\n", file, kernel);
  int n = 0;
  for (int i = 0; i < plan->nsteps; i++) {
    const PlanStep *s = &plan->steps[i];
    if (!plan_step_kept(s)) continue;
    buf_printf(b, " *   %s", s->pass->name);
    params_text(b, s);
    buf_printf(b, ": %s%s\n", s->did, s->verified ? " [verified]" : " [NOT verified: --no-verify]");
    if (s->assumed[0]) buf_printf(b, " *     assumes %s\n", s->assumed);
    n++;
  }
  if (!n) buf_puts(b, " *   no pass applied: the kernel is printed unchanged\n");
  buf_puts(b, " */\n");
}

bool opt_emit_unchanged(Buf *b, const Plan *plan, const char *file, const char *kernel) {
  for (int i = 0; i < plan->nsteps; i++)
    if (plan_step_kept(&plan->steps[i])) return false;
  size_t len = 0;
  char *raw = read_file(file, &len);
  if (!raw) return false;
  plan_comment(b, plan, file, kernel);
  buf_printf(b, "%.*s", (int)len, raw);
  free(raw);
  return true;
}

/* a kernel-only output (no host code to wrap its launches): the test of what its kept steps
 * specialize, asserted at the kernel's entry, into t; false when nothing is specialized */
static bool entry_test(Buf *t, const Plan *plan, const char *kernel) {
  unsigned spec = 0;
  bool reshaped = false;
  for (int i = 0; i < plan->nsteps; i++)
    if (plan_step_kept(&plan->steps[i])) {
      spec |= plan->steps[i].spec;
      reshaped |= plan->steps[i].cover[0] > 0;
    }
  if (!spec && !reshaped) return false;
  Obj *k = find_kernel(plan->result, kernel);
  buf_printf(t, "blockDim.x == %lldu && blockDim.y == %lldu && blockDim.z == %lldu",
             (long long)plan->block[0], (long long)plan->block[1], (long long)plan->block[2]);
  if (spec & OPT_SPEC_GRID)
    buf_printf(t, " && gridDim.x == %lldu && gridDim.y == %lldu && gridDim.z == %lldu",
               (long long)plan->grid[0], (long long)plan->grid[1], (long long)plan->grid[2]);
  if ((spec & OPT_SPEC_ARGS) && plan->arg_test[0]) buf_printf(t, " && %s", plan->arg_test);
  if ((spec & OPT_SPEC_NOALIAS) && k)
    for (Obj *q = k->params; q; q = q->next)
      for (Obj *r = k->params; r != q && q->ty->kind == TY_PTR; r = r->next)
        if (r->ty->kind == TY_PTR)
          buf_printf(t, " && (const void *)%s != (const void *)%s", q->name, r->name);
  return true;
}

void opt_emit_source(Buf *b, const Plan *plan, const char *file, const char *kernel) {
  plan_comment(b, plan, file, kernel);
  Buf t = {0}, test = {0};
  print_program(&t, plan->result);
  /* the kernel's entry asserts the launch it was optimized and verified for */
  const char *sig = NULL;
  char *want = fmt(" %s(", kernel);
  for (const char *q = t.s ? strstr(t.s, want) : NULL; q && !sig; q = strstr(q + 1, want)) {
    const char *line = q;
    while (line > t.s && line[-1] != '\n') line--;
    if (strstr(line, "__global__") && strstr(line, "__global__") < q) sig = q;
  }
  const char *open = sig ? strstr(sig, "{\n") : NULL;
  if (open && entry_test(&test, plan, kernel)) {
    buf_printf(
      b,
      "/* carve: %s asserts at its entry the launch it was optimized and verified for: %s; any other launch is a failed\n"
      " * assert(), never a silent wrong answer (a build with NDEBUG drops the test: launch it only as its #pragma carve launch says) */\n",
      kernel, test.s);
    buf_printf(b,
               "%.*s\n  assert((%s) && \"carve: launched other than it was optimized for\");\n%s",
               (int)(open + 1 - t.s), t.s, test.s, open + 2);
    if (!strstr(t.s, "<assert.h>")) {
      /* the header the assert needs, first */
      Buf w = {0};
      buf_puts(&w, "#include <assert.h>\n");
      buf_puts(&w, b->s);
      buf_free(b);
      *b = w;
    }
  } else if (t.s) buf_puts(b, t.s);
  buf_free(&t);
  buf_free(&test);
}

/* the values the model tried for a pass's first parameter, fastest first in the reader's eye */
static void candidates_text(Buf *b, const PlanStep *s) {
  if (!s->ncand) return;
  bool two = s->ncand_params == 2;
  if (two)
    buf_printf(b, "         %s,%s chosen by the estimate from", s->pass->params[0].name,
               s->pass->params[1].name);
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

/* the macro is one the plan keeps symbolic (printed by name, verified at other values) */
static bool sized(const Plan *plan, const char *name) {
  for (int i = 0; i < plan->sizes.n; i++)
    if (!strcmp(plan->sizes.name[i], name)) return true;
  return false;
}

/* the kept-symbolic macros of a plan as text: "N (verified at 69, 199), M (...)" */
static void sizes_text(Buf *b, const Plan *plan) {
  for (int i = 0; i < plan->sizes.n; i++)
    buf_printf(b, "%s%s (optimized at %lld, verified at %s)", i ? ", " : "", plan->sizes.name[i],
               (long long)plan->sizes.val[i], plan->sizes.verified[i]);
}

void opt_emit_plan(FILE *out, const Plan *plan, bool json, bool explain) {
  Buf b = {0};
  if (!json && !explain) {
    /* one line a pass */
    for (int i = 0; i < plan->nsteps; i++) {
      const PlanStep *s = &plan->steps[i];
      buf_printf(&b, "carve optimize: %-8s ", s->pass->name);
      if (plan_step_kept(s)) {
        buf_printf(&b, "applied%s", s->verified ? ", verified" : ", NOT verified (--no-verify)");
        if (s->est_before_ms > 0 && s->est_after_ms > 0)
          buf_printf(&b, ", estimate %.4f -> %.4f ms", s->est_before_ms, s->est_after_ms);
        if (s->motivation[0])
          buf_printf(&b, ", for %.*s",
                     (int)(strchr(s->motivation, ':') ? strchr(s->motivation, ':') - s->motivation
                                                      : (long)strlen(s->motivation)),
                     s->motivation);
        buf_printf(&b, ": %s\n", s->did);
      } else if (s->unprofitable && s->shuts_out)
        buf_printf(
          &b,
          "not kept: it would shut out %s, estimated faster (%.4f ms against %.4f ms), which takes its own turn: %s\n",
          s->shuts_out->name, s->shut_ms, s->est_after_ms, s->did);
      else if (s->unprofitable && s->idle)
        buf_printf(
          &b,
          "not kept: the launch has fewer threads than the GPU holds at once, and merging them would leave it idler (estimate %.4f -> %.4f ms): %s\n",
          s->est_before_ms, s->est_after_ms, s->did);
      else if (s->unprofitable && (s->est_before_ms <= 0 || s->est_after_ms <= 0))
        buf_printf(&b, "not kept, the estimate failed (%s): unknown is not faster: %s\n",
                   s->est_before_ms <= 0 ? "before" : "after", s->did);
      else if (s->unprofitable && s->est_after_ms < s->est_before_ms)
        buf_printf(
          &b,
          "not kept, the estimate's gain (%.4f -> %.4f ms, %.1f%%) is under the %.0f%% a new launch shape needs: %s\n",
          s->est_before_ms, s->est_after_ms, 100 * (1 - s->est_after_ms / s->est_before_ms),
          100 * OPT_RESHAPE_GAIN, s->did);
      else if (s->unprofitable)
        buf_printf(&b, "not kept, the estimate says not faster (%.4f -> %.4f ms): %s\n",
                   s->est_before_ms, s->est_after_ms, s->did);
      else if (s->rejected) {
        const VerifySize *z = NULL;
        for (int k = 0; k < s->verify.nsizes; k++)
          if (s->verify.size[k].ran && !s->verify.size[k].skipped && !s->verify.size[k].ok)
            z = &s->verify.size[k];
        buf_printf(&b, "REJECTED by verification%s%s%s%s\n", z ? " at " : "", z ? z->defines : "",
                   z ? ": " : "", z ? z->detail : "");
      } else
        buf_printf(&b, "%s: %s\n",
                   s->legality == ILLEGAL ? "not legal"
                   : s->legality == LEGAL ? "FAILED to apply"
                                          : "not applicable",
                   s->why);
    }
    if (plan->sizes.n || plan->sizes.note[0]) {
      buf_puts(&b, "carve optimize: sizes    ");
      if (plan->sizes.n) {
        buf_puts(&b, "kept by name: ");
        sizes_text(&b, plan);
        buf_puts(&b, "; ");
      }
      buf_printf(&b, "tried: %s\n", plan->sizes.note);
    }
  } else if (!json) {
    for (int i = 0; i < plan->nsteps; i++) {
      const PlanStep *s = &plan->steps[i];
      buf_printf(&b, "%-8s ", s->pass->name);
      if (plan_step_kept(s)) {
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
        if (s->shuts_out)
          buf_printf(
            &b,
            "not kept: it would shut out %s, estimated faster (%.4f ms against %.4f ms), which takes its own turn",
            s->shuts_out->name, s->shut_ms, s->est_after_ms);
        else if (s->idle)
          buf_printf(
            &b,
            "not kept: the launch has fewer threads than the GPU holds at once; merging them would leave it idler (estimate %.4f ms against %.4f ms)",
            s->est_after_ms, s->est_before_ms);
        else if (s->est_after_ms < s->est_before_ms)
          buf_printf(
            &b,
            "not kept: the estimate's gain (%.4f ms against %.4f ms, %.1f%%) is under the %.0f%% a new launch shape needs",
            s->est_after_ms, s->est_before_ms, 100 * (1 - s->est_after_ms / s->est_before_ms),
            100 * OPT_RESHAPE_GAIN);
        else
          buf_printf(&b, "not kept: the estimate says it is not faster (%.4f ms against %.4f ms)",
                     s->est_after_ms, s->est_before_ms);
        params_text(&b, s);
        buf_printf(&b, ": %s\n", s->did);
        candidates_text(&b, s);
        if (s->verified) verify_text(&b, &s->verify, "         verified ");
      } else if (s->rejected) {
        buf_puts(&b, "REJECTED by verification");
        params_text(&b, s);
        buf_printf(&b, ": %s\n", s->did);
        verify_text(&b, &s->verify, "         ");
      } else {
        buf_printf(&b, "%s: %s\n",
                   s->legality == ILLEGAL ? "not legal"
                   : s->legality == LEGAL ? "FAILED to apply"
                                          : "not applicable",
                   s->why);
      }
    }
  } else {
    buf_puts(&b, "{\"steps\": [");
    for (int i = 0; i < plan->nsteps; i++) {
      const PlanStep *s = &plan->steps[i];
      const char *status = s->rejected              ? "rejected"
                           : s->unprofitable        ? "not_profitable"
                           : s->applied             ? "applied"
                           : s->legality == ILLEGAL ? "illegal"
                           : s->legality == LEGAL   ? "failed"
                                                    : "not_applicable";
      buf_printf(&b, "%s{\"pass\": \"%s\", \"status\": \"%s\", \"params\": {", i ? ", " : "",
                 s->pass->name, status);
      for (int j = 0; j < s->pass->nparams; j++)
        buf_printf(&b, "%s\"%s\": %d", j ? ", " : "", s->pass->params[j].name, s->param[j]);
      buf_puts(&b, "}, \"why\": \"");
      for (const char *c = s->applied ? s->did : s->why; *c; c++) {
        if (*c == '"' || *c == '\\') buf_putc(&b, '\\');
        if ((unsigned char)*c >= 0x20) buf_putc(&b, *c);
      }
      buf_printf(
        &b, "\", \"verified\": %s, \"estimate_before_ms\": %.6g, \"estimate_after_ms\": %.6g, ",
        s->verified ? "true" : "false", s->est_before_ms, s->est_after_ms);
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
          for (int k = 0; k < s->ncand3; k++)
            buf_printf(&b, "%s{\"value\": %d, \"estimate_ms\": %.6g}", k ? ", " : "",
                       s->cand_value3[k], s->cand_ms3[k]);
          buf_puts(&b, "]}");
        }
        buf_puts(&b, "}, ");
      }
      buf_puts(&b, "\"sizes\": [");
      for (int k = 0; k < s->verify.nsizes; k++) {
        const VerifySize *z = &s->verify.size[k];
        buf_printf(
          &b, "%s{\"size\": \"%s\", \"defines\": \"%s\", \"result\": \"%s\", \"compared\": %lld}",
          k ? ", " : "", z->label, z->defines,
          z->skipped ? "skipped"
          : z->ok    ? "equal"
                     : "different",
          (long long)z->compared);
      }
      buf_puts(&b, "]}");
    }
    buf_puts(&b, "]}");
  }
  if (b.s) fputs(b.s, out);
  buf_free(&b);
}

/* ---- a host program's optimized file: the user's text with the kernel and its launches replaced
 * ---- */
typedef struct {
  Obj *k;
  Node *launch[64];
  int n;
  bool overflow;
} Launches;

static bool launch_pre(Node *n, void *ctx) {
  Launches *l = ctx;
  if (n->kind == ND_LAUNCH && n->fn == l->k) {
    if (l->n < 64) l->launch[l->n++] = n;
    else l->overflow = true;
  }
  return true;
}

/* a token spelled in the file itself, not produced by a macro */
static bool in_file(const Token *t, const SrcFile *f) {
  return t && t->file == f && !t->origin && !t->macro;
}

/* where t's text stands in the file: its own position, or for a token a macro produced the
 * macro's use in the file, followed out through nested expansions (`ROWS` for the `N` of
 * `#define ROWS (N * 2)`) (NULL: neither) */
static const char *file_loc(const Token *t, const SrcFile *f) {
  for (int d = 0; t && d < 64; d++, t = t->origin)
    if (in_file(t, f)) return t->loc;
  return NULL;
}

/* the token after the one that closes the bracket t opens ("<<<" closes at ">>>") */
static Token *past_close(Token *t, const char *open, const char *close) {
  int depth = 0;
  for (; t && t->kind != TK_EOF; t = t->next) {
    if (tok_equal(t, open)) depth++;
    else if (tok_equal(t, close) && --depth == 0) return t->next;
  }
  return NULL;
}

/* the operands of a launch's <<<...>>> as text: [start, end) of each, split at top-level commas */
static int launch_operands(Token *open, const SrcFile *f, const char *beg[4], const char *end[4],
                           char *why, size_t len) {
  int n = 0, depth = 0;
  beg[0] = file_loc(open->next, f);
  for (Token *t = open->next; t && t->kind != TK_EOF; t = t->next) {
    /* a size macro in an operand (`<<<(N + 31) / 32, 32>>>`) is copied as written; the
     * separators themselves must be the file's */
    bool sep = depth == 0 && (tok_equal(t, ">>>") || tok_equal(t, ","));
    if (!file_loc(t, f) || (sep && !in_file(t, f)) || !beg[n]) {
      snprintf(why, len, "line %d: a launch operand comes from a macro", open->line);
      return -1;
    }
    if (depth == 0 && tok_equal(t, ">>>")) {
      end[n++] = t->loc;
      return n;
    }
    if (tok_equal(t, "(") || tok_equal(t, "[") || tok_equal(t, "{")) depth++;
    else if (tok_equal(t, ")") || tok_equal(t, "]") || tok_equal(t, "}")) depth--;
    else if (tok_equal(t, "++") || tok_equal(t, "--") ||
             (t->len >= 1 && t->loc[t->len - 1] == '=' && !tok_equal(t, "==") &&
              !tok_equal(t, "!=") && !tok_equal(t, "<=") && !tok_equal(t, ">="))) {
      snprintf(why, len,
               "line %d: a launch operand has a side effect (it would be evaluated twice)",
               open->line);
      return -1;
    } else if (depth == 0 && tok_equal(t, ",")) {
      if (n == 3) break;
      end[n++] = t->loc;
      beg[n] = file_loc(t->next, f);
    }
  }
  snprintf(why, len, "line %d: the launch's <<<...>>> could not be read", open->line);
  return -1;
}

/* for each offset of the tokenizer's copy of a file (CRLF made LF, "\\\n" continuations joined
 * and their newlines put back after the logical line: tokenize.c), the offset in the file's own
 * text; NULL when the two do not correspond (the file changed since it was read) */
static size_t *raw_map(const char *p, size_t plen, const char *raw, size_t rlen) {
  size_t *map = xmalloc(sizeof(size_t) * (plen + 1));
  size_t i = 0, j = 0;
  int pending = 0;
  while (i < rlen && j < plen) {
    if (raw[i] == '\r' && i + 1 < rlen && raw[i + 1] == '\n') {
      i++;
      continue;
    }
    if (raw[i] == '\\' && i + 1 < rlen &&
        (raw[i + 1] == '\n' || (raw[i + 1] == '\r' && i + 2 < rlen && raw[i + 2] == '\n'))) {
      i += raw[i + 1] == '\n' ? 2 : 3;
      pending++;
      continue;
    }
    if (p[j] != raw[i]) {
      free(map);
      return NULL;
    }
    map[j++] = i++;
    if (raw[i - 1] == '\n')
      for (; pending > 0 && j < plen; pending--) map[j++] = i; /* the joined lines' newlines */
  }
  for (; j < plen; j++) map[j] = rlen; /* the newline the tokenizer adds at the end */
  map[plen] = rlen;
  return map;
}

/* the macros the kernel's text uses (those the printed kernel has expanded): names[] (at most
 * 16), each an integer object-like macro (ival) or not */
typedef struct {
  const char *name[16];
  int64_t val[16];
  bool is_int[16];
  int n;
} KMacros;
static void kernel_macros(Program *orig, Obj *k, KMacros *km) {
  km->n = 0;
  for (Token *t = k->def_start; t && t != k->body->end_tok->next; t = t->next) {
    const char *cand[2] = {t->origin && t->origin->kind == TK_IDENT
                             ? arena_strndup(t->origin->loc, (size_t)t->origin->len)
                             : NULL,
                           t->macro};
    for (int c = 0; c < 2; c++) {
      if (!cand[c]) continue;
      bool dup = false;
      for (int i = 0; i < km->n; i++) dup |= !strcmp(km->name[i], cand[c]);
      if (dup || km->n == 16) continue;
      km->name[km->n] = cand[c];
      km->is_int[km->n] = program_macro_value(orig, cand[c], &km->val[km->n]);
      km->n++;
    }
  }
  /* a macro that gave the kernel a floating constant (`#define FLOAT_N 3214212.01f`) is not an
   * integer, though its value queried as one truncates: `#if` cannot test it */
  for (Token *t = k->def_start; t && t != k->body->end_tok->next; t = t->next) {
    if (t->kind != TK_NUM || !t->ty || (t->ty->kind != TY_FLOAT && t->ty->kind != TY_DOUBLE))
      continue;
    for (int i = 0; i < km->n; i++)
      if ((t->macro && !strcmp(t->macro, km->name[i])) ||
          (t->origin && t->origin->kind == TK_IDENT && (int)strlen(km->name[i]) == t->origin->len &&
           !strncmp(t->origin->loc, km->name[i], (size_t)t->origin->len)))
        km->is_int[i] = false;
  }
}

/* whether t's text stands in file f: its own, or the use of the macro (followed out through
 * nested expansions) that produced it */
static bool from_file(const Token *t, const SrcFile *f) {
  for (int d = 0; t && d < 64; d++, t = t->origin)
    if (in_file(t, f)) return true;
  return false;
}

/* a launch's arguments "(a, b, n)" read for side effects (they are evaluated twice: once by the
 * test of the launch's assumptions). The output copies the arguments' text as written, so a size
 * macro (`LDA` for `(M + PAD)`) is the same expression both times; what is refused is a token
 * with no place in the file, an increment or assignment, and a call (`next_id()`, `rand()`: a
 * function may have side effects), as the expanded tokens show them. */
static bool args_pure(Token *open, Token *after, const SrcFile *f) {
  for (Token *t = open; t && t != after; t = t->next) {
    if (!from_file(t, f) || ((tok_equal(t, "(") || tok_equal(t, ")")) &&
                             (t == open || t->next == after) && !in_file(t, f)))
      return false;
    if (t != open && t->kind == TK_IDENT && t->next && t->next != after && tok_equal(t->next, "("))
      return false;
    if (tok_equal(t, "++") || tok_equal(t, "--") ||
        (t->len >= 1 && t->loc[t->len - 1] == '=' && !tok_equal(t, "==") && !tok_equal(t, "!=") &&
         !tok_equal(t, "<=") && !tok_equal(t, ">=")))
      return false;
  }
  return true;
}

/* the recorded value of scalar parameter `name` from the launch's --arg texts ("n=4700") */
static const char *arg_value(const char **texts, int n, const char *name) {
  size_t l = strlen(name);
  const char *v = NULL;
  for (int i = 0; i < n; i++)
    if (!strncmp(texts[i], name, l) && texts[i][l] == '=') v = texts[i] + l + 1;
  if (!v) return NULL;
  char *end;
  strtod(v, &end);
  return end != v && !*end ? v : NULL;
}

/* the pieces of the file: [from, to) replaced by text (from == to: inserted there) */
typedef struct {
  SrcFile *file;
  const char *from, *to;
  Buf text;
} Edit;
typedef struct {
  Edit *e;
  int n, cap;
} Edits;

static Edit *edit_new(Edits *es, SrcFile *file, const char *from, const char *to) {
  if (es->n == es->cap) {
    es->cap = es->cap ? 2 * es->cap : 16;
    es->e = realloc(es->e, sizeof(Edit) * (size_t)es->cap);
    if (!es->e) {
      fprintf(stderr, "carve: out of memory\n");
      exit(2);
    }
  }
  Edit *e = &es->e[es->n++];
  e->file = file;
  e->from = from;
  e->to = to;
  memset(&e->text, 0, sizeof e->text);
  return e;
}

static void edits_free(Edits *es) {
  for (int i = 0; i < es->n; i++) buf_free(&es->e[i].text);
  free(es->e);
  memset(es, 0, sizeof *es);
}

/* two edits touch the same text (an insertion may sit at either end of a replaced range) */
static bool edits_clash(const Edit *a, const Edit *b) {
  if (a->file != b->file) return false;
  if (a->from == a->to && b->from == b->to) return false;
  if (a->from == a->to) return b->from < a->from && a->from < b->to;
  if (b->from == b->to) return a->from < b->from && b->from < a->to;
  return a->from < b->to && b->from < a->to;
}

/* t comes after from in the token stream (the preprocessed program, includes expanded) */
static bool follows(const Token *from, const Token *t) {
  for (const Token *q = from; q && q->kind != TK_EOF; q = q->next)
    if (q == t) return true;
  return false;
}

/* kernel_edits: one kernel's part of a host program's output. Its edits of the sources' text
 * (the definition replaced, the carve block of the original and the launch tests inserted, every
 * launch wrapped) appended to es, and its header comment to head: 0; 1 when no step was kept
 * (the plan's comment alone, nothing edited); 2 with ko->why when the sources cannot be edited
 * safely for it (es and head as they were). Its edits touch only main (the file given) unless
 * several (the output is a directory of sources) */
static int kernel_edits(OptKernelOut *ko, Program *orig, const char *file, SrcFile *main,
                        bool several, Edits *es, Buf *head) {
  const Plan *plan = ko->plan;
  const char *kernel = ko->kernel;
  const int64_t *grid0 = ko->grid0, *block0 = ko->block0;
  const char **arg_texts = ko->arg_texts;
  int nargs = ko->nargs;
  char *why = ko->why;
  size_t len = sizeof ko->why;
  Obj *k = find_kernel(orig, kernel), *v = plan->result ? find_kernel(plan->result, kernel) : NULL;
  if (!k || !v || !k->body || !v->body) {
    snprintf(why, len, "the kernel '%s' is not defined in both programs", kernel);
    return 2;
  }
  SrcFile *f = k->tok->file;
  /* what the kept steps specialize: every assumption the wrapper tests */
  unsigned spec = 0;
  int kept = 0;
  for (int i = 0; i < plan->nsteps; i++)
    if (plan_step_kept(&plan->steps[i])) {
      spec |= plan->steps[i].spec;
      kept++;
    }
  if (!kept) { /* no step kept: the kernel as written, under the plan's comment */
    plan_comment(head, plan, file, kernel);
    return 1;
  }
  if (k->tmpl_head || !k->def_start || !in_file(k->def_start, f) || !in_file(k->tok, f) ||
      !k->body->end_tok || !in_file(k->body->end_tok, f)) {
    snprintf(why, len, "'%s' is a template or is defined through a macro", kernel);
    return 2;
  }
  /* the variant may not have added file-scope declarations the user's file lacks */
  for (TopItem *it = plan->result->items; it; it = it->next) {
    if ((it->kind != TOP_FUNC && it->kind != TOP_VAR) || !it->obj || it->obj == v) continue;
    bool found = false;
    for (TopItem *o = orig->items; o && !found; o = o->next)
      found = o->obj && !strcmp(o->obj->name, it->obj->name);
    if (!found) {
      snprintf(why, len, "the optimized kernel needs '%s', which the file does not declare",
               it->obj->name);
      return 2;
    }
  }
  /* two reshapes (parallel, then tile) are written only where the launch is pinned: the
   * recorded grid, block and arguments run the plan's final grid and block, nothing else */
  const PlanStep *reshape = NULL;
  for (int i = 0; i < plan->nsteps; i++)
    if (plan_step_kept(&plan->steps[i]) && plan->steps[i].cover[0] > 0) {
      if (reshape && !((spec & OPT_SPEC_GRID) && (spec & OPT_SPEC_ARGS))) {
        snprintf(why, len, "two steps reshaped the launch");
        return 2;
      }
      reshape = &plan->steps[i];
    }
  int64_t cover[3] = {block0[0], block0[1], block0[2]};
  /* a reshape whose grid is not the original's threads over covers (parallel grows y by a loop's
   * trip count) is launched only where the grid and the scalar arguments are the recorded ones:
   * carve_grid_K is then the recorded new grid */
  bool pinned = reshape && (spec & OPT_SPEC_GRID) && (spec & OPT_SPEC_ARGS);
  if (reshape) {
    for (int d = 0; d < 3; d++) {
      cover[d] = reshape->cover[d] > 0 ? reshape->cover[d] : block0[d];
      if (!pinned && (grid0[d] * block0[d] + cover[d] - 1) / cover[d] != plan->grid[d]) {
        snprintf(why, len,
                 "the reshaped grid is not the original's threads over each block's cover");
        return 2;
      }
    }
  } else if (memcmp(plan->grid, grid0, sizeof plan->grid) ||
             memcmp(plan->block, block0, sizeof plan->block)) {
    snprintf(why, len, "the launch changed without a step saying how");
    return 2;
  }
  /* the scalar arguments' recorded values, when a step decided something at them */
  int np = 0;
  for (Obj *q = k->params; q; q = q->next) np++;
  const char **val = arena_alloc(sizeof(char *) * (size_t)(np + 1));
  {
    int i = 0;
    for (Obj *q = k->params; q; q = q->next, i++) {
      if (q->ty->kind == TY_PTR || !(spec & OPT_SPEC_ARGS)) continue;
      if (!(val[i] = arg_value(arg_texts, nargs, q->name))) {
        snprintf(why, len,
                 "the recorded value of '%s' is unknown: the launch's test of it cannot be written",
                 q->name);
        return 2;
      }
    }
  }
  KMacros km;
  kernel_macros(orig, k, &km);
  Launches ls = {k, {0}, 0, false};
  /* the carve block (the original kernel and the launch helpers) must come before every launch:
   * after the kernel's definition, or before the first function that launches it when that comes
   * first (a prototype at the top, the definition at the end) */
  const char *block_at = k->body->end_tok->loc + k->body->end_tok->len;
  for (Obj *fn = orig->funcs; fn; fn = fn->next) {
    if (!fn->body || !fn->is_definition || fn->is_kernel) continue;
    int before = ls.n;
    walk(fn->body, launch_pre, NULL, &ls);
    if (ls.n > before && fn->def_start && in_file(fn->def_start, f) &&
        fn->def_start->loc < block_at)
      block_at = fn->def_start->loc;
  }
  if (ls.overflow) {
    snprintf(why, len, "more than 64 launches of '%s'", kernel);
    return 2;
  }
  /* every `K<<<` of the token stream must be one of those: a launch in a host function carve
   * could not read (skipped) would otherwise stay unrewritten and start the optimized kernel
   * with no test of its assumptions */
  {
    Token *first = k->def_start;
    while (first->prev) first = first->prev;
    int written = 0;
    for (Token *q = first; q && q->kind != TK_EOF; q = q->next) {
      if (q->kind != TK_IDENT || q->len != (int)strlen(kernel) ||
          strncmp(q->loc, kernel, (size_t)q->len))
        continue;
      if (tok_equal(q->next, "<<<")) written++;
      else if (!tok_equal(
                 q->next,
                 "(")) { /* cudaLaunchKernel((void *)K, ...), cudaFuncSetAttribute(K, ...) */
        snprintf(
          why, len,
          "line %d: '%s' is used as a value (a launch through the runtime API would skip the test of the launch)",
          q->line, kernel);
        return 2;
      }
    }
    /* the others, in host code carve could not read, found from their tokens (emit_launch.c) */
    if (written != ls.n &&
        opt_token_launches(orig, k, f, ls.launch, &ls.n, 64, &block_at, why, len))
      return 2;
  }
  /* this kernel's edits, kept apart until they are known to fit among the others' */
  Edits mine = {0};
  Buf *t =
    &edit_new(&mine, f, k->def_start->loc, k->body->end_tok->loc + k->body->end_tok->len)->text;
  const char *def_from = mine.e[0].from, *def_to = mine.e[0].to;
  /* the size macros the printed kernel expanded: tested by the preprocessor; at other values
   * the kernel is the user's text and every launch runs the original */
  Buf cond = {0};
  for (int i = 0; i < km.n; i++)
    if (km.is_int[i] && !sized(plan, km.name[i]))
      buf_printf(&cond, "%s(%s) == %lld", cond.len ? " && " : "", km.name[i], (long long)km.val[i]);
  if (cond.len) buf_printf(t, "#if %s\n", cond.s);
  print_headers(t, &plan->result, 1);
  opt_print_sized(t, v, &plan->sizes); /* the macros kept symbolic by name (sizes.c) */
  if (cond.len) buf_printf(t, "\n#else\n%.*s\n#endif", (int)(def_to - def_from), def_from);
  if (block_at != def_to)
    t = &edit_new(&mine, f, block_at, block_at)
           ->text; /* a block of its own, before the first launching function */
  {
    /* the original, for launches the optimized kernel was not verified for */
    const char *name_at = k->tok->loc;
    buf_puts(t, block_at == def_to ? "\n\n" : "");
    buf_puts(
      t,
      "/* carve: the original kernel, for launches that do not meet the optimized one's assumptions */\n");
    buf_printf(t, "%.*s%s_carve_original%.*s", (int)(name_at - def_from), def_from, kernel,
               (int)(def_to - (name_at + k->tok->len)), name_at + k->tok->len);
    buf_printf(t, "\n\n/* carve: %s was optimized and verified for blocks of (%lld, %lld, %lld)",
               kernel, (long long)block0[0], (long long)block0[1], (long long)block0[2]);
    if (pinned)
      buf_printf(
        t,
        "; it runs (%lld, %lld, %lld)-thread blocks on the grid (%lld, %lld, %lld), for the recorded launch only",
        (long long)plan->block[0], (long long)plan->block[1], (long long)plan->block[2],
        (long long)plan->grid[0], (long long)plan->grid[1], (long long)plan->grid[2]);
    else if (reshape)
      buf_printf(
        t,
        "; it runs (%lld, %lld, %lld)-thread blocks, each covering (%lld, %lld, %lld) threads of the original's grid",
        (long long)plan->block[0], (long long)plan->block[1], (long long)plan->block[2],
        (long long)cover[0], (long long)cover[1], (long long)cover[2]);
    buf_printf(
      t,
      ".\n * carve_fits_%s and carve_args_%s test every assumption it makes; any other launch runs the original */\n",
      kernel, kernel);
    buf_printf(t, "static inline bool carve_fits_%s(dim3 g, dim3 b) {\n", kernel);
    if (cond.len)
      buf_printf(
        t,
        "#if !(%s)\n  return false;   /* the kernel was optimized at other macro values */\n#endif\n",
        cond.s);
    buf_printf(t, "  return b.x == %lldu && b.y == %lldu && b.z == %lldu", (long long)block0[0],
               (long long)block0[1], (long long)block0[2]);
    if (spec & OPT_SPEC_GRID)
      buf_printf(
        t,
        "\n      && g.x == %lldu && g.y == %lldu && g.z == %lldu   /* the grid written into the kernel */",
        (long long)grid0[0], (long long)grid0[1], (long long)grid0[2]);
    else if (reshape)
      for (int d = 0; d < 3; d++)
        if (cover[d] != block0[d])
          buf_printf(
            t,
            "\n      && (unsigned long long)g.%c * b.%c %% %lldull == 0ull   /* whole new blocks */",
            "xyz"[d], "xyz"[d], (long long)cover[d]);
    buf_puts(t, ";\n}\n");
    buf_printf(t, "static inline bool carve_args_%s(", kernel);
    int i = 0;
    for (Obj *q = k->params; q; q = q->next, i++) {
      Buf d = {0};
      print_type_decl(&d, q->ty, fmt("carve_a%d", i));
      buf_printf(t, "%s%s", i ? ", " : "", d.s);
      buf_free(&d);
    }
    buf_puts(t, ") {\n  return true");
    i = 0;
    for (Obj *q = k->params; q; q = q->next, i++) {
      if (val[i]) {
        Type *u = unqual(q->ty);
        if (u->kind == TY_FLOAT) buf_printf(t, "\n      && carve_a%d == (float)%s", i, val[i]);
        else if (u->kind == TY_DOUBLE) buf_printf(t, "\n      && carve_a%d == %s", i, val[i]);
        else buf_printf(t, "\n      && carve_a%d == %s%s", i, val[i], u->is_unsigned ? "u" : "");
        buf_printf(t, "   /* %s as recorded */", q->name);
      }
      if (q->ty->kind != TY_PTR || !(spec & OPT_SPEC_NOALIAS)) continue;
      int j = 0;
      for (Obj *r = k->params; r != q; r = r->next, j++)
        if (r->ty->kind == TY_PTR)
          buf_printf(
            t,
            "\n      && (const void *)carve_a%d != (const void *)carve_a%d   /* %s, %s: __restrict__ */",
            i, j, q->name, r->name);
    }
    buf_puts(t, ";\n}\n");
    if (pinned)
      buf_printf(
        t,
        "static inline dim3 carve_grid_%s(dim3 g, dim3 b) {\n"
        "  (void)g; (void)b;\n  return dim3(%lldu, %lldu, %lldu);   /* the recorded launch's new grid (carve_fits_%s and carve_args_%s pin it) */\n}",
        kernel, (long long)plan->grid[0], (long long)plan->grid[1], (long long)plan->grid[2],
        kernel, kernel);
    else
      buf_printf(
        t,
        "static inline dim3 carve_grid_%s(dim3 g, dim3 b) {\n"
        "  return dim3((unsigned)(((unsigned long long)g.x * b.x + %lldull) / %lldull), (unsigned)(((unsigned long long)g.y * b.y + %lldull) / %lldull),\n"
        "              (unsigned)(((unsigned long long)g.z * b.z + %lldull) / %lldull));\n}",
        kernel, (long long)cover[0] - 1, (long long)cover[0], (long long)cover[1] - 1,
        (long long)cover[1], (long long)cover[2] - 1, (long long)cover[2]);
    if (block_at != def_to) buf_puts(t, "\n\n");
  }
  int rc = 0;
  for (int i = 0; i < ls.n && !rc; i++) {
    Node *n = ls.launch[i];
    Token *name = n->tok, *open = name->next;
    const char *beg[4], *end[4];
    SrcFile *fl = name->file; /* the launch's own source (the kernel's, or one that includes it) */
    if (fl != f && in_file(name, fl) && !follows(k->body->end_tok, name)) {
      snprintf(why, len, "line %d of %s: a launch of '%s' before its definition in %s", name->line,
               fl->name, kernel, f->name);
      rc = 2;
      break;
    }
    int nop = in_file(name, fl) && tok_equal(open, "<<<")
                ? launch_operands(open, fl, beg, end, why, len)
                : -1;
    if (nop < 0 && in_file(name, fl) && !tok_equal(open, "<<<"))
      snprintf(why, len, "line %d: a templated launch of '%s'", name->line, kernel);
    if (nop < 0 && !in_file(name, fl))
      snprintf(why, len, "a launch of '%s' inside a macro", kernel);
    Token *close = nop > 0 ? past_close(open, "<<<", ">>>") : NULL;
    Token *after = close && tok_equal(close, "(") ? past_close(close, "(", ")") : NULL;
    if (nop < 2 || !after || !in_file(after->prev ? after->prev : close, fl)) {
      if (nop >= 0) snprintf(why, len, "line %d: the launch could not be read", name->line);
      rc = 2;
      break;
    }
    if (!args_pure(close, after, fl)) {
      snprintf(
        why, len,
        "line %d: a launch argument may have a side effect (an increment, an assignment or a call: it would be evaluated twice)",
        name->line);
      rc = 2;
      break;
    }
    const char *args_from = close->loc, *args_to = after->prev->loc + after->prev->len;
    Edit *e = edit_new(&mine, fl, name->loc, args_to);
    Buf rest = {0}; /* ", shmem, stream" as written */
    for (int j = 2; j < nop; j++) buf_printf(&rest, ", %.*s", (int)(end[j] - beg[j]), beg[j]);
    int G = (int)(end[0] - beg[0]), B = (int)(end[1] - beg[1]), A = (int)(args_to - args_from);
    buf_printf(&e->text, "(carve_fits_%s(dim3(%.*s), dim3(%.*s)) && carve_args_%s%.*s ? ", kernel,
               G, beg[0], B, beg[1], kernel, A, args_from);
    if (reshape)
      buf_printf(
        &e->text,
        "(void)(%s<<<carve_grid_%s(dim3(%.*s), dim3(%.*s)), dim3(%lld, %lld, %lld)%s>>>%.*s)",
        kernel, kernel, G, beg[0], B, beg[1], (long long)plan->block[0], (long long)plan->block[1],
        (long long)plan->block[2], rest.s ? rest.s : "", A, args_from);
    else
      buf_printf(&e->text, "(void)(%s<<<%.*s, %.*s%s>>>%.*s)", kernel, G, beg[0], B, beg[1],
                 rest.s ? rest.s : "", A, args_from);
    buf_printf(&e->text, " : (void)(%s_carve_original<<<%.*s, %.*s%s>>>%.*s))", kernel, G, beg[0],
               B, beg[1], rest.s ? rest.s : "", A, args_from);
    buf_free(&rest);
  }
  for (int i = 0; i < mine.n && !rc && !several; i++)
    if (mine.e[i].file != main)
      snprintf(why, len, "'%s' is defined in %s, another source than %s (-o DIR writes both)",
               kernel, mine.e[i].file->name, main->name),
        rc = 2;
  for (int i = 0; i < mine.n && !rc; i++) {
    for (int j = 0; j < i && !rc; j++)
      if (edits_clash(&mine.e[i], &mine.e[j])) {
        snprintf(why, len, "a launch of '%s' inside its own definition", kernel);
        rc = 2;
      }
    for (int j = 0; j < es->n && !rc; j++)
      if (edits_clash(&mine.e[i], &es->e[j])) {
        snprintf(why, len, "a launch of '%s' inside another kernel's definition", kernel);
        rc = 2;
      }
  }
  if (!rc) {
    Buf *b = head;
    plan_comment(b, plan, file, kernel);
    buf_printf(
      b,
      "/* carve: every launch of %s tests the assumptions above (carve_fits_%s, carve_args_%s): blocks of (%lld, %lld, %lld)",
      kernel, kernel, kernel, (long long)block0[0], (long long)block0[1], (long long)block0[2]);
    if (spec & OPT_SPEC_GRID)
      buf_printf(b, ", the grid (%lld, %lld, %lld)", (long long)grid0[0], (long long)grid0[1],
                 (long long)grid0[2]);
    else if (reshape)
      buf_printf(b,
                 ", a grid whose threads a whole number of (%lld, %lld, %lld)-thread covers span",
                 (long long)cover[0], (long long)cover[1], (long long)cover[2]);
    if (spec & OPT_SPEC_ARGS) buf_puts(b, ", the scalar arguments as recorded");
    if (spec & OPT_SPEC_NOALIAS)
      buf_puts(
        b,
        ", pointer arguments that differ (one buffer passed twice is caught; overlapping parts of one buffer at different addresses are not)");
    if (cond.len) buf_printf(b, ", and at compile time %s", cond.s);
    buf_puts(b, "; any other launch runs the original kernel, kept as ");
    buf_printf(b, "%s_carve_original */\n", kernel);
    if (plan->sizes.n) {
      buf_printf(b, "/* carve: %s keeps the size macro%s ", kernel, plan->sizes.n > 1 ? "s" : "");
      sizes_text(b, plan);
      buf_puts(b,
               " by name: at each value verified the program was read again, its launch recorded "
               "there and the two kernels compared on it */\n");
    }
    for (int i = 0; i < km.n; i++)
      if (!km.is_int[i])
        buf_printf(
          b,
          "/* carve: assumes the macro %s expands as it did when optimized (not an integer: not tested) */\n",
          km.name[i]);
    /* said where the user reads it too (bench/holdout4 DIAGNOSIS §1): at any other value of
     * these macros the program runs the original kernel */
    if (cond.len)
      fprintf(stderr,
              "carve optimize: note: the optimized '%s' runs only where %s (the size macros it "
              "was optimized at; at other values the original runs): optimize at the size you "
              "will run\n",
              kernel, cond.s);
    for (int i = 0; i < mine.n; i++) { /* moved into es: the texts are es's now */
      Edit *e = edit_new(es, mine.e[i].file, mine.e[i].from, mine.e[i].to);
      e->text = mine.e[i].text;
      memset(&mine.e[i].text, 0, sizeof mine.e[i].text);
    }
  }
  buf_free(&cond);
  edits_free(&mine);
  return rc;
}

/* f's text with its edits (in es, sorted by position) applied, into b */
static void write_edited(Buf *b, SrcFile *f, const Edits *es) {
  /* the text between the edits as the user wrote it: the tokenizer's copy has its line
   * continuations joined, so positions are mapped back to the file's own text */
  size_t plen = strlen(f->contents), rlen = 0;
  char *raw = read_file(f->name, &rlen);
  size_t *map = raw ? raw_map(f->contents, plen, raw, rlen) : NULL;
  const char *at = f->contents;
  for (int i = 0; i <= es->n; i++) {
    if (i < es->n && es->e[i].file != f) continue;
    const char *to = i < es->n ? es->e[i].from : f->contents + plen;
    if (map)
      buf_printf(b, "%.*s", (int)(map[to - f->contents] - map[at - f->contents]),
                 raw + map[at - f->contents]);
    else buf_printf(b, "%.*s", (int)(to - at), at);
    if (i == es->n) break;
    if (es->e[i].text.s) buf_puts(b, es->e[i].text.s);
    at = es->e[i].to;
  }
  free(map);
  free(raw);
}

int opt_emit_programs(Buf *b, Program *orig, const char *file, OptKernelOut *ks, int nk,
                      OptFileOut **more, int *nmore, char *why, size_t len) {
  /* the file given: the one the front end read by that name (the first token may be an
   * include's) */
  SrcFile *f = NULL, *first = NULL;
  for (int i = 0; i < nk && !first; i++) {
    Obj *k = find_kernel(orig, ks[i].kernel);
    if (k && k->def_start) {
      Token *t = k->def_start;
      while (t->prev) t = t->prev;
      for (; t && t->kind != TK_EOF && !f; t = t->next) {
        if (t->file && !first) first = t->file;
        if (t->file && !strcmp(t->file->name, file)) f = t->file;
      }
    }
  }
  if (!f) f = first;
  /* no kernel placed in a file (template instances): the file of any definition, so the program
   * is written whole, each kernel as written with its reason (kernel_edits) */
  for (Obj *fn = orig->funcs; fn && !f; fn = fn->next)
    if (fn->tok && fn->tok->file && !strcmp(fn->tok->file->name, file)) f = fn->tok->file;
  if (!f) {
    snprintf(why, len, "no kernel of the plans is defined in the program");
    return 2;
  }
  if (nmore) *nmore = 0;
  if (more) *more = NULL;
  Edits es = {0};
  Buf head = {0};
  for (int i = 0; i < nk; i++) {
    ks[i].why[0] = 0;
    ks[i].written = false;
    int r = kernel_edits(&ks[i], orig, file, f, more != NULL, &es, &head);
    ks[i].written = r == 0;
    if (r == 2) {
      plan_comment(&head, ks[i].plan, file, ks[i].kernel);
      buf_printf(
        &head,
        "/* carve: the steps above are not written into the program (%s): %s runs as written */\n",
        ks[i].why, ks[i].kernel);
    }
  }
  /* in file order; a kernel's definition comes before its launches' text or after it */
  for (int i = 1; i < es.n; i++)
    for (int j = i; j > 0 && es.e[j].from < es.e[j - 1].from; j--) {
      Edit x = es.e[j];
      es.e[j] = es.e[j - 1];
      es.e[j - 1] = x;
    }
  if (head.s) buf_puts(b, head.s);
  buf_free(&head);
  write_edited(b, f, &es);
  /* the other sources edited (-o DIR), each once, in the order of their first edit */
  for (int i = 0; more && i < es.n; i++) {
    bool seen = es.e[i].file == f;
    for (int j = 0; j < i && !seen; j++) seen = es.e[j].file == es.e[i].file;
    if (seen) continue;
    *more = realloc(*more, sizeof(OptFileOut) * (size_t)(*nmore + 1));
    if (!*more) {
      fprintf(stderr, "carve: out of memory\n");
      exit(2);
    }
    OptFileOut *o = &(*more)[(*nmore)++];
    o->path = es.e[i].file->name;
    o->rel = NULL;
    char mreal[PATH_MAX], oreal[PATH_MAX];
    if (realpath(f->name, mreal) && realpath(o->path, oreal)) {
      char *slash = strrchr(mreal, '/');
      size_t dl = slash ? (size_t)(slash - mreal) : 0;
      if (slash && !strncmp(oreal, mreal, dl) && oreal[dl] == '/')
        o->rel = arena_strdup(oreal + dl + 1);
    }
    memset(&o->text, 0, sizeof o->text);
    buf_printf(&o->text, "/* carve: edited by carve optimize %s (its header lists the plans) */\n",
               file);
    write_edited(&o->text, es.e[i].file, &es);
  }
  edits_free(&es);
  return 0;
}

int opt_emit_program(Buf *b, const Plan *plan, Program *orig, const char *file, const char *kernel,
                     const int64_t grid0[3], const int64_t block0[3], const char **arg_texts,
                     int nargs, char *why, size_t len) {
  OptKernelOut ko = {.plan = plan, .kernel = kernel, .arg_texts = arg_texts, .nargs = nargs};
  memcpy(ko.grid0, grid0, sizeof ko.grid0);
  memcpy(ko.block0, block0, sizeof ko.block0);
  Buf t = {0};
  int rc = opt_emit_programs(&t, orig, file, &ko, 1, NULL, NULL, why, len);
  if (!rc && ko.why[0]) {
    snprintf(why, len, "%s", ko.why);
    rc = 2;
  }
  if (!rc && t.s) buf_puts(b, t.s);
  buf_free(&t);
  return rc;
}

/* the kernels' names and what was kept of each, one line (several kernels in one output) */
void opt_emit_summary(FILE *out, const OptKernelOut *ks, int n, const char *out_path) {
  fprintf(out, "carve optimize: one output%s%s for %d kernels:", out_path ? " " : "",
          out_path ? out_path : "", n);
  for (int i = 0; i < n; i++) {
    Buf kept = {0};
    for (int j = 0; j < ks[i].plan->nsteps; j++)
      if (plan_step_kept(&ks[i].plan->steps[j]))
        buf_printf(&kept, "%s%s", kept.len ? ", " : "", ks[i].plan->steps[j].pass->name);
    fprintf(out, "%s %s (%s)", i ? ";" : "", ks[i].kernel,
            ks[i].written  ? kept.s
            : ks[i].why[0] ? "as written: its steps could not be written in"
                           : "nothing kept, as written");
    buf_free(&kept);
  }
  fputc('\n', out);
}

/* s as a JSON string on out, by the one writer (src/json.h) */
static void put_json_string(FILE *out, const char *s) {
  Buf b = {0};
  json_write_string(&b, s);
  fwrite(b.s, 1, b.len, out);
  buf_free(&b);
}

void opt_emit_json(FILE *out, const char *file, const char *arch, const char *out_path,
                   const OptKernelOut *ks, int n, const char *source) {
  fprintf(out, "{\"file\": ");
  put_json_string(out, file);
  if (n == 1) {
    fprintf(out, ", \"kernel\": ");
    put_json_string(out, ks[0].kernel);
  }
  fprintf(out, ", \"arch\": \"%s\", \"output\": ", arch);
  if (out_path) put_json_string(out, out_path);
  else fprintf(out, "null");
  if (n > 1) fprintf(out, ", \"kernels\": [");
  for (int i = 0; i < n; i++) {
    const Plan *plan = ks[i].plan;
    if (n > 1) {
      fprintf(out, "%s{\"kernel\": ", i ? ", " : "");
      put_json_string(out, ks[i].kernel);
      fprintf(out, ", \"written\": %s, \"why\": ", ks[i].written ? "true" : "false");
      put_json_string(out, ks[i].why);
      fprintf(out,
              ", \"recorded_grid\": [%lld, %lld, %lld], \"recorded_block\": [%lld, %lld, %lld]",
              (long long)ks[i].grid0[0], (long long)ks[i].grid0[1], (long long)ks[i].grid0[2],
              (long long)ks[i].block0[0], (long long)ks[i].block0[1], (long long)ks[i].block0[2]);
    }
    fprintf(out, ", \"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld]",
            (long long)plan->grid[0], (long long)plan->grid[1], (long long)plan->grid[2],
            (long long)plan->block[0], (long long)plan->block[1], (long long)plan->block[2]);
    /* the size macros the optimized kernel is pinned to (#if in the output), "" when none */
    {
      Obj *k = plan->result ? find_kernel(plan->result, ks[i].kernel) : NULL;
      Buf cond = {0};
      if (k && k->def_start && k->body && k->body->end_tok) {
        KMacros km;
        kernel_macros(plan->result, k, &km);
        for (int j = 0; j < km.n; j++)
          if (km.is_int[j] && !sized(plan, km.name[j]))
            buf_printf(&cond, "%s(%s) == %lld", cond.len ? " && " : "", km.name[j],
                       (long long)km.val[j]);
      }
      fprintf(out, ", \"pinned_sizes\": ");
      put_json_string(out, cond.s ? cond.s : "");
      buf_free(&cond);
      /* the size macros kept by name, each with the values it was verified at (sizes.c) */
      fprintf(out, ", \"symbolic_sizes\": [");
      for (int j = 0; j < plan->sizes.n; j++) {
        fprintf(out, "%s{\"macro\": ", j ? ", " : "");
        put_json_string(out, plan->sizes.name[j]);
        fprintf(out, ", \"optimized_at\": %lld, \"verified_at\": [%s]}",
                (long long)plan->sizes.val[j], plan->sizes.verified[j]);
      }
      fprintf(out, "], \"sizes_tried\": ");
      put_json_string(out, plan->sizes.note);
    }
    fprintf(out, ", \"plan\": ");
    fflush(out);
    opt_emit_plan(out, plan, true, true);
    if (n > 1) fprintf(out, "}");
  }
  if (n > 1) fprintf(out, "]");
  if (source) {
    fprintf(out, ", \"source\": ");
    put_json_string(out, source);
  }
  fprintf(out, "}\n");
}

void opt_emit_launch_line(Buf *b, const Plan *plan, const char *kernel, int64_t dyn_shared) {
  buf_printf(
    b,
    "\n/* carve: the launch the kernel was optimized and verified for (its buffers and scalars: the same --arg flags) */\n"
    "#pragma carve launch %s grid(%lld, %lld, %lld) block(%lld, %lld, %lld)",
    kernel, (long long)plan->grid[0], (long long)plan->grid[1], (long long)plan->grid[2],
    (long long)plan->block[0], (long long)plan->block[1], (long long)plan->block[2]);
  if (dyn_shared > 0) buf_printf(b, " shared(%lld)", (long long)dyn_shared);
  buf_puts(b, "\n");
}
