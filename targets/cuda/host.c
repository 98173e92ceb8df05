/* The host side of a CUDA library, as C source: each host entry of target-level
 * CUDA IR (docs/targets-cuda.md, "the contract") becomes a function of calls into
 * runtime/cuda/cuda-runtime.c, which the emit compiles into the same unit.
 *
 * An entry may hold only: arith.constant (integers, index; floats for scalar
 * kernel arguments), memref.view at a constant offset, memref.get_global of a
 * constant global, memref.cast/collapse_shape/expand_shape (the same pointer),
 * memref.subview of one contiguous block at a static offset (a collective's block of
 * a concat in an out argument: targets/common/entry-graph.c),
 * gpu.launch_func with constant grid, block and dynamic shared memory, memref.copy
 * (device to device), kernel.tensor_map (a TMA descriptor, encoded at each call and
 * passed by value), kernel.collective (a partitioned program's collective: a runtime
 * call over NCCL, host-collective.c) and func.return. Every value is then a compile-time constant
 * or a device address: an entry argument, the workspace, a constant, plus a byte
 * offset, which is what the generated code computes. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "support/context.h"
#include "support/ptrmap.h"
#include "targets/cuda/cuda-target.h"

typedef struct {
  MlirStringRef image, name; /* @image::@name */
  unsigned max_dynamic_smem;
} Kernel;

typedef struct {
  MlirOperation module;
  const BrazeCudaHostOptions *opts;
  BrazeStr gemms; /* the extern GEMM sites (BrazeLtGemm) and matmul=auto choices (BrazeCuPick) */
  size_t num_gemms;
  size_t num_collectives;
  int64_t *picks; /* the choice sites already declared */
  size_t num_picks;
  Kernel *kernels;
  size_t num_kernels, cap_kernels;
  MlirOperation *constants; /* memref.global ops, in upload order */
  size_t num_constants, cap_constants;
  BrazeStr *out;
  BrazeStr *error;
} Host;

/* One entry's values: a C expression and what kind of thing it is. */
typedef enum { VAL_INT, VAL_FLOAT, VAL_ADDR, VAL_TENSOR_MAP } ValKind;
typedef struct {
  ValKind kind;
  MlirType type;
  char *expr;
} Val;

typedef struct {
  Host *h;
  BrazePtrMap index; /* MlirValue -> vals[] */
  Val *vals;
  size_t count, cap;
  BrazeStr body;
  /* matmul=auto: the open group of ops tagged braze.alternative (one site), each
   * alternative's code apart until the group closes */
  int64_t site; /* -1 when none is open */
  BrazeStr alt[2];
  char alt_name[128]; /* the first kernel alternative 0 launches */
  BrazeCudaPending pending; /* async collectives not joined yet (host-collective.c) */
} Entry;

static bool fail_at(MlirOperation op, const char *fmt, const char *detail) {
  char msg[512];
  snprintf(msg, sizeof msg, fmt, detail);
  mlirEmitError(mlirOperationGetLocation(op), msg);
  return false;
}

static char *str_of_ref(MlirStringRef r) { return strndup(r.data, r.length); }

/* ---- values ---- */

static void put_val(Entry *e, MlirValue v, ValKind kind, char *expr) {
  if (e->count == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 32;
    e->vals = realloc(e->vals, e->cap * sizeof *e->vals);
  }
  e->vals[e->count] = (Val){kind, mlirValueGetType(v), expr};
  braze_ptrmap_put(&e->index, braze_ptr_key(v.ptr), (int)e->count);
  e->count++;
}

static const Val *get_val(const Entry *e, MlirValue v) {
  int i = braze_ptrmap_get(&e->index, braze_ptr_key(v.ptr), -1);
  return i < 0 ? NULL : &e->vals[i];
}

static char *printf_dup(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *printf_dup(const char *fmt, ...) {
  BrazeStr s = {0};
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&s, fmt, ap);
  va_end(ap);
  return s.data;
}

/* The operand's value, which an earlier op (or the entry's signature) defined. */
static const Val *operand(Entry *e, MlirOperation op, intptr_t i, ValKind want) {
  const Val *v = get_val(e, mlirOperationGetOperand(op, i));
  if (!v || v->kind != want) {
    fail_at(op, "%s", want == VAL_ADDR ? "operand is not a device buffer the CUDA host code can name"
                                       : "operand is not a constant (grid, block, offsets and sizes must be constants)");
    return NULL;
  }
  return v;
}

static bool const_int(Entry *e, MlirOperation op, intptr_t i, int64_t *out) {
  const Val *v = operand(e, op, i, VAL_INT);
  if (!v)
    return false;
  *out = strtoll(v->expr, NULL, 10);
  return true;
}

