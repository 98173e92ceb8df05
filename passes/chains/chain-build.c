/* form-row-chains: the chain kernels, as text parsed into the module, in place of the
 * chain's calls (see passes/chains/chain.h and form-row-chains.c). */
#include "passes/chains/chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ir/build.h"
#include "support/context.h"
#include "support/diag.h"

/* ---- the chain's values ---- */

/* The link before `link` whose result `v` is, or -1. */
int chain_producer_link(const Chain *c, int link, MlirValue v) {
  for (int i = 0; i < link; ++i)
    if (mlirValueEqual(v, mlirOperationGetResult(c->links[i].call, 0)))
      return i;
  return -1;
}

bool chain_is_intermediate(const Chain *c, int link, MlirValue v) { return chain_producer_link(c, link, v) >= 0; }

int64_t chain_tensor_bytes(MlirType t) {
  RcRows none = {.nr = 0};
  return rc_row_bytes(t, &none);
}

int64_t chain_intermediate_bytes(const Chain *c) {
  int64_t bytes = 0;
  for (int i = 0; i + 1 < c->n; ++i)
    bytes += chain_tensor_bytes(mlirValueGetType(mlirOperationGetResult(c->links[i].call, 0)));
  return bytes;
}

/* ---- building the chain kernel ---- */

static void print_type(BrazeStr *s, MlirType t) { mlirTypePrint(t, braze_str_callback, s); }

static void print_ints(BrazeStr *s, const int64_t *v, int n) {
  for (int i = 0; i < n; ++i)
    braze_str_printf(s, "%s%lld", i ? ", " : "", (long long)v[i]);
}

void chain_print_name(BrazeStr *s, MlirOperation op) {
  MlirStringRef n = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, braze_ref("sym_name")));
  braze_str_append(s, n.data, n.length);
}

/* `<target>_chain_fused_<origins>_<N>`: each kernel's origins (its name between
 * "_fused" and the index), repeats dropped. */
static char *chain_name(const Chain *c) {
  BrazeStr parts = {0};
  for (int i = 0; i < c->n; ++i) {
    BrazeStr k = {0};
    chain_print_name(&k, c->links[i].kernel);
    const char *name = braze_str_cstr(&k), *f = strstr(name, "_fused_");
    const char *from = f ? f + 6 : name, *to = strrchr(name, '_');
    if (!to || to < from)
      to = name + strlen(name);
    char part[256];
    snprintf(part, sizeof part, "%.*s", (int)(to - from), from);
    if (!strstr(braze_str_cstr(&parts), part))
      braze_str_puts(&parts, part);
    braze_str_free(&k);
  }
  BrazeStr stem = {0};
  braze_str_printf(&stem, "%s_chain_fused%s", c->o->target, braze_str_cstr(&parts));
  char *name = cg_unique_symbol(c->sym->table, braze_str_cstr(&stem));
  braze_str_free(&stem);
  braze_str_free(&parts);
  return name;
}

/* The block form of link i: a retyped clone named `<kernel>_rows`, before `at`. */
static void add_block_kernel(Chain *c, int i, MlirOperation at, BrazeStr *name) {
  MlirOperation clone = mlirOperationClone(c->links[i].kernel);
  chain_print_name(name, c->links[i].kernel);
  braze_str_puts(name, "_rows");
  MlirContext ctx = mlirOperationGetContext(clone);
  mlirOperationSetAttributeByName(clone, braze_ref("sym_name"), mlirStringAttrGet(ctx, braze_ref(braze_str_cstr(name))));
  mlirOperationSetAttributeByName(clone, braze_ref("kernel.serial"), mlirUnitAttrGet(ctx));
  rc_make_block(clone, &c->rows, c->links[i].slices, c->mc);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, clone);
  mlirSymbolTableInsert(c->sym->table, clone);
}

static int arg_index(const MlirValue *args, int n, MlirValue v) {
  for (int k = 0; k < n; ++k)
    if (mlirValueEqual(args[k], v))
      return k;
  return -1;
}

/* Chain arguments: the values the links read from outside the chain, once each. */
static int external_args(const Chain *c, MlirValue *args) {
  int n = 0;
  for (int i = 0; i < c->n; ++i)
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(c->links[i].call); ++j) {
      MlirValue v = mlirOperationGetOperand(c->links[i].call, j);
      if (!chain_is_intermediate(c, i, v) && arg_index(args, n, v) < 0 && n < RC_MAX_ARGS)
        args[n++] = v;
    }
  return n;
}

