/* The interpreter's driver: binds values to host tensors, walks a function's ops in
 * order, dispatches graph ops to their evaluators, follows func.call and
 * func.call into callees, and collects func.return's operands. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "dialects/graph/symbols.h"
#include "reference/internal.h"
#include "reference/reference.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/strbuf.h"

/* Calls nested deeper than this are reported (recursive graphs have no base case). */
enum { MAX_CALL_DEPTH = 64 };

typedef struct {
  const char *mnemonic;
  RefOpFn fn;
  int min_operands, max_operands; /* -1: any number */
} RefOpEntry;

static const RefOpEntry op_table[] = {
    {"neg", ref_unary, 1, 1}, {"abs", ref_unary, 1, 1}, {"exp", ref_unary, 1, 1}, {"log", ref_unary, 1, 1},
    {"sqrt", ref_unary, 1, 1}, {"rsqrt", ref_unary, 1, 1}, {"tanh", ref_unary, 1, 1},
    {"sigmoid", ref_unary, 1, 1}, {"relu", ref_unary, 1, 1}, {"erf", ref_unary, 1, 1},
    {"silu", ref_unary, 1, 1}, {"gelu", ref_gelu, 1, 1}, {"cast", ref_cast, 1, 1},
    {"sin", ref_unary, 1, 1}, {"cos", ref_unary, 1, 1},
    {"add", ref_binary, 2, 2}, {"sub", ref_binary, 2, 2}, {"mul", ref_binary, 2, 2}, {"div", ref_binary, 2, 2},
    {"max", ref_binary, 2, 2}, {"min", ref_binary, 2, 2}, {"pow", ref_binary, 2, 2},
    {"rem", ref_binary, 2, 2}, {"bitwise_and", ref_bitwise, 2, 2}, {"bitwise_or", ref_bitwise, 2, 2}, {"bitwise_xor", ref_bitwise, 2, 2},
    {"bitwise_not", ref_bitwise, 1, 1},
    {"cmp", ref_cmp, 2, 2}, {"select", ref_select, 3, 3},
    {"reduce_sum", ref_reduce, 1, 1}, {"reduce_mean", ref_reduce, 1, 1}, {"reduce_max", ref_reduce, 1, 1},
    {"reduce_min", ref_reduce, 1, 1}, {"reduce_var", ref_reduce, 1, 1},
    {"softmax", ref_softmax, 1, 1}, {"log_softmax", ref_softmax, 1, 1},
    {"layer_norm", ref_layer_norm, 3, 3}, {"rms_norm", ref_rms_norm, 2, 2}, {"batch_norm", ref_batch_norm, 5, 5},
    {"linear", ref_linear, 3, 3}, {"matmul", ref_matmul, 2, 2}, {"batch_matmul", ref_batch_matmul, 2, 2},
    {"transpose", ref_transpose, 1, 1}, {"broadcast_to", ref_broadcast_to, 1, 1}, {"reshape", ref_reshape, 1, 1},
    {"slice", ref_slice, 1, 1}, {"concat", ref_concat, 2, 2}, {"window", ref_window, 1, 1}, {"constant", ref_constant, 0, 0},
    {"gather", ref_gather, 2, 2}, {"gather_elements", ref_gather_elements, 2, 2},
    {"conv", ref_conv, 2, 2}, {"conv_transpose", ref_conv_transpose, 2, 2},
};

static const RefOpEntry *find_op(const char *mnemonic) {
  for (size_t i = 0; mnemonic && i < sizeof op_table / sizeof *op_table; ++i)
    if (strcmp(op_table[i].mnemonic, mnemonic) == 0)
      return &op_table[i];
  return NULL;
}

/* ---- value environment: an open-addressing map MlirValue -> tensor ----
 * Each slot also records the index of the last op of the block that reads the value,
 * so intermediates are freed as soon as they are dead (large graphs in double
 * precision would otherwise hold every intermediate at once). */

typedef struct {
  const void *key; /* MlirValue.ptr; NULL marks an empty slot */
  BrazeHostTensor tensor;
  bool bound;     /* a tensor is held (false before definition and after the last use) */
  bool owned;     /* false for function arguments (borrowed from the caller) */
  size_t last_use; /* index of the last op reading the value */
} Binding;

