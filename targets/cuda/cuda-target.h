/* Internals of the CUDA target shared between its files (not a public interface:
 * everything outside targets/ goes through targets/target.h).
 *
 * The flow (docs/targets-cuda.md): target-level CUDA IR (a gpu.module of gpu.func
 * kernels and host entries of gpu.launch_func, the contract in docs/targets-cuda.md)
 * -> lower_to_llvm compiles only the gpu.module, to a cubin for sm_90a and the PTX
 * text, kept as two #gpu.object in its gpu.binary -> emit reads each host entry and
 * writes C source for the library (embedded images, kernel table, entry functions)
 * that cc compiles together with runtime/cuda/cuda-runtime.c. */
#ifndef BRAZE_TARGETS_CUDA_CUDA_TARGET_H
#define BRAZE_TARGETS_CUDA_CUDA_TARGET_H

#include "dialects/graph/mesh.h"
#include "targets/target.h"

#ifndef BRAZE_CUDA_PATH
#define BRAZE_CUDA_PATH "/usr/local/cuda" /* the toolkit: ptxas, libdevice, include/cuda.h */
#endif

extern const BrazeTarget braze_target_cuda;

/* The CUDA toolkit directory: $BRAZE_CUDA_PATH, else the build's default. */
const char *braze_cuda_toolkit(void);

/* Formats of #gpu.object (mlir::gpu::CompilationTarget). */
enum { BRAZE_GPU_OBJECT_PTX = 2, BRAZE_GPU_OBJECT_CUBIN = 3 };

/* One compiled gpu.module: its symbol name, cubin bytes and PTX text (pointers into
 * the module's attributes: valid while the module lives). */
typedef struct {
  MlirStringRef name, cubin, ptx;
} BrazeCudaImage;

typedef struct {
  BrazeCudaImage *items;
  size_t count;
} BrazeCudaImages;

/* target.c: the gpu.binary ops of a lowered module. False (and *error) when one lacks
 * its cubin or its PTX. */
bool braze_cuda_images(MlirOperation module, BrazeCudaImages *out, BrazeStr *error);

/* host-collective.c: the mesh of a partitioned library (decision 0018), filled while
 * the entries are translated: the mesh (the first partitioned entry's; every one has
 * as many devices), and the groups its collectives use, each an axis list on its
 * entry's mesh. */
enum { BRAZE_CUDA_MESH_MAX_GROUPS = 16 };
typedef struct {
  bool partitioned; /* some entry is partitioned over more than one device */
  BrazeMesh mesh;
  int num_groups;
  struct {
    int num_mesh_axes, num_axes, axes[BRAZE_MESH_MAX_AXES];
    int64_t sizes[BRAZE_MESH_MAX_AXES]; /* the entry's mesh */
  } groups[BRAZE_CUDA_MESH_MAX_GROUPS];
} BrazeCudaMesh;
/* Note the entry function's mesh: *partitioned when it is a partitioned program over
 * more than one device (it then needs the mesh's init). False (error at the function)
 * when its mesh is malformed or differs from another entry's. */
bool braze_cuda_mesh_note(BrazeCudaMesh *m, MlirOperation func, bool *partitioned);
/* A `kernel.collective` whose operands are the C expressions x, y and scratch (NULL:
 * none): its descriptor `braze_collective_INDEX` into decls, the call into body; with
 * `async` >= 0 the call runs it on the entry's communication stream as its async
 * collective number `async` (runtime/cuda/nccl-mesh.c). */
bool braze_cuda_collective_source(BrazeCudaMesh *m, MlirOperation op, size_t index, const char *x, const char *y,
                                  const char *scratch, int async, BrazeStr *decls, BrazeStr *body);
/* host-gemm.c: a `kernel.gemm` whose operands are the C expressions a, b, x (the addend;
 * NULL: none) and c: its cuBLASLt site `braze_gemm_INDEX` into decls, the call into
 * body. False (error at op) for shapes or types cuBLASLt is not given. */
bool braze_cuda_gemm_site(MlirOperation op, size_t index, const char *a, const char *b, const char *x, const char *c,
                            BrazeStr *decls, BrazeStr *body);
