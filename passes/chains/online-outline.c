/* form-row-chains on the cpu target: the online form's linalg ops as block kernels
 * (passes/chains/online.h, decision 0017).
 *
 * cpu-codegen runs a chain kernel as an scf.parallel over row blocks that calls block
 * kernels, converted like any kernel (the matmul template for contractions, loop nests
 * for the rest: targets/cpu/codegen/chain.c). So on the cpu target the online kernel's
 * generics are cut into groups, each outlined as a block kernel and called in its place:
 *
 *   - a contraction starts a `tem` group; the pointwise generics after it that read the
 *     group and iterate over its result (the rescaled accumulation acc * alpha + p . v)
 *     are its epilogue;
 *   - any other run of generics is a `per` group (the running max, exp, the running sum
 *     and the rounding of p; the normalization after the key loop).
 *
 * A group's arguments are the values it reads from outside (slices, iter_args, earlier
 * groups' results; index values such as the loop ivs a causal mask compares: scalar
 * index arguments), its results the values read after it. Constants, tensor.empty and
 * fills of a constant are cloned into the kernels that read them. The chain keeps its
 * loops, slices, the iter_args' initial fills and the calls:
 *
 *   %r:3 = scf.for %j = %c0 to %cn step %cb iter_args(%m = %m0, %l = %l0, %acc = %a0) {
 *     %kb = tensor.extract_slice %arg1[%i0, %j, 0] ...
 *     %s = func.call @<chain>_key0(%q, %kb)                 (tem: q . k^T)
 *     %u:4 = func.call @<chain>_key1(%s, %m, %l)            (per: max, exp, alpha, sum)
 *     %a = func.call @<chain>_key2(%u#1, %vb, %acc, %u#2)   (tem: acc * alpha + p . v)
 *     scf.yield %u#0, %u#3, %a
 *   }
 *   (where key-block leaves keys: a second loop of one step over them, its kernels
 *   @<chain>_tail0..2, from %r's values)
 *   %y = func.call @<chain>_end0(%r#2, %r#1)                (per: acc / l) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/build.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/chains/chain.h"
#include "passes/loops/builder.h"
#include "support/context.h"
#include "support/diag.h"

enum { OG_MAX_OPS = 32, OG_MAX_VALUES = 32 };

typedef struct {
  MlirOperation ops[OG_MAX_OPS];
  int n;
  bool tem;
  MlirType tile; /* tem: the contraction's result type (its epilogue iterates over it) */
} Group;

typedef struct {
  MlirValue in[OG_MAX_VALUES];  /* read from outside: the kernel's arguments */
  int n_in;
  MlirValue out[OG_MAX_VALUES]; /* read after the group: its results */
  int n_out;
} GroupIo;

static bool group_has(const Group *g, MlirOperation op) {
  for (int i = 0; i < g->n; ++i)
    if (mlirOperationEqual(g->ops[i], op))
      return true;
  return false;
}

/* The op of `block` that holds `op` (itself or an ancestor), or null. */
static MlirOperation ancestor_in(MlirBlock block, MlirOperation op) {
  while (!mlirOperationIsNull(op) && !mlirBlockEqual(mlirOperationGetBlock(op), block))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* Whether `v` is defined by one of the group's ops or inside one (a body's block argument). */
static bool defined_in(const Group *g, MlirBlock block, MlirValue v) {
  MlirOperation def = mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v)
                                              : mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  if (mlirValueIsABlockArgument(v) && mlirBlockEqual(mlirBlockArgumentGetOwner(v), block))
    return false;
  MlirOperation top = ancestor_in(block, def);
  return !mlirOperationIsNull(top) && group_has(g, top);
}

/* Values cloned into the kernel instead of passed: constants, tensor.empty, and a fill
 * of a tensor.empty with a constant. */
static bool clonable(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (braze_op_is(def, "arith.constant") || braze_op_is(def, "tensor.empty"))
    return true;
  return braze_op_is(def, "linalg.fill") && clonable(mlirOperationGetOperand(def, 0)) &&
         clonable(mlirOperationGetOperand(def, 1));
}

static bool add_unique(MlirValue *list, int *n, MlirValue v) {
  for (int i = 0; i < *n; ++i)
    if (mlirValueEqual(list[i], v))
      return true;
  if (*n >= OG_MAX_VALUES)
    return false;
  list[(*n)++] = v;
  return true;
}

typedef struct {
  const Group *g;
  MlirBlock block;
  GroupIo *io;
  bool ok;
} InputWalk;

