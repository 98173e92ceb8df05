/* Entry points and their C ABI signatures (docs/decisions/0003-output-abi.md).
 *
 * The split of a destination-passing entry's arguments into inputs and outputs is not
 * visible in its memref signature, so it is read before the pipeline runs, from the
 * graph-level function (arguments in, results out). */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/tensor.h"
#include "targets/target.h"

/* The ABI's dtype codes are the host tensors' dtypes: tools convert by value. */
_Static_assert(BRAZE_RT_F32 == (int)BRAZE_DTYPE_F32 && BRAZE_RT_F16 == (int)BRAZE_DTYPE_F16 &&
                   BRAZE_RT_BF16 == (int)BRAZE_DTYPE_BF16 && BRAZE_RT_I32 == (int)BRAZE_DTYPE_I32 &&
                   BRAZE_RT_I64 == (int)BRAZE_DTYPE_I64 && BRAZE_RT_I1 == (int)BRAZE_DTYPE_I1 &&
                   BRAZE_RT_F64 == (int)BRAZE_DTYPE_F64 && BRAZE_RT_I8 == (int)BRAZE_DTYPE_I8 &&
                   BRAZE_RT_U8 == (int)BRAZE_DTYPE_U8 && BRAZE_RT_I16 == (int)BRAZE_DTYPE_I16 &&
                   BRAZE_RT_U16 == (int)BRAZE_DTYPE_U16 && BRAZE_RT_U32 == (int)BRAZE_DTYPE_U32 &&
                   BRAZE_RT_U64 == (int)BRAZE_DTYPE_U64,
               "ABI dtype codes must match support/tensor.h");

static MlirBlock module_body(MlirOperation module) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
}

static MlirStringRef func_name(MlirOperation func) {
  return mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
}

static MlirType func_type(MlirOperation func) {
  return mlirTypeAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("function_type")));
}

static bool is_entry(MlirOperation op) {
  if (!braze_op_is(op, "func.func"))
    return false;
  MlirAttribute vis = mlirOperationGetAttributeByName(op, braze_ref("sym_visibility"));
  if (!mlirAttributeIsNull(vis) && braze_ref_eq(mlirStringAttrGetValue(vis), "private"))
    return false;
  MlirRegion body = mlirOperationGetRegion(op, 0);
  return !mlirBlockIsNull(mlirRegionGetFirstBlock(body));
}

static bool is_c_identifier(MlirStringRef s) {
  if (s.length == 0 || (s.data[0] >= '0' && s.data[0] <= '9'))
    return false;
  for (size_t i = 0; i < s.length; ++i) {
    char c = s.data[i];
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  }
  return true;
}


/* The graph-level element types of a function with results (arguments then results):
 * graph-to-loops stores unsigned tensors as signless ones, so the ABI reads their
 * signedness here, before the pipeline. */
static void capture_declared(MlirType type, BrazeEntrySig *sig) {
  intptr_t nargs = mlirFunctionTypeGetNumInputs(type), nres = mlirFunctionTypeGetNumResults(type);
  sig->declared = calloc((size_t)(nargs + nres + 1), sizeof *sig->declared);
  for (intptr_t i = 0; i < nargs + nres; ++i) {
    MlirType t = i < nargs ? mlirFunctionTypeGetInput(type, i) : mlirFunctionTypeGetResult(type, i - nargs);
    sig->declared[i] = mlirTypeIsAShaped(t) ? braze_entry_dtype_code(mlirShapedTypeGetElementType(t)) : -1;
  }
}

