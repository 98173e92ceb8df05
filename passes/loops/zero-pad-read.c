/* Zero pads at the loop level: see passes/loops/zero-pad-read.h. */
#include "passes/loops/zero-pad-read.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/loops/builder.h"
#include "support/affine-eval.h"
#include "support/context.h"

enum { ZP_MAX_SLOTS = 96, ZP_MAX_INPUTS = 4, ZP_MAX_RANK = 8 };

typedef enum {
  ZP_ARG, ZP_INDEX, ZP_CONST, ZP_CMP, ZP_ADD, ZP_SUB, ZP_MUL, ZP_DIVU, ZP_DIVS, ZP_REMU, ZP_REMS,
  ZP_MINS, ZP_MAXS, ZP_MINU, ZP_MAXU, ZP_SEL, ZP_SEXT, ZP_ZEXT,
} ZpCode;

/* One integer op of the body; its value is slot (its position), `bits` wide. */
typedef struct {
  ZpCode code;
  int a, b, c;   /* operand slots */
  int64_t imm;   /* ZP_ARG: input, ZP_INDEX: loop, ZP_CONST: value, ZP_CMP: predicate */
  int bits;
} ZpInst;

typedef struct {
  ZpInst inst[ZP_MAX_SLOTS];
  MlirValue value[ZP_MAX_SLOTS];
  int n;
  int cond, idx[ZP_MAX_RANK], n_idx; /* the select's condition and the extract's indices */
  MlirValue data;
} ZpProgram;

static int slot_of(const ZpProgram *p, MlirValue v) {
  for (int i = 0; i < p->n; ++i)
    if (mlirValueEqual(p->value[i], v))
      return i;
  return -1;
}

static int int_bits(MlirType t) {
  if (mlirTypeIsAIndex(t))
    return 64;
  return mlirTypeIsAInteger(t) ? (int)mlirIntegerTypeGetWidth(t) : 0;
}

static int64_t sext(int64_t v, int bits) {
  if (bits >= 64)
    return v;
  uint64_t m = 1ull << (bits - 1);
  uint64_t u = (uint64_t)v & ((1ull << bits) - 1);
  return (int64_t)((u ^ m) - m);
}

static uint64_t zext(int64_t v, int bits) { return bits >= 64 ? (uint64_t)v : (uint64_t)v & ((1ull << bits) - 1); }

static const struct {
  const char *name;
  ZpCode code;
} binary_ops[] = {
    {"arith.addi", ZP_ADD},   {"arith.subi", ZP_SUB},   {"arith.muli", ZP_MUL},   {"arith.divui", ZP_DIVU},
    {"arith.divsi", ZP_DIVS}, {"arith.remui", ZP_REMU}, {"arith.remsi", ZP_REMS}, {"arith.minsi", ZP_MINS},
    {"arith.maxsi", ZP_MAXS}, {"arith.minui", ZP_MINU}, {"arith.maxui", ZP_MAXU}, {"arith.cmpi", ZP_CMP},
};

/* One body op as an instruction; false when it is none of the integer ops above. */
static bool decode_op(ZpProgram *p, MlirOperation op) {
  if (p->n == ZP_MAX_SLOTS || mlirOperationGetNumResults(op) != 1)
    return false;
  MlirValue r = mlirOperationGetResult(op, 0);
  ZpInst in = {.bits = int_bits(mlirValueGetType(r)), .a = -1, .b = -1, .c = -1};
  if (in.bits == 0)
    return false;
  intptr_t n_ops = mlirOperationGetNumOperands(op);
  int s[3] = {-1, -1, -1};
  for (intptr_t i = 0; i < n_ops && i < 3; ++i)
    s[i] = slot_of(p, mlirOperationGetOperand(op, i));
  if (braze_op_is(op, "linalg.index")) {
    in.code = ZP_INDEX;
    in.imm = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("dim")));
  } else if (braze_op_is(op, "arith.constant")) {
    MlirAttribute v = mlirOperationGetAttributeByName(op, braze_ref("value"));
    if (!mlirAttributeIsAInteger(v))
      return false;
    in.code = ZP_CONST;
    in.imm = mlirIntegerAttrGetValueInt(v);
  } else if (braze_op_is(op, "arith.select")) {
    in.code = ZP_SEL;
  } else if (braze_op_is(op, "arith.index_cast") || braze_op_is(op, "arith.extsi") ||
             braze_op_is(op, "arith.trunci")) {
    in.code = ZP_SEXT;
  } else if (braze_op_is(op, "arith.index_castui") || braze_op_is(op, "arith.extui")) {
    in.code = ZP_ZEXT;
  } else {
    size_t k = 0, nb = sizeof binary_ops / sizeof *binary_ops;
    while (k < nb && !braze_op_is(op, binary_ops[k].name))
      ++k;
    if (k == nb || n_ops != 2)
      return false;
    in.code = binary_ops[k].code;
    if (in.code == ZP_CMP)
      in.imm = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("predicate")));
  }
  int needed = in.code == ZP_SEL ? 3 : (in.code == ZP_SEXT || in.code == ZP_ZEXT) ? 1 : (in.code >= ZP_CMP ? 2 : 0);
  if (n_ops != needed)
    return false;
  for (int i = 0; i < needed; ++i)
    if (s[i] < 0)
      return false;
  in.a = s[0];
  in.b = s[1];
  in.c = s[2];
  p->inst[p->n] = in;
  p->value[p->n++] = r;
  return true;
}

