/* The mesh of a partitioned CUDA library in its generated host code (decision 0018):
 * which entries are partitioned and over what mesh, each `kernel.collective` of an
 * entry as a descriptor plus a call of the runtime's braze_cu_collective
 * (runtime/cuda/nccl-mesh.c), and the mesh functions and tables the library exports. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/mesh.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "support/context.h"
#include "targets/cuda/cuda-target.h"

bool braze_cuda_fail_at(MlirOperation op, const char *msg) {
  mlirEmitError(mlirOperationGetLocation(op), msg);
  return false;
}

bool braze_cuda_mesh_note(BrazeCudaMesh *m, MlirOperation func, bool *partitioned) {
  *partitioned = false;
  if (mlirAttributeIsNull(mlirOperationGetAttributeByName(func, braze_ref("braze.partitioned"))))
    return true;
  BrazeMesh mesh;
  bool present = false;
  BrazeStr why = {0};
  bool ok = braze_mesh_from_func(func, &mesh, &present, &why) && present;
  braze_str_free(&why);
  if (!ok)
    return braze_cuda_fail_at(func, "a partitioned entry needs a well-formed braze.mesh");
  if (braze_mesh_devices(&mesh) == 1)
    return true; /* nothing communicates: an ordinary entry */
  if (m->partitioned && braze_mesh_devices(&m->mesh) != braze_mesh_devices(&mesh))
    return braze_cuda_fail_at(func, "the partitioned entries of a CUDA library must have meshes of one device count (decision "
                         "0018)");
  if (!m->partitioned)
    m->mesh = mesh;
  m->partitioned = true;
  *partitioned = true;
  return true;
}

static int64_t int_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref(name));
  return mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) ? -1 : mlirIntegerAttrGetValueInt(a);
}

static bool str_attr_is(MlirOperation op, const char *name, const char *value) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) && braze_ref_eq(mlirStringAttrGetValue(a), value);
}

/* The group's index in the library's table (added when new); -1 when the table is full. */
static int group_index(BrazeCudaMesh *m, const int64_t *sizes, int num_mesh_axes, const int64_t *axes, int n) {
  for (int g = 0; g < m->num_groups; ++g) {
    bool same = m->groups[g].num_axes == n && m->groups[g].num_mesh_axes == num_mesh_axes;
    for (int i = 0; same && i < n; ++i)
      same = m->groups[g].axes[i] == axes[i];
    for (int a = 0; same && a < num_mesh_axes; ++a)
      same = m->groups[g].sizes[a] == sizes[a];
    if (same)
      return g;
  }
  if (m->num_groups == BRAZE_CUDA_MESH_MAX_GROUPS)
    return -1;
  m->groups[m->num_groups].num_axes = n;
  m->groups[m->num_groups].num_mesh_axes = num_mesh_axes;
  for (int i = 0; i < n; ++i)
    m->groups[m->num_groups].axes[i] = (int)axes[i];
  for (int a = 0; a < num_mesh_axes; ++a)
    m->groups[m->num_groups].sizes[a] = sizes[a];
  return m->num_groups++;
}

/* NCCL's type for a reduction over elements of `t` (NULL: none). */
static const char *nccl_type(MlirType t, bool is_unsigned) {
  if (mlirTypeIsABF16(t))
    return "ncclBfloat16";
  if (mlirTypeIsAF16(t))
    return "ncclFloat16";
  if (mlirTypeIsAF32(t))
    return "ncclFloat32";
  if (mlirTypeIsAF64(t))
    return "ncclFloat64";
  if (!mlirTypeIsAInteger(t))
    return NULL;
  switch (mlirIntegerTypeGetWidth(t)) {
  case 1:
    return "ncclUint8"; /* i1 is a byte; max/min of 0/1 compare as unsigned */
  case 8:
    return is_unsigned ? "ncclUint8" : "ncclInt8";
  case 32:
    return is_unsigned ? "ncclUint32" : "ncclInt32";
  case 64:
    return is_unsigned ? "ncclUint64" : "ncclInt64";
  default:
    return NULL; /* NCCL has no 16-bit integers */
  }
}

