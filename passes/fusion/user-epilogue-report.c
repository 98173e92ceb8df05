/* form-kernels, user kernels: the report's user-kernel section, explain= remarks for
 * (user kernel, consumer) pairs, and freeing the records (see passes/fusion/user-epilogue.h). */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "passes/fusion/user-epilogue.h"
#include "support/context.h"
#include "support/diag.h"

void fu_report_text(BrazeStr *out, const FuRecords *rec, MlirOperation func) {
  if (!rec->count)
    return;
  MlirStringRef fname = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  braze_str_printf(out, "user kernels @%.*s:\n", (int)fname.length, fname.data);
  for (size_t i = 0; i < rec->count; ++i) {
    const FuCall *c = &rec->calls[i];
    braze_str_printf(out, "  call @%s -> %s", c->callee, c->kernel);
    if (c->clone)
      braze_str_printf(out, " (calls @%s)", c->clone);
    braze_str_puts(out, "\n");
    braze_str_puts(out, c->analysis);
    for (size_t k = 0; k < c->num_outs; ++k) {
      const FuOutput *o = &c->outs[k];
      if (!o->num_eps)
        braze_str_printf(out, "  output arg %d: no pointwise consumer\n", o->arg);
      for (size_t e = 0; e < o->num_eps; ++e) {
        const FuEpilogue *ep = &o->eps[e];
        if (ep->reason)
          braze_str_printf(out, "  output arg %d epilogue '%s': refused reason=%s\n", o->arg, ep->consumer, ep->reason);
        else
          braze_str_printf(out, "  output arg %d epilogue '%s': fused\n", o->arg, ep->consumer);
      }
    }
  }
}

static bool label_matches(const char *label, const char *loc_name, const char *name) {
  if (loc_name && !strcmp(loc_name, name))
    return true;
  size_t n = strlen(name);
  for (const char *s = label; s && *s;) {
    const char *end = strchr(s, ',');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    if (len == n && !memcmp(s, name, n))
      return true;
    s = end ? end + 1 : NULL;
  }
  return false;
}

void fu_explain(const FuRecords *rec, const char *a, const char *b) {
  for (size_t i = 0; i < rec->count; ++i) {
    const FuCall *c = &rec->calls[i];
    for (int swap = 0; swap < 2; ++swap) {
      const char *kn = swap ? b : a, *en = swap ? a : b;
      if (!label_matches(c->callee, c->loc_name, kn))
        continue;
      for (size_t k = 0; k < c->num_outs; ++k)
        for (size_t e = 0; e < c->outs[k].num_eps; ++e) {
          const FuEpilogue *ep = &c->outs[k].eps[e];
          if (!label_matches(ep->consumer, ep->loc_name, en))
            continue;
          if (ep->reason)
            braze_emit_remark(ep->loc, "explain: user kernel @%s output arg %d and '%s' not fused: %s", c->callee,
                              c->outs[k].arg, ep->consumer, ep->reason);
          else
            braze_emit_remark(ep->loc, "explain: user kernel @%s output arg %d and '%s' fused into %s", c->callee,
                              c->outs[k].arg, ep->consumer, c->kernel);
        }
      if (!strcmp(a, b))
        break;
    }
  }
}

void fu_records_free(FuRecords *rec) {
  for (size_t i = 0; i < rec->count; ++i) {
    FuCall *c = &rec->calls[i];
    for (size_t k = 0; k < c->num_outs; ++k) {
      for (size_t e = 0; e < c->outs[k].num_eps; ++e) {
        free(c->outs[k].eps[e].consumer);
        free(c->outs[k].eps[e].loc_name);
      }
      free(c->outs[k].eps);
    }
    free(c->outs);
    free(c->callee);
    free(c->kernel);
    free(c->clone);
    free(c->loc_name);
    free(c->analysis);
  }
  free(rec->calls);
  memset(rec, 0, sizeof *rec);
}