static bool is_float_zero(MlirValue v) {
  if (!mlirValueIsAOpResult(v) || !braze_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), braze_ref("value"));
  return mlirAttributeIsAFloat(a) && mlirFloatAttrGetValueDouble(a) == 0.0;
}

/* The body as a program ending in yield(select(cond, extract(data, idx), 0.0)). */
static const char *decode_body(MlirBlock body, ZpProgram *p) {
  intptr_t n_args = mlirBlockGetNumArguments(body);
  for (intptr_t a = 0; a + 1 < n_args; ++a) {
    MlirValue arg = mlirBlockGetArgument(body, a);
    p->inst[p->n] = (ZpInst){.code = ZP_ARG, .imm = a, .bits = int_bits(mlirValueGetType(arg)), .a = -1, .b = -1, .c = -1};
    if (p->inst[p->n].bits == 0)
      return "a non-integer input";
    p->value[p->n++] = arg;
  }
  MlirOperation extract = {NULL}, select = {NULL}, yield = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "linalg.yield"))
      yield = op;
    else if (braze_op_is(op, "tensor.extract") && mlirOperationIsNull(extract))
      extract = op;
    else if (!mlirOperationIsNull(extract) && braze_op_is(op, "arith.select") && mlirOperationIsNull(select) &&
             !mlirTypeIsAInteger(mlirValueGetType(mlirOperationGetResult(op, 0))))
      select = op;
    else if (braze_op_is(op, "arith.constant") && mlirAttributeIsAFloat(mlirOperationGetAttributeByName(op, braze_ref("value"))))
      continue;
    else if (!decode_op(p, op))
      return "a body op other than integer arith, one tensor.extract and the select";
  }
  if (mlirOperationIsNull(yield) || mlirOperationIsNull(select) || mlirOperationIsNull(extract) ||
      !mlirValueEqual(mlirOperationGetOperand(yield, 0), mlirOperationGetResult(select, 0)) ||
      !mlirValueEqual(mlirOperationGetOperand(select, 1), mlirOperationGetResult(extract, 0)) ||
      !is_float_zero(mlirOperationGetOperand(select, 2)))
    return "not select(cond, tensor.extract, 0.0)";
  p->cond = slot_of(p, mlirOperationGetOperand(select, 0));
  p->data = mlirOperationGetOperand(extract, 0);
  p->n_idx = (int)mlirOperationGetNumOperands(extract) - 1;
  if (p->cond < 0 || p->n_idx > ZP_MAX_RANK)
    return "not select(cond, tensor.extract, 0.0)";
  for (int i = 0; i < p->n_idx; ++i)
    if ((p->idx[i] = slot_of(p, mlirOperationGetOperand(extract, 1 + i))) < 0)
      return "not select(cond, tensor.extract, 0.0)";
  return NULL;
}

static bool cmp(int64_t pred, int64_t x, int64_t y, int bits) {
  uint64_t ux = zext(x, bits), uy = zext(y, bits);
  switch (pred) {
  case 0: return ux == uy;
  case 1: return ux != uy;
  case 2: return x < y;
  case 3: return x <= y;
  case 4: return x > y;
  case 5: return x >= y;
  case 6: return ux < uy;
  case 7: return ux <= uy;
  case 8: return ux > uy;
  default: return ux >= uy;
  }
}

