/* cuda-codegen: kernel-level IR (kernel functions over tensors holding linalg.generic,
 * called from a graph function) -> target-level CUDA IR: every kernel becomes a
 * gpu.func in `gpu.module @braze_kernels` over static memrefs (inputs, then outputs),
 * and every graph function an entry over memrefs whose intermediates live in one
 * workspace (targets/common/entry-graph.c, as on the CPU) and whose kernel calls are
 * gpu.launch_func ops. The contract with the target's lowering and emit is in
 * docs/targets-cuda.md; the kernel shapes (row, element, matmul) in
 * targets/cuda/codegen/codegen.h and the files it names.
 *
 * Options:
 *   remarks      remark each kernel's shape, grid, block and vector width
 *   block=N      threads per block of element kernels (default 256; a power of 2 from
 *                the warp size to the most threads per block)
 *   max-regs=N   row elements one thread keeps in registers across a row kernel's
 *                generics (default 32); longer rows loop and re-read
 *   vec=N        elements per vector access: 4, 2 or 1 (default: the target's vector
 *                width over 32 bits, 4 on sm_90); an element kernel that reduces
 *                nothing and stores only 2-byte elements takes twice as many
 *   matmul=template|simt|extern|auto
 *                contractions on the tensor-core template (targets/cuda/matmul/wgmma.c)
 *                where it applies, else the SIMT kernel (template, the default); always
 *                on the SIMT kernel (simt); on cuBLASLt where it applies, else as
 *                `template` (extern, targets/cuda/matmul/extern.c); both, where cuBLASLt
 *                applies, as alternatives the library times at its first call on the
 *                device and then keeps the faster of (auto; docs/targets-cuda.md)
 *   tile-n=N     the template's tile columns, 256 (default) or 128
 *   stages=N     the template's shared-memory pipeline depth, 2 to 6 (default 4; 3 for a
 *                conv window's tiles: two 128x128 or three 128x64 blocks per multiprocessor)
 *   allow-tf32   f32 contractions on cuBLASLt may use TF32 tensor cores (10-bit
 *                mantissas: PyTorch's allow_tf32); off by default, f32 stays f32
 * Warp size, vector width and the most threads per block come from the cuda target's
 * BrazeTargetCosts (targets/cuda/target.c; --target-costs overrides them). */
#include "targets/cuda/codegen/codegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/passes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/oplist.h"
#include "targets/common/entry-graph.h"
#include "targets/target.h"

static const char *const allowed_options[] = {"remarks", "block",  "max-regs",   "vec", "matmul",
                                              "tile-n",  "stages", "allow-tf32", "transpose-tiles", "bias-tiles",
                                              NULL};

static bool pow2_in(long long v, long long lo, long long hi) { return v >= lo && v <= hi && (v & (v - 1)) == 0; }

