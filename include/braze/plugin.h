/* braze's plugin ABI: passes, named pipelines, dialects and whole targets from a
 * shared library, loaded with `--load-pass-plugin=lib.so` (braze-opt; braze compile,
 * run and check) or listed in BRAZE_PLUGINS (colon-separated). docs/new-hardware.md
 * walks through a plugin; docs/decisions/0013-plugin-abi.md says why it looks so.
 *
 * A plugin includes this header and MLIR's C API only, and defines its entry with
 *
 *   static bool register_all(BrazePluginRegistrar *r) {
 *     return r->register_pass(r, &my_pass) && r->register_pipeline(r, "my-default", "...");
 *   }
 *   BRAZE_PLUGIN("my-plugin", register_all)
 *
 * which exports `braze_plugin_init`. braze calls it once; the first thing it does is
 * declare the ABI version the plugin was built with (BRAZE_PLUGIN_ABI_VERSION below),
 * and braze refuses a plugin of another version, naming both. Registrations are kept
 * aside until the entry returns true and every name is new; on any failure nothing
 * of the plugin stays registered and the library is closed.
 *
 * Everything a plugin hands over (pass infos, targets, strings) must live as long as
 * the process: static storage in the plugin. The registrar itself stays valid after
 * the entry returns, so passes may keep it and call its services (emit, costs). The
 * MLIR C API functions a plugin calls are the ones braze's tools export (the core IR
 * and pass API, linked whole); the MLIR/LLVM version must be the one braze was built
 * against (`braze --version`). */
#ifndef BRAZE_PLUGIN_H
#define BRAZE_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "braze/runtime.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a struct below or the registrar changes its layout or meaning
 * (2: BrazeTargetCosts.vector_registers and vector_ldexp). */
#define BRAZE_PLUGIN_ABI_VERSION 2

/* braze's growable string; plugins write into one only through the registrar's
 * `error` service. */
typedef struct BrazeStr BrazeStr;

/* ---- passes ---- */

/* A pass's options as parsed from `name{key=value key2=a,b flag}` or from the driver
 * flag `--name=key=value`. A bare word is a key with a NULL value. */
typedef struct {
  char *key;
  char *value;
} BrazeOption;

typedef struct {
  BrazeOption *items;
  size_t count;
} BrazePassOptions;

typedef struct BrazePassInfo {
  const char *argument;     /* "graph-decompose": the name in pipelines and the flag */
  const char *summary;      /* one line, shown by --list-passes */
  const char *options_help; /* one "  key=VALUE  what it does" line per option, or "" */
  const char *anchor;       /* op the pass runs on: "func.func" or "builtin.module" */
  /* Build the pass state from its options. On a bad option return NULL and put
   * the reason in *error. May be NULL for passes without state. */
  void *(*create_state)(const BrazePassOptions *options, BrazeStr *error);
  void (*destroy_state)(void *state);
  /* Run on one anchor op. Return false after emitting diagnostics on failure. */
  bool (*run)(MlirOperation op, void *state);
} BrazePassInfo;

/* ---- targets (targets/target.h describes the compile flow) ---- */

/* One entry point of a compiled module and its ABI (docs/decisions/0003-output-abi.md). */
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

/* Facts about the hardware that heuristics (fusion, tiling) read; docs/target-costs.md
 * lists who reads which. `--target-costs=FILE` overrides any of them. */
typedef struct {
  int vector_width_bits; /* widest SIMD register codegen may use (the CPU matmul template's tile) */
  int cache_line_bytes;
  int64_t l2_cache_bytes; /* form-row-chains' per-block scratch */
  int num_cores;          /* 0: ask the runtime at run time */
  /* GPU targets (0 elsewhere): */
  int num_sms; /* streaming multiprocessors */
  int warp_size;
  int max_threads_per_block;
  int64_t shared_mem_per_sm_bytes;
  int64_t shared_mem_per_block_bytes; /* the most one block may use (opt-in maximum) */
  /* SIMD registers of vector_width_bits (the CPU matmul template's accumulators);
   * 0: not known, heuristics assume 32 at 512 bits and 16 below. */
  int vector_registers;
  /* 1: ldexp on vectors is one instruction (AVX-512's vscalefps), so math-approx's exp
   * scales by llvm.ldexp; 0: it would be a libcall per lane, so exp scales by bits. */
  int vector_ldexp;
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

/* ---- the registrar ---- */

typedef enum {
  BRAZE_PLUGIN_ERROR,
  BRAZE_PLUGIN_WARNING,
  BRAZE_PLUGIN_NOTE,
  BRAZE_PLUGIN_REMARK,
} BrazePluginSeverity;

typedef struct BrazePluginRegistrar BrazePluginRegistrar;
struct BrazePluginRegistrar {
  /* Never moves or changes meaning across ABI versions: the entry's first call. */
  bool (*declare)(BrazePluginRegistrar *r, uint32_t plugin_abi_version, const char *plugin_name);
  uint32_t abi_version; /* braze's BRAZE_PLUGIN_ABI_VERSION */

  /* Registration, during braze_plugin_init only. Each returns false (and braze
   * reports why) on a name that exists already or bad input; the entry then returns
   * false too. */
  bool (*register_pass)(BrazePluginRegistrar *r, const BrazePassInfo *pass);
  /* A named pipeline, as the text of a .pipeline file (comments allowed). */
  bool (*register_pipeline)(BrazePluginRegistrar *r, const char *name, const char *text);
  /* An IRDL dialect (`irdl.dialect @name {...}` in a module), loaded into every
   * context braze creates; `name` is the dialect it defines. */
  bool (*register_dialect)(BrazePluginRegistrar *r, const char *name, const char *irdl_text);
  bool (*register_target)(BrazePluginRegistrar *r, const BrazeTarget *target);

  /* Services, valid for the whole process. */
  /* A target by name (built-in, or registered by a plugin loaded earlier), or NULL:
   * a plugin target may reuse another's lowering and emit. */
  const BrazeTarget *(*find_target)(const char *name);
  /* The facts heuristics read: the target being compiled for, with --target-costs
   * applied; `fallback` (a target name) when no target is selected. */
  void (*target_costs)(const char *fallback, BrazeTargetCosts *out);
  /* Append `message` to an error string braze handed over (create_state, lower, emit). */
  void (*error)(BrazeStr *error, const char *message);
  /* Emit a diagnostic at `loc` through braze's sink (printed, or checked by
   * --verify-diagnostics like braze's own). */
  void (*emit)(MlirLocation loc, BrazePluginSeverity severity, const char *message);
};

/* The entry every plugin exports. */
typedef bool (*BrazePluginInitFn)(BrazePluginRegistrar *registrar);
#define BRAZE_PLUGIN_ENTRY "braze_plugin_init"

#if defined(__GNUC__)
#define BRAZE_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define BRAZE_PLUGIN_EXPORT
#endif

/* Define the plugin's entry: declare this header's ABI version and name, then run
 * `register_fn(registrar)`. */
#define BRAZE_PLUGIN(plugin_name, register_fn)                                                                  \
  BRAZE_PLUGIN_EXPORT bool braze_plugin_init(BrazePluginRegistrar *registrar);                                  \
  BRAZE_PLUGIN_EXPORT bool braze_plugin_init(BrazePluginRegistrar *registrar) {                                 \
    return registrar->declare(registrar, BRAZE_PLUGIN_ABI_VERSION, plugin_name) && register_fn(registrar);     \
  }

#ifdef __cplusplus
}
#endif

#endif