static MlirWalkResult collect_inputs(MlirOperation op, void *user) {
  InputWalk *w = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!defined_in(w->g, w->block, v) && !clonable(v))
      w->ok = w->ok && add_unique(w->io->in, &w->io->n_in, v);
  }
  return MlirWalkResultAdvance;
}

/* Whether a use of `v` lies outside the group. */
static bool used_outside(const Group *g, MlirBlock block, MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation top = ancestor_in(block, mlirOpOperandGetOwner(u));
    if (mlirOperationIsNull(top) || !group_has(g, top))
      return true;
  }
  return false;
}

static bool group_io(const Group *g, MlirBlock block, GroupIo *io) {
  *io = (GroupIo){.n_in = 0};
  InputWalk w = {g, block, io, true};
  for (int i = 0; i < g->n; ++i)
    mlirOperationWalk(g->ops[i], collect_inputs, &w, MlirWalkPreOrder);
  for (int i = 0; w.ok && i < g->n; ++i)
    for (intptr_t r = 0; r < mlirOperationGetNumResults(g->ops[i]); ++r) {
      MlirValue v = mlirOperationGetResult(g->ops[i], r);
      if (used_outside(g, block, v))
        w.ok = w.ok && add_unique(io->out, &io->n_out, v);
    }
  return w.ok && io->n_out > 0;
}

/* ---- building the kernel ---- */

typedef struct {
  MlirBlock body;
  MlirLocation loc;
  BrazeValueMap map; /* outer values -> the kernel's */
} KernelBody;

static MlirValue kernel_value(KernelBody *k, MlirValue v);

/* Clone a constant, tensor.empty or fill into the kernel (before its first use). */
static MlirValue clone_def(KernelBody *k, MlirValue v) {
  MlirOperation def = mlirOpResultGetOwner(v);
  MlirOperation c = mlirOperationClone(def);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); ++i)
    mlirOperationSetOperand(c, i, kernel_value(k, mlirOperationGetOperand(def, i)));
  mlirBlockAppendOwnedOperation(k->body, c);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(def); ++r)
    braze_value_map_add(&k->map, mlirOperationGetResult(def, r), mlirOperationGetResult(c, r));
  return mlirOperationGetResult(c, mlirOpResultGetResultNumber(v));
}

static MlirValue kernel_value(KernelBody *k, MlirValue v) {
  MlirValue got = braze_value_map_lookup(&k->map, v);
  if (!mlirValueEqual(got, v))
    return got;
  return clonable(v) ? clone_def(k, v) : v;
}

/* Whether `op` is `root` or nested in it. */
static bool inside(MlirOperation op, MlirOperation root) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op))
    if (mlirOperationEqual(op, root))
      return true;
  return false;
}

typedef struct {
  KernelBody *k;
  MlirOperation root; /* the clone being remapped */
} Remap;

/* A cloned op's operands (its nested ops' too: generic bodies read constants and ivs
 * from outside) in the kernel's values; what the clone defines itself stays. */
static MlirWalkResult remap_operands(MlirOperation op, void *user) {
  Remap *r = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i), nv = braze_value_map_lookup(&r->k->map, v);
    if (mlirValueEqual(nv, v) && clonable(v) && !inside(mlirOpResultGetOwner(v), r->root))
      nv = clone_def(r->k, v);
    if (!mlirValueEqual(nv, v))
      mlirOperationSetOperand(op, i, nv);
  }
  return MlirWalkResultAdvance;
}

/* The group's ops cloned in order; the constants each reads are cloned before it. */
static void clone_group(KernelBody *k, const Group *g) {
  for (int i = 0; i < g->n; ++i) {
    MlirOperation c = mlirOperationClone(g->ops[i]);
    Remap r = {k, c};
    mlirOperationWalk(c, remap_operands, &r, MlirWalkPreOrder);
    mlirBlockAppendOwnedOperation(k->body, c);
    for (intptr_t res = 0; res < mlirOperationGetNumResults(g->ops[i]); ++res)
      braze_value_map_add(&k->map, mlirOperationGetResult(g->ops[i], res), mlirOperationGetResult(c, res));
  }
}

static MlirAttribute string_array(MlirContext ctx, const char *const *names, int n) {
  MlirAttribute items[OG_MAX_OPS];
  for (int i = 0; i < n && i < OG_MAX_OPS; ++i)
    items[i] = mlirStringAttrGet(ctx, braze_ref(names[i]));
  return mlirArrayAttrGet(ctx, n < OG_MAX_OPS ? n : OG_MAX_OPS, items);
}