/* The offsets of RC_AFFINE slice dims, each an affine.apply of the row ivs printed once:
 * %o<k> is expr[k]. */
typedef struct {
  int n;
  MlirAffineExpr expr[RC_MAX_ARGS * 2];
} Offsets;

static int offset_index(const Offsets *o, MlirAffineExpr e) {
  for (int k = 0; k < o->n; ++k)
    if (mlirAffineExprEqual(o->expr[k], e))
      return k;
  return -1;
}

/* Print the affine.apply of each RC_AFFINE offset of `slice` not printed yet. */
static void print_offsets(BrazeStr *s, const RcSlice *slice, int nr, Offsets *o) {
  for (int d = 0; d < slice->rank; ++d) {
    if (slice->row_of[d] != RC_AFFINE || offset_index(o, slice->window[d].offset) >= 0 || o->n == RC_MAX_ARGS * 2)
      continue;
    o->expr[o->n] = slice->window[d].offset;
    braze_str_printf(s, "      %%o%d = affine.apply affine_map<(", o->n++);
    for (int i = 0; i < nr; ++i)
      braze_str_printf(s, "%sd%d", i ? ", " : "", i);
    braze_str_puts(s, ") -> (");
    mlirAffineExprPrint(slice->window[d].offset, braze_str_callback, s);
    braze_str_puts(s, ")>(");
    for (int i = 0; i < nr; ++i)
      braze_str_printf(s, "%s%%i%d", i ? ", " : "", i);
    braze_str_puts(s, ")\n");
  }
}

/* "[offsets] [sizes] [strides]" of a slice of `block`'s shape: the block's iv as the
 * offset of each dim read by a row dim, its %o<k> for an RC_AFFINE dim, else 0. */
static void print_slice_spec(BrazeStr *s, const RcSlice *slice, MlirType block, const Offsets *o) {
  braze_str_puts(s, "[");
  for (int d = 0; d < slice->rank; ++d) {
    braze_str_puts(s, d ? ", " : "");
    if (slice->row_of[d] == RC_AFFINE)
      braze_str_printf(s, "%%o%d", offset_index(o, slice->window[d].offset));
    else if (slice->row_of[d] >= 0)
      braze_str_printf(s, "%%i%d", slice->row_of[d]);
    else
      braze_str_puts(s, "0");
  }
  braze_str_puts(s, "] [");
  for (int d = 0; d < slice->rank; ++d)
    braze_str_printf(s, "%s%lld", d ? ", " : "", (long long)mlirShapedTypeGetDimSize(block, d));
  braze_str_puts(s, "] [");
  for (int d = 0; d < slice->rank; ++d) {
    bool affine = slice->row_of[d] == RC_AFFINE;
    braze_str_printf(s, "%s%lld", d ? ", " : "", affine ? (long long)slice->window[d].stride : 1LL);
  }
  braze_str_puts(s, "]");
}

/* The slices the links read, one per (argument, slice): %sN names slices[N]. */
typedef struct {
  int n;
  int arg[RC_MAX_ARGS * 2];
  RcSlice slice[RC_MAX_ARGS * 2];
} SliceSet;

static int slice_index(SliceSet *set, int k, const RcSlice *slice, bool add) {
  for (int i = 0; i < set->n; ++i)
    if (set->arg[i] == k && rc_slice_equal(&set->slice[i], slice))
      return i;
  if (!add || set->n == RC_MAX_ARGS * 2)
    return -1;
  set->arg[set->n] = k;
  set->slice[set->n] = *slice;
  return set->n++;
}

static void print_slices(BrazeStr *s, const Chain *c, const MlirValue *args, int n_args, SliceSet *set) {
  Offsets offsets = {0};
  for (int i = 0; i < c->n; ++i)
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(c->links[i].call); ++j) {
      const RcSlice *slice = &c->links[i].slices[j];
      int k = arg_index(args, n_args, mlirOperationGetOperand(c->links[i].call, j));
      if (k < 0 || !slice->used || rc_slice_is_whole(slice) || slice_index(set, k, slice, false) >= 0)
        continue;
      int n = slice_index(set, k, slice, true);
      MlirType t = mlirValueGetType(args[k]), block = rc_block_type(t, slice, c->mc, &c->rows);
      print_offsets(s, slice, c->rows.nr, &offsets);
      braze_str_printf(s, "      %%s%d = tensor.extract_slice %%arg%d", n, k);
      print_slice_spec(s, slice, block, &offsets);
      braze_str_puts(s, " : ");
      print_type(s, t);
      braze_str_puts(s, " to ");
      print_type(s, block);
      braze_str_puts(s, "\n");
    }
}