typedef struct {
  Binding *slots;
  size_t cap, count;
} Env;

static size_t slot_of(const Env *env, const void *key) {
  size_t h = ((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull;
  size_t i = h & (env->cap - 1);
  while (env->slots[i].key && env->slots[i].key != key)
    i = (i + 1) & (env->cap - 1);
  return i;
}

static void env_grow(Env *env) {
  Env bigger = {calloc(env->cap ? env->cap * 2 : 64, sizeof(Binding)), env->cap ? env->cap * 2 : 64, env->count};
  for (size_t i = 0; i < env->cap; ++i)
    if (env->slots[i].key)
      bigger.slots[slot_of(&bigger, env->slots[i].key)] = env->slots[i];
  free(env->slots);
  *env = bigger;
}

/* The slot of `v`, created empty when missing. */
static Binding *env_slot(Env *env, MlirValue v) {
  if (2 * (env->count + 1) > env->cap)
    env_grow(env);
  Binding *b = &env->slots[slot_of(env, v.ptr)];
  if (!b->key) {
    *b = (Binding){.key = v.ptr};
    env->count++;
  }
  return b;
}

static void env_release(Binding *b) {
  if (b->bound && b->owned)
    braze_tensor_free(&b->tensor);
  b->bound = false;
}

/* Takes ownership of `t` when owned. */
static void env_bind(Env *env, MlirValue v, BrazeHostTensor t, bool owned) {
  Binding *b = env_slot(env, v);
  env_release(b);
  b->tensor = t;
  b->bound = true;
  b->owned = owned;
}

static const BrazeHostTensor *env_get(const Env *env, MlirValue v) {
  if (!env->cap)
    return NULL;
  const Binding *b = &env->slots[slot_of(env, v.ptr)];
  return b->key && b->bound ? &b->tensor : NULL;
}

/* Record, for every value read in `block`, the index of its last reader. */
static void env_note_uses(Env *env, MlirBlock block) {
  size_t index = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), ++index)
    for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i)
      env_slot(env, mlirOperationGetOperand(op, i))->last_use = index;
}

/* Free the operands of op `index` that no later op reads. */
static void env_drop_dead(Env *env, MlirOperation op, size_t index) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i) {
    Binding *b = &env->slots[slot_of(env, mlirOperationGetOperand(op, i).ptr)];
    if (b->key && b->last_use == index)
      env_release(b);
  }
}

static void env_free(Env *env) {
  for (size_t i = 0; i < env->cap; ++i)
    if (env->slots[i].key)
      env_release(&env->slots[i]);
  free(env->slots);
}

/* ---- functions and calls ---- */

static bool eval_func(MlirOperation func, const BrazeHostTensor *inputs, size_t n_in, int depth,
                      BrazeHostTensor **outputs, size_t *n_out);

static MlirType func_type(MlirOperation func) {
  MlirAttribute a = mlirOperationGetAttributeByName(func, braze_ref("function_type"));
  return mlirAttributeIsNull(a) ? (MlirType){NULL} : mlirTypeAttrGetValue(a);
}

/* The func.func named by `op`'s `callee` attribute in the enclosing module. */
static MlirOperation lookup_callee(MlirOperation op, MlirStringRef *name_out) {
  MlirAttribute callee = mlirOperationGetAttributeByName(op, braze_ref("callee"));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee)) {
    ref_fail(op, "expected a flat symbol reference attribute 'callee'");
    return (MlirOperation){NULL};
  }
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  *name_out = name;
  MlirOperation scope = mlirOperationGetParentOperation(op);
  while (!mlirOperationIsNull(scope) && !braze_op_is(scope, "builtin.module"))
    scope = mlirOperationGetParentOperation(scope);
  if (!mlirOperationIsNull(scope)) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(scope, 0));
    for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
      MlirAttribute sym = mlirOperationGetAttributeByName(f, braze_ref("sym_name"));
      if (braze_op_is(f, "func.func") && !mlirAttributeIsNull(sym) &&
          mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
        return f;
    }
  }
  ref_fail(op, "no func.func @%.*s in the module", (int)name.length, name.data);
  return (MlirOperation){NULL};
}