static void *create_state(const BrazePassOptions *options, BrazeStr *error) {
  if (!braze_options_check(options, "cuda-codegen", allowed_options, error))
    return NULL;
  /* the GPU's facts: the target being compiled for, else the cuda target's, with
   * --target-costs applied (H100 values where a fact is missing) */
  BrazeTargetCosts costs;
  braze_target_costs_for("cuda", &costs);
  if (!costs.vector_width_bits)
    costs.vector_width_bits = 128;
  if (!costs.warp_size)
    costs.warp_size = 32;
  if (!costs.max_threads_per_block)
    costs.max_threads_per_block = 1024;
  if (!costs.shared_mem_per_block_bytes)
    costs.shared_mem_per_block_bytes = 227 << 10;
  CuOptions *o = calloc(1, sizeof *o);
  o->remarks = braze_option_flag(options, "remarks");
  o->warp = costs.warp_size;
  o->max_block = costs.max_threads_per_block;
  o->smem_block = costs.shared_mem_per_block_bytes;
  o->sms = costs.num_sms > 0 ? costs.num_sms : 132;
  bool ok = braze_option_int(options, "block", 256, &o->block, error) &&
            braze_option_int(options, "max-regs", 32, &o->max_regs, error) &&
            braze_option_int(options, "vec", costs.vector_width_bits / 32, &o->vec, error) &&
            braze_option_int(options, "tile-n", 256, &o->tile_n, error) &&
            braze_option_int(options, "stages", 0, &o->stages, error) &&
            braze_option_bool(options, "allow-tf32", false, &o->allow_tf32, error) &&
            braze_option_bool(options, "transpose-tiles", true, &o->transpose_tiles, error) &&
            braze_option_bool(options, "bias-tiles", false, &o->bias_tiles, error);
  const BrazeOption *mm = braze_option_find(options, "matmul");
  static const char *const choices[] = {"template", "simt", "extern", "auto"};
  o->matmul = CU_MM_TEMPLATE;
  if (ok && mm) {
    int found = -1;
    for (int i = 0; i < 4 && mm->value; ++i)
      if (strcmp(mm->value, choices[i]) == 0)
        found = i;
    if (found < 0) {
      braze_str_printf(error, "option 'matmul' expects template, simt, extern or auto, got '%s'",
                       mm->value ? mm->value : "");
      ok = false;
    }
    o->matmul = found == 1 ? CU_MM_SIMT : found == 2 ? CU_MM_EXTERN : found == 3 ? CU_MM_AUTO : CU_MM_TEMPLATE;
  }
  if (ok && o->tile_n != 128 && o->tile_n != 256) {
    braze_str_printf(error, "option 'tile-n' expects 128 or 256, got %lld", o->tile_n);
    ok = false;
  } else if (ok && o->stages != 0 && (o->stages < 2 || o->stages > 6)) {
    braze_str_printf(error, "option 'stages' expects 2 to 6, got %lld", o->stages);
    ok = false;
  }
  if (ok && !pow2_in(o->block, o->warp, o->max_block)) {
    braze_str_printf(error, "option 'block' expects a power of 2 from %d to %d, got %lld", o->warp, o->max_block,
                     o->block);
    ok = false;
  } else if (ok && !pow2_in(o->vec, 1, 4)) {
    braze_str_printf(error, "option 'vec' expects 1, 2 or 4, got %lld", o->vec);
    ok = false;
  } else if (ok && (o->max_regs < 1 || o->max_regs > 128)) {
    braze_str_printf(error, "option 'max-regs' expects 1 to 128, got %lld", o->max_regs);
    ok = false;
  }
  if (!ok) {
    free(o);
    return NULL;
  }
  return o;
}

static void destroy_state(void *state) { free(state); }

static bool is_func(MlirOperation op) { return braze_op_is(op, "func.func"); }

static const char *func_name(MlirOperation f) {
  return mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, braze_ref("sym_name"))).data;
}

/* `gpu.module @braze_kernels`, or null when no kernel made one (all extern GEMMs). */
static MlirOperation find_kernels_module(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "gpu.module"))
      return op;
  return (MlirOperation){NULL};
}

/* `gpu.module @braze_kernels` at the end of the module (created once). */
static MlirOperation kernels_module(MlirOperation module) {
  MlirOperation found = find_kernels_module(module);
  if (!mlirOperationIsNull(found))
    return found;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirContext ctx = mlirOperationGetContext(module);
  mlirOperationSetDiscardableAttributeByName(module, braze_ref("gpu.container_module"), mlirUnitAttrGet(ctx));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate(0, NULL, NULL));
  MlirNamedAttribute name = cg_named(ctx, "sym_name", mlirStringAttrGet(ctx, braze_ref("braze_kernels")));
  MlirOperationState st = mlirOperationStateGet(braze_ref("gpu.module"), mlirOperationGetLocation(module));
  mlirOperationStateAddAttributes(&st, 1, &name);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation gm = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(body, gm);
  return gm;
}

