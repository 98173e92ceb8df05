/* The read/write analysis of user kernels (see passes/fusion/user-kernel-effects.h). */
#include "passes/fusion/user-kernel-effects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/build.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

bool uk_is_user_kernel(MlirOperation func) {
  return braze_op_is(func, "func.func") &&
         !mlirAttributeIsNull(mlirOperationGetAttributeByName(func, braze_ref("braze.user_kernel")));
}

MlirOperation uk_callee(MlirOperation call) {
  MlirAttribute callee = mlirOperationGetAttributeByName(call, braze_ref("callee"));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return (MlirOperation){NULL};
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  MlirOperation module = mlirOperationGetParentOperation(call);
  while (!mlirOperationIsNull(module) && !braze_op_is(module, "builtin.module"))
    module = mlirOperationGetParentOperation(module);
  if (mlirOperationIsNull(module))
    return module;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(f, braze_ref("sym_name"));
    if (braze_op_is(f, "func.func") && !mlirAttributeIsNull(sym) && mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
      return f;
  }
  return (MlirOperation){NULL};
}

static bool static_identity_memref(MlirType t) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t))
    return false;
  MlirAttribute layout = mlirMemRefTypeGetLayout(t);
  return mlirAttributeIsNull(layout) || mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t));
}

/* ---- the walk ---- */

typedef struct {
  MlirBlock entry;
  UkInfo *info;
  int only_arg; /* uk_store_sites: collect stores of this argument only (-1: analyse all) */
  UkStore *stores;
  size_t num_stores;
} Walk;

static void add_store(UkStore **stores, size_t *n, MlirOperation op, UkStoreKind kind) {
  *stores = realloc(*stores, (*n + 1) * sizeof **stores);
  (*stores)[(*n)++] = (UkStore){op, kind};
}

static UkStoreKind vector_store_kind(MlirOperation op) {
  MlirType vt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  return mlirTypeIsAVector(vt) && mlirShapedTypeGetRank(vt) == 1 ? UK_STORE_VECTOR : UK_STORE_OTHER;
}

/* How `op` uses its operand `i`, an argument: 'r' read, 's' store site, 'w' other
 * write (masked, transfer), 'a' atomic, 'n' neither (metadata), 'e' escape. */
static char classify_use(MlirOperation op, intptr_t i, UkStoreKind *kind) {
  if (braze_op_is(op, "memref.load") || braze_op_is(op, "vector.load") || braze_op_is(op, "vector.maskedload") ||
      braze_op_is(op, "vector.transfer_read") || braze_op_is(op, "vector.gather"))
    return i == 0 ? 'r' : 'e';
  if (braze_op_is(op, "memref.store")) {
    *kind = UK_STORE_SCALAR;
    return i == 1 ? 's' : 'e';
  }
  if (braze_op_is(op, "vector.store")) {
    *kind = vector_store_kind(op);
    return i == 1 ? 's' : 'e';
  }
  if (braze_op_is(op, "vector.maskedstore") || braze_op_is(op, "vector.scatter"))
    return i == 0 ? 'w' : 'e';
  if (braze_op_is(op, "vector.transfer_write"))
    return i == 1 ? 'w' : 'e';
  if (braze_op_is(op, "memref.atomic_rmw"))
    return i == 1 ? 'a' : 'e';
  if (braze_op_is(op, "memref.generic_atomic_rmw"))
    return i == 0 ? 'a' : 'e';
  if (braze_op_is(op, "memref.dim") || braze_op_is(op, "memref.extract_aligned_pointer_as_index"))
    return 'n';
  return 'e';
}

