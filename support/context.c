#include "support/context.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlir-c/Dialect/IRDL.h"
#include "mlir-c/RegisterEverything.h"

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
  if (!load_irdl(ctx, braze_graph_irdl, "graph") || !load_irdl(ctx, braze_kernel_irdl, "kernel")) {
    mlirContextDestroy(ctx);
    return (MlirContext){NULL};
  }
  /* Dialects the passes create ops of; loading them up front keeps parsing of
   * pass output and hand-written tests independent of pass order. */
  static const char *const preload[] = {"func", "arith", "math", "tensor", "linalg", "scf",
                                        "memref", "affine", "vector"};
  for (size_t i = 0; i < sizeof preload / sizeof *preload; ++i)
    mlirContextGetOrLoadDialect(ctx, braze_ref(preload[i]));
  return ctx;
}

void braze_context_destroy(MlirContext ctx) {
  if (!mlirContextIsNull(ctx))
    mlirContextDestroy(ctx);
}

/* The line (0-based) and offset of the first token that is not a comment. */
static size_t first_code_offset(const char *text, size_t len, size_t *line_out) {
  size_t line = 0, i = 0;
  while (i < len) {
    char c = text[i];
    if (c == '\n') {
      ++line;
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
  *line_out = line;
  return i;
}

/* Like mlir-opt, accept files of several top-level ops by wrapping them in a module.
 * The wrapper goes on the comment or blank line just above the first op, so every
 * location in the file stays exact (only when code starts on line 1 do that line's
 * columns shift). */
MlirOperation braze_parse(MlirContext ctx, const char *text, size_t len, const char *source_name) {
  size_t line = 0;
  size_t start = first_code_offset(text, len, &line);
  bool has_module = (len - start >= 6 && strncmp(text + start, "module", 6) == 0) ||
                    (len - start >= 16 && strncmp(text + start, "\"builtin.module\"", 16) == 0);
  if (has_module || start == len)
    return mlirOperationCreateParse(ctx, (MlirStringRef){text, len}, braze_ref(source_name));
  char *wrapped = malloc(len + 16);
  size_t n = 0;
  if (line == 0) {
    memcpy(wrapped, "module {", 8);
    n = 8;
    memcpy(wrapped + n, text, len);
    n += len;
  } else {
    /* Find the start of the line above the first op and replace that line. */
    size_t above = start;
    while (above > 0 && text[above - 1] != '\n')
      --above;
    size_t above_start = above - 1; /* the '\n' ending the line above */
    while (above_start > 0 && text[above_start - 1] != '\n')
      --above_start;
    memcpy(wrapped, text, above_start);
    n = above_start;
    memcpy(wrapped + n, "module {\n", 9);
    n += 9;
    memcpy(wrapped + n, text + above, len - above);
    n += len - above;
  }
  memcpy(wrapped + n, "\n}\n", 3);
  n += 3;
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