/* The empty gpu.func of kernel K (arguments: its memrefs), with K->fb before its return. */
static void create_gpu_func(CuKernel *K) {
  MlirContext ctx = K->ctx;
  MlirLocation loc = mlirOperationGetLocation(K->old);
  int n_args = K->n_in + K->n_out;
  MlirType fty = mlirFunctionTypeGet(ctx, n_args, K->arg_types, 0, NULL);
  char block[64];
  snprintf(block, sizeof block, "array<i32: %d, 1, 1>", K->block);
  MlirNamedAttribute attrs[4] = {
      cg_named(ctx, "sym_name", mlirOperationGetAttributeByName(K->old, braze_ref("sym_name"))),
      cg_named(ctx, "function_type", mlirTypeAttrGet(fty)),
      cg_named(ctx, "known_block_size", cg_parse_attr(ctx, block)),
      cg_named(ctx, "gpu.kernel", mlirUnitAttrGet(ctx)),
  };
  MlirLocation locs[CU_MAX_INPUTS * 3];
  for (int i = 0; i < n_args; ++i)
    locs[i] = loc;
  K->entry = mlirBlockCreate(n_args, K->arg_types, locs);
  MlirRegion body = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(body, K->entry);
  MlirOperationState st = mlirOperationStateGet(braze_ref("gpu.func"), loc);
  mlirOperationStateAddAttributes(&st, 4, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  K->fn = mlirOperationCreate(&st);
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(K->old); ++i) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(K->old, i);
    mlirOperationSetDiscardableAttributeByName(K->fn, mlirIdentifierStr(a.name), a.attribute);
  }
  char grid[96];
  snprintf(grid, sizeof grid, "array<i64: %lld, %lld, %lld>", (long long)K->grid[0], (long long)K->grid[1],
           (long long)K->grid[2]);
  mlirOperationSetDiscardableAttributeByName(K->fn, braze_ref("braze.grid"), cg_parse_attr(ctx, grid));
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(K->gpu_module, 0)), K->fn);
  K->fb = cg_builder_at_end(K->entry, loc);
  K->fb.before = cg_create(&K->fb, "gpu.return", 0, NULL, 0, NULL, 0, NULL);
  K->pool.block = K->entry;
  K->fb.pool = &K->pool;
  K->tid = cu_gpu_id(&K->fb, "gpu.thread_id");
  K->bid = cu_gpu_id(&K->fb, "gpu.block_id");
}

/* `old` replaced by the declaration the graph conversion calls: the kernel's memref
 * signature (n_args types, the first n_in inputs); codegen.c erases it after the launches. */
MlirOperation cu_declare_kernel(MlirOperation before, MlirAttribute name, int n_args, const MlirType *types, int n_in) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType fty = mlirFunctionTypeGet(ctx, n_args, types, 0, NULL);
  MlirNamedAttribute attrs[4] = {
      cg_named(ctx, "sym_name", name),
      cg_named(ctx, "function_type", mlirTypeAttrGet(fty)),
      cg_named(ctx, "sym_visibility", mlirStringAttrGet(ctx, braze_ref("private"))),
      cg_named(ctx, "braze.num_inputs", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), n_in)),
  };
  MlirRegion empty = mlirRegionCreate();
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.func"), mlirOperationGetLocation(before));
  mlirOperationStateAddAttributes(&st, 4, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &empty);
  MlirOperation decl = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, decl);
  return decl;
}

MlirOperation cu_replace_by_declaration(MlirOperation old, int n_args, const MlirType *types, int n_in) {
  MlirOperation decl = cu_declare_kernel(old, mlirOperationGetAttributeByName(old, braze_ref("sym_name")), n_args, types, n_in);
  mlirOperationDestroy(old);
  return decl;
}

static const char *shape_name(CuShape s) {
  return s == CU_ROW ? "row" : s == CU_MATMUL ? "matmul" : "element";
}

static void remark_extern(const CuKernel *K, const CuExtern *e) {
  char addend[160];
  snprintf(addend, sizeof addend, "; the epilogue as its C: %g x product + %g x argument %d (rows from %lld)", e->alpha,
           e->beta, e->addend_arg, (long long)(e->c_offset / e->n));
  braze_emit_remark(mlirOperationGetLocation(K->old),
                    "cuda-codegen: kernel @%s: extern GEMM (cuBLASLt) %lldx%lldx%lld, batch %lld%s%s%s", K->name,
                    (long long)e->m, (long long)e->n, (long long)e->k, (long long)e->batch, e->trans_a ? ", A transposed" : "",
                    e->trans_b ? ", B transposed" : "",
                    e->product_only ? ""
                    : e->addend     ? addend
                                    : "; the epilogue as an element kernel over its f32 product");
}