/* Run the program at loop point `loop` with the inputs' values `args`; false on a
 * division by zero. Values are kept sign-extended to their width. */
static bool run_program(const ZpProgram *p, const int64_t *loop, const int64_t *args, int64_t *v) {
  for (int i = 0; i < p->n; ++i) {
    const ZpInst *in = &p->inst[i];
    int64_t x = in->a >= 0 ? v[in->a] : 0, y = in->b >= 0 ? v[in->b] : 0;
    int xb = in->a >= 0 ? p->inst[in->a].bits : 64;
    uint64_t ux = zext(x, in->bits), uy = zext(y, in->bits);
    int64_t r = 0;
    switch (in->code) {
    case ZP_ARG: r = args[in->imm]; break;
    case ZP_INDEX: r = loop[in->imm]; break;
    case ZP_CONST: r = in->imm; break;
    case ZP_CMP: r = cmp(in->imm, x, y, xb); break;
    case ZP_ADD: r = (int64_t)((uint64_t)x + (uint64_t)y); break;
    case ZP_SUB: r = (int64_t)((uint64_t)x - (uint64_t)y); break;
    case ZP_MUL: r = (int64_t)((uint64_t)x * (uint64_t)y); break;
    case ZP_DIVU: if (!uy) return false; r = (int64_t)(ux / uy); break;
    case ZP_REMU: if (!uy) return false; r = (int64_t)(ux % uy); break;
    case ZP_DIVS: if (!y || (y == -1 && x == INT64_MIN)) return false; r = x / y; break;
    case ZP_REMS: if (!y || (y == -1 && x == INT64_MIN)) return false; r = x % y; break;
    case ZP_MINS: r = x < y ? x : y; break;
    case ZP_MAXS: r = x > y ? x : y; break;
    case ZP_MINU: r = ux < uy ? x : y; break;
    case ZP_MAXU: r = ux > uy ? x : y; break;
    case ZP_SEL: r = x ? y : v[in->c]; break;
    case ZP_SEXT: r = sext(x, xb); break;
    case ZP_ZEXT: r = (int64_t)zext(x, xb); break;
    }
    v[i] = sext(r, in->bits);
  }
  return true;
}

/* An input: an integer constant read through a map. */
typedef struct {
  int64_t *values;
  int64_t shape[ZP_MAX_RANK];
  int rank;
  BrazeAffineProgram map[ZP_MAX_RANK];
  unsigned loops; /* bit d: the map reads loop d */
} ZpInput;

static const char *read_input(MlirValue v, MlirAffineMap map, BrazeConstantOf constant_of, void *user, ZpInput *in) {
  MlirAttribute a = {NULL};
  if (mlirValueIsAOpResult(v) && braze_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), braze_ref("value"));
  else if (constant_of)
    a = constant_of(v, user);
  if (mlirAttributeIsNull(a))
    return "an input that is not a constant";
  MlirType t = mlirValueGetType(v);
  if (!mlirAttributeIsADenseElements(a) || !mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) > ZP_MAX_RANK ||
      mlirAffineMapGetNumResults(map) != mlirShapedTypeGetRank(t))
    return "an input that is not a dense constant";
  MlirType elem = mlirShapedTypeGetElementType(t);
  int bits = int_bits(elem);
  if (bits != 1 && bits != 32 && bits != 64)
    return "an input that is not an i1, i32 or i64 constant";
  in->rank = (int)mlirShapedTypeGetRank(t);
  int64_t n = mlirElementsAttrGetNumElements(a);
  bool splat = mlirDenseElementsAttrIsSplat(a);
  in->values = malloc((size_t)n * sizeof *in->values);
  if (!in->values)
    return "out of memory";
  for (int64_t i = 0; i < n; ++i) {
    intptr_t at = splat ? 0 : (intptr_t)i;
    in->values[i] = bits == 1 ? (mlirDenseElementsAttrGetBoolValue(a, at) ? -1 : 0)
                    : bits == 32 ? mlirDenseElementsAttrGetInt32Value(a, at)
                                 : mlirDenseElementsAttrGetInt64Value(a, at);
  }
  for (int r = 0; r < in->rank; ++r) {
    for (int d = 0; d < 3; ++d)
      in->loops |= mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(map, r), d) ? 1u << d : 0u;
    in->shape[r] = mlirShapedTypeGetDimSize(t, r);
    if (!braze_affine_compile(&in->map[r], mlirAffineMapGetResult(map, r)))
      return "out of memory";
  }
  return NULL;
}