/* The call's operand types in the block form, and its result type. */
static void print_call_type(BrazeStr *s, const Chain *c, const Link *l) {
  braze_str_puts(s, "(");
  for (intptr_t j = 0; j < mlirOperationGetNumOperands(l->call); ++j) {
    braze_str_puts(s, j ? ", " : "");
    print_type(s, rc_block_type(mlirValueGetType(mlirOperationGetOperand(l->call, j)), &l->slices[j], c->mc, &c->rows));
  }
  braze_str_puts(s, ") -> ");
  MlirType result = mlirValueGetType(mlirOperationGetResult(l->call, 0));
  RcSlice rows = rc_row_slice(&c->rows, (int)mlirShapedTypeGetRank(result));
  print_type(s, rc_block_type(result, &rows, c->mc, &c->rows));
}

static void print_calls(BrazeStr *s, const Chain *c, const MlirValue *args, int n_args, BrazeStr *block_names,
                        SliceSet *set) {
  for (int i = 0; i < c->n; ++i) {
    const Link *l = &c->links[i];
    intptr_t n_ops = mlirOperationGetNumOperands(l->call);
    braze_str_printf(s, "      %%v%d = func.call @%s(", i, braze_str_cstr(&block_names[i]));
    for (intptr_t j = 0; j < n_ops; ++j) {
      MlirValue v = mlirOperationGetOperand(l->call, j);
      int k = arg_index(args, n_args, v);
      braze_str_puts(s, j ? ", " : "");
      if (k < 0) /* an intermediate: the earlier link's result */
        braze_str_printf(s, "%%v%d", chain_producer_link(c, i, v));
      else if (l->slices[j].used && !rc_slice_is_whole(&l->slices[j]))
        braze_str_printf(s, "%%s%d", slice_index(set, k, &l->slices[j], false));
      else
        braze_str_printf(s, "%%arg%d", k);
    }
    braze_str_puts(s, ") : ");
    print_call_type(s, c, l);
    braze_str_puts(s, "\n");
  }
}

static void print_ops_attr(BrazeStr *s, const Chain *c) {
  braze_str_puts(s, "kernel.ops = [");
  bool first = true;
  for (int i = 0; i < c->n; ++i) {
    MlirAttribute ops = mlirOperationGetAttributeByName(c->links[i].kernel, braze_ref("kernel.ops"));
    for (intptr_t k = 0; !mlirAttributeIsNull(ops) && k < mlirArrayAttrGetNumElements(ops); ++k) {
      braze_str_puts(s, first ? "" : ", ");
      mlirAttributePrint(mlirArrayAttrGetElement(ops, k), braze_str_callback, s);
      first = false;
    }
  }
  braze_str_puts(s, "]");
}

/* The chain kernel's text (parsed into the module: scf.forall is far clearer written
 * than assembled op by op). */
static void print_chain(BrazeStr *s, const Chain *c, const char *name, const MlirValue *args, int n_args,
                        BrazeStr *block_names) {
  MlirType result = mlirValueGetType(mlirOperationGetResult(c->links[c->n - 1].call, 0));
  intptr_t rank = mlirShapedTypeGetRank(result);
  RcSlice as_rows = rc_row_slice(&c->rows, (int)rank);
  MlirType block = rc_block_type(result, &as_rows, c->mc, &c->rows);
  SliceSet set = {0};
  int nr = c->rows.nr;
  int64_t steps[RC_MAX_RANK], zeros[RC_MAX_RANK] = {0};
  for (int d = 0; d < nr; ++d)
    steps[d] = d == nr - 1 ? c->mc : 1;
  braze_str_printf(s, "func.func private @%s(", name);
  for (int k = 0; k < n_args; ++k) {
    braze_str_printf(s, "%s%%arg%d: ", k ? ", " : "", k);
    print_type(s, mlirValueGetType(args[k]));
  }
  braze_str_puts(s, ") -> ");
  print_type(s, result);
  braze_str_printf(s, " attributes {kernel.kind = \"chain\", kernel.rows = %lld : i64, ", (long long)c->mc);
  print_ops_attr(s, c);
  /* the score, as form-kernels': bytes saved (each intermediate written and read once) */
  braze_str_printf(s, ", kernel.score = %lld : i64} {\n    %%empty = tensor.empty() : ", (long long)(2 * chain_intermediate_bytes(c)));
  print_type(s, result);
  braze_str_puts(s, "\n    %res = scf.forall (");
  for (int d = 0; d < nr; ++d)
    braze_str_printf(s, "%s%%i%d", d ? ", " : "", d);
  braze_str_puts(s, ") = (");
  print_ints(s, zeros, nr);
  braze_str_puts(s, ") to (");
  print_ints(s, c->rows.dims, nr);
  braze_str_puts(s, ") step (");
  print_ints(s, steps, nr);
  braze_str_puts(s, ") shared_outs(%out = %empty) -> (");
  print_type(s, result);
  braze_str_puts(s, ") {\n");
  print_slices(s, c, args, n_args, &set);
  print_calls(s, c, args, n_args, block_names, &set);
  braze_str_printf(s, "      scf.forall.in_parallel {\n        tensor.parallel_insert_slice %%v%d into %%out", c->n - 1);
  print_slice_spec(s, &as_rows, block, NULL);
  braze_str_puts(s, " : ");
  print_type(s, block);
  braze_str_puts(s, " into ");
  print_type(s, result);
  braze_str_puts(s, "\n      }\n    }\n    return %res : ");
  print_type(s, result);
  braze_str_puts(s, "\n}\n");
}