/* What a group's generics compute, for kernel.ops: the contraction, reductions, maps. */
static const char *generic_role(MlirOperation op, bool first_of_tem) {
  if (first_of_tem)
    return "batch_matmul";
  return braze_generic_all_parallel(op) ? "map" : "reduce";
}

/* `func.func private @name(inputs) -> outputs` holding the group, before `before`. */
static MlirOperation build_kernel(MlirOperation before, const char *name, const Group *g, const GroupIo *io) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirLocation loc = mlirOperationGetLocation(g->ops[0]);
  MlirType in_types[OG_MAX_VALUES], out_types[OG_MAX_VALUES];
  MlirLocation locs[OG_MAX_VALUES];
  for (int i = 0; i < io->n_in; ++i) {
    in_types[i] = mlirValueGetType(io->in[i]);
    locs[i] = loc;
  }
  for (int i = 0; i < io->n_out; ++i)
    out_types[i] = mlirValueGetType(io->out[i]);
  KernelBody k = {.body = mlirBlockCreate(io->n_in, in_types, locs), .loc = loc};
  for (int i = 0; i < io->n_in; ++i)
    braze_value_map_add(&k.map, io->in[i], mlirBlockGetArgument(k.body, i));
  clone_group(&k, g);
  MlirValue results[OG_MAX_VALUES];
  for (int i = 0; i < io->n_out; ++i)
    results[i] = braze_value_map_lookup(&k.map, io->out[i]);
  braze_value_map_free(&k.map);
  CgBuilder b = cg_builder_at_end(k.body, loc);
  cg_create(&b, "func.return", io->n_out, results, 0, NULL, 0, NULL);
  const char *roles[OG_MAX_OPS];
  for (int i = 0; i < g->n; ++i)
    roles[i] = generic_role(g->ops[i], g->tem && i == 0);
  MlirType fty = mlirFunctionTypeGet(ctx, io->n_in, in_types, io->n_out, out_types);
  MlirNamedAttribute attrs[7] = {
      cg_named(ctx, "sym_name", mlirStringAttrGet(ctx, braze_ref(name))),
      cg_named(ctx, "function_type", mlirTypeAttrGet(fty)),
      cg_named(ctx, "sym_visibility", mlirStringAttrGet(ctx, braze_ref("private"))),
      cg_named(ctx, "kernel.kind", mlirStringAttrGet(ctx, braze_ref(g->tem ? "tem" : "per"))),
      cg_named(ctx, "kernel.ops", string_array(ctx, roles, g->n)),
      cg_named(ctx, "kernel.score", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 0)),
      cg_named(ctx, "kernel.serial", mlirUnitAttrGet(ctx))};
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, k.body);
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.func"), loc);
  mlirOperationStateAddAttributes(&st, 7, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation fn = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, fn);
  return fn;
}

/* The group's ops replaced by a call of `kernel`. */
static void replace_group(const Group *g, const GroupIo *io, MlirOperation kernel) {
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirType out_types[OG_MAX_VALUES];
  for (int i = 0; i < io->n_out; ++i)
    out_types[i] = mlirValueGetType(io->out[i]);
  MlirAttribute sym = mlirOperationGetAttributeByName(kernel, braze_ref("sym_name"));
  MlirNamedAttribute callee = cg_named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringAttrGetValue(sym)));
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.call"), mlirOperationGetLocation(g->ops[0]));
  mlirOperationStateAddOperands(&st, io->n_in, io->in);
  mlirOperationStateAddResults(&st, io->n_out, out_types);
  mlirOperationStateAddAttributes(&st, 1, &callee);
  MlirOperation call = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(g->ops[0]), g->ops[0], call);
  for (int i = 0; i < io->n_out; ++i)
    mlirValueReplaceAllUsesOfWith(io->out[i], mlirOperationGetResult(call, i));
  for (int i = g->n - 1; i >= 0; --i)
    mlirOperationDestroy(g->ops[i]);
}

/* ---- grouping ---- */

/* A contraction: two inputs, a reduction, a body of (extensions,) mulf and addf. */
static bool is_contraction(MlirOperation generic) {
  if (mlirOperationGetNumOperands(generic) != 3 || braze_generic_all_parallel(generic))
    return false;
  MlirBlock body = braze_generic_body(generic);
  bool mul = false, add = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "arith.mulf"))
      mul = true;
    else if (braze_op_is(op, "arith.addf"))
      add = true;
    else if (!braze_op_is(op, "arith.extf") && !braze_op_is(op, "linalg.yield"))
      return false;
  }
  return mul && add;
}

