/* cpu-codegen: kernel-level IR (kernel functions over tensors holding linalg.generic,
 * called from a graph function) -> target-level IR (scf.parallel / scf.for over
 * memrefs, destination-passing kernels, an entry function that allocates
 * intermediates by liveness). The produced IR is specified in docs/architecture.md,
 * "4. target level"; docs/passes.md "## cpu-codegen" describes decisions and options.
 *
 * Options:
 *   reassoc=true|false  fastmath<reassoc,contract> on reduction accumulations (default true;
 *                       max/min also nsz: the sign of a zero maximum is unspecified)
 *   remarks             remarks: each kernel's phases, the entry's peak intermediate bytes
 *   row-buffer-bytes=N  largest per-iteration row buffer kept on the stack (default 65536)
 *   align-peel=true|false  innermost row loops of 256+ elements start with the
 *                       elements before the 64-byte boundary of their output (or, for
 *                       reductions, first contiguous input), so the rest runs on
 *                       aligned vectors whatever the caller's alignment (default true)
 *   row-jam=N           phases with row reductions in registers take N outer iterations
 *                       per parallel step and run their reduction loops jammed (N
 *                       accumulators per loop: independent chains for the CPU to
 *                       overlap); 1 turns it off (at most 8). Default: 2 with 32 vector
 *                       registers, 1 with fewer (AVX2: two rows' exp temporaries and
 *                       accumulators spill; W2-W4 0.56-0.66x of row-jam=2's time
 *                       with --cpu=x86-64-v3, decision 0026)
 *   schedule=static|dynamic|guided  OpenMP schedule of the matmul template's parallel loop
 *                       (default static; targets/cpu/omp-schedule.c applies it)
 *   iters-per-core=N    mc=0: split M into blocks where (batch x panels) gives fewer
 *                       than N parallel iterations per core (default 4)
 * (docs/passes.md lists the template's options: matmul, prepack, mr, nr, mc, lanes,
 * autotune-cache.) */
#include "targets/cpu/codegen/codegen.h"
#include "targets/cpu/codegen/kernel.h"
#include "targets/cpu/matmul/matmul.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/passes.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/common/entry-graph.h"
#include "targets/cpu/cpu-target.h"

static const char *const allowed_options[] = {"reassoc", "remarks", "row-buffer-bytes", "row-jam", "align-peel",
                                               "matmul",  "prepack", "mr",               "nr",      "mc",
                                               "lanes",   "registers", "autotune-cache", "schedule", "iters-per-core",
                                               NULL};

