/* The target interface: one struct of hooks per target (cpu, later cuda). Everything
 * target-specific lives behind it; no code outside targets/ asks which target it has.
 *
 * Compiling a module for a target (braze_target_compile):
 *   1. braze_entries_capture: the public functions are the entry points; their
 *      graph-level signature says which arguments are inputs and which are outputs;
 *   2. the pipeline (a named pipeline or a file, pipelines/NAME.pipeline) takes the graph
 *      to target-level IR: kernels and an entry over memrefs, destination-passing;
 *   3. braze_entries_finalize reads each entry's memref arguments (the ABI shapes);
 *   4. target->lower_to_llvm, then target->emit writes the artifacts. */
#ifndef BRAZE_TARGETS_TARGET_H
#define BRAZE_TARGETS_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "braze/runtime.h"
#include "mlir-c/IR.h"
#include "support/strbuf.h"

/* ---- entry points and their ABI (docs/decisions/0003-output-abi.md) ---- */

typedef struct {
  char *name;
  int num_inputs, num_outputs;
  BrazeArgInfo *args; /* inputs then outputs; filled by braze_entries_finalize */
  /* The graph-level dtype code of each input then output (-1: none), or NULL for an
   * entry captured in destination-passing form: an unsigned one names the ABI dtype
   * of the signless memref the pipeline leaves (docs/decisions/0010). */
  int *declared;
  /* Scratch bytes the entry needs: 0, or its last argument is a memref<Nxi8> after
   * the outputs (attribute braze.workspace_bytes = N) that the ABI supplies. */
  int64_t workspace_bytes;
  MlirLocation loc;
} BrazeEntrySig;

typedef struct {
  BrazeEntrySig *items;
  size_t count;
} BrazeEntrySet;

/* Record the entry points of `module`: every public func.func with a body. A function
 * with results has its arguments as inputs and its results as outputs; a function
 * already in destination-passing style (no results) must carry
 * `braze.num_inputs = N : i64`. Emits an error at the function and returns false when
 * an entry is unusable (no C identifier, bad braze.num_inputs). */
bool braze_entries_capture(MlirOperation module, BrazeEntrySet *out);
/* After the pipeline: every entry must be a function over static identity-layout
 * memrefs (inputs then outputs, no results); read their dtypes and shapes. */
bool braze_entries_finalize(MlirOperation module, BrazeEntrySet *set);
void braze_entries_free(BrazeEntrySet *set);

/* ---- artifacts ---- */

typedef enum {
  BRAZE_EMIT_SHARED, /* a .so linked against the target's runtime */
  BRAZE_EMIT_OBJECT, /* a relocatable object */
  BRAZE_EMIT_MLIR,   /* target-level MLIR, after the pipeline */
  BRAZE_EMIT_LLVM,   /* LLVM IR, optimized, ABI wrappers included */
} BrazeEmitKind;

typedef struct {
  BrazeEmitKind kind;
  const char *output;       /* path, "-" for stdout (text kinds only) */
  const char *header;       /* C header path, or NULL for none */
  const char *dump_kernels; /* directory for per-kernel loop IR and LLVM IR, or NULL */
  const char *source_name;  /* the input file, named in the header */
  bool graph_replay;        /* record each entry's launches once and replay them (cuda: --cuda-graphs) */
} BrazeEmitOptions;

/* Facts about the hardware that heuristics (fusion, tiling) read. */
typedef struct {
  int vector_width_bits; /* widest SIMD register codegen may use */
  int cache_line_bytes;
  int64_t l2_cache_bytes;
  int num_cores; /* 0: ask the runtime at run time */
  /* GPU targets (0 elsewhere): */
  int num_sms;                        /* streaming multiprocessors */
  int warp_size;
  int max_threads_per_block;
  int64_t shared_mem_per_sm_bytes;
  int64_t shared_mem_per_block_bytes; /* the most one block may use (opt-in maximum) */
} BrazeTargetCosts;

typedef struct BrazeTarget {
  const char *name;             /* "cpu" */
  const char *description;      /* one line */
  const char *default_pipeline; /* a named pipeline, e.g. "cpu-default" */
  /* The passes that turn kernel-level IR into this target's loop IR, as pipeline
   * text; named pipelines for the target contain it. */
  const char *codegen_pipeline;
  /* Lower target-level IR in place to the LLVM dialect (or the target's equivalent).
   * Emits diagnostics and returns false on failure. */
  bool (*lower_to_llvm)(MlirOperation module, BrazeStr *error);
  /* Write the artifact (and header, kernel dumps) from the lowered module. Writes
   * nothing partial: every output goes to a temp file renamed into place. */
  bool (*emit)(MlirOperation module, const BrazeEntrySet *entries, const BrazeEmitOptions *opts,
               BrazeStr *error);
  /* Fill `costs` for the machine code will run on (the host, for the CPU). */
  void (*query_costs)(BrazeTargetCosts *costs);
  /* The runtime the artifacts need, as linker arguments (NULL-terminated); callers
   * that link a target's objects themselves (-c) pass the same. */
  const char *const *runtime_link_args;
} BrazeTarget;

/* The registry: targets by name. */
const BrazeTarget *braze_target_lookup(const char *name);
size_t braze_target_count(void);
const BrazeTarget *braze_target_at(size_t i);

/* ---- named pipelines (pipelines/NAME.pipeline, embedded at build time) ---- */

/* Resolve a pipeline given by name ("cpu-default") or by file path (anything with a
 * '/' or ending in ".pipeline"): comments ('#' or '//' to end of line) dropped,
 * whitespace collapsed, an outer builtin.module(...) removed. "none" is the empty
 * pipeline. */
bool braze_pipeline_resolve(const char *name_or_path, BrazeStr *text, BrazeStr *error);
size_t braze_pipeline_count(void);
const char *braze_pipeline_name_at(size_t i);

/* ---- the whole flow ---- */

/* Run `pipeline` (resolved text) on `module`, then lower and emit for `target`.
 * `module` is consumed in place. Diagnostics go to the context's sink; other
 * failures are described in *error. */
bool braze_target_compile(const BrazeTarget *target, MlirOperation module, const char *pipeline,
                          const BrazeEmitOptions *opts, BrazeStr *error);

/* Write each kernel function (func.func with kernel.kind) of `module` to DIR/NAME.mlir. */
bool braze_dump_kernels_mlir(MlirOperation module, const char *dir, BrazeStr *error);

#endif