/* A called function (user kernel) is evaluated only when its body is graph ops, calls and a return. */
static bool check_graph_callee(MlirOperation op, MlirOperation callee, MlirStringRef name) {
  MlirRegion body = mlirOperationGetRegion(callee, 0);
  MlirBlock block = mlirRegionGetFirstBlock(body);
  for (MlirOperation o = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    if (braze_is_graph_op(o) || braze_op_is(o, "func.return") || braze_op_is(o, "func.call"))
      continue;
    MlirStringRef what = braze_op_name(o);
    const char *file = "?";
    size_t file_len = 1;
    unsigned line = 0, col = 0;
    braze_location_file_line_col(mlirOperationGetLocation(o), &file, &file_len, &line, &col);
    return ref_fail(op,
                    "unsupported: user kernel @%.*s is not written in the graph dialect ('%.*s' at %.*s:%u:%u); "
                    "the reference interpreter evaluates only graph-dialect callees",
                    (int)name.length, name.data, (int)what.length, what.data, (int)file_len, file, line, col);
  }
  return true;
}

/* The graph side of a user-kernel call (docs/user-kernels.md): buffers are host
 * tensors bound like values; the kernel writes the env's buffers in place. */
static bool eval_buffer_op(MlirOperation op, Env *env, const BrazeHostTensor *const *args) {
  MlirValue res = mlirOperationGetNumResults(op) ? mlirOperationGetResult(op, 0) : (MlirValue){NULL};
  BrazeHostTensor t;
  if (braze_op_is(op, "memref.copy")) {
    BrazeHostTensor *dst = (BrazeHostTensor *)args[1];
    if (!ref_same_shape(args[0], dst) || args[0]->dtype != dst->dtype)
      return ref_fail(op, "copy of %s into %s", ref_type_str(args[0]), ref_type_str(dst));
    memcpy(dst->data, args[0]->data, (size_t)braze_tensor_numel(dst) * sizeof *dst->data);
    return true;
  }
  if (braze_op_is(op, "memref.alloc")) {
    if (!ref_buffer_init(&t, mlirValueGetType(res)))
      return ref_fail(op, "unsupported buffer type (a static memref of f32, f64, f16, bf16, i8, i16, i32, i64, "
                          "ui8, ui16, ui32, ui64 or i1)");
    for (int64_t i = 0, n = braze_tensor_numel(&t); i < n; ++i)
      t.data[i] = braze_dtype_is_float(t.dtype) ? NAN : 0; /* uninitialized: NaN shows reads of it */
  } else if (!braze_tensor_copy(&t, args[0])) {
    return ref_fail(op, "out of memory");
  }
  env_bind(env, res, t, true);
  return true;
}

static bool is_buffer_op(MlirOperation op) {
  return braze_op_is(op, "bufferization.to_buffer") || braze_op_is(op, "bufferization.to_tensor") ||
         braze_op_is(op, "memref.alloc") || braze_op_is(op, "memref.copy");
}

/* func.call: run the callee and bind its results to op's results. */
static bool eval_call(MlirOperation op, Env *env, const BrazeHostTensor *const *args, size_t n_args, int depth) {
  MlirStringRef name;
  MlirOperation callee = lookup_callee(op, &name);
  if (mlirOperationIsNull(callee))
    return false;
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(callee, braze_ref("braze.user_kernel"))))
    return ref_user_kernel_call(op, callee, (BrazeHostTensor *const *)args, n_args);
  if (mlirRegionIsNull(mlirOperationGetRegion(callee, 0)) ||
      mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(callee, 0))))
    return ref_fail(op, "callee @%.*s has no body", (int)name.length, name.data);
  if (!check_graph_callee(op, callee, name))
    return false;
  if (depth + 1 > MAX_CALL_DEPTH)
    return ref_fail(op, "calls nested deeper than %d (recursive call of @%.*s?)", MAX_CALL_DEPTH, (int)name.length,
                    name.data);
  MlirType ftype = func_type(callee);
  if (mlirTypeIsNull(ftype) || mlirFunctionTypeGetNumInputs(ftype) != (intptr_t)n_args ||
      mlirFunctionTypeGetNumResults(ftype) != mlirOperationGetNumResults(op))
    return ref_fail(op, "operand/result counts do not match the signature of @%.*s", (int)name.length, name.data);
  for (size_t i = 0; i < n_args; ++i)
    if (!braze_tensor_matches_type(args[i], mlirFunctionTypeGetInput(ftype, (intptr_t)i)))
      return ref_fail(op, "operand %zu (%s) does not match the type of @%.*s's argument %zu", i, ref_type_str(args[i]),
                      (int)name.length, name.data, i);
  BrazeHostTensor *inputs = malloc((n_args ? n_args : 1) * sizeof *inputs);
  for (size_t i = 0; i < n_args; ++i)
    inputs[i] = *args[i]; /* shallow: the callee only reads them */
  BrazeHostTensor *results = NULL;
  size_t n_results = 0;
  bool ok = eval_func(callee, inputs, n_args, depth + 1, &results, &n_results);
  free(inputs);
  if (!ok) {
    braze_emit(mlirOperationGetLocation(op), BRAZE_DIAG_NOTE, "called from here (@%.*s)", (int)name.length, name.data);
    return false;
  }
  for (size_t i = 0; i < n_results; ++i) {
    MlirValue r = mlirOperationGetResult(op, (intptr_t)i);
    if (!braze_tensor_matches_type(&results[i], mlirValueGetType(r))) {
      braze_tensors_free(results, n_results);
      return ref_fail(op, "result %zu of @%.*s does not match the op's result type", i, (int)name.length, name.data);
    }
    env_bind(env, r, results[i], true);
    results[i].data = NULL; /* moved into env */
  }
  braze_tensors_free(results, n_results);
  return true;
}