/* Bytes of one element of a memref of `t`; 0 for a type that has no size. */
static int64_t elem_bytes(MlirType t) {
  MlirType elem = mlirShapedTypeGetElementType(t);
  int64_t bits = mlirTypeIsAIndex(elem) ? 64 : mlirTypeIsAInteger(elem) ? mlirIntegerTypeGetWidth(elem)
                                           : mlirTypeIsAFloat(elem)       ? mlirFloatTypeGetWidth(elem)
                                                                          : 0;
  return (bits + 7) / 8;
}

/* Elements of a static shaped type. */
static int64_t num_elements(MlirType t) {
  int64_t n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n;
}

/* Bytes of a static memref (the contract's buffers are all static). */
static bool memref_bytes(MlirType t, int64_t *out) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) || elem_bytes(t) == 0)
    return false;
  *out = num_elements(t) * elem_bytes(t);
  return true;
}

/* ---- the ops ---- */

static bool op_constant(Entry *e, MlirOperation op) {
  MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
  MlirValue res = mlirOperationGetResult(op, 0);
  if (mlirAttributeIsAInteger(value)) {
    put_val(e, res, VAL_INT, printf_dup("%" PRId64, mlirIntegerAttrGetValueInt(value)));
    return true;
  }
  if (mlirAttributeIsAFloat(value) && mlirTypeIsAF32(mlirValueGetType(res))) {
    put_val(e, res, VAL_FLOAT, printf_dup("%.9gf", mlirFloatAttrGetValueDouble(value)));
    return true;
  }
  return fail_at(op, "%s", "a CUDA host entry takes only integer, index and f32 scalar constants");
}

/* memref.view %src[%byte_shift][] (no dynamic sizes). */
static bool op_view(Entry *e, MlirOperation op) {
  int64_t shift;
  const Val *src = operand(e, op, 0, VAL_ADDR);
  if (!src || mlirOperationGetNumOperands(op) != 2 || !const_int(e, op, 1, &shift))
    return src ? fail_at(op, "%s", "memref.view in a CUDA host entry needs a constant offset and a static result")
               : false;
  put_val(e, mlirOperationGetResult(op, 0), VAL_ADDR, printf_dup("(%s + %" PRId64 "ull)", src->expr, shift));
  return true;
}

/* memref.subview with a static strided layout: the block's first element, at the
 * layout's offset (entry-graph.c makes only contiguous blocks). */
static bool op_subview(Entry *e, MlirOperation op) {
  const Val *src = operand(e, op, 0, VAL_ADDR);
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirAttribute layout = mlirMemRefTypeGetLayout(t);
  int64_t bytes = 0;
  if (!src)
    return false;
  if (!mlirAttributeIsAStridedLayout(layout) || mlirOperationGetNumOperands(op) != 1 || !memref_bytes(t, &bytes))
    return fail_at(op, "%s", "memref.subview in a CUDA host entry needs static offsets, sizes and strides");
  int64_t offset = mlirStridedLayoutAttrGetOffset(layout) * elem_bytes(t);
  put_val(e, mlirOperationGetResult(op, 0), VAL_ADDR, printf_dup("(%s + %" PRId64 "ull)", src->expr, offset));
  return true;
}

/* The same buffer under another static type. */
static bool op_alias(Entry *e, MlirOperation op) {
  const Val *src = operand(e, op, 0, VAL_ADDR);
  if (!src)
    return false;
  put_val(e, mlirOperationGetResult(op, 0), VAL_ADDR, strdup(src->expr));
  return true;
}

static MlirOperation find_global(MlirOperation module, MlirStringRef name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!braze_op_is(op, "memref.global"))
      continue;
    MlirAttribute sym = mlirOperationGetAttributeByName(op, braze_ref("sym_name"));
    if (mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
      return op;
  }
  return (MlirOperation){NULL};
}

static size_t constant_index(Host *h, MlirOperation global) {
  for (size_t i = 0; i < h->num_constants; ++i)
    if (mlirOperationEqual(h->constants[i], global))
      return i;
  if (h->num_constants == h->cap_constants) {
    h->cap_constants = h->cap_constants ? 2 * h->cap_constants : 8;
    h->constants = realloc(h->constants, h->cap_constants * sizeof *h->constants);
  }
  h->constants[h->num_constants] = global;
  return h->num_constants++;
}

static bool op_get_global(Entry *e, MlirOperation op) {
  MlirAttribute name = mlirOperationGetAttributeByName(op, braze_ref("name"));
  MlirOperation global = find_global(e->h->module, mlirFlatSymbolRefAttrGetValue(name));
  MlirAttribute init = mlirOperationIsNull(global) ? (MlirAttribute){NULL}
                                                   : mlirOperationGetAttributeByName(global, braze_ref("initial_value"));
  bool constant = !mlirOperationIsNull(global) &&
                  !mlirAttributeIsNull(mlirOperationGetAttributeByName(global, braze_ref("constant")));
  if (!constant || mlirAttributeIsNull(init) ||
      !(mlirAttributeIsADenseElements(init) || mlirAttributeIsADenseResourceElements(init)))
    return fail_at(op, "%s",
                   "a CUDA host entry reads only constant memref.globals with a dense or dense_resource initial value");
  size_t k = constant_index(e->h, global);
  put_val(e, mlirOperationGetResult(op, 0), VAL_ADDR, printf_dup("p->constants[%zu].device", k));
  return true;
}