static int64_t product(MlirType t, int64_t from, int64_t to) {
  int64_t n = 1;
  for (int64_t d = from; d < to; ++d)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n;
}

static int64_t type_bytes(MlirType t) {
  MlirType e = mlirShapedTypeGetElementType(t);
  int64_t bits = mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e) : mlirFloatTypeGetWidth(e);
  return product(t, 0, mlirShapedTypeGetRank(t)) * ((bits + 7) / 8);
}

bool braze_cuda_collective_source(BrazeCudaMesh *m, MlirOperation op, size_t index, const char *x, const char *y,
                                  const char *scratch, int async, BrazeStr *decls, BrazeStr *body) {
  MlirType tx = mlirValueGetType(mlirOperationGetOperand(op, 0)), ty = mlirValueGetType(mlirOperationGetOperand(op, 1));
  MlirAttribute axes_attr = mlirOperationGetAttributeByName(op, braze_ref("axes"));
  MlirAttribute shape_attr = mlirOperationGetAttributeByName(op, braze_ref("mesh_shape"));
  if (!m->partitioned || mlirAttributeIsNull(axes_attr) || !mlirAttributeIsADenseI64Array(axes_attr) ||
      mlirAttributeIsNull(shape_attr) || !mlirAttributeIsADenseI64Array(shape_attr))
    return braze_cuda_fail_at(op, "kernel.collective outside the entry of a partitioned function (braze.partitioned, braze.mesh)");
  int n = (int)mlirDenseArrayGetNumElements(axes_attr), num_mesh_axes = (int)mlirDenseArrayGetNumElements(shape_attr);
  if (num_mesh_axes < 1 || num_mesh_axes > BRAZE_MESH_MAX_AXES)
    return braze_cuda_fail_at(op, "kernel.collective's mesh_shape must have 1 to 4 axes");
  int64_t axes[BRAZE_MESH_MAX_AXES], sizes[BRAZE_MESH_MAX_AXES], G = 1;
  for (int a = 0; a < num_mesh_axes; ++a)
    sizes[a] = mlirDenseI64ArrayGetElement(shape_attr, a);
  for (int i = 0; i < n && i < BRAZE_MESH_MAX_AXES; ++i) {
    axes[i] = mlirDenseI64ArrayGetElement(axes_attr, i);
    if (axes[i] < 0 || axes[i] >= num_mesh_axes)
      return braze_cuda_fail_at(op, "kernel.collective names an axis the mesh does not have");
    G *= sizes[axes[i]];
  }
  int group = n >= 1 && n <= BRAZE_MESH_MAX_AXES ? group_index(m, sizes, num_mesh_axes, axes, n) : -1;
  if (group < 0)
    return braze_cuda_fail_at(op, "too many collective groups in one CUDA library (at most 16)");
  bool reduces = !str_attr_is(op, "reduction", "none");
  const char *dtype = nccl_type(mlirShapedTypeGetElementType(tx), int_attr(op, "unsigned") == 1);
  if (reduces && !dtype)
    return braze_cuda_fail_at(op, "NCCL reduces no 16-bit integers: this collective's element type cannot be reduced on the GPU");
  const char *red = str_attr_is(op, "reduction", "max") ? "ncclMax" : str_attr_is(op, "reduction", "min") ? "ncclMin"
                                                                                                            : "ncclSum";
  int64_t xb = type_bytes(tx), yb = type_bytes(ty), es = xb / (product(tx, 0, mlirShapedTypeGetRank(tx)) ?: 1);
  int64_t outer = 1, row = 0, outer2 = 1, row2 = 0, count = product(tx, 0, mlirShapedTypeGetRank(tx));
  const char *kind;
  if (str_attr_is(op, "kind", "all_reduce")) {
    kind = "BRAZE_CU_ALL_REDUCE";
  } else if (str_attr_is(op, "kind", "all_gather")) {
    int64_t d = int_attr(op, "dim");
    kind = "BRAZE_CU_ALL_GATHER";
    outer = product(tx, 0, d);
    row = product(tx, d, mlirShapedTypeGetRank(tx)) * es;
  } else if (str_attr_is(op, "kind", "reduce_scatter") || str_attr_is(op, "kind", "all_slice")) {
    int64_t d = int_attr(op, "dim");
    kind = str_attr_is(op, "kind", "all_slice") ? "BRAZE_CU_ALL_SLICE" : "BRAZE_CU_REDUCE_SCATTER";
    outer = product(ty, 0, d);
    row = product(ty, d, mlirShapedTypeGetRank(ty)) * es;
    count = product(ty, 0, mlirShapedTypeGetRank(ty));
  } else if (str_attr_is(op, "kind", "all_to_all")) {
    int64_t s = int_attr(op, "split_dim"), c = int_attr(op, "concat_dim"), rank = mlirShapedTypeGetRank(tx);
    kind = "BRAZE_CU_ALL_TO_ALL";
    outer = product(tx, 0, s);
    row = product(tx, s, rank) / G * es;
    /* the piece: x with split_dim / G */
    outer2 = 1;
    for (int64_t dd = 0; dd < c; ++dd)
      outer2 *= mlirShapedTypeGetDimSize(tx, dd) / (dd == s ? G : 1);
    row2 = xb / G / outer2;
  } else {
    return braze_cuda_fail_at(op, "unknown kernel.collective kind");
  }
  if (!dtype)
    dtype = "ncclInt8";
  braze_str_printf(decls,
                   "static const BrazeCuCollective braze_collective_%zu = {%s, %d, %s, %s, %" PRId64 "u, %" PRId64
                   "u, %" PRId64 "u, %" PRId64 "u, %" PRId64 "u, %" PRId64 "u, %" PRId64 "u};\n",
                   index, kind, group, dtype, red, count, xb, yb, outer, row, outer2, row2);
  if (async >= 0)
    braze_str_printf(body, "  if (braze_cu_collective_async(ov, %d, &braze_collective_%zu, %s, %s, %s, stream))\n    return 1;\n",
                     async, index, x, y, scratch ? scratch : "0");
  else
    braze_str_printf(body, "  if (braze_cu_collective(&braze_collective_%zu, %s, %s, %s, stream))\n    return 1;\n",
                     index, x, y, scratch ? scratch : "0");
  return true;
}

