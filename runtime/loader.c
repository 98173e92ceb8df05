/* The generic loader for compiled braze libraries (see include/braze/runtime.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* strdup, dlopen: callers may build this with plain -std=c11 */
#endif
#include "braze/runtime.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct BrazeLibrary {
  void *handle;
  BrazeEntry *entries;
  size_t num_entries;
};

size_t braze_rt_dtype_size(int dtype) {
  switch (dtype) {
  case BRAZE_RT_F32:
  case BRAZE_RT_I32:
  case BRAZE_RT_U32:
    return 4;
  case BRAZE_RT_F16:
  case BRAZE_RT_BF16:
  case BRAZE_RT_I16:
  case BRAZE_RT_U16:
    return 2;
  case BRAZE_RT_I64:
  case BRAZE_RT_F64:
  case BRAZE_RT_U64:
    return 8;
  case BRAZE_RT_I1:
  case BRAZE_RT_I8:
  case BRAZE_RT_U8:
    return 1;
  default:
    return 0;
  }
}

const char *braze_rt_dtype_str(int dtype) {
  static const char *const names[] = {"f32", "f16", "bf16", "i32", "i64", "i1", "f64",
                                      "i8",  "ui8", "i16",  "ui16", "ui32", "ui64"};
  return dtype >= 0 && dtype <= BRAZE_RT_U64 ? names[dtype] : NULL;
}

const char *braze_rt_dtype_ctype(int dtype) {
  static const char *const names[] = {"float",  "uint16_t", "uint16_t", "int32_t",  "int64_t",  "bool",    "double",
                                      "int8_t", "uint8_t",  "int16_t",  "uint16_t", "uint32_t", "uint64_t"};
  return dtype >= 0 && dtype <= BRAZE_RT_U64 ? names[dtype] : NULL;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* dlsym of "<entry><suffix>". */
static void *entry_symbol(void *handle, const char *entry, const char *suffix) {
  size_t n = strlen(entry) + strlen(suffix) + 1;
  char *name = malloc(n);
  snprintf(name, n, "%s%s", entry, suffix);
  void *sym = dlsym(handle, name);
  free(name);
  return sym;
}

static bool read_arg(BrazeArgInfo *arg, int dtype, int rank, const int64_t *dims, bool symbolic) {
  if (!braze_rt_dtype_size(dtype) || rank < 0 || rank > BRAZE_ABI_MAX_RANK)
    return false;
  arg->dtype = dtype;
  arg->rank = rank;
  arg->num_elements = 1;
  for (int d = 0; d < BRAZE_ABI_MAX_RANK; ++d) {
    arg->dims[d] = d < rank ? dims[d] : 1;
    if (arg->dims[d] < 0 && !(symbolic && arg->dims[d] == -1))
      return false;
    if (d < rank && arg->dims[d] >= 0)
      arg->num_elements *= arg->dims[d];
  }
  arg->bytes = (size_t)arg->num_elements * braze_rt_dtype_size(dtype);
  return true;
}

static bool read_entry(void *handle, const char *name, BrazeEntry *e, char *err, size_t errlen) {
  const int32_t *nin = entry_symbol(handle, name, "_num_inputs");
  const int32_t *nout = entry_symbol(handle, name, "_num_outputs");
  const int32_t *dtypes = entry_symbol(handle, name, "_arg_dtypes");
  const int32_t *ranks = entry_symbol(handle, name, "_arg_ranks");
  const int64_t *dims = entry_symbol(handle, name, "_arg_dims");
  void *packed = entry_symbol(handle, name, "_packed");
  void *packed_sizes = entry_symbol(handle, name, "_packed_sizes");
  const int32_t *nsym = entry_symbol(handle, name, "_num_symbols");
  const int64_t *bounds = entry_symbol(handle, name, "_symbol_bounds");
  bool symbolic = packed_sizes && nsym && bounds && *nsym == 1;
  if (!nin || !nout || (!packed && !symbolic) || ((*nin + *nout) > 0 && (!dtypes || !ranks || !dims))) {
    set_err(err, errlen, "entry '%s' lacks its ABI tables (not a braze library?)", name);
    return false;
  }
  e->name = strdup(name);
  e->num_inputs = *nin;
  e->num_outputs = *nout;
  int n = *nin + *nout;
  e->args = calloc(n > 0 ? (size_t)n : 1, sizeof *e->args);
  *(void **)&e->packed = symbolic ? NULL : packed; /* object pointer to function pointer, POSIX-style */
  if (symbolic) {
    *(void **)&e->packed_sizes = packed_sizes;
    e->num_symbols = 1;
    memcpy(e->symbol_bounds, bounds, sizeof e->symbol_bounds);
  }
  for (int i = 0; i < n; ++i) {
    if (!read_arg(&e->args[i], dtypes[i], ranks[i], dims + (size_t)i * BRAZE_ABI_MAX_RANK, symbolic)) {
      set_err(err, errlen, "entry '%s': bad table row for argument %d", name, i);
      return false;
    }
  }
  return true;
}

BrazeLibrary *braze_library_open(const char *path, char *err, size_t errlen) {
  /* RTLD_NODELETE: unloading would also unload libomp while its worker threads live. */
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!handle) {
    set_err(err, errlen, "cannot load '%s': %s", path, dlerror());
    return NULL;
  }
  const char *const *names = dlsym(handle, "braze_entry_names");
  if (!names) {
    set_err(err, errlen, "'%s' has no braze_entry_names table (not a braze library?)", path);
    dlclose(handle);
    return NULL;
  }
  BrazeLibrary *lib = calloc(1, sizeof *lib);
  lib->handle = handle;
  size_t n = 0;
  while (names[n])
    ++n;
  lib->entries = calloc(n ? n : 1, sizeof *lib->entries);
  for (size_t i = 0; i < n; ++i) {
    lib->num_entries = i + 1; /* so close() frees a partly read entry */
    if (!read_entry(handle, names[i], &lib->entries[i], err, errlen)) {
      braze_library_close(lib);
      return NULL;
    }
  }
  return lib;
}