static bool op_copy(Entry *e, MlirOperation op) {
  const Val *src = operand(e, op, 0, VAL_ADDR), *dst = src ? operand(e, op, 1, VAL_ADDR) : NULL;
  int64_t bytes = 0, dst_bytes = 0;
  if (!dst)
    return false;
  if (!memref_bytes(src->type, &bytes) || !memref_bytes(dst->type, &dst_bytes) || bytes != dst_bytes)
    return fail_at(op, "%s", "memref.copy in a CUDA host entry copies between static memrefs of one size");
  if (bytes > 0)
    braze_str_printf(&e->body, "  if (braze_cu_copy(%s, %s, %" PRId64 "ull, stream))\n    return 1;\n", dst->expr,
                     src->expr, bytes);
  return true;
}

static size_t kernel_index(Host *h, MlirStringRef image, MlirStringRef name) {
  for (size_t i = 0; i < h->num_kernels; ++i)
    if (mlirStringRefEqual(h->kernels[i].image, image) && mlirStringRefEqual(h->kernels[i].name, name))
      return i;
  if (h->num_kernels == h->cap_kernels) {
    h->cap_kernels = h->cap_kernels ? 2 * h->cap_kernels : 8;
    h->kernels = realloc(h->kernels, h->cap_kernels * sizeof *h->kernels);
  }
  h->kernels[h->num_kernels] = (Kernel){image, name, 0};
  return h->num_kernels++;
}

static bool image_exists(const Host *h, MlirStringRef name) {
  for (size_t i = 0; i < h->opts->images->count; ++i)
    if (mlirStringRefEqual(h->opts->images->items[i].name, name))
      return true;
  return false;
}

/* operandSegmentSizes of gpu.launch_func: async deps, grid x3, block x3, cluster x3
 * (optional), dynamic shared memory (optional), kernel operands, async object. */
enum { SEG_ASYNC, SEG_CLUSTER_X = 7, SEG_SMEM = 10, SEG_ARGS, SEG_OBJECT, NUM_SEGS };

static bool launch_segments(MlirOperation op, int32_t seg[NUM_SEGS]) {
  MlirAttribute sizes = mlirOperationGetAttributeByName(op, braze_ref("operandSegmentSizes"));
  if (mlirAttributeIsNull(sizes) || !mlirAttributeIsADenseI32Array(sizes) ||
      mlirDenseArrayGetNumElements(sizes) != NUM_SEGS)
    return false;
  for (int i = 0; i < NUM_SEGS; ++i)
    seg[i] = mlirDenseI32ArrayGetElement(sizes, i);
  return true;
}

/* One kernel argument: a device pointer (bare-pointer convention) or a scalar. */
static bool launch_arg(Entry *e, MlirOperation op, intptr_t i, int n, BrazeStr *decls) {
  const Val *v = get_val(e, mlirOperationGetOperand(op, i));
  if (!v)
    return fail_at(op, "%s", "kernel argument is not a value the CUDA host code can name");
  MlirType t = v->type;
  const char *ctype = v->kind == VAL_ADDR          ? "CUdeviceptr"
                      : v->kind == VAL_TENSOR_MAP ? "CUtensorMap"
                      : v->kind == VAL_FLOAT      ? "float"
                      : mlirTypeIsAIndex(t) || (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64)
                          ? "int64_t"
                      : mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 32 ? "int32_t"
                                                                                  : NULL;
  if (!ctype)
    return fail_at(op, "%s", "kernel arguments must be memrefs, index, i32, i64 or f32");
  braze_str_printf(decls, "    %s k%d = %s;\n", ctype, n, v->expr);
  return true;
}