/* ---- overlap ---- */

bool braze_cuda_touches_no_memory(MlirOperation op) {
  return braze_op_is(op, "arith.constant") || braze_op_is(op, "memref.view") || braze_op_is(op, "memref.get_global") ||
         braze_op_is(op, "memref.subview") || braze_op_is(op, "memref.cast") ||
         braze_op_is(op, "memref.collapse_shape") || braze_op_is(op, "memref.expand_shape");
}

static bool is_alias(MlirOperation op) {
  return braze_op_is(op, "memref.cast") || braze_op_is(op, "memref.collapse_shape") ||
         braze_op_is(op, "memref.expand_shape") || braze_op_is(op, "memref.subview");
}

static bool reads_any(MlirOperation op, const MlirValue *values, size_t n) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    for (size_t k = 0; k < n; ++k)
      if (mlirValueEqual(mlirOperationGetOperand(op, i), values[k]))
        return true;
  return false;
}

bool braze_cuda_collective_overlaps(MlirOperation op) {
  MlirValue seen[16] = {mlirOperationGetOperand(op, 1)};
  size_t n = 1;
  for (MlirOperation next = mlirOperationGetNextInBlock(op); !mlirOperationIsNull(next);
       next = mlirOperationGetNextInBlock(next)) {
    if (!braze_cuda_touches_no_memory(next))
      return !braze_op_is(next, "func.return") && !reads_any(next, seen, n);
    if (is_alias(next) && reads_any(next, seen, n) && n < 16)
      seen[n++] = mlirOperationGetResult(next, 0);
  }
  return false;
}