/* Inputs/outputs of one entry; false (with an error emitted) when unusable. */
static bool capture_one(MlirOperation func, BrazeEntrySig *sig) {
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirStringRef name = func_name(func);
  if (!is_c_identifier(name)) {
    braze_emit_error(loc, "entry function '%.*s' is not a C identifier; the C ABI needs one", (int)name.length,
                     name.data);
    return false;
  }
  MlirType type = func_type(func);
  intptr_t nargs = mlirFunctionTypeGetNumInputs(type), nres = mlirFunctionTypeGetNumResults(type);
  /* An entry already lowered by codegen may end in its workspace argument. */
  if (nres == 0 && nargs > 0 &&
      !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, braze_ref("braze.workspace_bytes"))))
    --nargs;
  int64_t num_inputs = nargs;
  if (nres == 0) {
    MlirAttribute attr = mlirOperationGetAttributeByName(func, braze_ref("braze.num_inputs"));
    if (mlirAttributeIsNull(attr) || !mlirAttributeIsAInteger(attr)) {
      braze_emit_error(loc,
                       "entry '%.*s' has no results: mark how many arguments are inputs with "
                       "braze.num_inputs = N : i64 (the rest are outputs)",
                       (int)name.length, name.data);
      return false;
    }
    num_inputs = mlirIntegerAttrGetValueInt(attr);
    if (num_inputs < 0 || num_inputs > nargs) {
      braze_emit_error(loc, "braze.num_inputs = %lld is out of range for %lld arguments", (long long)num_inputs,
                       (long long)nargs);
      return false;
    }
  }
  sig->name = strndup(name.data, name.length);
  if (nres > 0)
    capture_declared(type, sig);
  sig->num_inputs = (int)num_inputs;
  sig->num_outputs = (int)(nres ? nres : nargs - num_inputs);
  sig->loc = loc;
  return true;
}

bool braze_entries_capture(MlirOperation module, BrazeEntrySet *out) {
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body(module)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_entry(op))
      continue;
    out->items = realloc(out->items, (out->count + 1) * sizeof *out->items);
    BrazeEntrySig *sig = &out->items[out->count];
    memset(sig, 0, sizeof *sig);
    if (capture_one(op, sig))
      out->count++;
    else
      ok = false;
  }
  /* a module of runtime-loops entries only (dynamic-loops.h) has no static entry */
  bool dynamic = !mlirAttributeIsNull(mlirOperationGetAttributeByName(module, braze_ref("braze.dynamic_entries")));
  if (ok && out->count == 0 && !dynamic) {
    braze_emit_error(mlirOperationGetLocation(module), "no entry function: the module needs a public func.func with a body");
    return false;
  }
  return ok;
}

int braze_entry_dtype_code(MlirType t) {
  if (mlirTypeIsAF32(t))
    return BRAZE_RT_F32;
  if (mlirTypeIsAF64(t))
    return BRAZE_RT_F64;
  if (mlirTypeIsAF16(t))
    return BRAZE_RT_F16;
  if (mlirTypeIsABF16(t))
    return BRAZE_RT_BF16;
  if (!mlirTypeIsAInteger(t) || mlirIntegerTypeIsSigned(t))
    return -1;
  bool u = mlirIntegerTypeIsUnsigned(t);
  switch (mlirIntegerTypeGetWidth(t)) {
  case 1: return u ? -1 : BRAZE_RT_I1;
  case 8: return u ? BRAZE_RT_U8 : BRAZE_RT_I8;
  case 16: return u ? BRAZE_RT_U16 : BRAZE_RT_I16;
  case 32: return u ? BRAZE_RT_U32 : BRAZE_RT_I32;
  case 64: return u ? BRAZE_RT_U64 : BRAZE_RT_I64;
  }
  return -1;
}

/* The unsigned code of the same width as signless code `code`, when the graph level
 * declared it unsigned; else `code`. */
static int with_declared_sign(int code, int declared) {
  bool unsigned_declared = declared == BRAZE_RT_U8 || declared == BRAZE_RT_U16 || declared == BRAZE_RT_U32 ||
                           declared == BRAZE_RT_U64;
  if (unsigned_declared && braze_rt_dtype_size(code) == braze_rt_dtype_size(declared) && code != BRAZE_RT_F16 &&
      code != BRAZE_RT_BF16 && code != BRAZE_RT_F32 && code != BRAZE_RT_F64 && code != BRAZE_RT_I1)
    return declared;
  return code;
}

/* A static, identity-layout, default-memory-space memref of a supported dtype. */
static bool read_memref_arg(MlirType t, int declared, BrazeArgInfo *arg) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) || !mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t)))
    return false;
  if (!mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t)))
    return false;
  int code = braze_entry_dtype_code(mlirShapedTypeGetElementType(t));
  if (code >= 0)
    code = with_declared_sign(code, declared);
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (code < 0 || rank > BRAZE_ABI_MAX_RANK)
    return false;
  arg->dtype = code;
  arg->rank = (int)rank;
  arg->num_elements = 1;
  for (int d = 0; d < BRAZE_ABI_MAX_RANK; ++d) {
    arg->dims[d] = d < rank ? mlirShapedTypeGetDimSize(t, d) : 1;
    if (d < rank)
      arg->num_elements *= arg->dims[d];
  }
  arg->bytes = (size_t)arg->num_elements * braze_rt_dtype_size(code);
  return true;
}

