/* Unsigned graph tensors at the loop level (docs/decisions/0010-unsigned-integers.md).
 *
 * The graph dialect types unsigned tensors `tensor<...xui8>` (ui8 ui16 ui32 ui64);
 * arith needs signless integers, so graph-to-loops stores them signless (`i8` ...)
 * and picks the unsigned arith ops itself (divui, remui, cmpi ult, maxui, minui,
 * extui, uitofp, fptoui). Before it lowers anything it records, per graph op, whether
 * its operands and its result are unsigned (braze_signless_collect), then rewrites
 * every type in the function to its signless form (braze_signless_convert): the
 * function signature, the block arguments, every graph op's result and the value of
 * every graph.constant. The ABI learns the signedness from the graph-level
 * signature, read before the pipeline (targets/entries.c). */
#ifndef BRAZE_PASSES_LOOPS_SIGNLESS_H
#define BRAZE_PASSES_LOOPS_SIGNLESS_H

#include <stdbool.h>

#include "mlir-c/IR.h"
#include "support/oplist.h"
#include "support/ptrmap.h"

/* Flags recorded per op (braze_ptr_key(op.ptr) -> flags). */
enum { BRAZE_UNSIGNED_OPERANDS = 1, BRAZE_UNSIGNED_RESULT = 2 };

/* Record the flags of every op of `ops` that has an unsigned operand (its first
 * operand of a non-i1 element type; select: its second) or result. */
void braze_signless_collect(const BrazeOpList *ops, BrazePtrMap *flags);
/* The flags of `op` (0 when none were recorded). */
int braze_signless_flags(const BrazePtrMap *flags, MlirOperation op);
/* False (an error at the op) when an op other than a graph op or func.return has an
 * unsigned operand or result (a user kernel's buffers, a call): those keep their
 * types, so the function would not verify after the conversion. */
bool braze_signless_check(MlirOperation func);
/* Rewrite the unsigned types of `func` (signature, arguments, `ops`' results,
 * graph.constant values) to signless ones. */
void braze_signless_convert(MlirOperation func, const BrazeOpList *ops);

#endif
