/* The pipeline parser: MLIR's textual pipeline syntax, with braze passes built here
 * and every other element handed to mlirOpPassManagerAddPipeline.
 *
 *   pipeline := element (',' element)*
 *   element  := name ('{' options '}')? ('(' pipeline ')')?
 *
 * An element with a parenthesised pipeline names an op to nest under (func.func(...)).
 * Upstream elements are added one at a time so that --mlir-print-ir-before/after can
 * place braze's IR printer between any two passes. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/passes.h"
#include "support/context.h"

typedef struct {
  const char *text;
  size_t pos, len;
  const BrazeIRPrinting *printing;
  BrazeStr *error;
} Parser;

/* ---- the IR printer inserted by --mlir-print-ir-before/after ---- */

typedef struct {
  char *banner;
} PrintState;

static void *print_create(const BrazePassOptions *opts, BrazeStr *error) {
  (void)error;
  PrintState *s = malloc(sizeof *s);
  s->banner = strdup(opts && opts->count ? opts->items[0].key : "");
  return s;
}

static void print_destroy(void *state) {
  PrintState *s = state;
  free(s->banner);
  free(s);
}

static void print_to_stderr(MlirStringRef piece, void *user_data) {
  (void)user_data;
  fwrite(piece.data, 1, piece.length, stderr);
}

static bool print_run(MlirOperation op, void *state) {
  PrintState *s = state;
  fprintf(stderr, "// -----// IR Dump %s //----- //\n", s->banner);
  mlirOperationPrint(op, print_to_stderr, NULL);
  fputs("\n\n", stderr);
  return true;
}

static const BrazePassInfo print_ir_pass = {
    "braze-print-ir", "Print the IR (inserted by --mlir-print-ir-before/after)", "", "",
    print_create, print_destroy, print_run};

static bool name_in_list(const char *list, const char *name, size_t len) {
  if (!list)
    return false;
  for (const char *p = list; *p;) {
    const char *comma = strchr(p, ',');
    size_t n = comma ? (size_t)(comma - p) : strlen(p);
    if (n == len && memcmp(p, name, len) == 0)
      return true;
    if (!comma)
      break;
    p = comma + 1;
  }
  return false;
}

static void add_printer(MlirOpPassManager pm, const char *when, const char *name, size_t len) {
  char banner[256];
  snprintf(banner, sizeof banner, "%s %.*s", when, (int)len, name);
  /* The banner travels as the printer's single bare option. */
  BrazeOption opt = {banner, NULL};
  BrazePassOptions opts = {&opt, 1};
  MlirPass printer = braze_pass_create(&print_ir_pass, &opts, NULL);
  mlirOpPassManagerAddOwnedPass(pm, printer);
}

/* ---- parsing ---- */

static void skip_space(Parser *p) {
  while (p->pos < p->len && isspace((unsigned char)p->text[p->pos]))
    p->pos++;
}

static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.'; }

/* Find the matching close bracket for the open one at p->pos. */
static bool skip_balanced(Parser *p, char open, char close) {
  int depth = 0;
  for (; p->pos < p->len; p->pos++) {
    char c = p->text[p->pos];
    if (c == open)
      depth++;
    else if (c == close && --depth == 0) {
      p->pos++;
      return true;
    }
  }
  braze_str_printf(p->error, "unbalanced '%c' in pass pipeline", open);
  return false;
}

static void append_error(MlirStringRef piece, void *user_data) {
  braze_str_append((BrazeStr *)user_data, piece.data, piece.length);
}

static bool parse_pipeline(Parser *p, MlirOpPassManager pm, const char *anchor);

static bool add_braze_pass(Parser *p, MlirOpPassManager pm, const char *anchor,
                           const BrazePassInfo *info, const char *opts_text, size_t opts_len) {
  /* Implicit nesting: a func.func pass written at module level runs on every function. */
  bool nest = *info->anchor && strcmp(info->anchor, anchor) != 0;
  if (nest && strcmp(anchor, "builtin.module") != 0) {
    braze_str_printf(p->error, "pass '%s' runs on '%s' and cannot be nested under '%s'",
                     info->argument, info->anchor, anchor);
    return false;
  }
  BrazePassOptions opts;
  if (!braze_options_parse(opts_text, opts_len, &opts, p->error))
    return false;
  MlirPass pass = braze_pass_create(info, &opts, p->error);
  braze_options_free(&opts);
  if (!pass.ptr)
    return false;
  if (nest)
    pm = mlirOpPassManagerGetNestedUnder(pm, braze_ref(info->anchor));
  mlirOpPassManagerAddOwnedPass(pm, pass);
  return true;
}