static void remark(const CuKernel *K, const CuWgmma *w, const char *refused) {
  char extra[320] = "", window[160] = "";
  if (w && w->window.on) /* A's tile: 4-D boxes of bh x bw output pixels per tap */
    snprintf(window, sizeof window, ", A by window boxes %dx%d pixels x %d image(s) (taps %lldx%lld, strides %lldx%lld)%s",
             w->window.bh, w->window.bw, w->window.bn, (long long)w->window.kh_n, (long long)w->window.kw_n,
             (long long)w->window.sh, (long long)w->window.sw,
             K->has_pad ? " from the unpadded input, TMA filling the padding" : "");
  if (K->shape == CU_ROW)
    snprintf(extra, sizeof extra, ", %d chunk(s) per thread %s", K->chunks,
             K->unrolled ? "kept in registers" : "looped (rows re-read)");
  else if (K->shape == CU_MATMUL && w)
    snprintf(extra, sizeof extra, ", tensor-core template: 128x%d tiles, 2 warpgroups, %d stages, %lld bytes of shared "
             "memory%s%s", w->tile_n, w->stages, (long long)w->smem, w->twin ? ", two products of one A" : "", window);
  else if (K->tiled.on)
    snprintf(extra, sizeof extra, ", %dx%d tiles through shared memory: loads along dim %d, stores along dim %d", CU_TILE,
             CU_TILE, K->tiled.load_dim, K->tiled.store_dim);
  else if (K->shape == CU_MATMUL)
    snprintf(extra, sizeof extra, ", SIMT: 64x64 tiles, 4x4 per thread, k step 16%s%s", refused ? "; template refused: " : "",
             refused ? refused : "");
  braze_emit_remark(mlirOperationGetLocation(K->old),
                    "cuda-codegen: kernel @%s: %s kernel, grid (%lld, %lld, %lld), block %d, vector width %d%s",
                    K->name, shape_name(K->shape), (long long)K->grid[0], (long long)K->grid[1],
                    (long long)K->grid[2], K->block, K->vec, extra);
}

static bool convert_kernel(MlirOperation func, MlirOperation module, const CuOptions *opts);

void cu_calls_of(MlirOperation module, MlirStringRef callee, BrazeOpList *calls) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!is_func(f) || cg_is_declaration(f))
      continue;
    MlirBlock fb = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(fb); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      MlirAttribute sym = mlirOperationGetAttributeByName(op, braze_ref("callee"));
      if (braze_op_is(op, "func.call") && mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(sym), callee))
        braze_op_list_push(calls, op);
    }
  }
}

/* matmul=auto: the kernel's extern twin @NAME_extern (a clone, converted with
 * matmul=extern) and, in the graph functions, a call of it after every call of the
 * kernel; both tagged braze.alternative = [site, choice, outputs written], choice 0 the
 * kernel's own code, 1 the extern GEMM. The twin's call writes the kernel's outputs
 * (rewrite_calls) and the host code runs one of the two per call (targets/cuda/host.c). */
static bool add_extern_alternative(MlirOperation func, MlirOperation module, const CuOptions *opts) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirAttribute counter = mlirOperationGetDiscardableAttributeByName(module, braze_ref("braze.alternatives"));
  int64_t site = mlirAttributeIsNull(counter) ? 0 : mlirIntegerAttrGetValueInt(counter);
  mlirOperationSetDiscardableAttributeByName(module, braze_ref("braze.alternatives"),
                                             mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), site + 1));
  char name[256], tag[64];
  snprintf(name, sizeof name, "%s_extern", func_name(func));
  MlirOperation twin = mlirOperationClone(func);
  mlirOperationSetAttributeByName(twin, braze_ref("sym_name"), mlirStringAttrGet(ctx, braze_ref(name)));
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(func), func, twin);
  MlirStringRef callee = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  BrazeOpList calls = {0};
  cu_calls_of(module, callee, &calls);
  for (size_t c = 0; c < calls.count; ++c) {
    MlirOperation op = calls.ops[c];
    intptr_t outs = mlirOperationGetNumResults(op);
    snprintf(tag, sizeof tag, "array<i64: %lld, 0, %lld>", (long long)site, (long long)outs);
    mlirOperationSetDiscardableAttributeByName(op, braze_ref("braze.alternative"), cg_parse_attr(ctx, tag));
    MlirOperation alt = mlirOperationClone(op);
    mlirOperationSetAttributeByName(alt, braze_ref("callee"), mlirFlatSymbolRefAttrGet(ctx, braze_ref(name)));
    snprintf(tag, sizeof tag, "array<i64: %lld, 1, %lld>", (long long)site, (long long)outs);
    mlirOperationSetDiscardableAttributeByName(alt, braze_ref("braze.alternative"), cg_parse_attr(ctx, tag));
    mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(op), op, alt);
  }
  braze_op_list_free(&calls);
  CuOptions extern_opts = *opts;
  extern_opts.matmul = CU_MM_EXTERN;
  return convert_kernel(twin, module, &extern_opts);
}