/* Whether `op` joins tem group `g` as its epilogue: pointwise over the tile, reading the group. */
static bool joins_epilogue(const Group *g, MlirBlock block, MlirOperation op) {
  if (!braze_generic_all_parallel(op) || mlirOperationGetNumResults(op) != 1 ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(op, 0)), g->tile))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (defined_in(g, block, mlirOperationGetOperand(op, i)))
      return true;
  return false;
}

typedef struct {
  const char *chain;  /* the chain kernel's name */
  const char *phase;  /* "key" (in the key loop) or "end" */
  int index;
  Symbols *sym;
  MlirOperation chain_fn;
} Outliner;

static bool outline_group(Outliner *o, Group *g, MlirBlock block) {
  GroupIo io;
  if (g->n == 0)
    return true;
  if (!group_io(g, block, &io)) {
    braze_emit_error(mlirOperationGetLocation(g->ops[0]), "form-row-chains: internal: online block kernel of more than "
                     "%d values or without a result", OG_MAX_VALUES);
    return false;
  }
  char stem[512];
  snprintf(stem, sizeof stem, "%s_%s%d", o->chain, o->phase, o->index++);
  char *name = mlirOperationIsNull(mlirSymbolTableLookup(o->sym->table, braze_ref(stem)))
                   ? strdup(stem)
                   : cg_unique_symbol(o->sym->table, stem);
  MlirOperation kernel = build_kernel(o->chain_fn, name, g, &io);
  free(name);
  mlirSymbolTableInsert(o->sym->table, kernel);
  replace_group(g, &io, kernel);
  chain_count_call(o->sym, kernel, 1);
  g->n = 0;
  return true;
}

/* The generics of `block` as block kernels, in order. */
static bool outline_block(Outliner *o, MlirBlock block) {
  Group g = {.n = 0};
  for (MlirOperation op = mlirBlockGetFirstOperation(block), next; !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!braze_op_is(op, "linalg.generic"))
      continue;
    bool contraction = is_contraction(op);
    bool join = g.n > 0 && g.n < OG_MAX_OPS && !contraction &&
                (g.tem ? joins_epilogue(&g, block, op) : true);
    if (!join) {
      if (!outline_group(o, &g, block))
        return false;
      g.tem = contraction;
      g.tile = mlirValueGetType(mlirOperationGetResult(op, 0));
    }
    g.ops[g.n++] = op;
  }
  return outline_group(o, &g, block);
}

static MlirOperation first_op_named(MlirBlock block, const char *name) {
  MlirOperation op = mlirBlockGetFirstOperation(block);
  while (!mlirOperationIsNull(op) && !braze_op_is(op, name))
    op = mlirOperationGetNextInBlock(op);
  return op;
}

/* Unused tensor.empty and fills left in the chain after outlining (the kernels cloned
 * what they read). */
static void drop_dead_inits(MlirBlock block) {
  for (bool changed = true; changed;) {
    changed = false;
    for (MlirOperation op = mlirBlockGetFirstOperation(block), next; !mlirOperationIsNull(op); op = next) {
      next = mlirOperationGetNextInBlock(op);
      bool init = braze_op_is(op, "tensor.empty") || braze_op_is(op, "linalg.fill");
      if (init && mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0)))) {
        mlirOperationDestroy(op);
        changed = true;
      }
    }
  }
}

bool online_outline(MlirOperation chain_fn, Symbols *sym) {
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(chain_fn, braze_ref("sym_name")));
  char *chain = strndup(name.data, name.length);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(chain_fn, 0));
  MlirOperation forall = first_op_named(entry, "scf.forall");
  MlirBlock rows = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
  /* the key loop, and the tail's (static blocks: the keys key-block leaves) */
  Outliner key = {chain, "key", 0, sym, chain_fn}, tail = {chain, "tail", 0, sym, chain_fn},
           end = {chain, "end", 0, sym, chain_fn};
  bool ok = true;
  int loops = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(rows); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "scf.for")) {
      MlirBlock keys = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
      ok = outline_block(loops++ ? &tail : &key, keys);
      if (ok)
        drop_dead_inits(keys);
    }
  ok = ok && outline_block(&end, rows);
  if (ok) {
    drop_dead_inits(rows);
    drop_dead_inits(entry);
  }
  free(chain);
  return ok;
}