static bool op_launch(Entry *e, MlirOperation op) {
  int32_t seg[NUM_SEGS];
  if (!launch_segments(op, seg))
    return fail_at(op, "%s", "gpu.launch_func without the operand segments of MLIR 22");
  if (seg[SEG_ASYNC] || seg[SEG_OBJECT] || seg[SEG_CLUSTER_X] || mlirOperationGetNumResults(op))
    return fail_at(op, "%s", "a CUDA host entry launches synchronously (no async tokens, objects or clusters)");
  /* Without async dependencies and clusters: grid x3, block x3, [smem], args. */
  int64_t dims[6], smem = 0;
  for (int d = 0; d < 6; ++d)
    if (!const_int(e, op, d, &dims[d]))
      return false;
  intptr_t first_arg = 6 + seg[SEG_SMEM];
  if (seg[SEG_SMEM] && !const_int(e, op, 6, &smem))
    return false;
  for (int d = 0; d < 6; ++d)
    if (dims[d] < 1 || dims[d] > INT32_MAX)
      return fail_at(op, "%s", "grid and block sizes must be in [1, 2^31)");
  if (smem < 0 || smem > INT32_MAX)
    return fail_at(op, "%s", "bad dynamic shared memory size");
  MlirAttribute sym = mlirOperationGetAttributeByName(op, braze_ref("kernel"));
  MlirStringRef image = mlirSymbolRefAttrGetRootReference(sym), name = mlirSymbolRefAttrGetLeafReference(sym);
  if (!image_exists(e->h, image))
    return fail_at(op, "%s", "the launched kernel's gpu.module was not compiled");
  size_t k = kernel_index(e->h, image, name);
  if ((unsigned)smem > e->h->kernels[k].max_dynamic_smem)
    e->h->kernels[k].max_dynamic_smem = (unsigned)smem;
  BrazeStr decls = {0}, params = {0};
  int n = 0;
  for (intptr_t i = first_arg; i < first_arg + seg[SEG_ARGS]; ++i, ++n) {
    if (!launch_arg(e, op, i, n, &decls)) {
      braze_str_free(&decls);
      braze_str_free(&params);
      return false;
    }
    braze_str_printf(&params, "%s&k%d", n ? ", " : "", n);
  }
  if (e->site >= 0 && !e->alt_name[0])
    snprintf(e->alt_name, sizeof e->alt_name, "%.*s", (int)name.length, name.data);
  braze_str_printf(&e->body, "  { /* %.*s */\n%s    void *params[] = {%s};\n", (int)name.length, name.data,
                   braze_str_cstr(&decls), n ? params.data : "NULL");
  braze_str_printf(&e->body,
                   "    if (braze_cu_launch(p, %zu, %" PRId64 "u, %" PRId64 "u, %" PRId64 "u, %" PRId64 "u, %" PRId64
                   "u, %" PRId64 "u, %" PRId64 "u, stream, params))\n      return 1;\n  }\n",
                   k, dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], smem);
  braze_str_free(&decls);
  braze_str_free(&params);
  return true;
}

/* The CUtensorMapDataType of a TMA element type (cuda.h's enum). */
static const char *tensor_map_dtype(MlirType elem) {
  return mlirTypeIsABF16(elem) ? "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"
         : mlirTypeIsAF16(elem) ? "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"
         : mlirTypeIsAF32(elem) ? "CU_TENSOR_MAP_DATA_TYPE_FLOAT32"
         : mlirTypeIsAInteger(elem) && (mlirIntegerTypeGetWidth(elem) == 1 || mlirIntegerTypeGetWidth(elem) == 8)
             ? "CU_TENSOR_MAP_DATA_TYPE_UINT8" /* an i1 mask: a byte per value */
             : NULL;
}

/* An i64 dense array attribute `name` of `n` elements, or false. */
static bool int_array(MlirOperation op, const char *name, intptr_t n, int64_t *out) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) || mlirDenseArrayGetNumElements(a) != n)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    out[i] = mlirDenseI64ArrayGetElement(a, i);
  return true;
}

/* kernel.tensor_map %buf {box, dims, element_strides} with a box of 4: the memref viewed
 * as the 4-D tensor `dims` (innermost first; as many elements as the memref). */
static bool tensor_map_4d(Entry *e, MlirOperation op, const Val *src, MlirType t, const char *dtype) {
  int64_t box[4], dims[4], strides[4], product = 1;
  if (!int_array(op, "box", 4, box) || !int_array(op, "dims", 4, dims) || !int_array(op, "element_strides", 4, strides))
    return fail_at(op, "%s", "kernel.tensor_map with a box of 4 extents needs dims and element_strides of 4");
  for (int d = 0; d < 4; ++d) {
    product *= dims[d];
    if (box[d] < 1 || box[d] > 256 || strides[d] < 1 || strides[d] > 8 || dims[d] < 1)
      return fail_at(op, "%s", "kernel.tensor_map: box extents must be in [1, 256], element strides in [1, 8]");
  }
  if (product != num_elements(t))
    return fail_at(op, "%s", "kernel.tensor_map: dims must hold as many elements as the memref");
  char *name = printf_dup("tm%zu", e->count);
  braze_str_printf(&e->body,
                   "  CUtensorMap %s;\n  if (braze_cu_tensor_map_4d(&%s, %s, %s, %" PRId64 "u, (const uint64_t[4]){%" PRId64
                   "u, %" PRId64 "u, %" PRId64 "u, %" PRId64 "u}, (const uint32_t[4]){%" PRId64 "u, %" PRId64 "u, %" PRId64
                   "u, %" PRId64 "u}, (const uint32_t[4]){%" PRId64 "u, %" PRId64 "u, %" PRId64 "u, %" PRId64
                   "u}))\n    return 1;\n",
                   name, name, dtype, src->expr, elem_bytes(t), dims[0], dims[1], dims[2], dims[3], box[0], box[1], box[2],
                   box[3], strides[0], strides[1], strides[2], strides[3]);
  put_val(e, mlirOperationGetResult(op, 0), VAL_TENSOR_MAP, name);
  return true;
}