static bool convert_kernel(MlirOperation func, MlirOperation module, const CuOptions *opts) {
  int chain = cu_convert_chain(func, kernels_module(module), opts);
  if (chain != 0)
    return chain > 0;
  int ext = cu_convert_user_kernel(func, module, kernels_module(module), opts);
  if (ext != 0)
    return ext > 0;
  CuKernel K = {.old = func, .module = module, .opts = opts, .ctx = mlirOperationGetContext(func),
                .name = func_name(func)};
  K.gpu_module = kernels_module(module);
  bool ok = cu_analyze(&K);
  CuWgmma plan;
  CuExtern ext_plan;
  const char *refused = opts->matmul == CU_MM_SIMT ? "matmul=simt" : NULL, *ext_refused = NULL;
  bool matmul = ok && K.shape == CU_MATMUL;
  bool gemm = matmul && opts->matmul == CU_MM_EXTERN && cu_extern_plan(&K, &ext_plan, &ext_refused);
  bool twin = matmul && opts->matmul == CU_MM_AUTO && cu_extern_plan(&K, &ext_plan, &ext_refused);
  if (twin) { /* the extern alternative from a clone of the kernel as it is now, then this one */
    cu_kernel_free(&K);
    CuOptions own = *opts;
    own.matmul = CU_MM_TEMPLATE;
    return add_extern_alternative(func, module, opts) && convert_kernel(func, module, &own);
  }
  bool wgmma = matmul && !gemm && !refused && cu_wgmma_plan(&K, &plan, &refused);
  if (ok && gemm && opts->remarks)
    remark_extern(&K, &ext_plan);
  if (ok && matmul && ext_refused && opts->remarks)
    braze_emit_remark(mlirOperationGetLocation(K.old), "cuda-codegen: kernel @%s: extern GEMM refused: %s", K.name,
                      ext_refused);
  if (ok) {
    if (gemm && (ext_plan.product_only || ext_plan.addend)) {
      MlirOperation decl = cu_replace_by_declaration(K.old, K.n_in + K.n_out, K.arg_types, K.n_in);
      cu_mark_gemm(decl, &ext_plan);
      cu_kernel_free(&K);
      return true;
    }
    if (wgmma) {
      ok = cu_emit_wgmma(&K, &plan);
    } else {
      ok = !gemm || cu_emit_extern(&K, &ext_plan);
      if (ok) {
        create_gpu_func(&K);
        ok = K.shape == CU_ROW      ? cu_emit_row(&K)
             : K.shape == CU_MATMUL ? cu_emit_matmul(&K)
             : K.tiled.on           ? cu_emit_tiled(&K)
                                    : cu_emit_element(&K);
      }
    }
    if (ok && opts->remarks && !gemm)
      remark(&K, wgmma ? &plan : NULL, refused);
    if (ok)
      cu_replace_by_declaration(K.old, K.n_in + K.n_out, K.arg_types, K.n_in);
    else if (!mlirOperationIsNull(K.fn))
      mlirOperationDestroy(K.fn);
  }
  cu_kernel_free(&K);
  return ok;
}

/* ---- launches ---- */

static MlirOperation lookup_kernel(MlirOperation gpu_module, MlirStringRef name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef n = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, braze_ref("sym_name")));
    if (n.length == name.length && memcmp(n.data, name.data, n.length) == 0)
      return op;
  }
  return (MlirOperation){NULL};
}

static int64_t array_elem(MlirAttribute a, intptr_t i, bool i32) {
  return i32 ? mlirDenseI32ArrayGetElement(a, i) : mlirDenseI64ArrayGetElement(a, i);
}

/* func.call @kernel(memrefs) -> gpu.launch_func @braze_kernels::@kernel with its grid. */
/* kernel.tensor_map's attributes from a braze.tma_boxes entry: [argument, box inner,
 * box outer] (the memref as 2-D), or [argument, box x 4, dims x 4, element strides x 4]
 * (the memref viewed as 4-D dims: a window's A, targets/cuda/matmul/window.c). */
