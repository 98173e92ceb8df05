/* cpu-codegen, the matmul template: A as a zero pad of a kernel argument (form-kernels
 * pad-templates, decision 0024). The kernel's first generic pads x ([B, L, C] in
 * memory, channels-last) into [B, Lp, C] through a position table T (T[q]: the x
 * position padded position q holds, or -1); the contraction reads the padded tensor
 * through the conv's window, in runs of R k values (a-runs.c). Instead of writing the
 * padded tensor, each row reads its run from x itself: a run of R = n C values starting
 * at padded position q0 covers positions q0 .. q0 + n - 1, and where the inside ones
 * are one piece [lo, lo + count) contiguous in x (a window row: KW taps of C channels),
 * the run is x[(b L + x0) C + j] for j in [lo C, (lo + count) C), zeros elsewhere,
 * with x0 = T[q0 + lo] - lo. The table of (lo, count, x0) per q0 is a constant; per row
 * and run the template loads it and, when the whole run is inside (count = n), reads x
 * in place; a run wholly in the padding (count = 0) reads a constant zero row; a run
 * across the border is copied into the row's scratch row (per position, a loop of C / vw
 * vector loads from x or zeros; element loops where C is no multiple of the vector
 * width or the run has more than 8 positions) and read there. So no padded copy is written;
 * the runs across the border cost one R-value copy each, per N panel.
 * Refused (the pad is then written into a kernel-local buffer first, as the copy
 * kernel did, with a remark): no runs, R not a multiple of C, a run not starting at a
 * channel 0 or leaving its batch's padded positions, inside positions of a run not one
 * contiguous piece of x, scratch rows over 256 KiB, more than 2^24 (row, run) points. */
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "targets/cpu/matmul/internal.h"

enum { TM_PAD_MAX_SCRATCH = 256 << 10, TM_PAD_MAX_POINTS = 1 << 24, TM_PAD_MAX_COPY_POSITIONS = 8 };

/* For each padded position q with q + n <= Lp: lo, count and x0 of the run of n
 * positions from q, and whether its inside positions are one contiguous piece. */
static bool *run_table(const TmPlan *p, int64_t n, int32_t *runs) {
  const BrazeZeroPad *z = &p->pad;
  bool *ok = calloc((size_t)z->padded, sizeof *ok);
  for (int64_t q = 0; ok && q + n <= z->padded; ++q) {
    int64_t lo = 0, count = 0;
    while (lo < n && z->table[q + lo] < 0)
      ++lo;
    while (lo + count < n && z->table[q + lo + count] >= 0 && z->table[q + lo + count] == z->table[q + lo] + count)
      ++count;
    bool piece = true;
    for (int64_t t = lo + count; t < n; ++t)
      piece = piece && z->table[q + t] < 0;
    ok[q] = piece;
    runs[3 * q] = (int32_t)lo;
    runs[3 * q + 1] = (int32_t)count;
    runs[3 * q + 2] = count ? (int32_t)(z->table[q + lo] - lo) : 0;
  }
  return ok;
}

/* Whether every (batch position, row, run) starts at channel 0 of a padded position
 * whose run table entry holds. */
static const char *check_runs(const TmPlan *p, const bool *ok) {
  const BrazeZeroPad *z = &p->pad;
  int64_t R = p->a_run, n = R / z->channels, positions = 1;
  if (tm_a_batch_mixes(p))
    for (int d = 0; d < p->nb; ++d)
      positions *= p->batch[d];
  if (positions * p->M * (p->K / R) > TM_PAD_MAX_POINTS)
    return "more (row, run) points than are checked (2^24)";
  BrazeAffineProgram e = {0};
  if (!tm_a_address(p, &e)) {
    braze_affine_program_free(&e);
    return "A's map is not over the padded tensor's dims";
  }
  const char *why = NULL;
  int64_t dims[TM_MAX_DIMS] = {0};
  for (int64_t pos = 0; !why && pos < positions; ++pos) {
    for (int64_t rest = pos, d = p->nb - 1; d >= 0; --d) {
      dims[d] = rest % p->batch[d];
      rest /= p->batch[d];
    }
    for (int64_t m = 0; !why && m < p->M; ++m)
      for (int64_t r = 0; !why && r < p->K / R; ++r) {
        dims[p->nb] = m;
        dims[p->nb + 2] = r * R;
        int64_t a = braze_affine_run(&e, dims), q0 = (a / z->channels) % z->padded;
        if (a % z->channels != 0)
          why = "a run that does not start at channel 0";
        else if (q0 + n > z->padded)
          why = "a run past its batch's padded positions";
        else if (!ok[q0])
          why = "a run whose inside positions are not one contiguous piece of the input";
      }
  }
  braze_affine_program_free(&e);
  return why;
}