static MlirOperation find_func(MlirOperation module, const char *name) {
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body(module)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "func.func") && braze_ref_eq(func_name(op), name))
      return op;
  return (MlirOperation){NULL};
}

/* braze.workspace_bytes = N (N > 0): the argument after the outputs is memref<Nxi8>. */
static bool read_workspace(MlirOperation func, intptr_t n_args, BrazeEntrySig *sig) {
  MlirAttribute attr = mlirOperationGetDiscardableAttributeByName(func, braze_ref("braze.workspace_bytes"));
  sig->workspace_bytes = 0;
  if (mlirAttributeIsNull(attr))
    return true;
  MlirType type = func_type(func);
  MlirType ws = mlirFunctionTypeGetNumInputs(type) == n_args + 1 ? mlirFunctionTypeGetInput(type, n_args)
                                                                   : (MlirType){NULL};
  int64_t bytes = mlirAttributeIsAInteger(attr) ? mlirIntegerAttrGetValueInt(attr) : -1;
  if (bytes <= 0 || mlirTypeIsNull(ws) || !mlirTypeIsAMemRef(ws) || mlirShapedTypeGetRank(ws) != 1 ||
      !mlirTypeIsAInteger(mlirShapedTypeGetElementType(ws)) ||
      mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(ws)) != 8 || mlirShapedTypeGetDimSize(ws, 0) != bytes) {
    braze_emit_error(mlirOperationGetLocation(func),
                     "entry '%s': braze.workspace_bytes must be a positive i64 equal to the size of a last "
                     "memref<Nxi8> argument after the outputs",
                     sig->name);
    return false;
  }
  sig->workspace_bytes = bytes;
  return true;
}

static bool finalize_one(MlirOperation module, BrazeEntrySig *sig) {
  MlirOperation func = find_func(module, sig->name);
  if (mlirOperationIsNull(func)) {
    braze_emit_error(sig->loc, "entry '%s' no longer exists after the pipeline", sig->name);
    return false;
  }
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirType type = func_type(func);
  intptr_t n = sig->num_inputs + sig->num_outputs;
  if (!read_workspace(func, n, sig))
    return false;
  if (mlirFunctionTypeGetNumResults(type) != 0 || mlirFunctionTypeGetNumInputs(type) != n + (sig->workspace_bytes > 0)) {
    braze_emit_error(loc,
                     "entry '%s' after the pipeline must take %lld memrefs (inputs then outputs, then the "
                     "workspace when braze.workspace_bytes is set) and return nothing; did the pipeline run codegen?",
                     sig->name, (long long)n);
    return false;
  }
  free(sig->args);
  sig->args = calloc(n ? (size_t)n : 1, sizeof *sig->args);
  for (intptr_t i = 0; i < n; ++i) {
    if (!read_memref_arg(mlirFunctionTypeGetInput(type, i), sig->declared ? sig->declared[i] : -1, &sig->args[i])) {
      braze_emit_error(loc,
                       "entry '%s' argument %lld: the C ABI needs a static memref of f32, f64, f16, bf16, "
                       "i8, i16, i32, i64, ui8, ui16, ui32, ui64 or i1 with the identity layout",
                       sig->name, (long long)i);
      return false;
    }
  }
  return true;
}

bool braze_entries_finalize(MlirOperation module, BrazeEntrySet *set) {
  bool ok = true;
  for (size_t i = 0; i < set->count; ++i)
    ok = finalize_one(module, &set->items[i]) && ok;
  return ok;
}

void braze_entries_free(BrazeEntrySet *set) {
  for (size_t i = 0; i < set->count; ++i) {
    free(set->items[i].name);
    free(set->items[i].args);
    free(set->items[i].declared);
  }
  free(set->items);
  set->items = NULL;
  set->count = 0;
}