/* kernel.tensor_map %buf {box}: a local CUtensorMap encoded before the launches (the
 * memref as 2-D: its last dim, and all the others flattened; with a box of 4, as the
 * 4-D tensor its dims attribute names). */
static bool op_tensor_map(Entry *e, MlirOperation op) {
  const Val *src = operand(e, op, 0, VAL_ADDR);
  if (!src)
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirAttribute box = mlirOperationGetAttributeByName(op, braze_ref("box"));
  const char *dtype = tensor_map_dtype(mlirShapedTypeGetElementType(t));
  intptr_t rank = mlirShapedTypeGetRank(t);
  bool four = !mlirAttributeIsNull(box) && mlirAttributeIsADenseI64Array(box) && mlirDenseArrayGetNumElements(box) == 4;
  if (dtype && rank >= 1 && mlirShapedTypeHasStaticShape(t) && four)
    return tensor_map_4d(e, op, src, t, dtype);
  if (!dtype || rank < 2 || !mlirShapedTypeHasStaticShape(t) || mlirAttributeIsNull(box) ||
      !mlirAttributeIsADenseI64Array(box) || mlirDenseArrayGetNumElements(box) != 2)
    return fail_at(op, "%s", "kernel.tensor_map takes a static bf16, f16, f32 or i1/i8 memref of rank 2 or more and a "
                             "box of 2 extents (or of 4 with dims and element_strides)");
  int64_t inner = mlirShapedTypeGetDimSize(t, rank - 1), outer = 1;
  for (intptr_t d = 0; d < rank - 1; ++d)
    outer *= mlirShapedTypeGetDimSize(t, d);
  MlirType elem = mlirShapedTypeGetElementType(t);
  int64_t elem_bytes = mlirTypeIsAF32(elem) ? 4 : mlirTypeIsAInteger(elem) ? 1 : 2;
  char *name = printf_dup("tm%zu", e->count);
  braze_str_printf(&e->body,
                   "  CUtensorMap %s;\n  if (braze_cu_tensor_map(&%s, %s, %s, %" PRId64 "u, %" PRId64 "u, %" PRId64
                   "u, %" PRId64 "u, %" PRId64 "u))\n    return 1;\n",
                   name, name, dtype, src->expr, inner, outer, inner * elem_bytes, mlirDenseI64ArrayGetElement(box, 0),
                   mlirDenseI64ArrayGetElement(box, 1));
  put_val(e, mlirOperationGetResult(op, 0), VAL_TENSOR_MAP, name);
  return true;
}

/* kernel.gemm %a, %b, [%x,] %c: host-gemm.c writes the site and the call. */
static bool op_gemm(Entry *e, MlirOperation op) {
  intptr_t n_ops = mlirOperationGetNumOperands(op);
  if (n_ops != 3 && n_ops != 4)
    return fail_at(op, "%s", "kernel.gemm takes 3 or 4 operands");
  const Val *v[4] = {NULL, NULL, NULL, NULL};
  for (intptr_t i = 0; i < n_ops; ++i)
    if (!(v[i] = operand(e, op, i, VAL_ADDR)))
      return false;
  const Val *x = n_ops == 4 ? v[2] : NULL, *c = v[n_ops - 1];
  bool ok = braze_cuda_gemm_site(op, e->h->num_gemms, v[0]->expr, v[1]->expr, x ? x->expr : NULL, c->expr,
                                 &e->h->gemms, &e->body);
  e->h->num_gemms += ok;
  return ok;
}

/* kernel.collective %x, %y[, %scratch]: host-collective.c writes the call. */
static bool op_collective(Entry *e, MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  const Val *v[3] = {NULL, NULL, NULL};
  for (intptr_t i = 0; i < n && i < 3; ++i)
    if (!(v[i] = operand(e, op, i, VAL_ADDR)))
      return false;
  Host *h = e->h;
  int async = braze_cuda_collective_overlaps(op) ? e->pending.num_async++ : -1;
  if (async >= 0)
    braze_cuda_pending_add(&e->pending, mlirOperationGetOperand(op, 1), async);
  return braze_cuda_collective_source(h->opts->mesh, op, h->num_collectives++, v[0]->expr, v[1]->expr,
                                      n > 2 ? v[2]->expr : NULL, async, &h->gemms, &e->body);
}