void tm_pad_plan(TmPlan *p) {
  const BrazeZeroPad *z = &p->pad;
  p->pad_implicit = false;
  if (!mlirTypeIsAF32(p->a_elem)) {
    p->pad_copy_reason = "A is not f32";
    return;
  }
  if (p->a_run <= 1) {
    p->pad_copy_reason = "A is not read in runs";
    return;
  }
  if (p->a_run % z->channels != 0) {
    p->pad_copy_reason = "a run is not whole positions of C channels";
    return;
  }
  if ((int64_t)p->mr * p->a_run * 4 > TM_PAD_MAX_SCRATCH) {
    p->pad_copy_reason = "the scratch rows would pass 256 KiB";
    return;
  }
  p->pad_runs = calloc((size_t)z->padded * 3, sizeof *p->pad_runs);
  bool *ok = p->pad_runs ? run_table(p, p->a_run / z->channels, p->pad_runs) : NULL;
  p->pad_copy_reason = ok ? check_runs(p, ok) : "out of memory";
  free(ok);
  p->pad_implicit = !p->pad_copy_reason;
}

static MlirType dyn_f32(TmEmit *E) {
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  return cg_memref_of(mlirF32TypeGet(E->p->ctx), 1, &dyn);
}

static MlirValue cast_dyn(TmEmit *E, CgBuilder *b, MlirValue mem) {
  return cg_op(b, "memref.cast", dyn_f32(E), 1, &mem);
}

/* x (the pad's input argument) as memref<B L C x f32>. */
static MlirValue flat_input(TmEmit *E, CgBuilder *b) {
  TmPlan *p = E->p;
  MlirValue x = E->mem[p->pad_data_val];
  MlirType xt = mlirValueGetType(x);
  intptr_t rank = mlirShapedTypeGetRank(xt);
  if (rank == 1)
    return x;
  char text[256];
  int len = snprintf(text, sizeof text, "[[");
  for (intptr_t r = 0; r < rank; ++r)
    len += snprintf(text + len, sizeof text - (size_t)len, "%s%ld", r ? ", " : "", (long)r);
  snprintf(text + len, sizeof text - (size_t)len, "]]");
  int64_t numel = p->pad.batch * p->pad.inner * p->pad.channels;
  MlirType flat = cg_memref_of(mlirShapedTypeGetElementType(xt), 1, &numel);
  MlirNamedAttribute attr = cg_named(p->ctx, "reassociation", cg_parse_attr(p->ctx, text));
  return mlirOperationGetResult(cg_create(b, "memref.collapse_shape", 1, &x, 1, &flat, 1, &attr), 0);
}

static MlirValue i32_global(TmEmit *E, CgBuilder *b, const int32_t *values, int rank, const int64_t *shape) {
  TmPlan *p = E->p;
  int64_t n = 1;
  for (int r = 0; r < rank; ++r)
    n *= shape[r];
  MlirType t = mlirRankedTensorTypeGet(rank, shape, mlirIntegerTypeGet(p->ctx, 32), mlirAttributeGetNull());
  return cg_global_constant(p->module, b, mlirDenseElementsAttrInt32Get(t, (intptr_t)n, values));
}

static MlirValue load_index(CgBuilder *b, MlirValue mem, int n, const MlirValue *idx) {
  MlirValue v = cg_load(b, mem, n, idx);
  return cg_op(b, "arith.index_cast", cg_index_type(b->ctx), 1, &v);
}

/* x at `at` when `inside`, else `zero` (read at 0): one element, or a vector of them
 * when `zero` is a vector. */