/* Declarations of the block kernels, so the chain parses (and verifies) on its own. */
static void print_declarations(BrazeStr *s, const Chain *c, BrazeStr *block_names) {
  for (int i = 0; i < c->n; ++i) {
    const Link *l = &c->links[i];
    braze_str_printf(s, "func.func private @%s", braze_str_cstr(&block_names[i]));
    print_call_type(s, c, l);
    braze_str_puts(s, "\n");
  }
}

/* ---- rewriting the graph function ---- */

MlirOperation chain_call(MlirOperation callee, MlirLocation loc, intptr_t n, const MlirValue *operands,
                         MlirType result) {
  MlirContext ctx = mlirOperationGetContext(callee);
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(callee, braze_ref("sym_name")));
  MlirNamedAttribute attr =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("callee")), mlirFlatSymbolRefAttrGet(ctx, name));
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.call"), loc);
  mlirOperationStateAddOperands(&st, n, operands);
  mlirOperationStateAddResults(&st, 1, &result);
  mlirOperationStateAddAttributes(&st, 1, &attr);
  return mlirOperationCreate(&st);
}

void chain_count_call(Symbols *sym, MlirOperation kernel, int delta) {
  uint64_t key = braze_ptr_key(kernel.ptr);
  braze_ptrmap_put(&sym->calls, key, braze_ptrmap_get(&sym->calls, key, 0) + delta);
}

bool chain_drop_call(Symbols *sym, MlirOperation call, MlirOperation kernel) {
  mlirOperationDestroy(call);
  chain_count_call(sym, kernel, -1);
  if (braze_ptrmap_get(&sym->calls, braze_ptr_key(kernel.ptr), 0) > 0)
    return false;
  mlirSymbolTableErase(sym->table, kernel);
  return true;
}

static void replace_calls(Chain *c, MlirOperation chain_fn, const MlirValue *args, int n_args) {
  MlirOperation last = c->links[c->n - 1].call;
  MlirOperation call = chain_call(chain_fn, mlirOperationGetLocation(c->links[0].call), n_args, args,
                                  mlirValueGetType(mlirOperationGetResult(last, 0)));
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(last), last, call);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(last, 0), mlirOperationGetResult(call, 0));
  for (int i = c->n - 1; i >= 0; --i)
    chain_drop_call(c->sym, c->links[i].call, c->links[i].kernel);
}


/* The parsed chain's ops take the location of the chain's first call (the graph op that
 * started it) instead of positions in the generated text. */
static MlirWalkResult relocate(MlirOperation op, void *user) {
  mlirOperationSetLocation(op, *(MlirLocation *)user);
  return MlirWalkResultAdvance;
}