static void note_use(Walk *w, MlirOperation op, intptr_t i, int arg) {
  UkStoreKind kind = UK_STORE_OTHER;
  char use = classify_use(op, i, &kind);
  if (w->only_arg >= 0) {
    if (arg == w->only_arg && use == 's')
      add_store(&w->stores, &w->num_stores, op, kind);
    return;
  }
  UkArg *a = &w->info->args[arg];
  switch (use) {
  case 'r':
    if (!a->read)
      a->first_read = op;
    a->read = true;
    break;
  case 's':
    a->written = true;
    add_store(&a->stores, &a->num_stores, op, kind);
    break;
  case 'w':
    a->written = true;
    add_store(&a->stores, &a->num_stores, op, UK_STORE_OTHER);
    break;
  case 'a':
    if (!a->atomic)
      a->first_atomic = op;
    a->atomic = a->written = true;
    break;
  case 'e':
    if (!a->escapes)
      a->first_escape = op;
    a->escapes = true;
    break;
  default:
    break;
  }
}

static MlirWalkResult visit(MlirOperation op, void *user) {
  Walk *w = user;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirValueIsABlockArgument(v) && mlirBlockEqual(mlirBlockArgumentGetOwner(v), w->entry))
      note_use(w, op, i, (int)mlirBlockArgumentGetArgNumber(v));
  }
  return MlirWalkResultAdvance;
}

static void form_error(UkInfo *info, MlirOperation op, const char *msg) {
  if (info->error)
    return;
  info->error = strdup(msg);
  info->error_op = op;
}

/* ---- the GPU form (decision 0027) ---- */

bool uk_is_workgroup_memref(MlirType t) {
  if (!mlirTypeIsAMemRef(t))
    return false;
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(t);
  return !mlirAttributeIsNull(space) && cg_attr_text_has(space, "workgroup");
}

bool uk_gpu_launch(MlirOperation func, int64_t grid[3], int64_t block[3], char *why, size_t why_len) {
  MlirAttribute launch = mlirOperationGetAttributeByName(func, braze_ref("braze.gpu_launch"));
  if (mlirAttributeIsNull(launch))
    return false;
  static const char *const keys[2] = {"grid", "block"};
  int64_t *dims[2] = {grid, block};
  if (!mlirAttributeIsADictionary(launch)) {
    snprintf(why, why_len, "braze.gpu_launch must be a dictionary {grid = array<i64: ...>, block = array<i64: ...>}");
    return true;
  }
  for (int k = 0; k < 2; ++k) {
    MlirAttribute a = mlirDictionaryAttrGetElementByName(launch, braze_ref(keys[k]));
    for (int d = 0; d < 3; ++d)
      dims[k][d] = 1;
    intptr_t n = mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ? 0 : mlirDenseArrayGetNumElements(a);
    if (n < 1 || n > 3) {
      snprintf(why, why_len, "braze.gpu_launch needs '%s' as array<i64> of 1 to 3 positive entries", keys[k]);
      return true;
    }
    for (intptr_t d = 0; d < n; ++d) {
      dims[k][d] = mlirDenseI64ArrayGetElement(a, d);
      if (dims[k][d] < 1) {
        snprintf(why, why_len, "braze.gpu_launch '%s' entry %ld is %lld (must be positive)", keys[k], (long)d,
                 (long long)dims[k][d]);
        return true;
      }
    }
  }
  int64_t threads = block[0] * block[1] * block[2];
  if (threads > 1024)
    snprintf(why, why_len, "braze.gpu_launch block has %lld threads (at most 1024)", (long long)threads);
  return true;
}

typedef struct {
  UkInfo *info;
  MlirBlock entry;
  bool gpu;
} FormWalk;