static MlirValue read_or_zero(TmEmit *E, CgBuilder *b, MlirValue x, MlirValue inside, MlirValue at, MlirValue zero) {
  MlirValue sel[3] = {inside, at, cg_index(b, 0)};
  MlirValue safe = cg_op(b, "arith.select", cg_index_type(b->ctx), 3, sel);
  MlirType type = mlirValueGetType(zero);
  MlirValue v = mlirTypeIsAVector(type) ? tm_vload(E, b, x, 1, &safe, (MlirValue){NULL}) : cg_load(b, x, 1, &safe);
  MlirValue pick[3] = {inside, v, zero};
  return cg_op(b, "arith.select", type, 3, pick);
}

/* The copy the implicit form avoids: padded[b, q, c] = T[q] >= 0 ? x[(b L + T[q]) C + c] : 0,
 * into a kernel-local buffer (one parallel loop over (b, q)). */
static void write_pad(TmEmit *E, MlirValue x) {
  TmPlan *p = E->p;
  const BrazeZeroPad *z = &p->pad;
  MlirType pt = cg_memref_like(mlirValueGetType(p->vals[p->a_val].tensor));
  MlirNamedAttribute attrs[2] = {
      cg_named(p->ctx, "operandSegmentSizes", cg_parse_attr(p->ctx, "array<i32: 0, 0>")),
      cg_named(p->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(p->ctx, 64), 64)),
  };
  E->pad_buffer = mlirOperationGetResult(cg_create(&E->fb, "memref.alloc", 0, NULL, 1, &pt, 2, attrs), 0);
  MlirValue table = i32_global(E, &E->fb, z->table, 1, &z->padded);
  int64_t ub[2] = {z->batch, z->padded};
  CgBuilder pb, cb;
  MlirValue ivs[2];
  cg_parallel(&E->fb, 2, ub, &pb, ivs);
  MlirValue pos = load_index(&pb, table, 1, &ivs[1]);
  MlirValue inside = tm_cmp(&pb, 5 /* sge */, pos, cg_index(&pb, 0));
  MlirValue row = tm_index_op(&pb, "arith.addi", tm_index_op(&pb, "arith.muli", ivs[0], cg_index(&pb, z->inner)), pos);
  MlirValue base = tm_index_op(&pb, "arith.muli", row, cg_index(&pb, z->channels));
  MlirValue c = tm_range(&pb, cg_index(&pb, 0), cg_index(&pb, z->channels), &cb);
  MlirValue zero = cg_constant(&cb, mlirFloatAttrDoubleGet(p->ctx, mlirF32TypeGet(p->ctx), 0.0));
  MlirValue v = read_or_zero(E, &cb, x, inside, tm_index_op(&cb, "arith.addi", base, c), zero);
  MlirValue idx[3] = {ivs[0], ivs[1], c};
  cg_store(&cb, v, E->pad_buffer, 3, idx);
  E->mem[p->a_val] = E->pad_buffer;
}

void tm_pad_bind(TmEmit *E) {
  TmPlan *p = E->p;
  MlirValue x = flat_input(E, &E->fb);
  if (!p->pad_implicit) {
    write_pad(E, x);
    return;
  }
  int64_t shape[2] = {p->pad.padded, 3};
  E->pad_table = i32_global(E, &E->fb, p->pad_runs, 2, shape);
  E->pad_x = cast_dyn(E, &E->fb, x);
  int64_t R = p->a_run;
  MlirType zt = mlirRankedTensorTypeGet(1, &R, mlirF32TypeGet(p->ctx), mlirAttributeGetNull());
  MlirAttribute zeros = mlirDenseElementsAttrSplatGet(zt, mlirFloatAttrDoubleGet(p->ctx, mlirF32TypeGet(p->ctx), 0.0));
  E->pad_zero = cast_dyn(E, &E->fb, cg_global_constant(p->module, &E->fb, zeros));
}

void tm_pad_release(TmEmit *E) {
  if (!mlirValueIsNull(E->pad_buffer))
    cg_create(&E->fb, "memref.dealloc", 1, &E->pad_buffer, 0, NULL, 0, NULL);
}