void braze_cuda_pending_add(BrazeCudaPending *p, MlirValue v, int slot) {
  if (p->count == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 8;
    p->values = realloc(p->values, p->cap * sizeof *p->values);
    p->slots = realloc(p->slots, p->cap * sizeof *p->slots);
  }
  p->values[p->count] = v;
  p->slots[p->count++] = slot;
}

/* Join async collective `slot`: the wait, and every pending value of it dropped. */
static void join(BrazeCudaPending *p, int slot, BrazeStr *body) {
  braze_str_printf(body, "  if (braze_cu_join(ov, %d, stream))\n    return 1;\n", slot);
  size_t kept = 0;
  for (size_t i = 0; i < p->count; ++i)
    if (p->slots[i] != slot) {
      p->values[kept] = p->values[i];
      p->slots[kept++] = p->slots[i];
    }
  p->count = kept;
}

void braze_cuda_pending_before(BrazeCudaPending *p, MlirOperation op, BrazeStr *body) {
  bool all = braze_op_is(op, "func.return");
  for (size_t i = 0; i < p->count;) {
    bool reads = all || reads_any(op, &p->values[i], 1);
    if (reads && is_alias(op)) {
      braze_cuda_pending_add(p, mlirOperationGetResult(op, 0), p->slots[i]);
      ++i;
    } else if (reads && !braze_cuda_touches_no_memory(op)) {
      join(p, p->slots[i], body); /* removes entries: look at index i again */
    } else {
      ++i;
    }
  }
}

void braze_cuda_pending_free(BrazeCudaPending *p) {
  free(p->values);
  free(p->slots);
}

void braze_cuda_mesh_tables(const BrazeCudaMesh *m, BrazeStr *out) {
  if (!m->partitioned)
    return;
  const BrazeMesh *mesh = &m->mesh;
  braze_str_printf(out, "static const BrazeCuMesh braze_mesh = {%d, {", mesh->num_axes);
  for (int a = 0; a < mesh->num_axes; ++a)
    braze_str_printf(out, "%s%" PRId64, a ? ", " : "", mesh->sizes[a]);
  braze_str_printf(out, "}, %" PRId64 ", %d, {", braze_mesh_devices(mesh), m->num_groups);
  for (int g = 0; g < m->num_groups; ++g) {
    braze_str_printf(out, "%s{%d, {", g ? ", " : "", m->groups[g].num_mesh_axes);
    for (int a = 0; a < m->groups[g].num_mesh_axes; ++a)
      braze_str_printf(out, "%s%" PRId64, a ? ", " : "", m->groups[g].sizes[a]);
    braze_str_printf(out, "}, %d, {", m->groups[g].num_axes);
    for (int i = 0; i < m->groups[g].num_axes; ++i)
      braze_str_printf(out, "%s%d", i ? ", " : "", m->groups[g].axes[i]);
    braze_str_puts(out, "}}");
  }
  braze_str_puts(out, "}};\n");
  braze_str_printf(out, "BRAZE_CUDA_EXPORT const int32_t braze_mesh_num_devices = %" PRId64 ";\n",
                   braze_mesh_devices(mesh));
  braze_str_printf(out, "BRAZE_CUDA_EXPORT const int32_t braze_mesh_num_axes = %d;\n", mesh->num_axes);
  braze_str_puts(out, "BRAZE_CUDA_EXPORT const int64_t braze_mesh_axis_sizes[] = {");
  for (int a = 0; a < mesh->num_axes; ++a)
    braze_str_printf(out, "%s%" PRId64, a ? ", " : "", mesh->sizes[a]);
  braze_str_puts(out, "};\nBRAZE_CUDA_EXPORT const char *const braze_mesh_axis_names[] = {");
  for (int a = 0; a < mesh->num_axes; ++a)
    braze_str_printf(out, "\"%s\", ", mesh->names[a]);
  braze_str_puts(out,
                 "NULL};\n"
                 "BRAZE_CUDA_EXPORT int braze_cuda_mesh_unique_id(void *unique_id) {\n"
                 "  return braze_cu_mesh_unique_id(unique_id);\n}\n"
                 "BRAZE_CUDA_EXPORT int braze_cuda_mesh_init(void *nccl_comm) {\n"
                 "  return braze_cu_mesh_init(&braze_mesh, nccl_comm, NULL, -1);\n}\n"
                 "BRAZE_CUDA_EXPORT int braze_cuda_mesh_init_rank(const void *unique_id, int rank) {\n"
                 "  return braze_cu_mesh_init(&braze_mesh, NULL, unique_id, rank);\n}\n"
                 "BRAZE_CUDA_EXPORT int braze_cuda_mesh_init_all(const int *devices, int num_devices) {\n"
                 "  return braze_cu_mesh_init_all(&braze_mesh, devices, num_devices);\n}\n"
                 "BRAZE_CUDA_EXPORT int braze_cuda_mesh_finalize(void) { return braze_cu_mesh_finalize(); }\n"
                 "BRAZE_CUDA_EXPORT int braze_cuda_mesh_rank(void) { return braze_cu_mesh_rank(); }\n\n");
}