/* Round every element of a freshly computed result to its element type. */
static void round_result(BrazeHostTensor *t) {
  int64_t n = braze_tensor_numel(t);
  for (int64_t i = 0; i < n; ++i)
    t->data[i] = braze_dtype_round(t->data[i], t->dtype);
}

/* A collective outside the mesh simulation: the identity over a group of one rank;
 * any larger group needs every rank's operand (braze_reference_run_mesh). */
static bool eval_single_rank_collective(MlirOperation op, Env *env, const BrazeHostTensor *const *args) {
  BrazeMesh mesh;
  bool present = false;
  int axes[BRAZE_MESH_MAX_AXES], num_axes = 0;
  int64_t group = 0;
  BrazeStr why = {0};
  MlirOperation func = braze_enclosing_func(op);
  bool ok = !mlirOperationIsNull(func) && braze_mesh_from_func(func, &mesh, &present, &why) && present &&
            braze_collective_axes(op, &mesh, axes, &num_axes, &group, &why);
  if (!ok)
    ref_fail(op, "%s", why.len ? braze_str_cstr(&why) : "needs the braze.mesh of its function");
  braze_str_free(&why);
  if (!ok)
    return false;
  if (group != 1)
    return ref_fail(op, "a collective over %lld ranks: evaluate the partitioned function on its mesh "
                        "(braze run --mesh, braze check --mesh), at the top level of the function",
                    (long long)group);
  BrazeHostTensor t;
  if (!braze_tensor_copy(&t, args[0]))
    return ref_fail(op, "out of memory");
  env_bind(env, mlirOperationGetResult(op, 0), t, true);
  return true;
}

static bool eval_graph_op(MlirOperation op, Env *env, const BrazeHostTensor *const *args, size_t n_args) {
  if (braze_graph_op_class(op) == GRAPH_COLLECTIVE)
    return n_args == 1 ? eval_single_rank_collective(op, env, args) : ref_fail(op, "expected one operand");
  const RefOpEntry *entry = find_op(braze_graph_op_mnemonic(op));
  if (!entry)
    return ref_fail(op, "unsupported graph op");
  if ((int)n_args < entry->min_operands || (entry->max_operands >= 0 && (int)n_args > entry->max_operands))
    return ref_fail(op, "unexpected number of operands (%zu)", n_args);
  if (mlirOperationGetNumResults(op) != 1)
    return ref_fail(op, "expected exactly one result");
  MlirValue res = mlirOperationGetResult(op, 0);
  BrazeHostTensor result;
  if (!braze_tensor_init_from_type(&result, mlirValueGetType(res))) {
    char why[400];
    braze_tensor_type_refusal(mlirValueGetType(res), why, sizeof why);
    return ref_fail(op, "the result %s", why);
  }
  if (!entry->fn(op, args, n_args, &result)) {
    braze_tensor_free(&result);
    return false;
  }
  round_result(&result);
  env_bind(env, res, result, true);
  return true;
}