void braze_library_close(BrazeLibrary *lib) {
  if (!lib)
    return;
  for (size_t i = 0; i < lib->num_entries; ++i) {
    free(lib->entries[i].name);
    free(lib->entries[i].args);
  }
  free(lib->entries);
  dlclose(lib->handle);
  free(lib);
}

size_t braze_library_num_entries(const BrazeLibrary *lib) { return lib->num_entries; }

const BrazeEntry *braze_library_entry_at(const BrazeLibrary *lib, size_t i) {
  return i < lib->num_entries ? &lib->entries[i] : NULL;
}

const BrazeEntry *braze_library_entry(const BrazeLibrary *lib, const char *name) {
  for (size_t i = 0; i < lib->num_entries; ++i)
    if (strcmp(lib->entries[i].name, name) == 0)
      return &lib->entries[i];
  return NULL;
}

int braze_entry_call(const BrazeEntry *entry, void **args) { return entry->packed ? entry->packed(args) : -1; }

int braze_entry_call_sizes(const BrazeEntry *entry, void **args, const int64_t *sizes) {
  return entry->packed_sizes ? entry->packed_sizes(args, sizes) : -1;
}

void braze_entry_arg_at(const BrazeEntry *entry, int i, const int64_t *sizes, int64_t *dims, size_t *bytes) {
  const BrazeArgInfo *arg = &entry->args[i];
  int64_t n = 1;
  for (int d = 0; d < BRAZE_ABI_MAX_RANK; ++d) {
    dims[d] = arg->dims[d] == -1 && sizes ? sizes[0] : arg->dims[d];
    if (d < arg->rank)
      n *= dims[d];
  }
  *bytes = (size_t)n * braze_rt_dtype_size(arg->dtype);
}

const char *braze_library_last_error(const BrazeLibrary *lib) {
  const char *(*fn)(void);
  *(void **)&fn = dlsym(lib->handle, "braze_last_error");
  return fn ? fn() : "";
}

const char *braze_library_target(const BrazeLibrary *lib) {
  const char *name = dlsym(lib->handle, "braze_target_name");
  return name ? name : "cpu";
}

void *braze_library_symbol(const BrazeLibrary *lib, const char *name) { return dlsym(lib->handle, name); }