static MlirWalkResult check_form_op(MlirOperation op, void *user) {
  FormWalk *w = user;
  char msg[256];
  MlirStringRef name = braze_op_name(op);
  bool gpu_op = name.length > 4 && !strncmp(name.data, "gpu.", 4);
  bool wg_alloca = braze_op_is(op, "memref.alloca") &&
                   uk_is_workgroup_memref(mlirValueGetType(mlirOperationGetResult(op, 0)));
  if ((gpu_op || wg_alloca) && !w->gpu) {
    snprintf(msg, sizeof msg,
             "uses %.*s%s but has no braze.gpu_launch attribute (GPU ops need the GPU form: docs/user-kernels.md)",
             (int)name.length, name.data, wg_alloca ? " in workgroup memory" : "");
    form_error(w->info, op, msg);
    return MlirWalkResultInterrupt;
  }
  if (!w->gpu)
    return MlirWalkResultAdvance;
  if (braze_op_is(op, "scf.parallel")) {
    form_error(w->info, op,
               "is GPU-form (braze.gpu_launch): scf.parallel is not allowed, the threads are the parallelism");
    return MlirWalkResultInterrupt;
  }
  if (braze_op_is(op, "func.call")) {
    MlirOperation callee = uk_callee(op);
    if (callee.ptr && !mlirAttributeIsNull(mlirOperationGetAttributeByName(callee, braze_ref("braze.gpu_launch")))) {
      form_error(w->info, op, "calls a GPU-form user kernel (a launch inside a thread is not supported)");
      return MlirWalkResultInterrupt;
    }
  }
  if (braze_op_is(op, "memref.alloca")) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    const char *bad = !wg_alloca ? "must be in #gpu.address_space<workgroup>"
                      : !mlirBlockEqual(mlirOperationGetBlock(op), w->entry) ? "must be at the top level of the body"
                      : !mlirShapedTypeHasStaticShape(t) || mlirOperationGetNumOperands(op) != 0
                          ? "must have a static shape"
                          : NULL;
    if (bad) {
      snprintf(msg, sizeof msg, "memref.alloca %s (GPU form: shared memory of the block)", bad);
      form_error(w->info, op, msg);
      return MlirWalkResultInterrupt;
    }
  }
  if (braze_op_is(op, "gpu.shuffle")) {
    MlirValue wv = mlirOperationGetOperand(op, 2);
    if (mlirValueIsAOpResult(wv) && braze_op_is(mlirOpResultGetOwner(wv), "arith.constant")) {
      MlirAttribute c = mlirOperationGetAttributeByName(mlirOpResultGetOwner(wv), braze_ref("value"));
      if (mlirAttributeIsAInteger(c) && (mlirIntegerAttrGetValueInt(c) < 1 || mlirIntegerAttrGetValueInt(c) > 32)) {
        snprintf(msg, sizeof msg, "gpu.shuffle width %lld is not in [1, 32] (a warp is 32 threads)",
                 (long long)mlirIntegerAttrGetValueInt(c));
        form_error(w->info, op, msg);
        return MlirWalkResultInterrupt;
      }
    }
  }
  return MlirWalkResultAdvance;
}

static UkInfo *analyse(MlirOperation func) {
  UkInfo *info = calloc(1, sizeof *info);
  info->func = func;
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  info->name = strndup(name.data, name.length);
  MlirRegion region = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(entry)) {
    form_error(info, func, "has no body");
    return info;
  }
  info->num_args = (int)mlirBlockGetNumArguments(entry);
  info->args = calloc((size_t)info->num_args + 1, sizeof *info->args);
  for (int i = 0; i < info->num_args; ++i) {
    info->args[i].is_memref = static_identity_memref(mlirValueGetType(mlirBlockGetArgument(entry, i)));
    if (!info->args[i].is_memref)
      form_error(info, func, "arguments must be static memrefs with the identity layout");
  }
  MlirAttribute type = mlirOperationGetAttributeByName(func, braze_ref("function_type"));
  if (!mlirAttributeIsNull(type) && mlirFunctionTypeGetNumResults(mlirTypeAttrGetValue(type)) != 0)
    form_error(info, func, "must return nothing (destination-passing style: outputs are arguments)");
  MlirAttribute vis = mlirOperationGetAttributeByName(func, braze_ref("sym_visibility"));
  if (mlirAttributeIsNull(vis) || !braze_ref_eq(mlirStringAttrGetValue(vis), "private"))
    form_error(info, func, "must be private (public functions are graph functions)");
  int64_t grid[3], block[3];
  char why[256] = "";
  info->gpu = uk_gpu_launch(func, grid, block, why, sizeof why);
  if (*why)
    form_error(info, func, why);
  if (info->gpu && uk_gpu_shared_bytes(func) < 0)
    form_error(info, func, "braze.gpu_launch 'shared_bytes' must be a positive integer (the dynamic shared memory's bytes)");
  UkSharedView views[UK_MAX_SHARED_VIEWS];
  int n_views;
  MlirOperation bad;
  if (info->gpu && !uk_shared_views(func, views, &n_views, &bad, why, sizeof why))
    form_error(info, bad, why);
  FormWalk fw = {.info = info, .entry = entry, .gpu = info->gpu};
  mlirOperationWalk(func, check_form_op, &fw, MlirWalkPreOrder);
  Walk w = {.entry = entry, .info = info, .only_arg = -1};
  mlirOperationWalk(func, visit, &w, MlirWalkPreOrder);
  return info;
}