MlirValue tm_pad_scratch(TmEmit *E, CgBuilder *b) {
  TmPlan *p = E->p;
  int64_t size = (int64_t)p->mr * p->a_run;
  MlirType st = cg_memref_of(mlirF32TypeGet(p->ctx), 1, &size);
  MlirNamedAttribute attrs[2] = {
      cg_named(p->ctx, "operandSegmentSizes", cg_parse_attr(p->ctx, "array<i32: 0, 0>")),
      cg_named(p->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(p->ctx, 64), 64)),
  };
  MlirValue s = mlirOperationGetResult(cg_create(b, "memref.alloca", 0, NULL, 1, &st, 2, attrs), 0);
  return cast_dyn(E, b, s);
}

/* The border copy as vector code: position t of the run (C channels) is x's when
 * lo <= t < lo + count, else zeros; one loop per position over its C / vw vectors, each
 * a load from x (at a safe address where outside), a select and a store. Plain element
 * loops would do, but LLVM makes memset/memcpy calls of them, around which the
 * micro-kernel's accumulators are spilled and reloaded: measured, the copies then cost
 * ResNet-18 2.6% at batch 8, more than the pad kernel they replace. The select keeps
 * these loops from becoming calls. */
static bool vector_copy_fits(const TmPlan *p) {
  return p->pad.channels % p->vw == 0 && p->a_run / p->pad.channels <= TM_PAD_MAX_COPY_POSITIONS;
}

static void copy_positions(TmEmit *E, CgBuilder *b, MlirValue row0, MlirValue lo, MlirValue count, MlirValue xbase) {
  TmPlan *p = E->p;
  int64_t C = p->pad.channels, n = p->a_run / C;
  MlirValue end = tm_index_op(b, "arith.addi", lo, count), zero = tm_splat(E, b, mlirF32TypeGet(p->ctx), 0.0);
  for (int64_t t = 0; t < n; ++t) {
    MlirValue pos = cg_index(b, t);
    MlirValue inside = cg_op(b, "arith.andi", mlirIntegerTypeGet(p->ctx, 1), 2,
                             (MlirValue[2]){tm_cmp(b, 7 /* ule */, lo, pos), tm_cmp(b, 6 /* ult */, pos, end)});
    CgBuilder vb;
    MlirValue v;
    cg_for_step(b, cg_index(b, 0), cg_index(b, C), cg_index(b, p->vw), 0, NULL, &vb, &v, NULL);
    vb.before = cg_create(&vb, "scf.yield", 0, NULL, 0, NULL, 0, NULL);
    MlirValue at = tm_index_op(&vb, "arith.addi", xbase, tm_index_op(&vb, "arith.addi", v, cg_index(&vb, t * C)));
    MlirValue value = read_or_zero(E, &vb, E->pad_x, inside, at, zero);
    MlirValue dst = tm_index_op(&vb, "arith.addi", row0, tm_index_op(&vb, "arith.addi", v, cg_index(&vb, t * C)));
    tm_vstore(&vb, value, E->pad_scratch, 1, &dst, (MlirValue){NULL});
  }
}

/* The border copy as three element loops (a memset, a memcpy, a memset), where C is no
 * multiple of the vector width or the run has more than TM_PAD_MAX_COPY_POSITIONS
 * positions. */
static void copy_loops(TmEmit *E, CgBuilder *b, MlirValue row0, MlirValue lo, MlirValue count, MlirValue xbase) {
  TmPlan *p = E->p;
  int64_t C = p->pad.channels, R = p->a_run;
  CgBuilder jb;
  MlirValue first = tm_index_op(b, "arith.muli", lo, cg_index(b, C));
  MlirValue end = tm_index_op(b, "arith.muli", tm_index_op(b, "arith.addi", lo, count), cg_index(b, C));
  MlirValue zero = cg_constant(b, mlirFloatAttrDoubleGet(p->ctx, mlirF32TypeGet(p->ctx), 0.0));
  MlirValue bounds[3][2] = {{cg_index(b, 0), first}, {first, end}, {end, cg_index(b, R)}};
  for (int part = 0; part < 3; ++part) {
    MlirValue j = tm_range(b, bounds[part][0], bounds[part][1], &jb);
    MlirValue at = tm_index_op(&jb, "arith.addi", row0, j);
    MlirValue v = zero;
    if (part == 1) {
      MlirValue from = tm_index_op(&jb, "arith.addi", xbase, j);
      v = cg_load(&jb, E->pad_x, 1, &from);
    }
    cg_store(&jb, v, E->pad_scratch, 1, &at);
  }
}

