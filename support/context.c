#include "support/context.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/IRDL.h"
#include "mlir-c/RegisterEverything.h"
#include "support/linalg-arrays.h"
#include "support/nesting.h"

extern const char braze_graph_irdl[];
extern const char braze_kernel_irdl[];

static bool load_irdl(MlirContext ctx, const char *text, const char *what) {
  MlirModule defs = mlirModuleCreateParse(ctx, braze_ref(text));
  if (mlirModuleIsNull(defs)) {
    fprintf(stderr, "braze: internal error: cannot parse the %s dialect definition\n", what);
    return false;
  }
  bool ok = mlirLogicalResultIsSuccess(mlirLoadIRDLDialects(defs));
  mlirModuleDestroy(defs);
  if (!ok)
    fprintf(stderr, "braze: internal error: cannot load the %s dialect\n", what);
  return ok;
}

/* IRDL dialects registered at run time (plugins), loaded into every new context. */
typedef struct {
  const char *name, *text;
} ExtraDialect;
static ExtraDialect *extra_dialects;
static size_t num_extra_dialects;

void braze_context_add_irdl(const char *name, const char *irdl_text) {
  extra_dialects = realloc(extra_dialects, (num_extra_dialects + 1) * sizeof *extra_dialects);
  extra_dialects[num_extra_dialects++] = (ExtraDialect){name, irdl_text};
}

void braze_context_irdl_clear(void) {
  free(extra_dialects);
  extra_dialects = NULL;
  num_extra_dialects = 0;
}

bool braze_context_load_irdl(MlirContext ctx, const char *irdl_text) {
  MlirModule defs = mlirModuleCreateParse(ctx, braze_ref(irdl_text));
  if (mlirModuleIsNull(defs))
    return false;
  bool ok = mlirLogicalResultIsSuccess(mlirLoadIRDLDialects(defs));
  mlirModuleDestroy(defs);
  return ok;
}

MlirContext braze_context_create(void) {
  static bool passes_registered = false;
  if (!passes_registered) {
    mlirRegisterAllPasses();
    passes_registered = true;
  }
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirContextGetOrLoadDialect(ctx, braze_ref("irdl"));
  mlirContextGetOrLoadDialect(ctx, braze_ref("llvm")); /* kernel.tensor_map yields an !llvm.ptr */
  if (!load_irdl(ctx, braze_graph_irdl, "graph") || !load_irdl(ctx, braze_kernel_irdl, "kernel")) {
    mlirContextDestroy(ctx);
    return (MlirContext){NULL};
  }
  for (size_t i = 0; i < num_extra_dialects; ++i) {
    if (!braze_context_load_irdl(ctx, extra_dialects[i].text)) {
      fprintf(stderr, "braze: cannot load the plugin dialect '%s'\n", extra_dialects[i].name);
      mlirContextDestroy(ctx);
      return (MlirContext){NULL};
    }
  }
  /* Dialects the passes create ops of; loading them up front keeps parsing of
   * pass output and hand-written tests independent of pass order. */
  static const char *const preload[] = {"func", "arith", "math", "tensor", "linalg", "scf",
                                        "memref", "affine", "vector", "llvm", "gpu"};
  for (size_t i = 0; i < sizeof preload / sizeof *preload; ++i)
    mlirContextGetOrLoadDialect(ctx, braze_ref(preload[i]));
  return ctx;
}

void braze_context_destroy(MlirContext ctx) {
  if (!mlirContextIsNull(ctx))
    mlirContextDestroy(ctx);
}

/* Skip blanks and // comments from `i`, counting newlines into *line. */
static size_t skip_trivia(const char *text, size_t len, size_t i, size_t *line) {
  while (i < len) {
    char c = text[i];
    if (c == '\n') {
      ++*line;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
      while (i < len && text[i] != '\n')
        ++i;
    } else {
      break;
    }
  }
  return i;
}

/* Whether an attribute or type alias definition (`#name = ...`, `!name = ...`)
 * starts at `i`. */
static bool is_alias_start(const char *text, size_t len, size_t i) {
  if (i >= len || (text[i] != '#' && text[i] != '!'))
    return false;
  size_t j = i + 1;
  while (j < len && (isalnum((unsigned char)text[j]) || text[j] == '_' || text[j] == '.' || text[j] == '$'))
    ++j;
  if (j == i + 1)
    return false;
  while (j < len && (text[j] == ' ' || text[j] == '\t'))
    ++j;
  return j < len && text[j] == '=';
}

/* The end of the alias definition starting at `i`: the first newline at which its
 * brackets are balanced and no string is open. */
static size_t skip_alias(const char *text, size_t len, size_t i, size_t *line) {
  int depth = 0;
  for (; i < len; ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < len && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '-' && i + 1 < len && text[i + 1] == '>') {
      ++i; /* the arrow of a function type or affine map is not a bracket */
    } else if (c == '<' || c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == '\n' && depth <= 0) {
      return i;
    } else if (c == '\n') {
      ++*line;
    }
  }
  return len;
}

/* The offset of the first top-level op (after comments and alias definitions); its
 * 0-based line, and the end of the last alias definition before it (0 if none). */
static size_t first_op_offset(const char *text, size_t len, size_t *line_out, size_t *aliases_end) {
  size_t line = 0, i = 0;
  *aliases_end = 0;
  for (;;) {
    i = skip_trivia(text, len, i, &line);
    if (!is_alias_start(text, len, i))
      break;
    i = skip_alias(text, len, i, &line);
    *aliases_end = i;
  }
  *line_out = line;
  return i;
}

/* Where file-level metadata (`{-# ... #-}`, after the ops) starts, or len. */
static size_t metadata_offset(const char *text, size_t len, size_t from) {
  for (size_t i = from; i + 3 <= len; ++i)
    if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, "{-#", 3) == 0)
      return i;
  return len;
}