static bool translate_op(Entry *e, MlirOperation op) {
  if (braze_op_is(op, "arith.constant"))
    return op_constant(e, op);
  if (braze_op_is(op, "memref.view"))
    return op_view(e, op);
  if (braze_op_is(op, "memref.subview"))
    return op_subview(e, op);
  if (braze_op_is(op, "memref.cast") || braze_op_is(op, "memref.collapse_shape") ||
      braze_op_is(op, "memref.expand_shape"))
    return op_alias(e, op);
  if (braze_op_is(op, "memref.get_global"))
    return op_get_global(e, op);
  if (braze_op_is(op, "memref.copy"))
    return op_copy(e, op);
  if (braze_op_is(op, "gpu.launch_func"))
    return op_launch(e, op);
  if (braze_op_is(op, "kernel.tensor_map"))
    return op_tensor_map(e, op);
  if (braze_op_is(op, "kernel.gemm"))
    return op_gemm(e, op);
  if (braze_op_is(op, "kernel.collective"))
    return op_collective(e, op);
  if (braze_op_is(op, "func.return"))
    return true;
  MlirStringRef name = braze_op_name(op);
  char *text = str_of_ref(name);
  fail_at(op,
          "'%s' is not allowed in a CUDA host entry (only arith.constant, memref.view, memref.subview, memref.get_global, "
          "gpu.launch_func, memref.copy, kernel.tensor_map, kernel.gemm, kernel.collective and func.return; see "
          "docs/targets-cuda.md)",
          text);
  free(text);
  return false;
}

/* ---- matmul=auto: alternatives ---- */

/* Ops that only name values (no code in the entry's body). */
static bool names_only(MlirOperation op) {
  return braze_cuda_touches_no_memory(op) || braze_op_is(op, "func.return");
}

/* The open group as one block: the site's choice, or while undecided each alternative
 * BRAZE_CU_PICK_RUNS times under a timer (runtime/cuda/cublaslt-gemm.c). */
static void close_alternatives(Entry *e) {
  Host *h = e->h;
  bool declared = false;
  for (size_t i = 0; i < h->num_picks && !declared; ++i)
    declared = h->picks[i] == e->site;
  if (!declared) { /* a kernel called from several places shares its one choice */
    h->picks = realloc(h->picks, (h->num_picks + 1) * sizeof *h->picks);
    h->picks[h->num_picks++] = e->site;
    braze_str_printf(&h->gemms, "static BrazeCuPick braze_pick_%" PRId64 " = {\"%s\", -1, {0.0f, 0.0f}};\n", e->site,
                     e->alt_name[0] ? e->alt_name : "matmul");
  }
  braze_str_printf(&e->body,
                   "  { /* matmul=auto: %s on its kernel (0) or cuBLASLt (1) */\n"
                   "    int pick = braze_cu_pick(&braze_pick_%" PRId64 ", stream);\n"
                   "    float ms[2] = {0.0f, 0.0f};\n    BrazeCuTimer timer;\n"
                   "    for (int run = 0; run < (pick < 0 ? 2 * BRAZE_CU_PICK_RUNS : 1); ++run) {\n"
                   "      int alt = pick < 0 ? run / BRAZE_CU_PICK_RUNS : pick;\n"
                   "      if (pick < 0 && run %% BRAZE_CU_PICK_RUNS == 1 && braze_cu_timer_start(&timer, stream))\n"
                   "        return 1;\n"
                   "      if (alt == 0) {\n%s      } else {\n%s      }\n"
                   "      if (pick < 0 && run %% BRAZE_CU_PICK_RUNS == BRAZE_CU_PICK_RUNS - 1 &&\n"
                   "          braze_cu_timer_stop(&timer, stream, &ms[alt]))\n        return 1;\n"
                   "    }\n    if (pick < 0)\n      braze_cu_decide(&braze_pick_%" PRId64 ", ms);\n  }\n",
                   e->alt_name[0] ? e->alt_name : "a contraction", e->site, braze_str_cstr(&e->alt[0]),
                   braze_str_cstr(&e->alt[1]), e->site);
  braze_str_free(&e->alt[0]);
  braze_str_free(&e->alt[1]);
  e->site = -1;
  e->alt_name[0] = 0;
}

/* One op, into its alternative's code when tagged braze.alternative = [site, choice, _];
 * an op of other code closes the open group first. */
static bool translate_tagged(Entry *e, MlirOperation op) {
  MlirAttribute alt = mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.alternative"));
  bool tagged = !mlirAttributeIsNull(alt) && mlirAttributeIsADenseI64Array(alt) && mlirDenseArrayGetNumElements(alt) == 3;
  int64_t site = tagged ? mlirDenseI64ArrayGetElement(alt, 0) : -1, choice = tagged ? mlirDenseI64ArrayGetElement(alt, 1) : 0;
  if (tagged && (site < 0 || choice < 0 || choice > 1))
    return fail_at(op, "%s", "braze.alternative must be [site >= 0, choice 0 or 1, outputs]");
  if (e->site >= 0 && (tagged ? site != e->site : !names_only(op)))
    close_alternatives(e);
  /* into the outer code, before an open group's block: every alternative reads after it */
  braze_cuda_pending_before(&e->pending, op, &e->body);
  if (!tagged)
    return translate_op(e, op);
  e->site = site;
  BrazeStr outer = e->body;
  e->body = e->alt[choice];
  bool ok = translate_op(e, op);
  e->alt[choice] = e->body;
  e->body = outer;
  return ok;
}