/* Row run lookup: the run of R values from `padded_address` (a position's channel 0)
 * covers padded positions q0 .. q0 + n - 1; its inside piece is x[xbase ..] (the run
 * table's lo, count and x0 at q0), `full` when all n positions are inside, `empty`
 * when none is. */
typedef struct {
  MlirValue lo, count, xbase, full, empty;
} PadRun;

static PadRun lookup_run(TmEmit *E, CgBuilder *b, MlirValue padded_address) {
  TmPlan *p = E->p;
  const BrazeZeroPad *z = &p->pad;
  int64_t n = p->a_run / z->channels;
  PadRun r;
  MlirValue pc = tm_index_op(b, "arith.divui", padded_address, cg_index(b, z->channels));
  MlirValue batch = tm_index_op(b, "arith.divui", pc, cg_index(b, z->padded));
  MlirValue q0 = tm_index_op(b, "arith.remui", pc, cg_index(b, z->padded));
  MlirValue at[2] = {q0, cg_index(b, 0)};
  r.lo = load_index(b, E->pad_table, 2, at);
  at[1] = cg_index(b, 1);
  r.count = load_index(b, E->pad_table, 2, at);
  at[1] = cg_index(b, 2);
  MlirValue x0 = load_index(b, E->pad_table, 2, at);
  MlirValue xrow = tm_index_op(b, "arith.addi", tm_index_op(b, "arith.muli", batch, cg_index(b, z->inner)), x0);
  r.xbase = tm_index_op(b, "arith.muli", xrow, cg_index(b, z->channels));
  r.full = tm_cmp(b, 0 /* eq */, r.count, cg_index(b, n));
  r.empty = tm_cmp(b, 0 /* eq */, r.count, cg_index(b, 0));
  return r;
}

/* Whether the run needs no copy: wholly inside or wholly in the padding. */
static MlirValue settled(CgBuilder *b, const PadRun *r) {
  return cg_op(b, "arith.ori", mlirIntegerTypeGet(b->ctx, 1), 2, (MlirValue[2]){r->full, r->empty});
}

void tm_pad_row(TmEmit *E, CgBuilder *b, int row, MlirValue padded_address, MlirValue *mem, MlirValue *offset,
                MlirValue *no_copy) {
  PadRun r = lookup_run(E, b, padded_address);
  *no_copy = settled(b, &r);
  /* a run wholly in the padding reads the zero row, one across the border scratch row `row` */
  MlirValue pick_zero[3] = {r.empty, E->pad_zero, E->pad_scratch};
  MlirValue other = cg_op(b, "arith.select", dyn_f32(E), 3, pick_zero);
  MlirValue pick_zoff[3] = {r.empty, cg_index(b, 0), cg_index(b, (int64_t)row * E->p->a_run)};
  MlirValue other_off = cg_op(b, "arith.select", cg_index_type(b->ctx), 3, pick_zoff);
  MlirValue pick_mem[3] = {r.full, E->pad_x, other};
  *mem = cg_op(b, "arith.select", dyn_f32(E), 3, pick_mem);
  MlirValue pick_off[3] = {r.full, r.xbase, other_off};
  *offset = cg_op(b, "arith.select", cg_index_type(b->ctx), 3, pick_off);
}

void tm_pad_copy_row(TmEmit *E, CgBuilder *b, MlirValue row, MlirValue padded_address) {
  PadRun r = lookup_run(E, b, padded_address);
  CgBuilder then_b, else_b;
  cg_if(b, settled(b, &r), &then_b, &else_b);
  MlirValue row0 = tm_index_op(&else_b, "arith.muli", row, cg_index(&else_b, E->p->a_run));
  if (vector_copy_fits(E->p))
    copy_positions(E, &else_b, row0, r.lo, r.count, r.xbase);
  else
    copy_loops(E, &else_b, row0, r.lo, r.count, r.xbase);
}