static int tensor_map_attrs(MlirContext ctx, MlirAttribute spec, MlirNamedAttribute *attrs) {
  static const char *const names[3] = {"box", "dims", "element_strides"};
  intptr_t n = mlirDenseArrayGetNumElements(spec), rank = n == 13 ? 4 : 2, groups = n == 13 ? 3 : 1;
  for (intptr_t g = 0; g < groups; ++g) {
    int64_t values[4];
    for (intptr_t d = 0; d < rank; ++d)
      values[d] = mlirDenseI64ArrayGetElement(spec, 1 + g * rank + d);
    attrs[g] = cg_named(ctx, names[g], mlirDenseI64ArrayGet(ctx, rank, values));
  }
  return (int)groups;
}

static void call_to_launch(MlirOperation call, MlirOperation kernel) {
  MlirContext ctx = mlirOperationGetContext(call);
  CgBuilder b = cg_builder_at_end(mlirOperationGetBlock(call), mlirOperationGetLocation(call));
  b.before = call;
  MlirAttribute grid = mlirOperationGetDiscardableAttributeByName(kernel, braze_ref("braze.grid"));
  MlirAttribute block = mlirOperationGetAttributeByName(kernel, braze_ref("known_block_size"));
  intptr_t n_args = mlirOperationGetNumOperands(call);
  MlirValue *ops = malloc((size_t)(6 + n_args) * sizeof *ops);
  for (int d = 0; d < 3; ++d) {
    ops[d] = cg_index(&b, array_elem(grid, d, false));
    ops[3 + d] = cg_index(&b, array_elem(block, d, true));
  }
  for (intptr_t i = 0; i < n_args; ++i)
    ops[6 + i] = mlirOperationGetOperand(call, i);
  /* the tensor-core template: its dynamic shared memory, and a TMA descriptor of each
   * contraction input (braze.tma_boxes names the arguments) passed by value after the memrefs */
  MlirAttribute smem = mlirOperationGetDiscardableAttributeByName(kernel, braze_ref("braze.dynamic_smem"));
  MlirAttribute boxes = mlirOperationGetDiscardableAttributeByName(kernel, braze_ref("braze.tma_boxes"));
  MlirValue smem_bytes = {NULL};
  if (!mlirAttributeIsNull(smem)) {
    MlirType i32 = mlirIntegerTypeGet(ctx, 32);
    smem_bytes = cg_constant(&b, mlirIntegerAttrGet(i32, mlirIntegerAttrGetValueInt(smem)));
  }
  intptr_t n_maps = mlirAttributeIsNull(boxes) ? 0 : mlirArrayAttrGetNumElements(boxes);
  if (n_maps) {
    ops = realloc(ops, (size_t)(6 + n_args + n_maps) * sizeof *ops);
    MlirType ptr = mlirTypeParseGet(ctx, braze_ref("!llvm.ptr"));
    for (intptr_t i = 0; i < n_maps; ++i) {
      MlirAttribute spec = mlirArrayAttrGetElement(boxes, i);
      int64_t arg = mlirDenseI64ArrayGetElement(spec, 0);
      MlirNamedAttribute attrs[3];
      int n_attrs = tensor_map_attrs(ctx, spec, attrs);
      MlirOperation map = cg_create(&b, "kernel.tensor_map", 1, &ops[6 + arg], 1, &ptr, n_attrs, attrs);
      cu_copy_alternative(call, map, 0);
      ops[6 + n_args + i] = mlirOperationGetResult(map, 0);
    }
    n_args += n_maps;
  }
  /* ext kernels with pre-initialized outputs (targets/cuda/codegen/user.c): copy, then launch */
  MlirAttribute copies = mlirOperationGetDiscardableAttributeByName(kernel, braze_ref("braze.copies_before"));
  for (intptr_t i = 0; !mlirAttributeIsNull(copies) && i + 1 < mlirDenseArrayGetNumElements(copies); i += 2) {
    MlirValue pair[2] = {ops[6 + mlirDenseI64ArrayGetElement(copies, i)], ops[6 + mlirDenseI64ArrayGetElement(copies, i + 1)]};
    cu_copy_alternative(call, cg_create(&b, "memref.copy", 2, pair, 0, NULL, 0, NULL), 0);
  }
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(mlirOperationGetAttributeByName(call, braze_ref("callee")));
  MlirAttribute leaf = mlirFlatSymbolRefAttrGet(ctx, name);
  MlirAttribute sym = mlirSymbolRefAttrGet(ctx, braze_ref("braze_kernels"), 1, &leaf);
  bool has_smem = !mlirValueIsNull(smem_bytes);
  if (has_smem) { /* the dynamic shared memory operand comes before the arguments */
    ops = realloc(ops, (size_t)(7 + n_args) * sizeof *ops);
    memmove(ops + 7, ops + 6, (size_t)n_args * sizeof *ops);
    ops[6] = smem_bytes;
  }
  char seg[96];
  snprintf(seg, sizeof seg, "array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, %d, %d, 0>", has_smem ? 1 : 0, (int)n_args);
  MlirNamedAttribute attrs[2] = {cg_named(ctx, "kernel", sym), cg_named(ctx, "operandSegmentSizes", cg_parse_attr(ctx, seg))};
  cu_copy_alternative(call, cg_create(&b, "gpu.launch_func", 6 + has_smem + n_args, ops, 0, NULL, 2, attrs), 0);
  free(ops);
  mlirOperationDestroy(call);
}