static MlirOperation find_func(MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!braze_op_is(op, "func.func"))
      continue;
    MlirAttribute sym = mlirOperationGetAttributeByName(op, braze_ref("sym_name"));
    if (braze_ref_eq(mlirStringAttrGetValue(sym), name))
      return op;
  }
  return (MlirOperation){NULL};
}

/* static int braze_run_NAME(p, args, ws, stream): the entry's launches and copies. */
static bool translate_entry(Host *h, const BrazeEntrySig *sig, bool *partitioned) {
  MlirOperation func = find_func(h->module, sig->name);
  if (mlirOperationIsNull(func)) {
    braze_str_printf(h->error, "internal error: entry '%s' disappeared in the pipeline", sig->name);
    return false;
  }
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(block) || mlirBlockGetNextInRegion(block).ptr)
    return fail_at(func, "%s", "a CUDA host entry must be one block of launches");
  if (!braze_cuda_mesh_note(h->opts->mesh, func, partitioned))
    return false;
  Entry e = {.h = h};
  int n = sig->num_inputs + sig->num_outputs;
  for (int i = 0; i < n; ++i)
    put_val(&e, mlirBlockGetArgument(block, i), VAL_ADDR, printf_dup("((CUdeviceptr)(uintptr_t)args[%d])", i));
  if (sig->workspace_bytes > 0)
    put_val(&e, mlirBlockGetArgument(block, n), VAL_ADDR, strdup("workspace"));
  bool ok = true;
  e.site = -1;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    ok = translate_tagged(&e, op);
  if (ok && e.site >= 0)
    close_alternatives(&e);
  if (ok && e.pending.num_async) { /* the communication stream and events (runtime/cuda/nccl-mesh.c) */
    braze_str_printf(&h->gemms, "static BrazeCuOverlap braze_overlap_%s = {PTHREAD_MUTEX_INITIALIZER, %d, NULL, 0, 0};\n",
                     sig->name, e.pending.num_async);
  }
  if (ok) {
    braze_str_printf(h->out,
                     "static int braze_run_%s(BrazeCuProgram *p, void *const *args, CUdeviceptr workspace, "
                     "CUstream stream) {\n  (void)p;\n  (void)args;\n  (void)workspace;\n  (void)stream;\n",
                     sig->name);
    if (e.pending.num_async)
      braze_str_printf(h->out, "  BrazeCuOverlapSlot *ov = NULL;\n  if (braze_cu_overlap_slot(&braze_overlap_%s, "
                               "stream, &ov))\n    return 1;\n", sig->name);
    braze_str_printf(h->out, "%s  return 0;\n}\n\n", braze_str_cstr(&e.body));
  }
  for (size_t i = 0; i < e.count; ++i)
    free(e.vals[i].expr);
  free(e.vals);
  braze_ptrmap_free(&e.index);
  braze_str_free(&e.body);
  braze_str_free(&e.alt[0]);
  braze_str_free(&e.alt[1]);
  braze_cuda_pending_free(&e.pending);
  return ok;
}

/* ---- binary data: files in blob_dir, assembled into .rodata with .incbin ---- */

static bool write_blob(const Host *h, const char *file, const void *data, size_t len) {
  BrazeStr path = {0};
  braze_str_printf(&path, "%s/%s", h->opts->blob_dir, file);
  FILE *f = fopen(path.data, "wb");
  bool ok = f && (len == 0 || fwrite(data, 1, len, f) == len);
  ok = (f && fclose(f) == 0) && ok;
  if (!ok)
    braze_str_printf(h->error, "cannot write '%s'", path.data);
  braze_str_free(&path);
  return ok;
}

/* A local label holding the file's bytes and a NUL (PTX is a C string). */
static void incbin(Host *h, const char *label, const char *file) {
  braze_str_printf(h->out,
                   "__asm__(\".section .rodata\\n.balign 64\\n%s:\\n.incbin \\\"%s/%s\\\"\\n.byte 0\\n.previous\\n\");\n"
                   "extern const unsigned char %s[] __attribute__((visibility(\"hidden\")));\n",
                   label, h->opts->blob_dir, file, label);
}

static void program_tables(Host *h, const size_t *constant_sizes);