static bool parse_element(Parser *p, MlirOpPassManager pm, const char *anchor) {
  skip_space(p);
  size_t name_start = p->pos;
  while (p->pos < p->len && is_name_char(p->text[p->pos]))
    p->pos++;
  size_t name_len = p->pos - name_start;
  const char *name = p->text + name_start;
  if (name_len == 0) {
    braze_str_printf(p->error, "expected a pass or op name at offset %zu of the pass pipeline", name_start);
    return false;
  }
  size_t opts_start = 0, opts_len = 0;
  if (p->pos < p->len && p->text[p->pos] == '{') {
    opts_start = p->pos + 1;
    if (!skip_balanced(p, '{', '}'))
      return false;
    opts_len = p->pos - 1 - opts_start;
  }
  skip_space(p);
  if (p->pos < p->len && p->text[p->pos] == '(') {
    /* Nested pipeline under an op name. */
    char *op_name = strndup(name, name_len);
    MlirOpPassManager nested = mlirOpPassManagerGetNestedUnder(pm, braze_ref(op_name));
    p->pos++;
    bool ok = parse_pipeline(p, nested, op_name);
    free(op_name);
    if (!ok)
      return false;
    skip_space(p);
    if (p->pos >= p->len || p->text[p->pos] != ')') {
      braze_str_puts(p->error, "expected ')' in pass pipeline");
      return false;
    }
    p->pos++;
    return true;
  }
  const BrazeIRPrinting *pr = p->printing;
  if (pr && (pr->print_before_all || name_in_list(pr->print_before, name, name_len)))
    add_printer(pm, "Before", name, name_len);
  bool ok;
  const BrazePassInfo *info = braze_pass_lookup(name, name_len);
  if (info) {
    ok = add_braze_pass(p, pm, anchor, info, p->text + opts_start, opts_len);
  } else {
    size_t elem_len = p->pos - name_start;
    char *elem = strndup(name, elem_len);
    BrazeStr upstream_error = {0};
    ok = mlirLogicalResultIsSuccess(
        mlirOpPassManagerAddPipeline(pm, braze_ref(elem), append_error, &upstream_error));
    if (!ok)
      braze_str_printf(p->error, "unknown pass or bad pipeline element '%s'%s%s", elem,
                       upstream_error.len ? ": " : "", braze_str_cstr(&upstream_error));
    braze_str_free(&upstream_error);
    free(elem);
  }
  if (ok && pr && (pr->print_after_all || name_in_list(pr->print_after, name, name_len)))
    add_printer(pm, "After", name, name_len);
  return ok;
}

static bool parse_pipeline(Parser *p, MlirOpPassManager pm, const char *anchor) {
  skip_space(p);
  if (p->pos < p->len && p->text[p->pos] == ')')
    return true; /* empty nested pipeline */
  for (;;) {
    if (!parse_element(p, pm, anchor))
      return false;
    skip_space(p);
    if (p->pos < p->len && p->text[p->pos] == ',') {
      p->pos++;
      continue;
    }
    return true;
  }
}

bool braze_pipeline_build(MlirPassManager pm, const char *pipeline, const BrazeIRPrinting *printing,
                          BrazeStr *error) {
  Parser p = {pipeline, 0, strlen(pipeline), printing, error};
  MlirOpPassManager top = mlirPassManagerGetAsOpPassManager(pm);
  skip_space(&p);
  static const char wrapper[] = "builtin.module(";
  bool wrapped = strncmp(pipeline + p.pos, wrapper, sizeof wrapper - 1) == 0;
  if (wrapped)
    p.pos += sizeof wrapper - 1;
  if (p.pos >= p.len)
    return true;
  if (!parse_pipeline(&p, top, "builtin.module"))
    return false;
  skip_space(&p);
  if (wrapped) {
    if (p.pos >= p.len || pipeline[p.pos] != ')') {
      braze_str_puts(error, "expected ')' closing builtin.module( in pass pipeline");
      return false;
    }
    p.pos++;
    skip_space(&p);
  }
  if (p.pos != p.len) {
    braze_str_printf(error, "unexpected '%c' at offset %zu of the pass pipeline", pipeline[p.pos], p.pos);
    return false;
  }
  return true;
}
