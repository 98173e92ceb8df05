/* cpu-codegen, the matmul template: which `tem` kernels take it, and its tile sizes.
 * Tile sizes come from the options (mr, nr, mc) with defaults from the target's facts,
 * its vector width and its vector registers (decision 0026). A tile of mr rows and nv
 * vectors per product keeps products x mr x nv accumulators, products x nv B vectors
 * and one broadcast A in registers; the defaults are the largest that fit:
 * - one product: nr = 2 vectors, mr = 6 rows (15 registers: AVX2's 16 or AVX-512's 32).
 *   With 28 or more registers and N a multiple of 4 vectors, a wide tile: nr = 4
 *   vectors, mr = 5 rows (25 registers): each broadcast feeds 4 FMAs instead of 2, and
 *   ResNet-18's N = 64 convs read A once instead of once per 32-column panel
 *   (docs/performance-log.md, "Wide tiles").
 * - two products (form-kernels{horizontal-templates}: one A, two B): nv = 2, mr = 6 (29
 *   registers) where that fits, else nv = 1, mr = 6 (15 registers, AVX2): 2 x 2 x 6
 *   accumulators there would spill in the inner loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/cpu/cpu-target.h"
#include "targets/cpu/matmul/internal.h"

enum { WIDE_VECS = 4, WIDE_ROWS = 5 }; /* the wide tile: 5 x 4 vectors */
enum { DEFAULT_ROWS = 6, DEFAULT_VECS = 2 };

/* Rows of a tile whose accumulators, B vectors and broadcast fit `registers`. */
static int rows_that_fit(int registers, int products, int nv) { return (registers - 1 - products * nv) / (products * nv); }

static bool is_tem(MlirOperation func) {
  MlirAttribute kind = mlirOperationGetDiscardableAttributeByName(func, braze_ref("kernel.kind"));
  return !mlirAttributeIsNull(kind) && mlirAttributeIsAString(kind) &&
         braze_ref_eq(mlirStringAttrGetValue(kind), "tem");
}

/* The facts of the target being compiled for (a plugin target reusing cpu-codegen
 * brings its own), the cpu target's otherwise; --target-costs overrides either. */
int cg_default_vector_lanes(void) {
  BrazeTargetCosts costs;
  braze_target_costs_for("cpu", &costs);
  return costs.vector_width_bits >= 512 ? 16 : costs.vector_width_bits >= 256 ? 8 : 4;
}

int cg_default_vector_registers(int lanes) {
  BrazeTargetCosts costs;
  braze_target_costs_for("cpu", &costs);
  return costs.vector_registers > 0 ? costs.vector_registers : lanes >= 16 ? 32 : 16;
}

int cg_default_cores(void) {
  BrazeTargetCosts costs;
  braze_target_costs_for("cpu", &costs);
  return costs.num_cores > 0 ? costs.num_cores : 1;
}

/* Rows per parallel block: each block packs its B panel again, so as many rows as
 * possible, split only where (batch x panels) alone gives fewer than `per_core`
 * iterations per core to share out (iters-per-core, default 4). */
static int64_t auto_mc(const TmPlan *p, int cores, int64_t per_core) {
  int64_t units = (p->N + p->nr - 1) / p->nr, tiles = (p->M + p->mr - 1) / p->mr;
  for (int d = 0; d < p->nb; ++d)
    units *= p->batch[d];
  int64_t blocks = (per_core * (int64_t)cores + units - 1) / units;
  if (blocks > tiles)
    blocks = tiles;
  if (blocks < 1)
    blocks = 1;
  return (tiles + blocks - 1) / blocks * p->mr;
}

/* The wide tile: one product, N a multiple of 4 vectors, registers for 5 x 4. */
static bool wide_tile_fits(const TmPlan *p, int registers) {
  return p->n_products == 1 && p->N % (WIDE_VECS * p->vw) == 0 && rows_that_fit(registers, 1, WIDE_VECS) >= WIDE_ROWS;
}

static int min_int(int a, int b) { return a < b ? a : b; }