static bool starts_module(const char *text, size_t len, size_t i) {
  return (len - i >= 6 && strncmp(text + i, "module", 6) == 0 &&
          (len - i == 6 || !isalnum((unsigned char)text[i + 6]))) ||
         (len - i >= 16 && strncmp(text + i, "\"builtin.module\"", 16) == 0);
}

/* Like mlir-opt, accept files of several top-level ops by wrapping them in a module.
 * Every location in the file stays exact: "module {" replaces the comment or blank
 * line just above the first op, or goes at the end of the alias definition just
 * above it (tokens, not lines, matter to the parser); only when the first op is on
 * line 1 do that line's columns shift. The closing brace goes before any file-level
 * metadata, which must stay outside the module. */
MlirOperation braze_parse(MlirContext ctx, const char *text, size_t len, const char *source_name) {
  if (!braze_nesting_ok(ctx, text, len, source_name) || !braze_linalg_arrays_ok(ctx, text, len, source_name))
    return (MlirOperation){NULL};
  size_t line = 0, aliases_end = 0;
  size_t start = first_op_offset(text, len, &line, &aliases_end);
  if (start == len && aliases_end == 0) /* only comments: an empty module, as mlir-opt gives */
    return mlirOperationCreateParse(ctx, braze_ref("module {\n}"), braze_ref(source_name));
  if (starts_module(text, len, start))
    return mlirOperationCreateParse(ctx, (MlirStringRef){text, len}, braze_ref(source_name));
  size_t line_start = start; /* start of the first op's line */
  while (line_start > 0 && text[line_start - 1] != '\n')
    --line_start;
  size_t open_at, open_end; /* text[open_at, open_end) is replaced by the opening */
  const char *opening;
  if (line == 0) {
    open_at = open_end = 0;
    opening = "module {";
  } else {
    size_t above_start = line_start - 1; /* the '\n' ending the line above */
    while (above_start > 0 && text[above_start - 1] != '\n')
      --above_start;
    if (aliases_end > above_start) { /* the line above ends an alias definition */
      open_at = open_end = line_start - 1;
      opening = " module {";
    } else {
      open_at = above_start;
      open_end = line_start - 1;
      opening = "module {";
    }
  }
  size_t close_at = metadata_offset(text, len, start);
  const char *closing = close_at == len ? "\n}\n" : "} ";
  size_t n_open = strlen(opening), n_close = strlen(closing);
  char *wrapped = malloc(len + n_open + n_close + 1);
  size_t n = 0;
  memcpy(wrapped, text, open_at);
  n = open_at;
  memcpy(wrapped + n, opening, n_open);
  n += n_open;
  memcpy(wrapped + n, text + open_end, close_at - open_end);
  n += close_at - open_end;
  memcpy(wrapped + n, closing, n_close);
  n += n_close;
  memcpy(wrapped + n, text + close_at, len - close_at);
  n += len - close_at;
  MlirOperation op = mlirOperationCreateParse(ctx, (MlirStringRef){wrapped, n}, braze_ref(source_name));
  free(wrapped);
  return op;
}

char *braze_read_file(const char *path, size_t *len_out) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (len + 1 >= cap) {
      cap *= 2;
      buf = realloc(buf, cap);
    }
    size_t got = fread(buf + len, 1, cap - len - 1, f);
    len += got;
    if (got == 0)
      break;
  }
  bool failed = ferror(f);
  if (f != stdin)
    fclose(f);
  if (failed) {
    free(buf);
    return NULL;
  }
  buf[len] = '\0';
  if (len_out)
    *len_out = len;
  return buf;
}

bool braze_write_file(const char *path, const char *data, size_t len) {
  if (strcmp(path, "-") == 0)
    return fwrite(data, 1, len, stdout) == len && fflush(stdout) == 0;
  size_t plen = strlen(path);
  char *tmp = malloc(plen + 16);
  snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    free(tmp);
    return false;
  }
  /* mkstemp creates 0600; give the output the mode a plain fopen would have. */
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  FILE *f = fdopen(fd, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len;
  ok = (f && fclose(f) == 0) && ok;
  if (ok)
    ok = rename(tmp, path) == 0;
  if (!ok)
    unlink(tmp);
  free(tmp);
  return ok;
}

bool braze_ref_eq(MlirStringRef ref, const char *s) {
  size_t n = strlen(s);
  return ref.length == n && memcmp(ref.data, s, n) == 0;
}

MlirStringRef braze_op_name(MlirOperation op) {
  return mlirIdentifierStr(mlirOperationGetName(op));
}

bool braze_op_is(MlirOperation op, const char *name) { return braze_ref_eq(braze_op_name(op), name); }

MlirOperation braze_module_symbol(MlirOperation module, MlirStringRef name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(op, braze_ref("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym) && mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
      return op;
  }
  return (MlirOperation){NULL};
}

typedef struct {
  MlirStringRef name;
  bool found;
} CallSearch;

static MlirWalkResult find_call(MlirOperation op, void *user) {
  CallSearch *s = user;
  if (!braze_op_is(op, "func.call"))
    return MlirWalkResultAdvance;
  MlirAttribute callee = mlirOperationGetAttributeByName(op, braze_ref("callee"));
  if (!mlirAttributeIsNull(callee) && mlirAttributeIsAFlatSymbolRef(callee) &&
      mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(callee), s->name)) {
    s->found = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

bool braze_calls_symbol(MlirOperation root, MlirStringRef name) {
  CallSearch s = {name, false};
  mlirOperationWalk(root, find_call, &s, MlirWalkPreOrder);
  return s.found;
}