/* key=NAME for one of names[0..n) (names[0] by default): *choice its index. */
static bool parse_choice(const BrazePassOptions *options, const char *key, const char *const *names, int n,
                         int *choice, BrazeStr *error) {
  const BrazeOption *o = braze_option_find(options, key);
  *choice = 0;
  if (!o)
    return true;
  for (int i = 0; o->value && i < n; ++i)
    if (!strcmp(o->value, names[i])) {
      *choice = i;
      return true;
    }
  braze_str_printf(error, "option '%s' expects ", key);
  for (int i = 0; i < n; ++i)
    braze_str_printf(error, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
  braze_str_printf(error, ", got '%s'", o->value ? o->value : "");
  return false;
}

/* matmul=template|loops|extern|auto (template by default). */
static bool parse_matmul(const BrazePassOptions *options, CgMatmulMode *mode, BrazeStr *error) {
  static const char *const names[] = {"template", "loops", "extern", "auto"};
  int choice;
  bool ok = parse_choice(options, "matmul", names, 4, &choice, error);
  *mode = (CgMatmulMode)choice;
  return ok;
}

/* schedule=static|dynamic|guided (static by default). */
static bool parse_schedule(const BrazePassOptions *options, CgSchedule *schedule, BrazeStr *error) {
  int choice;
  bool ok = parse_choice(options, "schedule", braze_cpu_schedule_names, 3, &choice, error);
  *schedule = (CgSchedule)choice;
  return ok;
}

void cg_mark_schedule(MlirOperation func, CgSchedule schedule) {
  if (schedule == CG_SCHEDULE_STATIC)
    return;
  MlirContext ctx = mlirOperationGetContext(func);
  mlirOperationSetAttributeByName(func, braze_ref(BRAZE_CPU_SCHEDULE_ATTR),
                                  mlirStringAttrGet(ctx, braze_ref(braze_cpu_schedule_names[schedule])));
}

static bool parse_tiles(const BrazePassOptions *options, CgOptions *o, BrazeStr *error) {
  long long lanes = 0;
  if (!braze_option_int(options, "lanes", cg_default_vector_lanes(), &lanes, error))
    return false;
  if (lanes != 4 && lanes != 8 && lanes != 16) {
    braze_str_printf(error, "option 'lanes' expects 4, 8 or 16, got %lld", lanes);
    return false;
  }
  o->vector_lanes = (int)lanes;
  long long registers = 0;
  if (!braze_option_int(options, "registers", cg_default_vector_registers(o->vector_lanes), &registers, error))
    return false;
  if (registers < 8 || registers > 64) {
    braze_str_printf(error, "option 'registers' expects 8 to 64, got %lld", registers);
    return false;
  }
  o->vector_registers = (int)registers;
  o->cores = cg_default_cores();
  const BrazeOption *cache = braze_option_find(options, "autotune-cache");
  o->autotune_cache = cache && cache->value ? strdup(cache->value) : NULL;
  if (!braze_option_bool(options, "prepack", true, &o->prepack, error) ||
      !braze_option_int(options, "mr", 0, &o->mr, error) || !braze_option_int(options, "nr", 0, &o->nr, error) ||
      !braze_option_int(options, "mc", 0, &o->mc, error) || !parse_matmul(options, &o->matmul_mode, error) ||
      !braze_option_int(options, "iters-per-core", 4, &o->iters_per_core, error) ||
      !parse_schedule(options, &o->schedule, error))
    return false;
  if (o->iters_per_core < 1 || o->iters_per_core > 1024) {
    braze_str_printf(error, "option 'iters-per-core' expects 1 to 1024, got %lld", o->iters_per_core);
    return false;
  }
  if (o->mr < 0 || o->mr > 8 || o->nr < 0 || (o->nr && (o->nr % o->vector_lanes || o->nr > 4 * o->vector_lanes)) ||
      o->mc < 0) {
    braze_str_printf(error, "options 'mr' expects 1 to 8 (0: auto), 'nr' a multiple of %d up to %d, 'mc' a row count (0: auto)",
                     o->vector_lanes, 4 * o->vector_lanes);
    return false;
  }
  return true;
}

static void destroy_state(void *state) {
  CgOptions *o = state;
  free(o->autotune_cache);
  free(o);
}

static void *create_state(const BrazePassOptions *options, BrazeStr *error) {
  if (!braze_options_check(options, "cpu-codegen", allowed_options, error))
    return NULL;
  CgOptions *o = calloc(1, sizeof *o);
  o->remarks = braze_option_flag(options, "remarks");
  if (!braze_option_bool(options, "reassoc", true, &o->reassoc, error) ||
      !braze_option_bool(options, "align-peel", true, &o->align_peel, error) ||
      !braze_option_int(options, "row-buffer-bytes", 65536, &o->row_buffer_bytes, error) ||
      !parse_tiles(options, o, error) ||
      !braze_option_int(options, "row-jam", o->vector_registers >= 32 ? 2 : 1, &o->row_jam, error)) {
    destroy_state(o);
    return NULL;
  }
  if (o->row_jam < 1 || o->row_jam > CG_MAX_JAM) {
    braze_str_printf(error, "option 'row-jam' expects 1 to %d, got %lld", CG_MAX_JAM, o->row_jam);
    destroy_state(o);
    return NULL;
  }
  return o;
}

static bool run(MlirOperation module, void *state) {
  const CgOptions *opts = state;
  size_t nk = cg_collect_functions(module, true, NULL, 0), ng = cg_collect_functions(module, false, NULL, 0);
  MlirOperation *funcs = malloc((nk + ng + 1) * sizeof *funcs);
  cg_collect_functions(module, true, funcs, nk);
  cg_collect_functions(module, false, funcs + nk, ng);
  bool ok = true;
  /* chain kernels last: they call block kernels in their converted form */
  bool *is_chain = calloc(nk + 1, sizeof *is_chain);
  for (size_t i = 0; i < nk; ++i)
    is_chain[i] = cg_is_chain_kernel(funcs[i]);
  for (int chains = 0; chains < 2; ++chains)
    for (size_t i = 0; i < nk && ok; ++i)
      if (is_chain[i] == (chains == 1))
        ok = cg_convert_kernel(funcs[i], module, opts);
  free(is_chain);
  ok = ok && cg_erase_gpu_form(module);
  for (size_t i = nk; i < nk + ng && ok; ++i)
    ok = cg_convert_graph(funcs[i], module, "cpu-codegen", opts->remarks, false);
  free(funcs);
  return ok;
}

const BrazePassInfo braze_pass_cpu_codegen = {
    .argument = "cpu-codegen",
    .summary = "Kernel functions -> scf.parallel/scf.for over memrefs; graph function -> entry with buffers",
    .options_help = "  reassoc=true|false   fastmath<reassoc,contract> on reduction accumulations (default true)\n"
                    "  remarks              remark each kernel's phases and the entry's peak intermediate bytes\n"
                    "  row-buffer-bytes=N   per-iteration row buffers up to N bytes live on the stack (65536)\n"
                    "  row-jam=N            rows per parallel step in phases with register reductions (2 with\n"
                    "                       32 vector registers, else 1; 1..8)\n"
                    "  align-peel=true|false  peel innermost row loops to a 64-byte boundary (default true)\n"
                    "  matmul=template|loops  tem kernels as a packed register-blocked GEMM with the epilogue in\n"
                    "                       registers, or as loop nests (default template)\n"
                    "  prepack=true|false   pack constant matmul weights at compile time (default true)\n"
                    "  mr=N nr=N mc=N       template tile: rows, columns, rows per parallel block (0, the default:\n"
                    "                       6 x 2 vectors, or 5 x 4 vectors with 16 lanes and N a multiple of 4 vectors;\n"
                    "                       mc: all rows, or fewer to give each core 4 iterations)\n"
                    "  lanes=N              f32 lanes of a vector (default: the host's, 16 with AVX-512)\n"
                    "  matmul=extern        the product by OpenBLAS cblas_sgemm, the epilogue as a pass over it\n"
                    "  matmul=auto          time template and extern at compile time, keep the faster (cached)\n"
                    "  autotune-cache=PATH  matmul=auto's decisions (default $BRAZE_AUTOTUNE_CACHE, else\n"
                    "                       $XDG_CACHE_HOME or ~/.cache: braze/matmul-autotune.txt)\n"
                    "  schedule=static|dynamic|guided  OpenMP schedule of the template's parallel loop\n"
                    "                       (default static)\n"
                    "  iters-per-core=N     mc=0: M blocks so that each core gets N parallel iterations (4)\n",
    .anchor = "builtin.module",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