/* Emit `msg` as an error at op's location; false. */
bool braze_cuda_fail_at(MlirOperation op, const char *msg);
/* host-constants.c: raw little-endian bytes of a memref.global's dense or dense_resource
 * initializer (splats expanded; i1 one byte each) in a malloc'd *data of *len bytes;
 * false for an element type of no whole bytes. */
bool braze_cuda_constant_bytes(MlirOperation global, unsigned char **data, size_t *len);
/* Overlap (decision 0018): a collective runs async when the entry's next step does not
 * read its result; the entry's stream then waits for it before the first op that does
 * (or an alias of it), and at the end. The entry's pending collectives: */
typedef struct {
  MlirValue *values; /* a result or an alias of it */
  int *slots;        /* its async number */
  size_t count, cap;
  int num_async;     /* async collectives so far in the entry */
} BrazeCudaPending;
/* Ops of a host entry that touch no device memory, only name it: constants, views of the
 * workspace or of an out argument, constant globals, aliases. */
bool braze_cuda_touches_no_memory(MlirOperation op);
/* Whether the collective `op` has independent work after it (the next op that is not
 * a constant, a view or an alias reads none of its result). */
bool braze_cuda_collective_overlaps(MlirOperation op);
void braze_cuda_pending_add(BrazeCudaPending *p, MlirValue v, int slot);
/* Before `op`: a join for each pending collective `op` reads (into body); an alias op
 * of a pending value makes its result pending instead; func.return joins them all. */
void braze_cuda_pending_before(BrazeCudaPending *p, MlirOperation op, BrazeStr *body);
void braze_cuda_pending_free(BrazeCudaPending *p);
/* The mesh table, exported tables and braze_cuda_mesh_* functions (nothing when the
 * library is not partitioned); and their declarations for the header. */
void braze_cuda_mesh_tables(const BrazeCudaMesh *m, BrazeStr *out);
void braze_cuda_mesh_header(const BrazeCudaMesh *m, BrazeStr *out);

/* host.c: the C source of the library's host side: for each entry, its launches as
 * calls into the runtime, its ABI functions and tables (include/braze/runtime.h), and
 * the program tables (images, kernels, constants). Binary data is referenced through
 * `blob_dir`/NAME files that host.c writes there and the source includes (.incbin).
 * Errors (an op the contract does not allow in an entry) are emitted at the op. */
typedef struct {
  const BrazeCudaImages *images;
  const char *blob_dir;   /* an existing private directory */
  const char *source_name;
  bool graph_replay;      /* --cuda-graphs */
  BrazeCudaMesh *mesh;    /* out: the library's mesh */
  bool *partitioned;      /* out: per entry, whether it needs the mesh */
} BrazeCudaHostOptions;
bool braze_cuda_host_source(MlirOperation module, const BrazeEntrySet *entries, const BrazeCudaHostOptions *opts,
                            BrazeStr *out, BrazeStr *error);

/* abi.c: the exported functions and tables of every entry (after the host code's
 * braze_run_NAME functions and braze_program), and the check that entry names leave
 * the ABI's and the runtime's names free. */
void braze_cuda_abi_functions(const BrazeEntrySet *entries, bool graph_replay, const bool *partitioned, BrazeStr *out);
bool braze_cuda_abi_check(const BrazeEntrySet *entries, BrazeStr *error);

/* abi_header.c: the C header declaring the entries (device pointers), the exported
 * tables and the runtime's helpers. */
void braze_cuda_abi_header(const BrazeEntrySet *entries, const BrazeCudaMesh *mesh, const char *source_name,
                           const char *guard_hint, BrazeStr *out);

/* ptx.c: write DIR/KERNEL.ptx for every .entry of `ptx` (the module's declarations,
 * then that kernel). */
bool braze_cuda_dump_ptx(MlirStringRef ptx, const char *dir, BrazeStr *error);

/* emit.c */
bool braze_cuda_emit(MlirOperation module, const BrazeEntrySet *entries, const BrazeEmitOptions *opts,
                     BrazeStr *error);

/* The runtime's source (runtime/cuda/cuda-runtime.c), embedded at build time. */
extern const char braze_cuda_runtime_source[];
/* runtime/cuda/cublaslt-gemm.c, which the runtime includes (embedded likewise). */
extern const char braze_cuda_gemm_source[];
/* runtime/cuda/nccl-mesh.c, which the runtime includes in partitioned libraries. */
extern const char braze_cuda_mesh_source[];

#endif
