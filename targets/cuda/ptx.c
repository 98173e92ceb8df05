/* --dump-kernels for the CUDA target: DIR/KERNEL.ptx for every kernel (.entry) of a
 * module's PTX, so each kernel reads on its own (as the CPU target writes KERNEL.ll).
 * A file holds the module's top-level declarations (.version, .target, globals,
 * shared-memory symbols), its device functions (.func) and that kernel. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "support/context.h"
#include "targets/cuda/cuda-target.h"

typedef struct {
  const char *start;
  size_t len;
  char *entry; /* the kernel's name; NULL for a .func */
} Function;

typedef struct {
  BrazeStr common; /* everything outside functions */
  Function *fns;
  size_t count, cap;
} PtxParts;

static const char *skip_space(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t'))
    ++p;
  return p;
}

static bool starts_word(const char *p, const char *end, const char *word) {
  size_t n = strlen(word);
  return (size_t)(end - p) > n && memcmp(p, word, n) == 0 && isspace((unsigned char)p[n]);
}

/* A line that opens a function definition: [.visible|.weak] (.entry|.func) NAME... */
static bool function_start(const char *line, const char *end, char **entry) {
  const char *p = skip_space(line, end);
  if (starts_word(p, end, ".visible") || starts_word(p, end, ".weak")) {
    while (p < end && !isspace((unsigned char)*p))
      ++p;
    p = skip_space(p, end);
  }
  bool is_entry = starts_word(p, end, ".entry");
  if (!is_entry && !starts_word(p, end, ".func"))
    return false;
  *entry = NULL;
  if (is_entry) {
    p = skip_space(p + 6, end);
    const char *q = p;
    while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '$' || *q == '.'))
      ++q;
    *entry = strndup(p, (size_t)(q - p));
  }
  return true;
}

/* The end of the function that starts at `p`: after its body's closing brace, or
 * NULL for a declaration (a ';' before any '{'). */
static const char *function_end(const char *p, const char *end) {
  int depth = 0;
  bool opened = false;
  for (; p < end; ++p) {
    if (*p == ';' && !opened)
      return NULL;
    if (*p == '{') {
      depth++;
      opened = true;
    } else if (*p == '}' && --depth == 0) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      return nl ? nl + 1 : end;
    }
  }
  return NULL;
}

static void split(MlirStringRef ptx, PtxParts *parts) {
  const char *p = ptx.data, *end = ptx.data + ptx.length;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = nl ? nl + 1 : end;
    char *entry = NULL;
    const char *fn_end = function_start(p, line_end, &entry) ? function_end(p, end) : NULL;
    if (!fn_end) {
      free(entry);
      braze_str_append(&parts->common, p, (size_t)(line_end - p));
      p = line_end;
      continue;
    }
    if (parts->count == parts->cap) {
      parts->cap = parts->cap ? 2 * parts->cap : 8;
      parts->fns = realloc(parts->fns, parts->cap * sizeof *parts->fns);
    }
    parts->fns[parts->count++] = (Function){p, (size_t)(fn_end - p), entry};
    p = fn_end;
  }
}

bool braze_cuda_dump_ptx(MlirStringRef ptx, const char *dir, BrazeStr *error) {
  PtxParts parts = {0};
  split(ptx, &parts);
  bool ok = true;
  for (size_t i = 0; ok && i < parts.count; ++i) {
    if (!parts.fns[i].entry)
      continue;
    BrazeStr text = {0}, path = {0};
    braze_str_append(&text, braze_str_cstr(&parts.common), parts.common.len);
    for (size_t j = 0; j < parts.count; ++j)
      if (!parts.fns[j].entry || j == i)
        braze_str_append(&text, parts.fns[j].start, parts.fns[j].len);
    braze_str_printf(&path, "%s/%s.ptx", dir, parts.fns[i].entry);
    if (!(ok = braze_write_file(path.data, braze_str_cstr(&text), text.len)))
      braze_str_printf(error, "cannot write '%s'", path.data);
    braze_str_free(&text);
    braze_str_free(&path);
  }
  for (size_t i = 0; i < parts.count; ++i)
    free(parts.fns[i].entry);
  free(parts.fns);
  braze_str_free(&parts.common);
  return ok;
}
