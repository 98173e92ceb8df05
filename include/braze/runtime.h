/* Calling a braze-compiled CPU library from C without its generated header.
 *
 * What a library exports for each entry NAME (docs/decisions/0003-output-abi.md):
 *   int NAME(const T *in0, ..., T *out0, ...);   returns 0 on success (1: out of memory)
 *   int NAME_ws(const T *in0, ..., T *out0, ..., void *workspace);  the caller's scratch
 *   const int64_t NAME_workspace_bytes;          its size (64-byte aligned; 0: pass NULL)
 *   int NAME_packed(void **args);                NAME, pointers in an array
 *   const int32_t NAME_num_inputs, NAME_num_outputs;
 *   const int32_t NAME_arg_dtypes[n];            BrazeRtDType codes, inputs then outputs
 *   const int32_t NAME_arg_ranks[n];
 *   const int64_t NAME_arg_dims[n * BRAZE_ABI_MAX_RANK];  row i: arg i's dims, padded with 1
 * and once per library:
 *   const char *const braze_entry_names[];       NULL-terminated
 * An entry with a symbolic dim s (decision 0029) exports instead of NAME_packed/_ws:
 *   int NAME(const T *in0, ..., T *out0, ..., int64_t s);  3: s out of bounds
 *   int NAME_output_shape(int32_t output, int64_t s, int64_t *dims);
 *   int NAME_packed_sizes(void **args, const int64_t *sizes);
 *   const int32_t NAME_num_symbols;  const int64_t NAME_symbol_bounds[3] (min, max, div)
 *   NAME_arg_dims with -1 for the symbolic dim; and const char *braze_last_error(void).
 *
 * This loader reads those tables (dlopen/dlsym) so `braze run`, `braze check` and any
 * other generic caller can allocate buffers and call an entry. It depends on libc only. */
#ifndef BRAZE_RUNTIME_H
#define BRAZE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element type codes shared by the compiler (which writes them into the tables) and
 * callers. Values are part of the ABI: never renumber. They equal support/tensor.h's
 * BrazeDType (checked at compile time in targets/entries.c). */
typedef enum {
  BRAZE_RT_F32 = 0,
  BRAZE_RT_F16 = 1,  /* uint16_t holding the IEEE half bits */
  BRAZE_RT_BF16 = 2, /* uint16_t holding the bfloat16 bits */
  BRAZE_RT_I32 = 3,
  BRAZE_RT_I64 = 4,
  BRAZE_RT_I1 = 5, /* bool, one byte per element */
  BRAZE_RT_F64 = 6,
  BRAZE_RT_I8 = 7,
  BRAZE_RT_U8 = 8,
  BRAZE_RT_I16 = 9,
  BRAZE_RT_U16 = 10,
  BRAZE_RT_U32 = 11,
  BRAZE_RT_U64 = 12,
} BrazeRtDType;

enum { BRAZE_ABI_MAX_RANK = 8 };

/* Bytes per element; 0 for an unknown code. */
size_t braze_rt_dtype_size(int dtype);
/* "f32", ..., or NULL for an unknown code. */
const char *braze_rt_dtype_str(int dtype);
/* The C type the ABI uses ("float", "uint16_t", ...), or NULL. */
const char *braze_rt_dtype_ctype(int dtype);

typedef struct {
  int dtype;
  int rank;
  int64_t dims[BRAZE_ABI_MAX_RANK];
  int64_t num_elements;
  size_t bytes;
} BrazeArgInfo;

typedef struct {
  char *name;
  int num_inputs, num_outputs;
  BrazeArgInfo *args; /* num_inputs + num_outputs entries; dims -1: the symbolic dim */
  int (*packed)(void **args); /* NULL for an entry with a symbolic dim */
  /* An entry with a symbolic dim (decision 0029): NAME_num_symbols (1), its bounds
   * (min, max, div), NAME_packed_sizes; 0 and NULL otherwise. */
  int num_symbols;
  int64_t symbol_bounds[3];
  int (*packed_sizes)(void **args, const int64_t *sizes);
} BrazeEntry;

typedef struct BrazeLibrary BrazeLibrary;

/* Open a compiled library and read every entry's tables. On failure returns NULL and
 * writes the reason into err (errlen bytes). */
BrazeLibrary *braze_library_open(const char *path, char *err, size_t errlen);
void braze_library_close(BrazeLibrary *lib);
size_t braze_library_num_entries(const BrazeLibrary *lib);
const BrazeEntry *braze_library_entry_at(const BrazeLibrary *lib, size_t i);
/* The entry called `name`, or NULL. */
const BrazeEntry *braze_library_entry(const BrazeLibrary *lib, const char *name);

/* Argument i's dims and bytes at the symbols' sizes (NULL for a static entry). */
void braze_entry_arg_at(const BrazeEntry *entry, int i, const int64_t *sizes, int64_t *dims, size_t *bytes);
/* Call an entry with a symbolic dim at `sizes` (one per symbol); -1 for a static one. */
int braze_entry_call_sizes(const BrazeEntry *entry, void **args, const int64_t *sizes);
/* The library's last size error on this thread (braze_last_error), or "". */
const char *braze_library_last_error(const BrazeLibrary *lib);

/* Call an entry: args holds num_inputs + num_outputs buffer pointers. Returns the
 * entry's status (0 on success). */
int braze_entry_call(const BrazeEntry *entry, void **args);

/* The target the library was compiled for: its `braze_target_name` ("cuda": entry
 * pointers are device pointers, allocated through the library's braze_cuda_*
 * helpers), or "cpu" when it exports none. */
const char *braze_library_target(const BrazeLibrary *lib);
/* Any other symbol the library exports (e.g. "braze_cuda_malloc"), or NULL. */
void *braze_library_symbol(const BrazeLibrary *lib, const char *name);

#ifdef __cplusplus
}
#endif

#endif