static int64_t input_at(const ZpInput *in, const int64_t *loop) {
  int64_t at = 0;
  for (int r = 0; r < in->rank; ++r)
    at = at * in->shape[r] + braze_affine_run(&in->map[r], loop);
  return in->values[at];
}

static void free_inputs(ZpInput *in, int n) {
  for (int i = 0; i < n; ++i) {
    free(in[i].values);
    for (int r = 0; r < in[i].rank; ++r)
      braze_affine_program_free(&in[i].map[r]);
  }
}

/* The data address the program reads at loop point (b, q, c), or -1 when an index is
 * outside data's shape; *inside: the select's condition. */
static int64_t read_at(const ZpProgram *p, const ZpInput *in, int n_in, const int64_t *sizes, const int64_t *loop,
                       int64_t *scratch, bool *inside, bool *ok) {
  int64_t args[ZP_MAX_INPUTS];
  for (int i = 0; i < n_in; ++i)
    args[i] = input_at(&in[i], loop);
  if (!run_program(p, loop, args, scratch)) {
    *ok = false;
    return -1;
  }
  *inside = scratch[p->cond] != 0;
  int64_t addr = 0;
  for (int i = 0; i < p->n_idx; ++i) {
    int64_t x = scratch[p->idx[i]], size = sizes[i];
    if (x < 0 || x >= size)
      return -1;
    addr = addr * size + x;
  }
  return addr;
}

static bool all_parallel_identity(MlirOperation g) {
  return braze_generic_num_loops(g) == 3 && braze_generic_all_parallel(g) &&
         mlirAffineMapIsIdentity(braze_generic_map(g, mlirOperationGetNumOperands(g) - 1));
}

/* Bit d of dep[i]: slot i's value depends on loop d (through linalg.index or an
 * input's map). */
static void loop_deps(const ZpProgram *p, const ZpInput *in, unsigned *dep) {
  for (int i = 0; i < p->n; ++i) {
    const ZpInst *x = &p->inst[i];
    unsigned d = x->code == ZP_INDEX ? 1u << x->imm : x->code == ZP_ARG ? in[x->imm].loops : 0u;
    int operands[3] = {x->a, x->b, x->c};
    for (int o = 0; o < 3 && x->code != ZP_INDEX && x->code != ZP_ARG; ++o)
      d |= operands[o] >= 0 ? dep[operands[o]] : 0u;
    dep[i] = d;
  }
}

/* Whether loop d (0: b, 2: c) only moves index `pos` of the read, one for one over a
 * dim of its extent: the condition and every other index do not depend on it, and that
 * index is linalg.index d itself. Then the read at (.., d = t, ..) is the read at d = 0
 * plus t times the dim's stride, with the same condition, so the check needs d = 0
 * only: for c the address advances by c, for b by b L C (data's elements past dim 0
 * are L C). */
static bool loop_only_moves(const ZpProgram *p, const unsigned *dep, const int64_t *sizes, int d, int pos,
                            int64_t extent) {
  unsigned bit = 1u << d;
  const ZpInst *x = &p->inst[p->idx[pos]];
  if ((dep[p->cond] & bit) || x->code != ZP_INDEX || x->imm != d || sizes[pos] != extent)
    return false;
  for (int i = 0; i < p->n_idx; ++i)
    if (i != pos && (dep[p->idx[i]] & bit))
      return false;
  return true;
}

/* The table from the points (0, q, 0) and the check at every point (at b = 0 or c = 0
 * only where the loop provably just moves the address: loop_only_moves). */