/* func.call @k(a, b, ..., c) of a kernel marked braze.gemm -> kernel.gemm(A, B, C) with
 * its shape (A, B: the contraction's inputs in the call, c: the call's last operand);
 * with an addend, kernel.gemm(A, B, X, C) {alpha, beta, c_offset}: C = alpha A B + beta
 * X from element c_offset (extern-addend.c). */
static void call_to_gemm(MlirOperation call, MlirOperation decl) {
  MlirContext ctx = mlirOperationGetContext(call);
  MlirAttribute shape = mlirOperationGetDiscardableAttributeByName(decl, braze_ref("braze.gemm"));
  MlirAttribute swap = mlirDictionaryAttrGetElementByName(shape, braze_ref("swap"));
  MlirAttribute addend = mlirDictionaryAttrGetElementByName(shape, braze_ref("addend"));
  bool swapped = !mlirAttributeIsNull(swap) && mlirBoolAttrGetValue(swap);
  intptr_t n = mlirOperationGetNumOperands(call), n_ops = mlirAttributeIsNull(addend) ? 3 : 4;
  MlirValue ops[4] = {mlirOperationGetOperand(call, swapped ? 1 : 0), mlirOperationGetOperand(call, swapped ? 0 : 1),
                      mlirOperationGetOperand(call, n - 1)};
  if (n_ops == 4) {
    ops[3] = ops[2];
    ops[2] = mlirOperationGetOperand(call, mlirIntegerAttrGetValueInt(addend));
  }
  CgBuilder b = cg_builder_at_end(mlirOperationGetBlock(call), mlirOperationGetLocation(call));
  b.before = call;
  MlirNamedAttribute attrs[12];
  static const char *const keys[] = {"m",       "n",       "k",    "batch", "stride_a", "stride_b",
                                     "trans_a", "trans_b", "tf32", "alpha", "beta",     "c_offset"};
  int n_attrs = 0;
  for (int i = 0; i < 12; ++i) {
    MlirAttribute v = mlirDictionaryAttrGetElementByName(shape, braze_ref(keys[i]));
    if (!mlirAttributeIsNull(v))
      attrs[n_attrs++] = cg_named(ctx, keys[i], v);
  }
  cu_copy_alternative(call, cg_create(&b, "kernel.gemm", n_ops, ops, 0, NULL, n_attrs, attrs), 0);
  mlirOperationDestroy(call);
}

static bool is_gemm_declaration(MlirOperation op) {
  return !mlirOperationIsNull(op) &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.gemm")));
}

/* matmul=auto: each call tagged [site, 1, n] (the extern twin's result, n outputs)
 * writes the outputs of the call tagged [site, 0, n] before it (the kernel's own), so
 * that either alternative alone computes the entry's values. Destination-passing calls
 * pass their outputs last. */
