/* form-row-chains internals shared by its files: the pass's options, a chain of kernel
 * calls, and the chain kernel's construction (passes/chains/chain-build.c: the whole-row
 * chain of block kernels and the online form's kernel, in place of the chain's calls).
 * passes/chains/form-row-chains.c finds and checks chains and runs the pass. */
#ifndef BRAZE_PASSES_CHAINS_CHAIN_H
#define BRAZE_PASSES_CHAINS_CHAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "passes/chains/online.h"
#include "passes/chains/row-local.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

enum { MAX_LINKS = 16 };

typedef struct {
  bool disable, remarks, no_online, online_half, online_cuda, no_merge_inputs;
  long long rows, max_scratch, max_repack, min_blocks, key_block, online_min_keys, window_channels;
  char *target;
  bool cpu; /* target=cpu: whole-row chains, and the online form as calls of block kernels */
} Options;

typedef struct {
  MlirOperation call, kernel;
  RcSlice slices[RC_MAX_ARGS];
} Link;

/* The module's symbols (looked up by name, one hash table for the pass) and how many
 * calls each kernel has (a kernel is erased when its last call went into a chain). */
typedef struct {
  MlirSymbolTable table;
  BrazePtrMap calls; /* kernel op -> number of func.calls of it */
} Symbols;

typedef struct {
  const Options *o;
  MlirOperation module, func;
  Symbols *sym;
  Link links[MAX_LINKS];
  int n;
  RcRows rows;
  int64_t mc;
  char detail[256];          /* what the last check's refusal was about (a link's view), or "" */
  const char *stopped;       /* why the chain ends before the next link (stopped_at), or NULL */
  char stopped_detail[256];
  MlirOperation stopped_at;
} Chain;

/* ---- passes/chains/chain-build.c ---- */

/* The link before `link` whose result `v` is, or -1; whether there is one. */
int chain_producer_link(const Chain *c, int link, MlirValue v);
bool chain_is_intermediate(const Chain *c, int link, MlirValue v);
/* Bytes of a static tensor type; of the chain's intermediates (each link's result but
 * the last). */
int64_t chain_tensor_bytes(MlirType t);
int64_t chain_intermediate_bytes(const Chain *c);
/* A kernel's symbol name appended to s. */
void chain_print_name(BrazeStr *s, MlirOperation op);
/* The whole-row chain kernel (block forms of the links, an scf.forall over row blocks)
 * in place of the chain's calls; false after an internal error (diagnosed). */
bool chain_build(Chain *c);
/* The online form's kernel (passes/chains/online.h) in place of its calls: `rows` query
 * rows and `key_block` keys per block (on the cpu target both divide their extents, and
 * the key loop's generics are outlined: online_outline). */
bool chain_build_online(Chain *c, const OnlineChain *oc, int64_t rows, int64_t key_block);

/* ---- passes/chains/online-inputs.c ---- */

/* On targets other than cpu: the pointwise kernels making each online chain's inputs in
 * `func` as one kernel with a result each (unless o->no_merge_inputs). */
void online_merge_inputs(const Options *o, Symbols *sym, MlirOperation func);

/* ---- passes/chains/online-outline.c ---- */

/* On the cpu target: the online chain kernel's generic groups (the key loop's and the
 * normalization after it) as block kernels called in their place; false after an
 * internal error (diagnosed). */
bool online_outline(MlirOperation chain_fn, Symbols *sym);
/* A func.call of `callee` (not inserted) with one result. */
MlirOperation chain_call(MlirOperation callee, MlirLocation loc, intptr_t n, const MlirValue *operands,
                         MlirType result);
/* sym->calls[kernel] += delta. */
void chain_count_call(Symbols *sym, MlirOperation kernel, int delta);
/* Erase `call` of `kernel`, and the kernel when that was its last call (true then). */
bool chain_drop_call(Symbols *sym, MlirOperation call, MlirOperation kernel);

#endif