void braze_cuda_mesh_header(const BrazeCudaMesh *m, BrazeStr *out) {
  if (!m->partitioned)
    return;
  BrazeStr desc = {0};
  braze_mesh_describe(&m->mesh, &desc);
  braze_str_printf(out,
                   "/* The mesh (docs/sharding.md, decision 0018): this library is one rank's program of a\n"
                   " * partitioned module, mesh %s (%" PRId64 " devices; rank = row-major mesh coordinates).\n"
                   " * Before any entry runs, once per process, on the rank's GPU (its context current):\n"
                   " *   braze_cuda_mesh_init(comm): an ncclComm_t over the mesh's devices whose rank is the\n"
                   " *     mesh rank (kept by the caller), or\n"
                   " *   braze_cuda_mesh_init_rank(unique_id, rank): the library creates it from a 128-byte\n"
                   " *     ncclUniqueId that one process made with braze_cuda_mesh_unique_id and shared.\n"
                   " * or, one process driving all the mesh's GPUs (decision 0022):\n"
                   " *   braze_cuda_mesh_init_all(devices, n): NCCL communicators for n = braze_mesh_num_devices\n"
                   " *     devices (NULL: 0..n-1), rank r on devices[r]. Then each rank's entries are called\n"
                   " *     from its own host thread, concurrently with the other ranks', with devices[r]\n"
                   " *     current (braze_cuda_set_device(devices[r]) or cudaSetDevice): the thread's context\n"
                   " *     selects the rank. One thread calling rank 0 then rank 1 deadlocks in the first\n"
                   " *     collective (an NCCL call may block until the other ranks have called it).\n"
                   " * Until then every entry returns 1. Collectives run on the entry's stream (or on a second\n"
                   " * one, joined before their results are read); NCCL comes from libnccl.so.2 (dlopen).\n"
                   " * Each returns 0 on success, else 1 (braze_cuda_last_error()). */\n"
                   "extern const int32_t braze_mesh_num_devices, braze_mesh_num_axes;\n"
                   "extern const int64_t braze_mesh_axis_sizes[];\n"
                   "extern const char *const braze_mesh_axis_names[];\n"
                   "int braze_cuda_mesh_unique_id(void *unique_id); /* writes 128 bytes */\n"
                   "int braze_cuda_mesh_init(void *nccl_comm);\n"
                   "int braze_cuda_mesh_init_rank(const void *unique_id, int rank);\n"
                   "int braze_cuda_mesh_finalize(void); /* releases what the library created */\n"
                   "int braze_cuda_mesh_rank(void); /* the calling thread's; -1 before init */\n"
                   "int braze_cuda_mesh_init_all(const int *devices, int num_devices);\n\n",
                   desc.data, braze_mesh_devices(&m->mesh));
  braze_str_free(&desc);
}