static void share_alternative_outputs(MlirOperation entry) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(entry, 0));
  MlirOperation own = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute alt = mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.alternative"));
    int64_t outs = mlirAttributeIsNull(alt) ? 0 : mlirDenseI64ArrayGetElement(alt, 2);
    if (outs == 0)
      continue;
    if (mlirDenseI64ArrayGetElement(alt, 1) == 0) {
      own = op;
      continue;
    }
    intptr_t n = mlirOperationGetNumOperands(op), n_own = mlirOperationGetNumOperands(own);
    for (int64_t r = 0; r < outs && !mlirOperationIsNull(own); ++r)
      mlirOperationSetOperand(op, n - outs + r, mlirOperationGetOperand(own, n_own - outs + r));
  }
}

static void rewrite_calls(MlirOperation module, MlirOperation entry, MlirOperation gpu_module) {
  share_alternative_outputs(entry);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(entry, 0));
  MlirOperation op = mlirBlockGetFirstOperation(body);
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (braze_op_is(op, "func.call")) {
      MlirStringRef callee = mlirFlatSymbolRefAttrGetValue(mlirOperationGetAttributeByName(op, braze_ref("callee")));
      MlirOperation kernel = mlirOperationIsNull(gpu_module) ? (MlirOperation){NULL} : lookup_kernel(gpu_module, callee);
      MlirOperation decl = mlirSymbolTableLookup(table, callee);
      if (!mlirOperationIsNull(kernel))
        call_to_launch(op, kernel);
      else if (is_gemm_declaration(decl))
        call_to_gemm(op, decl);
    }
    op = next;
  }
  mlirSymbolTableDestroy(table);
}

static void erase_declarations(MlirOperation module, MlirOperation gpu_module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (is_func(op) && cg_is_declaration(op)) {
      MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, braze_ref("sym_name")));
      if (is_gemm_declaration(op) || (!mlirOperationIsNull(gpu_module) && !mlirOperationIsNull(lookup_kernel(gpu_module, name))))
        mlirOperationDestroy(op);
    }
    op = next;
  }
}

static bool run(MlirOperation module, void *state) {
  const CuOptions *opts = state;
  size_t nk = cg_collect_functions(module, true, NULL, 0), ng = cg_collect_functions(module, false, NULL, 0);
  MlirOperation *funcs = malloc((nk + ng + 1) * sizeof *funcs);
  cg_collect_functions(module, true, funcs, nk);
  cg_collect_functions(module, false, funcs + nk, ng);
  bool ok = true;
  for (size_t i = 0; i < nk; ++i)
    cu_hoist_constants(module, funcs[i]);
  for (size_t i = 0; i < nk && ok; ++i)
    ok = convert_kernel(funcs[i], module, opts);
  MlirOperation gpu_module = find_kernels_module(module);
  for (size_t i = nk; i < nk + ng && ok; ++i)
    ok = cg_convert_graph(funcs[i], module, "cuda-codegen", opts->remarks, true);
  if (ok && nk) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      if (is_func(op) && !cg_is_declaration(op) && cg_attr_bool(op, "braze.entry"))
        rewrite_calls(module, op, gpu_module);
    erase_declarations(module, gpu_module);
  }
  free(funcs);
  return ok;
}

const BrazePassInfo braze_pass_cuda_codegen = {
    .argument = "cuda-codegen",
    .summary = "Kernel functions -> gpu.func kernels (row, element, matmul shapes); graph function -> entry of "
               "gpu.launch_func with a workspace",
    .options_help = "  remarks              remark each kernel's shape, grid, block and vector width\n"
                    "  block=N              threads per block of element kernels (256; a power of 2, 32..1024)\n"
                    "  max-regs=N           row elements a thread keeps in registers across generics (32)\n"
                    "  vec=N                elements per vector access: 4 (default), 2 or 1 (2-byte element kernels: twice)\n"
                    "  matmul=template|simt|extern  contractions on the tensor-core template where it applies (default),\n"
                    "                       SIMT, or cuBLASLt where it applies\n"
                    "  tile-n=N             the template's tile columns: 256 (default) or 128\n"
                    "  stages=N             the template's shared-memory pipeline depth: 2..6 (4; 3 for a conv\n"
                    "                       window's tiles)\n"
                    "  allow-tf32           f32 contractions on cuBLASLt may use TF32 (default: full f32)\n"
                    "  transpose-tiles=true|false  element kernels whose stores would read their major input\n"
                    "                       across sectors run in 32x32 tiles through shared memory (default true)\n",
    .anchor = "builtin.module",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