static bool emit_program(Host *h) {
  const BrazeCudaImages *images = h->opts->images;
  size_t *constant_sizes = calloc(h->num_constants + 1, sizeof *constant_sizes);
  bool ok = true;
  char file[64], label[64];
  for (size_t i = 0; i < images->count; ++i) {
    const BrazeCudaImage *img = &images->items[i];
    snprintf(file, sizeof file, "image%zu.cubin", i);
    if (!(ok = write_blob(h, file, img->cubin.data, img->cubin.length)))
      break;
    snprintf(label, sizeof label, "braze_cubin_%zu", i);
    incbin(h, label, file);
    snprintf(file, sizeof file, "image%zu.ptx", i);
    if (!(ok = write_blob(h, file, img->ptx.data, img->ptx.length)))
      break;
    snprintf(label, sizeof label, "braze_ptx_%zu", i);
    incbin(h, label, file);
  }
  for (size_t i = 0; ok && i < h->num_constants; ++i) {
    unsigned char *data = NULL;
    if (!(ok = braze_cuda_constant_bytes(h->constants[i], &data, &constant_sizes[i]))) {
      fail_at(h->constants[i], "%s", "constant of an element type the CUDA runtime cannot upload");
      break;
    }
    snprintf(file, sizeof file, "const%zu.bin", i);
    ok = write_blob(h, file, data, constant_sizes[i]);
    free(data);
    snprintf(label, sizeof label, "braze_const_%zu", i);
    if (ok)
      incbin(h, label, file);
  }
  if (ok)
    program_tables(h, constant_sizes);
  free(constant_sizes);
  return ok;
}

/* The images, kernels and constants the runtime loads at the first call. */
static void program_tables(Host *h, const size_t *constant_sizes) {
  const BrazeCudaImages *images = h->opts->images;
  braze_str_puts(h->out, "\nstatic BrazeCuImage braze_images[] = {\n");
  for (size_t i = 0; i < images->count; ++i)
    braze_str_printf(h->out, "    {\"%.*s\", braze_cubin_%zu, (const char *)braze_ptx_%zu, NULL},\n",
                     (int)images->items[i].name.length, images->items[i].name.data, i, i);
  braze_str_puts(h->out, "};\nstatic BrazeCuKernel braze_kernels[] = {\n");
  for (size_t i = 0; i < h->num_kernels; ++i) {
    size_t img = 0;
    while (!mlirStringRefEqual(images->items[img].name, h->kernels[i].image))
      ++img;
    braze_str_printf(h->out, "    {%zu, \"%.*s\", %u, NULL},\n", img, (int)h->kernels[i].name.length,
                     h->kernels[i].name.data, h->kernels[i].max_dynamic_smem);
  }
  if (!h->num_kernels)
    braze_str_puts(h->out, "    {0, \"\", 0, NULL},\n");
  braze_str_puts(h->out, "};\nstatic BrazeCuConstant braze_constants[] = {\n");
  for (size_t i = 0; i < h->num_constants; ++i)
    braze_str_printf(h->out, "    {braze_const_%zu, %zuu, 0},\n", i, constant_sizes[i]);
  if (!h->num_constants)
    braze_str_puts(h->out, "    {NULL, 0, 0},\n");
  braze_str_printf(h->out,
                   "};\nstatic BrazeCuProgram braze_program = {braze_images, %zu, braze_kernels, %zu, braze_constants, "
                   "%zu, PTHREAD_MUTEX_INITIALIZER, 0, NULL};\n\n",
                   images->count, h->num_kernels, h->num_constants);
}

bool braze_cuda_host_source(MlirOperation module, const BrazeEntrySet *entries, const BrazeCudaHostOptions *opts,
                            BrazeStr *out, BrazeStr *error) {
  Host h = {.module = module, .opts = opts, .error = error};
  BrazeStr launches = {0};
  h.out = &launches;
  bool ok = true;
  for (size_t i = 0; ok && i < entries->count; ++i)
    ok = translate_entry(&h, &entries->items[i], &opts->partitioned[i]);
  if (ok) {
    braze_str_printf(out, "/* Generated by braze from %s. Do not edit. */\n", opts->source_name ? opts->source_name : "<stdin>");
    if (opts->mesh->partitioned) /* the runtime's mesh and collectives (runtime/cuda/nccl-mesh.c) */
      braze_str_puts(out, "#define BRAZE_CUDA_MESH 1\n");
    braze_str_puts(out, "#include \"braze_cuda_runtime.c\"\n#include <stdbool.h>\n\n");
    h.out = out;
    ok = emit_program(&h);
  }
  if (ok) {
    braze_str_append(out, h.gemms.data ? h.gemms.data : "", h.gemms.len);
    braze_str_append(out, launches.data ? launches.data : "", launches.len);
    braze_cuda_mesh_tables(opts->mesh, out);
    braze_cuda_abi_functions(entries, opts->graph_replay, opts->partitioned, out);
  }
  braze_str_free(&launches);
  braze_str_free(&h.gemms);
  free(h.picks);
  free(h.kernels);
  free(h.constants);
  return ok;
}