size_t uk_store_sites(MlirOperation func, int arg, UkStore **out) {
  Walk w = {.entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)), .only_arg = arg};
  mlirOperationWalk(func, visit, &w, MlirWalkPreOrder);
  *out = w.stores;
  return w.num_stores;
}

const UkInfo *uk_analyse(UkCache *cache, MlirOperation func) {
  int i = braze_ptrmap_get(&cache->index, braze_ptr_key(func.ptr), -1);
  if (i >= 0)
    return cache->items[i];
  cache->items = realloc(cache->items, (cache->count + 1) * sizeof *cache->items);
  cache->items[cache->count] = analyse(func);
  braze_ptrmap_put(&cache->index, braze_ptr_key(func.ptr), (int)cache->count);
  cache->walks++;
  return cache->items[cache->count++];
}

void uk_cache_free(UkCache *cache) {
  for (size_t i = 0; i < cache->count; ++i) {
    UkInfo *info = cache->items[i];
    for (int a = 0; a < info->num_args; ++a)
      free(info->args[a].stores);
    free(info->args);
    free(info->name);
    free(info->error);
    free(info);
  }
  free(cache->items);
  for (size_t i = 0; i < cache->num_copies; ++i) {
    free(cache->copy_keys[i]);
    free(cache->copy_names[i]);
  }
  free(cache->copy_keys);
  free(cache->copy_names);
  braze_ptrmap_free(&cache->index);
  memset(cache, 0, sizeof *cache);
}

void uk_info_print(const UkInfo *info, BrazeStr *out) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(info->func, 0));
  for (int i = 0; i < info->num_args; ++i) {
    const UkArg *a = &info->args[i];
    braze_str_printf(out, "  arg %d ", i);
    mlirTypePrint(mlirValueGetType(mlirBlockGetArgument(entry, i)), braze_str_callback, out);
    braze_str_puts(out, ":");
    if (a->read)
      braze_str_puts(out, " read");
    if (a->num_stores) {
      size_t vec = 0, other = 0;
      for (size_t s = 0; s < a->num_stores; ++s) {
        vec += a->stores[s].kind == UK_STORE_VECTOR;
        other += a->stores[s].kind == UK_STORE_OTHER;
      }
      braze_str_printf(out, " written(%zu store%s", a->num_stores, a->num_stores == 1 ? "" : "s");
      if (vec)
        braze_str_printf(out, ", %zu vector", vec);
      if (other)
        braze_str_printf(out, ", %zu masked", other);
      braze_str_puts(out, ")");
    }
    if (a->atomic)
      braze_str_puts(out, " atomic");
    if (a->escapes) {
      MlirStringRef what = braze_op_name(a->first_escape);
      braze_str_printf(out, " escapes(%.*s)", (int)what.length, what.data);
    }
    if (!a->read && !a->written && !a->escapes)
      braze_str_puts(out, " unused");
    braze_str_puts(out, "\n");
  }
}
