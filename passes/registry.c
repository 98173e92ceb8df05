/* The braze pass table and the wrapper that turns a BrazePassInfo
 * into an MLIR external pass. */
#include "passes/passes.h"
#include "dialects/graph/symbols.h"
#include "mlir-c/BuiltinAttributes.h"
#include "support/diag.h"
#include "support/context.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Every pass in the table, wherever it lives (passes/<stage>/, targets/<target>/codegen/). */
#define BRAZE_PASS(ident) extern const BrazePassInfo braze_pass_##ident;
#include "passes/passes.def"
#undef BRAZE_PASS

static const BrazePassInfo *const registry[] = {
#define BRAZE_PASS(ident) &braze_pass_##ident,
#include "passes/passes.def"
#undef BRAZE_PASS
};
enum { NUM_PASSES = sizeof registry / sizeof *registry };

/* Passes registered at run time (plugins), after the table's, in registration order. */
typedef struct {
  const BrazePassInfo *info;
  const char *origin;
  MlirTypeID id;
} ExtraPass;
static ExtraPass *extras;
static size_t num_extras, cap_extras;

size_t braze_pass_count(void) { return NUM_PASSES + num_extras; }

const BrazePassInfo *braze_pass_at(size_t i) {
  return i < NUM_PASSES ? registry[i] : i < braze_pass_count() ? extras[i - NUM_PASSES].info : NULL;
}

const char *braze_pass_origin_at(size_t i) {
  return i >= NUM_PASSES && i < braze_pass_count() ? extras[i - NUM_PASSES].origin : NULL;
}

const BrazePassInfo *braze_pass_lookup(const char *argument, size_t len) {
  for (size_t i = 0; i < braze_pass_count(); ++i) {
    const BrazePassInfo *info = braze_pass_at(i);
    if (strlen(info->argument) == len && memcmp(info->argument, argument, len) == 0)
      return info;
  }
  return NULL;
}

void braze_pass_register_extra(const BrazePassInfo *info, const char *origin) {
  if (num_extras == cap_extras) {
    cap_extras = cap_extras ? 2 * cap_extras : 8;
    extras = realloc(extras, cap_extras * sizeof *extras);
  }
  extras[num_extras++] = (ExtraPass){info, origin, {NULL}};
}

void braze_pass_extras_clear(void) {
  free(extras);
  extras = NULL;
  num_extras = cap_extras = 0;
}

/* ---- the external-pass wrapper ---- */

/* Pass state shared between a pass and its clones (MLIR clones passes when it
 * runs them on several ops); freed when the last copy is destroyed. */
typedef struct {
  const BrazePassInfo *info;
  void *state;
  int refs;
} SharedPass;

static void pass_construct(void *user_data) { (void)user_data; }

static void pass_destruct(void *user_data) {
  SharedPass *shared = user_data;
  if (--shared->refs > 0)
    return;
  if (shared->info->destroy_state)
    shared->info->destroy_state(shared->state);
  free(shared);
}

static void *pass_clone(void *user_data) {
  SharedPass *shared = user_data;
  shared->refs++;
  return shared;
}

/* Symbolic dims (decision 0029) reach braze's passes only through graph-verify: a
 * target specializes them first (targets/common/dynamic-rows.c). Any other pass on a
 * function with graph.symbols refuses: a remark at the first op that reads a
 * symbolic dim, naming the dim, and an error at the function. */
typedef struct {
  const char *pass;
  bool refused;
} SymbolGate;

static void refuse_symbolic(MlirOperation func, const char *pass) {
  BrazeSymShapes s;
  bool inferred = braze_sym_infer(func, &s);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); inferred && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    const char *m = braze_graph_op_mnemonic(op);
    for (intptr_t i = 0; m && i < mlirOperationGetNumOperands(op); ++i) {
      const BrazeSymShape *sh = braze_sym_shape_of(&s, mlirOperationGetOperand(op, i));
      int64_t c;
      for (intptr_t d = 0; sh && d < sh->rank; ++d)
        if (!braze_sym_is_const(&sh->dim[d], &c)) {
          BrazeStr e = {0};
          braze_sym_print(&sh->dim[d], &s.table, &e);
          braze_emit_remark(mlirOperationGetLocation(op), "%s: 'graph.%s' op operand #%lld dim %lld is %s", pass, m,
                            (long long)i, (long long)d, braze_str_cstr(&e));
          braze_str_free(&e);
          goto done;
        }
    }
  }
done:
  braze_sym_shapes_free(&s);
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  braze_emit_error(mlirOperationGetLocation(func),
                   "%s does not take symbolic dims: @%.*s has graph.symbols (braze compile takes them as row "
                   "blocks; decision 0029)",
                   pass, (int)name.length, name.data);
}

static MlirWalkResult gate_visit(MlirOperation op, void *user) {
  SymbolGate *g = user;
  if (!braze_op_is(op, "func.func"))
    return MlirWalkResultAdvance;
  if (braze_func_has_symbols(op)) {
    refuse_symbolic(op, g->pass);
    g->refused = true;
  }
  return MlirWalkResultSkip;
}

static void pass_run(MlirOperation op, MlirExternalPass pass, void *user_data) {
  SharedPass *shared = user_data;
  if (strcmp(shared->info->argument, "graph-verify") != 0) {
    SymbolGate g = {.pass = shared->info->argument};
    mlirOperationWalk(op, gate_visit, &g, MlirWalkPreOrder);
    if (g.refused) {
      mlirExternalPassSignalFailure(pass);
      return;
    }
  }
  if (!shared->info->run(op, shared->state))
    mlirExternalPassSignalFailure(pass);
}

static MlirTypeID pass_type_id(const BrazePassInfo *info) {
  static MlirTypeIDAllocator allocator;
  static MlirTypeID ids[NUM_PASSES ? NUM_PASSES : 1];
  if (!allocator.ptr)
    allocator = mlirTypeIDAllocatorCreate();
  MlirTypeID *slot = NULL;
  for (size_t i = 0; !slot && i < NUM_PASSES; ++i)
    if (registry[i] == info)
      slot = &ids[i];
  for (size_t i = 0; !slot && i < num_extras; ++i)
    if (extras[i].info == info)
      slot = &extras[i].id;
  /* Passes outside the registry (the driver's IR printer) get a fresh id each. */
  if (!slot)
    return mlirTypeIDAllocatorAllocateTypeID(allocator);
  if (mlirTypeIDIsNull(*slot))
    *slot = mlirTypeIDAllocatorAllocateTypeID(allocator);
  return *slot;
}

MlirPass braze_pass_create(const BrazePassInfo *info, const BrazePassOptions *opts, BrazeStr *error) {
  void *state = NULL;
  if (info->create_state) {
    state = info->create_state(opts, error);
    if (!state)
      return (MlirPass){NULL};
  } else if (opts && opts->count) {
    braze_str_printf(error, "pass '%s' takes no options", info->argument);
    return (MlirPass){NULL};
  }
  SharedPass *shared = malloc(sizeof *shared);
  shared->info = info;
  shared->state = state;
  shared->refs = 1;
  MlirExternalPassCallbacks callbacks = {pass_construct, pass_destruct, NULL, pass_clone, pass_run};
  return mlirCreateExternalPass(pass_type_id(info), braze_ref(info->argument),
                                braze_ref(info->argument), braze_ref(info->summary),
                                braze_ref(info->anchor), 0, NULL, callbacks, shared);
}