static const char *check_pad(const ZpProgram *p, const ZpInput *in, int n_in, BrazeZeroPad *z) {
  /* data's dims, read once: the check runs at every point (millions for a batch of 32) */
  MlirType dt = mlirValueGetType(z->data);
  int64_t sizes[ZP_MAX_RANK];
  for (int i = 0; i < p->n_idx; ++i)
    sizes[i] = mlirShapedTypeGetDimSize(dt, i);
  int64_t scratch[ZP_MAX_SLOTS], B = z->batch, Lp = z->padded, C = z->channels, L = z->inner;
  bool ok = true, inside;
  unsigned dep[ZP_MAX_SLOTS];
  loop_deps(p, in, dep);
  int64_t batches = loop_only_moves(p, dep, sizes, 0, 0, B) ? 1 : B;
  int64_t channels = loop_only_moves(p, dep, sizes, 2, p->n_idx - 1, C) ? 1 : C;
  for (int64_t q = 0; q < Lp; ++q) {
    int64_t loop[3] = {0, q, 0};
    int64_t addr = read_at(p, in, n_in, sizes, loop, scratch, &inside, &ok);
    if (!ok)
      return "a division by zero in the body";
    z->table[q] = -1;
    if (inside && (addr < 0 || addr % C != 0 || addr / C >= L))
      return "a read that is not channels-last";
    if (inside)
      z->table[q] = (int32_t)(addr / C);
    for (int64_t b = 0; b < batches; ++b)
      for (int64_t c = 0; c < channels; ++c) {
        int64_t at[3] = {b, q, c};
        addr = read_at(p, in, n_in, sizes, at, scratch, &inside, &ok);
        if (!ok)
          return "a division by zero in the body";
        if (inside != (z->table[q] >= 0))
          return "a condition that depends on more than the padded position";
        if (inside && addr != (b * L + z->table[q]) * C + c)
          return "a read that is not channels-last";
      }
  }
  return NULL;
}

const char *braze_zero_pad_read(MlirOperation g, BrazeConstantOf constant_of, void *user, BrazeZeroPad *out) {
  memset(out, 0, sizeof *out);
  if (!braze_op_is(g, "linalg.generic") || mlirOperationGetNumResults(g) != 1 || !all_parallel_identity(g))
    return "not an all-parallel generic over three loops";
  MlirType rt = mlirValueGetType(mlirOperationGetResult(g, 0));
  if (!mlirTypeIsARankedTensor(rt) || !mlirShapedTypeHasStaticShape(rt) || mlirShapedTypeGetRank(rt) != 3)
    return "not an all-parallel generic over three loops";
  int n_in = (int)mlirOperationGetNumOperands(g) - 1;
  if (n_in > ZP_MAX_INPUTS)
    return "more than four inputs";
  ZpProgram *p = calloc(1, sizeof *p);
  if (!p)
    return "out of memory";
  const char *why = decode_body(mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0)), p);
  ZpInput in[ZP_MAX_INPUTS] = {0};
  MlirAttribute maps = mlirOperationGetAttributeByName(g, braze_ref("indexing_maps"));
  for (int i = 0; !why && i < n_in; ++i)
    why = read_input(mlirOperationGetOperand(g, i), mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i)), constant_of,
                     user, &in[i]);
  BrazeZeroPad z = {.data = p->data, .batch = mlirShapedTypeGetDimSize(rt, 0), .padded = mlirShapedTypeGetDimSize(rt, 1),
                    .channels = mlirShapedTypeGetDimSize(rt, 2)};
  MlirType dt = why ? rt : mlirValueGetType(p->data);
  if (!why && (!mlirTypeIsARankedTensor(dt) || !mlirShapedTypeHasStaticShape(dt) ||
               mlirShapedTypeGetElementType(dt).ptr != mlirShapedTypeGetElementType(rt).ptr))
    why = "data that is not a static tensor of the result's type";
  if (!why) {
    int64_t numel = 1;
    for (intptr_t r = 0; r < mlirShapedTypeGetRank(dt); ++r)
      numel *= mlirShapedTypeGetDimSize(dt, r);
    z.inner = numel / (z.batch * z.channels);
    if (z.inner * z.batch * z.channels != numel || z.inner >= INT32_MAX)
      why = "data that is not [B, L, C] for the result's B and C";
    else if (z.batch * z.padded * z.channels > BRAZE_ZERO_PAD_MAX_POINTS)
      why = "more points than are checked (2^26)";
  }
  if (!why) {
    z.table = malloc((size_t)z.padded * sizeof *z.table);
    why = z.table ? check_pad(p, in, n_in, &z) : "out of memory";
  }
  free_inputs(in, n_in);
  free(p);
  if (why) {
    free(z.table);
    return why;
  }
  *out = z;
  return NULL;
}

void braze_zero_pad_free(BrazeZeroPad *pad) {
  free(pad->table);
  pad->table = NULL;
}
