/* The braze pass table and the wrapper that turns a BrazePassInfo
 * into an MLIR external pass. */
#include "passes/passes.h"
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

size_t braze_pass_count(void) { return NUM_PASSES; }
const BrazePassInfo *braze_pass_at(size_t i) { return i < NUM_PASSES ? registry[i] : NULL; }

const BrazePassInfo *braze_pass_lookup(const char *argument, size_t len) {
  for (size_t i = 0; i < NUM_PASSES; ++i)
    if (strlen(registry[i]->argument) == len && memcmp(registry[i]->argument, argument, len) == 0)
      return registry[i];
  return NULL;
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

static void pass_run(MlirOperation op, MlirExternalPass pass, void *user_data) {
  SharedPass *shared = user_data;
  if (!shared->info->run(op, shared->state))
    mlirExternalPassSignalFailure(pass);
}

static MlirTypeID pass_type_id(const BrazePassInfo *info) {
  static MlirTypeIDAllocator allocator;
  static MlirTypeID ids[NUM_PASSES ? NUM_PASSES : 1];
  if (!allocator.ptr)
    allocator = mlirTypeIDAllocatorCreate();
  for (size_t i = 0; i < NUM_PASSES; ++i) {
    if (registry[i] != info)
      continue;
    if (mlirTypeIDIsNull(ids[i]))
      ids[i] = mlirTypeIDAllocatorAllocateTypeID(allocator);
    return ids[i];
  }
  /* Passes outside the table (the driver's IR printer) get a fresh id each. */
  return mlirTypeIDAllocatorAllocateTypeID(allocator);
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
