/* User kernels (docs/user-kernels.md, decision 0006): private func.func on static
 * identity-layout memrefs in destination-passing style, marked `braze.user_kernel`,
 * body in scf/arith/math/memref/vector. This is their read/write analysis: per memref
 * argument whether the kernel reads it, writes it (and every store site), writes it
 * atomically, or lets it escape (passed to a call, a view, a copy, any op the analysis
 * does not know). One walk per function, cached by the function op. */
#ifndef BRAZE_PASSES_FUSION_USER_KERNEL_EFFECTS_H
#define BRAZE_PASSES_FUSION_USER_KERNEL_EFFECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

typedef enum {
  UK_STORE_SCALAR, /* memref.store */
  UK_STORE_VECTOR, /* vector.store of a 1-D vector along the last dim */
  UK_STORE_OTHER,  /* vector.maskedstore / transfer_write / scatter / n-D vector store */
} UkStoreKind;

typedef struct {
  MlirOperation op;
  UkStoreKind kind;
} UkStore;

typedef struct {
  bool is_memref;         /* a static memref of identity layout */
  bool read, written, atomic, escapes;
  MlirOperation first_read, first_atomic, first_escape; /* for messages (null: none) */
  UkStore *stores;
  size_t num_stores;
} UkArg;

typedef struct {
  MlirOperation func;
  char *name;
  int num_args;
  UkArg *args;
  /* A form error (not a user kernel braze can call): message and op; NULL when fine. */
  char *error;
  MlirOperation error_op;
  bool gpu; /* GPU form: carries braze.gpu_launch (decision 0027) */
} UkInfo;

typedef struct {
  BrazePtrMap index; /* func op ptr -> items index */
  UkInfo **items;
  size_t count;
  size_t walks; /* functions walked (the cache's misses) */
  /* Epilogue copies made in this run (passes/fusion/user-epilogue.c), shared by calls whose
   * kernel and epilogues are the same: key (kernel, epilogue text) -> copy name. */
  char **copy_keys, **copy_names;
  size_t num_copies;
} UkCache;

/* A func.func carrying the `braze.user_kernel` attribute. */
bool uk_is_user_kernel(MlirOperation func);
/* GPU form (decision 0027): false when `func` has no `braze.gpu_launch`; else true,
 * grid and block (missing entries 1) filled, and `why` a message when the attribute is
 * malformed ("" when fine). */
bool uk_gpu_launch(MlirOperation func, int64_t grid[3], int64_t block[3], char *why, size_t why_len);
/* Dynamic shared memory of the GPU form (docs/user-kernels.md, "Dynamic shared memory"):
 * `braze.gpu_launch = {..., shared_bytes = N}` sizes it, `gpu.dynamic_shared_memory` at
 * the top level gives it as memref<?xi8, workgroup>, and each of its uses is a top-level
 * memref.view with constant byte offset and sizes into a byte range [offset, offset +
 * bytes) aligned to the element, within N and disjoint from every other view's. */
enum { UK_MAX_SHARED_VIEWS = 16 };
typedef struct {
  MlirOperation view;  /* the memref.view */
  int64_t offset, bytes;
  MlirType type;       /* the view's type with its sizes made static (still in workgroup space) */
} UkSharedView;
/* `shared_bytes` of func's braze.gpu_launch: 0 when absent, -1 when not a positive integer. */
int64_t uk_gpu_shared_bytes(MlirOperation func);
/* The views of func's dynamic shared memory, in body order; false with *bad (the op) and
 * `why` on a malformed use. */
bool uk_shared_views(MlirOperation func, UkSharedView views[UK_MAX_SHARED_VIEWS], int *n, MlirOperation *bad,
                     char *why, size_t why_len);
/* A memref type in #gpu.address_space<workgroup>. */
bool uk_is_workgroup_memref(MlirType t);
/* The func.func that `call` (a func.call) names in its module, or null. */
MlirOperation uk_callee(MlirOperation call);
/* The analysis of `func`, computed on first request. */
const UkInfo *uk_analyse(UkCache *cache, MlirOperation func);
void uk_cache_free(UkCache *cache);
/* One line per argument: `arg N memref<...>: read written(K stores) atomic escapes`. */
void uk_info_print(const UkInfo *info, BrazeStr *out);
/* Walk `func` again (no cache) and collect its store sites to argument `arg`. */
size_t uk_store_sites(MlirOperation func, int arg, UkStore **out);

#endif