bool chain_build(Chain *c) {
  MlirValue args[RC_MAX_ARGS];
  int n_args = external_args(c, args);
  char *name = chain_name(c);
  BrazeStr block_names[MAX_LINKS] = {{0}}, text = {0};
  for (int i = 0; i < c->n; ++i)
    add_block_kernel(c, i, c->func, &block_names[i]);
  print_declarations(&text, c, block_names);
  print_chain(&text, c, name, args, n_args, block_names);
  MlirContext ctx = mlirOperationGetContext(c->func);
  MlirModule parsed = mlirModuleCreateParse(ctx, braze_ref(braze_str_cstr(&text)));
  bool ok = !mlirModuleIsNull(parsed);
  if (ok) {
    MlirOperation chain_fn = mlirBlockGetFirstOperation(mlirModuleGetBody(parsed));
    while (!mlirOperationIsNull(mlirOperationGetNextInBlock(chain_fn)))
      chain_fn = mlirOperationGetNextInBlock(chain_fn);
    mlirOperationRemoveFromParent(chain_fn);
    mlirModuleDestroy(parsed);
    MlirLocation loc = mlirOperationGetLocation(c->links[0].call);
    mlirOperationWalk(chain_fn, relocate, &loc, MlirWalkPreOrder);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(c->func), c->func, chain_fn);
    mlirSymbolTableInsert(c->sym->table, chain_fn);
    if (c->o->remarks) {
      BrazeStr stop = {0};
      if (c->stopped) {
        braze_str_puts(&stop, "; stops before @");
        chain_print_name(&stop, c->stopped_at);
        braze_str_printf(&stop, " (%s%s%s)", c->stopped, c->stopped_detail[0] ? ": " : "", c->stopped_detail);
      }
      braze_emit_remark(mlirOperationGetLocation(c->links[0].call), "form-row-chains: %d kernels as @%s: blocks of %lld rows%s",
                        c->n, name, (long long)c->mc, braze_str_cstr(&stop));
      braze_str_free(&stop);
    }
    replace_calls(c, chain_fn, args, n_args);
  } else {
    braze_emit_error(mlirOperationGetLocation(c->links[0].call), "form-row-chains: internal: chain @%s did not parse",
                     name);
  }
  for (int i = 0; i < c->n; ++i)
    braze_str_free(&block_names[i]);
  braze_str_free(&text);
  free(name);
  return ok;
}

/* The online chain kernel for `oc` in place of its four calls. */
bool chain_build_online(Chain *c, const OnlineChain *oc, int64_t rows, int64_t key_block) {
  c->n = 0;
  for (int i = 0; i < 4; ++i) /* three kernels when the softmax is one */
    if (!mlirOperationIsNull(oc->calls[i]))
      c->links[c->n++] = (Link){.call = oc->calls[i], .kernel = oc->kernels[i]};
  c->mc = rows;
  char *name = chain_name(c);
  BrazeStr ops = {0}, text = {0};
  print_ops_attr(&ops, c);
  const char *ops_list = strchr(braze_str_cstr(&ops), '['); /* print_ops_attr writes "kernel.ops = [...]" */
  online_print(&text, oc, name, c->mc, key_block, c->o->cpu, ops_list, online_saved_bytes(oc));
  MlirOperation fn = mlirOperationCreateParse(mlirOperationGetContext(c->func), braze_ref(braze_str_cstr(&text)),
                                              braze_ref("form-row-chains"));
  bool ok = !mlirOperationIsNull(fn);
  if (ok) {
    MlirLocation loc = mlirOperationGetLocation(oc->calls[0]);
    mlirOperationWalk(fn, relocate, &loc, MlirWalkPreOrder);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(c->func), c->func, fn);
    mlirSymbolTableInsert(c->sym->table, fn);
    if (c->o->remarks)
      braze_emit_remark(loc, "form-row-chains: %d kernels as @%s in the online form: blocks of %lld rows, %lld keys "
                        "per step%s, scale %g%s%s%s%s", c->n, name, (long long)c->mc, (long long)key_block,
                        c->o->cpu && oc->n % key_block ? " and a tail step" : "", oc->scale,
                        oc->causal ? ", causal" : "",
                        oc->bias_affine.on ? ", the bias computed from its input per score" : "",
                        oc->bias_relaid ? ", the constant bias laid out in loop order" : "",
                        c->o->cpu ? ", its generics as block kernels" : "");
    MlirValue args[4] = {oc->q, oc->k, oc->v, oc->bias};
    replace_calls(c, fn, args, mlirValueIsNull(oc->bias) ? 3 : 4);
    ok = !c->o->cpu || online_outline(fn, c->sym);
  } else {
    braze_emit_error(mlirOperationGetLocation(oc->calls[0]), "form-row-chains: internal: online chain @%s did not parse",
                     name);
  }
  braze_str_free(&ops);
  braze_str_free(&text);
  free(name);
  return ok;
}