/* Look up every operand's tensor; an operand without one was defined outside the
 * function or by an op the interpreter refused. */
static bool gather_operands(MlirOperation op, const Env *env, const BrazeHostTensor ***args_out, size_t *n_out) {
  size_t n = (size_t)mlirOperationGetNumOperands(op);
  const BrazeHostTensor **args = malloc((n ? n : 1) * sizeof *args);
  for (size_t i = 0; i < n; ++i) {
    args[i] = env_get(env, mlirOperationGetOperand(op, (intptr_t)i));
    if (!args[i]) {
      free(args);
      return ref_fail(op, "operand %zu has no value (not a tensor computed in this function)", i);
    }
  }
  *args_out = args;
  *n_out = n;
  return true;
}

/* func.return: deep-copy the returned tensors (a value may be returned twice or be an argument). */
static bool eval_return(MlirOperation op, MlirOperation func, const BrazeHostTensor *const *args, size_t n_args,
                        BrazeHostTensor **outputs, size_t *n_out) {
  MlirType ftype = func_type(func);
  if (mlirTypeIsNull(ftype) || mlirFunctionTypeGetNumResults(ftype) != (intptr_t)n_args)
    return ref_fail(op, "returns %zu values, the function type says otherwise", n_args);
  BrazeHostTensor *outs = calloc(n_args ? n_args : 1, sizeof *outs);
  for (size_t i = 0; i < n_args; ++i) {
    if (!braze_tensor_matches_type(args[i], mlirFunctionTypeGetResult(ftype, (intptr_t)i)) ||
        !braze_tensor_copy(&outs[i], args[i])) {
      braze_tensors_free(outs, i);
      return ref_fail(op, "returned value %zu (%s) does not match the function's result type", i, ref_type_str(args[i]));
    }
  }
  *outputs = outs;
  *n_out = n_args;
  return true;
}

/* Evaluate one op; *returned is set when it was the function's func.return. */
static bool eval_op(MlirOperation op, MlirOperation func, Env *env, int depth, bool *returned,
                    BrazeHostTensor **outputs, size_t *n_out) {
  const BrazeHostTensor **args = NULL;
  size_t n_args = 0;
  if (!gather_operands(op, env, &args, &n_args))
    return false;
  bool ok;
  if (braze_op_is(op, "func.return")) {
    ok = eval_return(op, func, args, n_args, outputs, n_out);
    *returned = ok;
  } else if (braze_op_is(op, "func.call")) {
    ok = eval_call(op, env, args, n_args, depth);
  } else if (braze_is_graph_op(op)) {
    ok = eval_graph_op(op, env, args, n_args);
  } else if (is_buffer_op(op)) {
    ok = eval_buffer_op(op, env, args);
  } else {
    MlirStringRef name = braze_op_name(op);
    ok = false;
    braze_emit_error(mlirOperationGetLocation(op),
                     "reference: unsupported op '%.*s': the reference interpreter evaluates graph ops, func.call, "
                     "func.return and the buffer ops of user-kernel calls",
                     (int)name.length, name.data);
  }
  free(args);
  return ok;
}

static bool bind_arguments(MlirOperation func, MlirBlock body, const BrazeHostTensor *inputs, size_t n_in, Env *env) {
  intptr_t n_args = mlirBlockGetNumArguments(body);
  if (n_args != (intptr_t)n_in)
    return ref_fail(func, "the function takes %ld arguments, %zu inputs were given", (long)n_args, n_in);
  for (size_t i = 0; i < n_in; ++i) {
    MlirValue arg = mlirBlockGetArgument(body, (intptr_t)i);
    if (!braze_tensor_matches_type(&inputs[i], mlirValueGetType(arg))) {
      BrazeHostTensor want;
      if (!braze_tensor_init_from_type(&want, mlirValueGetType(arg)))
        return ref_fail(func, "argument %zu has an unsupported type (expected a static tensor of f32, f64, f16, bf16, "
                              "i8, i16, i32, i64, ui8, ui16, ui32, ui64 or i1)", i);
      ref_fail(func, "input %zu is %s, argument %zu expects %s", i, ref_type_str(&inputs[i]), i, ref_type_str(&want));
      braze_tensor_free(&want);
      return false;
    }
    env_bind(env, arg, inputs[i], false);
  }
  return true;
}