static const char *choose_tiles(TmPlan *p, const CgOptions *o) {
  p->vw = o->vector_lanes;
  int regs = o->vector_registers;
  bool wide = o->nr == 0 && wide_tile_fits(p, regs);
  int nv = wide ? WIDE_VECS : DEFAULT_VECS;
  /* Two products where 2 x 2 x 4 accumulators do not fit (AVX2): one vector each. */
  if (o->nr == 0 && p->n_products == 2 && rows_that_fit(regs, 2, DEFAULT_VECS) < 4)
    nv = 1;
  p->nr = o->nr > 0 ? (int)o->nr : nv * p->vw;
  if (p->nr % p->vw != 0 || p->nr / p->vw > TM_MAX_VECS)
    return "tile-sizes";
  p->nv = p->nr / p->vw;
  int fit = rows_that_fit(regs, p->n_products, p->nv);
  p->mr = o->mr > 0 ? (int)o->mr : wide ? WIDE_ROWS : min_int(DEFAULT_ROWS, fit > 0 ? fit : 1);
  if (p->mr < 1 || p->mr > TM_MAX_ROWS)
    return "tile-sizes";
  /* An explicit nr with two products: mr no larger than what fits (the option's mr wins). */
  if (p->n_products == 2 && o->mr == 0 && p->mr > fit)
    p->mr = fit > 0 ? fit : 1;
  p->mc = o->mc > 0 ? (o->mc + p->mr - 1) / p->mr * p->mr : auto_mc(p, o->cores, o->iters_per_core);
  if (cg_is_serial_kernel(p->old)) /* a chain's block: one M block, B packed once per call */
    p->mc = (p->M + p->mr - 1) / p->mr * p->mr;
  return NULL;
}

int cg_matmul_template(MlirOperation func, MlirOperation module, const CgOptions *opts) {
  if (!is_tem(func))
    return 0;
  MlirStringRef nref = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)nref.length, nref.data);
  TmPlan p;
  memset(&p, 0, sizeof p);
  p.old = func;
  p.module = module;
  p.opts = opts;
  p.ctx = mlirOperationGetContext(func);
  p.name = name;
  const char *reason = NULL;
  if (opts->matmul_mode == CG_MATMUL_LOOPS)
    reason = "matmul=loops";
  else if (tm_match(func, &p, &reason))
    reason = choose_tiles(&p, opts);
  if (reason) {
    if (opts->remarks)
      braze_emit_remark(mlirOperationGetLocation(func), "cpu-codegen: kernel @%s: no matmul template: %s", name, reason);
    braze_zero_pad_free(&p.pad);
    return 0;
  }
  bool use_extern = false;
  if (opts->matmul_mode == CG_MATMUL_EXTERN || opts->matmul_mode == CG_MATMUL_AUTO) {
    const char *no_extern = cg_is_serial_kernel(func) ? "chain-block" : tm_extern_refusal(&p);
    if (no_extern && opts->remarks)
      braze_emit_remark(mlirOperationGetLocation(func), "cpu-codegen: kernel @%s: no matmul extern: %s", name, no_extern);
    use_extern = !no_extern;
    if (use_extern && opts->matmul_mode == CG_MATMUL_AUTO)
      tm_autotune(&p, opts, &use_extern);
  }
  if (!use_extern) {
    p.b_prepacked = opts->prepack && p.n_products == 1 && tm_find_constant_b(&p);
    /* A read through a window (a conv's implicit GEMM): its contiguous runs along k.
     * A plain row-major A (R = K) keeps the single k loop. */
    p.a_run = tm_a_run(&p);
    if (p.a_run == p.K && tm_contiguous_in(p.a_map, p.nb + 2))
      p.a_run = 1;
    /* A zero pad before the contraction: read with the padding implicit, or written
     * into a kernel-local buffer first (why: a remark). */
    if (p.has_pad)
      tm_pad_plan(&p);
    if (p.has_pad && !p.pad_implicit && opts->remarks)
      braze_emit_remark(mlirOperationGetLocation(func), "cpu-codegen: kernel @%s: zero pad written into a kernel-local buffer: %s",
                        name, p.pad_copy_reason);
  }
  bool ok = use_extern ? tm_emit_extern(&p) : tm_emit(&p);
  free(p.autotune_note);
  free(p.pad_runs);
  braze_zero_pad_free(&p.pad);
  return ok ? 1 : -1;
}