static bool eval_func(MlirOperation func, const BrazeHostTensor *inputs, size_t n_in, int depth,
                      BrazeHostTensor **outputs, size_t *n_out) {
  *outputs = NULL;
  *n_out = 0;
  if (!braze_op_is(func, "func.func"))
    return ref_fail(func, "expected a func.func");
  MlirRegion region = mlirOperationGetRegion(func, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(body))
    return ref_fail(func, "the function has no body");
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    return ref_fail(func, "functions with several blocks are not supported");
  Env env = {0};
  env_note_uses(&env, body);
  bool ok = bind_arguments(func, body, inputs, n_in, &env), returned = false;
  size_t index = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); ok && !returned && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), ++index) {
    ok = eval_op(op, func, &env, depth, &returned, outputs, n_out);
    env_drop_dead(&env, op, index);
  }
  if (ok && !returned)
    ok = ref_fail(func, "the function has no func.return");
  env_free(&env);
  return ok;
}

/* A function with symbolic dims (decision 0029) runs at the sizes its inputs' shapes
 * give: a copy specialized at them. */
static bool run_symbolic(MlirOperation func, const BrazeHostTensor *inputs, size_t n_in, BrazeHostTensor **outputs,
                         size_t *n_out) {
  BrazeSymTable table;
  if (!braze_sym_table_read(func, &table))
    return false;
  int64_t *ranks = calloc(n_in ? n_in : 1, sizeof *ranks);
  int64_t *dims = calloc((n_in ? n_in : 1) * BRAZE_MAX_RANK, sizeof *dims);
  for (size_t i = 0; i < n_in; ++i) {
    ranks[i] = inputs[i].rank;
    for (int d = 0; d < inputs[i].rank && d < BRAZE_MAX_RANK; ++d)
      dims[i * BRAZE_MAX_RANK + (size_t)d] = inputs[i].shape[d];
  }
  int64_t values[BRAZE_MAX_SYMBOLS] = {0};
  BrazeStr why = {0};
  bool ok = braze_sym_bind_shapes(func, &table, (int)n_in, ranks, dims, values, &why);
  free(ranks);
  free(dims);
  if (!ok) {
    ref_fail(func, "cannot size its symbolic dims from the inputs: %s", braze_str_cstr(&why));
    braze_str_free(&why);
    return false;
  }
  MlirOperation copy = mlirOperationClone(func);
  ok = braze_sym_specialize(copy, values) && braze_reference_run(copy, inputs, n_in, outputs, n_out);
  mlirOperationDestroy(copy);
  return ok;
}

bool braze_reference_run(MlirOperation func, const BrazeHostTensor *inputs, size_t n_in, BrazeHostTensor **outputs,
                         size_t *n_out) {
  if (braze_func_has_symbols(func))
    return run_symbolic(func, inputs, n_in, outputs, n_out);
  ref_resources_begin();
  bool ok = eval_func(func, inputs, n_in, 0, outputs, n_out);
  ref_resources_end();
  return ok;
}

/* ---- the mesh simulation: every rank's program in lockstep ---- */

/* One collective for all ranks: each rank's operand in, each rank's result bound. */
static bool eval_collective_mesh(MlirOperation op, const BrazeMesh *mesh, Env *envs, int64_t n_ranks) {
  const BrazeHostTensor **args = calloc((size_t)n_ranks, sizeof *args);
  BrazeHostTensor *results = calloc((size_t)n_ranks, sizeof *results);
  MlirValue res = mlirOperationGetResult(op, 0);
  bool ok = mlirOperationGetNumOperands(op) == 1 && mlirOperationGetNumResults(op) == 1;
  if (!ok)
    ref_fail(op, "expected one operand and one result");
  for (int64_t r = 0; ok && r < n_ranks; ++r) {
    args[r] = env_get(&envs[r], mlirOperationGetOperand(op, 0));
    if (!args[r])
      ok = ref_fail(op, "rank %lld: the operand has no value", (long long)r);
    else if (!braze_tensor_init_from_type(&results[r], mlirValueGetType(res)))
      ok = ref_fail(op, "rank %lld: unsupported result type", (long long)r);
  }
  ok = ok && ref_collective(op, mesh, args, results);
  for (int64_t r = 0; r < n_ranks; ++r) {
    if (!ok) {
      braze_tensor_free(&results[r]);
      continue;
    }
    round_result(&results[r]);
    env_bind(&envs[r], res, results[r], true);
  }
  free(args);
  free(results);
  return ok;
}

typedef struct {
  MlirOperation func;
  BrazeMesh mesh;
  int64_t n_ranks;
  Env *envs;
  BrazeHostTensor **outputs;
  size_t *n_outs;
} MeshRun;

/* Evaluate `op` on every rank; *returned once the ranks reached func.return. */
static bool eval_op_mesh(MeshRun *m, MlirOperation op, size_t index, bool *returned) {
  bool ok = true;
  if (braze_graph_op_class(op) == GRAPH_COLLECTIVE)
    ok = eval_collective_mesh(op, &m->mesh, m->envs, m->n_ranks);
  for (int64_t r = 0; ok && r < m->n_ranks && braze_graph_op_class(op) != GRAPH_COLLECTIVE; ++r) {
    ok = eval_op(op, m->func, &m->envs[r], 0, returned, &m->outputs[r], &m->n_outs[r]);
    if (!ok)
      braze_emit(mlirOperationGetLocation(op), BRAZE_DIAG_NOTE, "on rank %lld of the mesh simulation", (long long)r);
  }
  for (int64_t r = 0; r < m->n_ranks; ++r)
    env_drop_dead(&m->envs[r], op, index);
  return ok;
}

static bool mesh_begin(MeshRun *m, MlirBlock body, BrazeHostTensor *const *inputs, size_t n_in) {
  BrazeStr why = {0};
  bool present = false;
  bool ok = braze_mesh_from_func(m->func, &m->mesh, &present, &why);
  if (ok && !present)
    braze_str_puts(&why, "the function has no braze.mesh: partition it first (shard-partition)");
  if (ok && present && braze_mesh_devices(&m->mesh) != m->n_ranks)
    braze_str_printf(&why, "the mesh has %lld devices, %lld ranks' inputs were given",
                     (long long)braze_mesh_devices(&m->mesh), (long long)m->n_ranks);
  if (why.len) {
    ref_fail(m->func, "%s", braze_str_cstr(&why));
    braze_str_free(&why);
    return false;
  }
  for (int64_t r = 0; r < m->n_ranks; ++r) {
    env_note_uses(&m->envs[r], body);
    if (!bind_arguments(m->func, body, inputs[r], n_in, &m->envs[r]))
      return false;
  }
  return true;
}

bool braze_reference_run_mesh(MlirOperation func, int64_t n_ranks, BrazeHostTensor *const *inputs, size_t n_in,
                              BrazeHostTensor **outputs, size_t *n_out) {
  *n_out = 0;
  if (n_ranks < 1 || n_ranks > BRAZE_MESH_MAX_DEVICES)
    return ref_fail(func, "a mesh of %lld ranks; braze simulates 1 to %d", (long long)n_ranks, BRAZE_MESH_MAX_DEVICES);
  MlirBlock body = braze_op_is(func, "func.func") ? mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0))
                                                 : (MlirBlock){NULL};
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    return ref_fail(func, "expected a func.func with one block");
  MeshRun m = {.func = func, .n_ranks = n_ranks, .envs = calloc((size_t)n_ranks, sizeof(Env)), .outputs = outputs,
               .n_outs = calloc((size_t)n_ranks, sizeof(size_t))};
  for (int64_t r = 0; r < n_ranks; ++r)
    outputs[r] = NULL;
  ref_resources_begin();
  bool ok = mesh_begin(&m, body, inputs, n_in), returned = false;
  size_t index = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); ok && !returned && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), ++index)
    ok = eval_op_mesh(&m, op, index, &returned);
  if (ok && !returned)
    ok = ref_fail(func, "the function has no func.return");
  ref_resources_end();
  for (int64_t r = 0; r < n_ranks; ++r) {
    env_free(&m.envs[r]);
    if (!ok) {
      braze_tensors_free(outputs[r], m.n_outs[r]);
      outputs[r] = NULL;
    }
  }
  if (ok)
    *n_out = m.n_outs[0];
  free(m.envs);
  free(m.n_outs);
  return ok;
}
