/* The mesh of a partitioned library and its collectives over NCCL (decision 0018),
 * included by cuda-runtime.c (one translation unit with the generated code).
 *
 * NCCL is opened with dlopen("libnccl.so.2") at the first mesh call, like the driver:
 * the library loads where NCCL is missing, and only the mesh functions and the
 * partitioned entries then fail, with the loader's message. <nccl.h> gives the types.
 *
 * One mesh per library: its axis sizes and the groups the entries' collectives use
 * (each a list of axes) are tables in the generated code (BrazeCuMesh). The init takes
 * the world communicator (the caller's, or one it creates from a shared ncclUniqueId)
 * and splits one communicator per group: color = the rank's coordinates off the
 * group's axes, key = its position on them (row-major in the listed order), so NCCL's
 * rank in the group communicator is the position docs/dialect-graph.md defines.
 * braze_cuda_mesh_init_all (decision 0022) creates the world communicators of all
 * ranks in this process (ncclCommInitAll) and splits each group for every rank inside
 * one ncclGroupStart/End (one thread creating several ranks' communicators must group
 * the calls); each rank's state is then in the slot of its device's context
 * (cuda-runtime.c), and an entry uses that of its thread's current context.
 * A collective runs on the entry's stream, or, where the entry has independent work
 * before the collective's result is read, on a second stream of its own (the host code
 * decides: braze_cu_collective_async, braze_cu_join below); a split dim that is not the
 * outermost one is staged through the entry's workspace with strided copies
 * (cuMemcpy2DAsync). */
#include <nccl.h>

#define BRAZE_NCCL_FUNCTIONS(X)                                                                                        \
  X(GetErrorString, ncclGetErrorString)                                                                                \
  X(GetUniqueId, ncclGetUniqueId)                                                                                      \
  X(CommInitRank, ncclCommInitRank)                                                                                    \
  X(CommInitAll, ncclCommInitAll)                                                                                      \
  X(CommSplit, ncclCommSplit)                                                                                          \
  X(CommDestroy, ncclCommDestroy)                                                                                      \
  X(CommCount, ncclCommCount)                                                                                          \
  X(CommUserRank, ncclCommUserRank)                                                                                    \
  X(AllReduce, ncclAllReduce)                                                                                          \
  X(AllGather, ncclAllGather)                                                                                          \
  X(ReduceScatter, ncclReduceScatter)                                                                                  \
  X(Send, ncclSend)                                                                                                    \
  X(Recv, ncclRecv)                                                                                                    \
  X(GroupStart, ncclGroupStart)                                                                                        \
  X(GroupEnd, ncclGroupEnd)

static struct {
  void *handle;
  int failed;
  char message[512];
#define BRAZE_NCCL_FIELD(field, api) __typeof__(&api) field;
  BRAZE_NCCL_FUNCTIONS(BRAZE_NCCL_FIELD)
#undef BRAZE_NCCL_FIELD
} braze_nccl;

static pthread_once_t braze_nccl_once = PTHREAD_ONCE_INIT;

static void braze_nccl_load(void) {
  braze_nccl.failed = 1;
  braze_nccl.handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!braze_nccl.handle) {
    const char *why = dlerror();
    snprintf(braze_nccl.message, sizeof braze_nccl.message, "no NCCL on this machine: cannot load libnccl.so.2 (%s)",
             why ? why : "not found");
    return;
  }
#define BRAZE_NCCL_LOAD(field, api)                                                                                    \
  *(void **)&braze_nccl.field = dlsym(braze_nccl.handle, #api);                                                        \
  if (!braze_nccl.field) {                                                                                             \
    snprintf(braze_nccl.message, sizeof braze_nccl.message, "libnccl.so.2 lacks %s (NCCL older than 2.18?)", #api);   \
    return;                                                                                                            \
  }
  BRAZE_NCCL_FUNCTIONS(BRAZE_NCCL_LOAD)
#undef BRAZE_NCCL_LOAD
  braze_nccl.failed = 0;
}

static int braze_nccl_ready(void) {
  pthread_once(&braze_nccl_once, braze_nccl_load);
  return braze_nccl.failed ? braze_cu_fail("%s", braze_nccl.message) : 0;
}

/* 0 on success; otherwise records "WHAT failed: NCCL's message" and returns 1. */
static int braze_nccl_check(ncclResult_t r, const char *what) {
  if (r == ncclSuccess)
    return 0;
  const char *text = braze_nccl.GetErrorString ? braze_nccl.GetErrorString(r) : NULL;
  return braze_cu_fail("%s failed: NCCL error %d (%s)", what, (int)r, text ? text : "no description");
}

/* ---- the mesh: tables from the generated code, state of this process ---- */

enum { BRAZE_CU_MESH_MAX_AXES = 4, BRAZE_CU_MESH_MAX_GROUPS = 16 };

typedef struct {
  int num_mesh_axes;
  int64_t sizes[BRAZE_CU_MESH_MAX_AXES]; /* the mesh of the entries using it */
  int num_axes;
  int axes[BRAZE_CU_MESH_MAX_AXES]; /* in the collective's listed order */
} BrazeCuGroup;

typedef struct {
  int num_axes;
  int64_t sizes[BRAZE_CU_MESH_MAX_AXES];
  int num_devices;
  int num_groups;
  BrazeCuGroup groups[BRAZE_CU_MESH_MAX_GROUPS];
} BrazeCuMesh;

/* One rank's communicators: slot 0's in the one-rank-per-process modes, one slot per
 * device under braze_cuda_mesh_init_all. */
typedef struct {
  int rank;
  ncclComm_t world;
  int owns_world;
  ncclComm_t comms[BRAZE_CU_MESH_MAX_GROUPS]; /* NULL for a group of one rank */
  int owns[BRAZE_CU_MESH_MAX_GROUPS];
  int size[BRAZE_CU_MESH_MAX_GROUPS], position[BRAZE_CU_MESH_MAX_GROUPS];
} BrazeCuRank;

static struct {
  pthread_mutex_t lock;
  int ready; /* read with acquire; set under lock */
  BrazeCuRank ranks[BRAZE_CU_SLOTS];
} braze_mesh_state = {.lock = PTHREAD_MUTEX_INITIALIZER, .ranks[0].rank = -1};

/* The rank state of the calling entry (its slot, braze_cu_enter). */
static BrazeCuRank *braze_cu_rank(void) { return &braze_mesh_state.ranks[braze_cu_slot]; }

/* Whether group `g` is the whole mesh in row-major order: the world serves it. */
static int braze_cu_group_is_world(const BrazeCuGroup *g) {
  int n = 0;
  for (int a = 0; a < g->num_mesh_axes; ++a)
    if (g->sizes[a] > 1) {
      int i = 0;
      while (i < g->num_axes && g->axes[i] != a)
        ++i;
      if (i == g->num_axes)
        return 0; /* an axis of the mesh the group lacks */
    }
  for (int i = 0; i < g->num_axes; ++i) /* the group's non-unit axes in mesh order */
    if (g->sizes[g->axes[i]] > 1) {
      if (g->axes[i] < n)
        return 0;
      n = g->axes[i];
    }
  return 1;
}

/* The group's color (coordinates off its axes, row-major) and key (position on its
 * axes, row-major in the listed order) for `rank`, and its size. */
static void braze_cu_group_split(const BrazeCuGroup *g, int rank, int *color, int *key, int *size) {
  int64_t coords[BRAZE_CU_MESH_MAX_AXES];
  int64_t r = rank;
  for (int a = g->num_mesh_axes - 1; a >= 0; --a) {
    coords[a] = r % g->sizes[a];
    r /= g->sizes[a];
  }
  int in_group[BRAZE_CU_MESH_MAX_AXES] = {0};
  *key = 0;
  *size = 1;
  for (int i = 0; i < g->num_axes; ++i) {
    in_group[g->axes[i]] = 1;
    *key = (int)(*key * g->sizes[g->axes[i]] + coords[g->axes[i]]);
    *size *= (int)g->sizes[g->axes[i]];
  }
  *color = 0;
  for (int a = 0; a < g->num_mesh_axes; ++a)
    if (!in_group[a])
      *color = (int)(*color * g->sizes[a] + coords[a]);
}

static void braze_cu_rank_release(BrazeCuRank *r) {
  for (int g = 0; g < BRAZE_CU_MESH_MAX_GROUPS; ++g) {
    if (r->owns[g] && r->comms[g])
      braze_nccl.CommDestroy(r->comms[g]);
    r->comms[g] = NULL;
    r->owns[g] = 0;
  }
  if (r->owns_world && r->world)
    braze_nccl.CommDestroy(r->world);
  r->world = NULL;
  r->owns_world = 0;
  r->rank = -1;
}

/* Every rank's communicators, and the slots of a one-process mesh given up (under the
 * lock). */
static void braze_cu_mesh_release(void) {
  for (int i = 0; i < BRAZE_CU_SLOTS; ++i)
    braze_cu_rank_release(&braze_mesh_state.ranks[i]);
  pthread_mutex_lock(&braze_cu_slots.lock);
  __atomic_store_n(&braze_cu_slots.active, 0, __ATOMIC_RELEASE);
  for (int i = 0; i < BRAZE_CU_SLOTS; ++i)
    braze_cu_slots.in_mesh[i] = 0;
  pthread_mutex_unlock(&braze_cu_slots.lock);
}

/* Takes `world` as r's world communicator and checks it against the mesh. */
static int braze_cu_rank_world(const BrazeCuMesh *m, BrazeCuRank *r, ncclComm_t world, int owns_world) {
  int count = 0, rank = 0;
  r->world = world;
  r->owns_world = owns_world;
  if (braze_nccl_check(braze_nccl.CommCount(world, &count), "ncclCommCount") ||
      braze_nccl_check(braze_nccl.CommUserRank(world, &rank), "ncclCommUserRank"))
    return 1;
  if (count != m->num_devices)
    return braze_cu_fail("braze_cuda_mesh_init: the communicator has %d ranks; the library was partitioned for %d "
                         "devices",
                         count, m->num_devices);
  r->rank = rank;
  return 0;
}

/* Group g of rank r: its size and position; the world or NULL where no split is
 * needed (returns 0), else the color and key of the split (returns 1). */
static int braze_cu_group_needs_split(const BrazeCuMesh *m, BrazeCuRank *r, int g, int *color, int *key) {
  int size;
  braze_cu_group_split(&m->groups[g], r->rank, color, key, &size);
  r->size[g] = size;
  r->position[g] = *key;
  if (size == 1 || braze_cu_group_is_world(&m->groups[g])) {
    r->comms[g] = size == 1 ? NULL : r->world;
    return 0;
  }
  return 1;
}

/* The group communicators of rank r (under the lock). */
static int braze_cu_mesh_split(const BrazeCuMesh *m, BrazeCuRank *r) {
  for (int g = 0; g < m->num_groups; ++g) {
    int color, key;
    if (!braze_cu_group_needs_split(m, r, g, &color, &key))
      continue;
    /* collective over the world: every rank splits the same groups in the same order */
    if (braze_nccl_check(braze_nccl.CommSplit(r->world, color, key, &r->comms[g], NULL), "ncclCommSplit"))
      return 1;
    r->owns[g] = 1;
  }
  return 0;
}

/* braze_cuda_mesh_init (comm given, kept by the caller) and _init_rank (created here). */
static int braze_cu_mesh_init(const BrazeCuMesh *m, void *comm, const void *unique_id, int rank) {
  braze_cu_message[0] = '\0';
  CUcontext ctx;
  if (braze_cu_context(&ctx) || braze_nccl_ready())
    return 1;
  pthread_mutex_lock(&braze_mesh_state.lock);
  int failed = 0;
  if (braze_mesh_state.ready) {
    failed = braze_cu_fail("the mesh is already initialized (braze_cuda_mesh_finalize first)");
  } else if (!comm && !unique_id) {
    failed = braze_cu_fail("braze_cuda_mesh_init: the communicator is NULL");
  } else if (!comm && (rank < 0 || rank >= m->num_devices)) {
    failed = braze_cu_fail("braze_cuda_mesh_init_rank: rank %d is not in [0, %d)", rank, m->num_devices);
  } else {
    ncclComm_t world = (ncclComm_t)comm;
    if (!world) {
      ncclUniqueId id;
      memcpy(&id, unique_id, sizeof id);
      failed = braze_nccl_check(braze_nccl.CommInitRank(&world, m->num_devices, id, rank), "ncclCommInitRank");
      if (failed)
        world = NULL;
    }
    failed = failed || braze_cu_rank_world(m, &braze_mesh_state.ranks[0], world, comm == NULL) ||
             braze_cu_mesh_split(m, &braze_mesh_state.ranks[0]);
    if (failed)
      braze_cu_mesh_release();
    else
      __atomic_store_n(&braze_mesh_state.ready, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&braze_mesh_state.lock);
  return failed;
}

/* Checks braze_cuda_mesh_init_all's devices (NULL: 0..n-1) into devs[]. */
static int braze_cu_mesh_devices(const BrazeCuMesh *m, const int *devices, int n, int *devs) {
  int count = 0;
  if (n != m->num_devices)
    return braze_cu_fail("braze_cuda_mesh_init_all: %d devices given; the library was partitioned for %d", n,
                         m->num_devices);
  if (n > BRAZE_CU_MAX_CONTEXTS)
    return braze_cu_fail("braze_cuda_mesh_init_all: at most %d devices in one process", BRAZE_CU_MAX_CONTEXTS);
  if (braze_cu_check(braze_cu.DeviceGetCount(&count), "cuDeviceGetCount"))
    return 1;
  for (int r = 0; r < n; ++r) {
    devs[r] = devices ? devices[r] : r;
    if (devs[r] < 0 || devs[r] >= count)
      return braze_cu_fail("braze_cuda_mesh_init_all: device %d (rank %d) is not in [0, %d)", devs[r], r, count);
    for (int q = 0; q < r; ++q)
      if (devs[q] == devs[r])
        return braze_cu_fail("braze_cuda_mesh_init_all: device %d is given twice (ranks %d and %d); NCCL needs one "
                             "device per rank",
                             devs[r], q, r);
  }
  return 0;
}

/* The slots of the devices' primary contexts (made when new). */
static int braze_cu_mesh_slots(const int *devs, int n, int *slots) {
  for (int r = 0; r < n; ++r) {
    CUcontext ctx;
    if (braze_cu_primary_context(devs[r], &ctx))
      return 1;
    pthread_mutex_lock(&braze_cu_slots.lock);
    slots[r] = braze_cu_slot_of(ctx);
    pthread_mutex_unlock(&braze_cu_slots.lock);
    if (!slots[r])
      return braze_cu_fail("braze_cuda_mesh_init_all: more than %d CUDA contexts over the library's lifetime",
                           BRAZE_CU_MAX_CONTEXTS);
  }
  return 0;
}

/* Split group g for every rank, each in its device's context, in one NCCL group. */
static int braze_cu_mesh_split_all(const BrazeCuMesh *m, int g, const int *slots, int n) {
  int color[BRAZE_CU_MAX_CONTEXTS], key[BRAZE_CU_MAX_CONTEXTS], split = 0;
  for (int r = 0; r < n; ++r)
    split |= braze_cu_group_needs_split(m, &braze_mesh_state.ranks[slots[r]], g, &color[r], &key[r]);
  if (!split || braze_nccl_check(braze_nccl.GroupStart(), "ncclGroupStart"))
    return split;
  int failed = 0;
  for (int r = 0; r < n && !failed; ++r) {
    BrazeCuRank *rank = &braze_mesh_state.ranks[slots[r]];
    failed = braze_cu_check(braze_cu.CtxSetCurrent(braze_cu_slots.context[slots[r]]), "cuCtxSetCurrent") ||
             braze_nccl_check(braze_nccl.CommSplit(rank->world, color[r], key[r], &rank->comms[g], NULL),
                              "ncclCommSplit");
    rank->owns[g] = !failed;
  }
  int ended = braze_nccl_check(braze_nccl.GroupEnd(), "ncclGroupEnd"); /* always closes the group */
  return failed || ended;
}

/* The world communicators of all ranks (ncclCommInitAll) and their groups. */
static int braze_cu_mesh_create_all(const BrazeCuMesh *m, const int *devs, const int *slots, int n) {
  ncclComm_t worlds[BRAZE_CU_MAX_CONTEXTS] = {0};
  if (braze_nccl_check(braze_nccl.CommInitAll(worlds, n, devs), "ncclCommInitAll"))
    return 1;
  int failed = 0;
  for (int r = 0; r < n; ++r) /* each taken (and released on failure) */
    failed = braze_cu_rank_world(m, &braze_mesh_state.ranks[slots[r]], worlds[r], 1) || failed;
  for (int g = 0; g < m->num_groups && !failed; ++g)
    failed = braze_cu_mesh_split_all(m, g, slots, n);
  return failed;
}

/* braze_cuda_mesh_init_all: rank r on device devs[r], all in this process. */
static int braze_cu_mesh_init_all(const BrazeCuMesh *m, const int *devices, int n) {
  braze_cu_message[0] = '\0';
  if (braze_cu_driver() || braze_nccl_ready())
    return 1;
  int devs[BRAZE_CU_MAX_CONTEXTS], slots[BRAZE_CU_MAX_CONTEXTS];
  CUcontext saved = NULL;
  pthread_mutex_lock(&braze_mesh_state.lock);
  int failed = 0;
  if (braze_mesh_state.ready)
    failed = braze_cu_fail("the mesh is already initialized (braze_cuda_mesh_finalize first)");
  else
    failed = braze_cu_mesh_devices(m, devices, n, devs) ||
             braze_cu_check(braze_cu.CtxGetCurrent(&saved), "cuCtxGetCurrent") || braze_cu_mesh_slots(devs, n, slots);
  if (!failed) {
    failed = braze_cu_mesh_create_all(m, devs, slots, n);
    braze_cu.CtxSetCurrent(saved); /* NCCL and the splits change the thread's device */
    if (failed) {
      braze_cu_mesh_release();
    } else {
      pthread_mutex_lock(&braze_cu_slots.lock);
      for (int r = 0; r < n; ++r)
        braze_cu_slots.in_mesh[slots[r]] = 1;
      __atomic_store_n(&braze_cu_slots.active, 1, __ATOMIC_RELEASE);
      pthread_mutex_unlock(&braze_cu_slots.lock);
      __atomic_store_n(&braze_mesh_state.ready, 1, __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&braze_mesh_state.lock);
  return failed;
}

static int braze_cu_mesh_finalize(void) {
  pthread_mutex_lock(&braze_mesh_state.lock);
  if (braze_mesh_state.ready)
    braze_cu_mesh_release();
  __atomic_store_n(&braze_mesh_state.ready, 0, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&braze_mesh_state.lock);
  return 0;
}

static int braze_cu_mesh_unique_id(void *out) {
  braze_cu_message[0] = '\0';
  if (!out)
    return braze_cu_fail("braze_cuda_mesh_unique_id: NULL buffer");
  ncclUniqueId id;
  if (braze_nccl_ready() || braze_nccl_check(braze_nccl.GetUniqueId(&id), "ncclGetUniqueId"))
    return 1;
  memcpy(out, &id, sizeof id);
  return 0;
}

/* Entries of a partitioned library run only once the mesh is there. */
static int braze_cu_mesh_check(const char *entry) {
  if (__atomic_load_n(&braze_mesh_state.ready, __ATOMIC_ACQUIRE))
    return 0;
  return braze_cu_fail("%s: the library is partitioned over a mesh: call braze_cuda_mesh_init or "
                       "braze_cuda_mesh_init_rank first, or braze_cuda_mesh_init_all where one process drives all "
                       "its GPUs",
                       entry);
}

/* The mesh rank of the calling thread: slot 0's, or that of the thread's current
 * context under a one-process mesh; -1 before init or on no device of the mesh. */
static int braze_cu_mesh_rank(void) {
  if (!__atomic_load_n(&braze_mesh_state.ready, __ATOMIC_ACQUIRE))
    return -1;
  int saved = braze_cu_slot;
  int rank = braze_cu_enter() ? -1 : braze_cu_rank()->rank;
  braze_cu_slot = saved;
  return rank;
}

/* ---- the collectives ---- */

typedef enum {
  BRAZE_CU_ALL_REDUCE,
  BRAZE_CU_ALL_GATHER,
  BRAZE_CU_REDUCE_SCATTER,
  BRAZE_CU_ALL_TO_ALL,
  BRAZE_CU_ALL_SLICE
} BrazeCuCollectiveKind;

/* One collective of an entry, its geometry in bytes (row-major, the split along one
 * dim as `outer` rows of `row` bytes per position):
 *   all_gather:      x is outer x row; y is outer x (G * row)
 *   reduce_scatter:  x is outer x (G * row); y is outer x row   (all_slice likewise)
 *   all_to_all:      x is outer x (G * row) along split_dim; each piece (x / G) is
 *                    outer2 x row2 along concat_dim; y is outer2 x (G * row2)
 * `count` is x's elements (all_reduce, the gathers' send count) or y's (reduce_scatter). */
typedef struct {
  BrazeCuCollectiveKind kind;
  int group;
  ncclDataType_t dtype;
  ncclRedOp_t op;
  size_t count;
  size_t x_bytes, y_bytes;
  size_t outer, row, outer2, row2;
} BrazeCuCollective;

static int braze_cu_copy2d(CUdeviceptr dst, size_t dst_pitch, CUdeviceptr src, size_t src_pitch, size_t width,
                           size_t height, CUstream stream) {
  if (height == 1)
    return braze_cu_copy(dst, src, width, stream);
  CUDA_MEMCPY2D c = {0};
  c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c.srcDevice = src;
  c.srcPitch = src_pitch;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = dst;
  c.dstPitch = dst_pitch;
  c.WidthInBytes = width;
  c.Height = height;
  return braze_cu_check(braze_cu.Memcpy2DAsync(&c, stream), "cuMemcpy2DAsync");
}

/* Block q (q < G) of every row of a outer x (G * row) matrix, packed: G blocks of outer x row. */
static int braze_cu_pack(CUdeviceptr dst, CUdeviceptr src, int G, size_t outer, size_t row, CUstream s) {
  for (int q = 0; q < G; ++q)
    if (braze_cu_copy2d(dst + (size_t)q * outer * row, row, src + (size_t)q * row, (size_t)G * row, row, outer, s))
      return 1;
  return 0;
}

/* The inverse: G packed blocks of outer x row into the columns of outer x (G * row). */
static int braze_cu_unpack(CUdeviceptr dst, CUdeviceptr src, int G, size_t outer, size_t row, CUstream s) {
  for (int q = 0; q < G; ++q)
    if (braze_cu_copy2d(dst + (size_t)q * row, (size_t)G * row, src + (size_t)q * outer * row, row, row, outer, s))
      return 1;
  return 0;
}

static int braze_cu_all_to_all(const BrazeCuCollective *c, ncclComm_t comm, int G, CUdeviceptr x, CUdeviceptr y,
                               CUdeviceptr scratch, CUstream s) {
  size_t piece = c->x_bytes / (size_t)G;
  CUdeviceptr send = scratch, recv = scratch + c->x_bytes;
  if (braze_cu_pack(send, x, G, c->outer, c->row, s) || braze_nccl_check(braze_nccl.GroupStart(), "ncclGroupStart"))
    return 1;
  int failed = 0;
  for (int q = 0; q < G && !failed; ++q)
    failed = braze_nccl_check(braze_nccl.Send((void *)(uintptr_t)(send + (size_t)q * piece), piece, ncclInt8, q, comm,
                                              (cudaStream_t)s), "ncclSend") ||
             braze_nccl_check(braze_nccl.Recv((void *)(uintptr_t)(recv + (size_t)q * piece), piece, ncclInt8, q, comm,
                                              (cudaStream_t)s), "ncclRecv");
  int ended = braze_nccl_check(braze_nccl.GroupEnd(), "ncclGroupEnd"); /* always closes the group */
  return failed || ended || braze_cu_unpack(y, recv, G, c->outer2, c->row2, s);
}

/* y = the collective of x over the group, on the entry's stream. */
static int braze_cu_collective(const BrazeCuCollective *c, CUdeviceptr x, CUdeviceptr y, CUdeviceptr scratch,
                               CUstream s) {
  const BrazeCuRank *r = braze_cu_rank();
  ncclComm_t comm = r->comms[c->group];
  int G = r->size[c->group], p = r->position[c->group];
  void *xp = (void *)(uintptr_t)x, *yp = (void *)(uintptr_t)y;
  cudaStream_t stream = (cudaStream_t)s;
  if (G == 1) /* every collective over one rank is the identity */
    return x == y || c->y_bytes == 0 ? 0 : braze_cu_copy(y, x, c->y_bytes, s);
  switch (c->kind) {
  case BRAZE_CU_ALL_REDUCE:
    return braze_nccl_check(braze_nccl.AllReduce(xp, yp, c->count, c->dtype, c->op, comm, stream), "ncclAllReduce");
  case BRAZE_CU_ALL_GATHER:
    if (c->outer == 1)
      return braze_nccl_check(braze_nccl.AllGather(xp, yp, c->x_bytes, ncclInt8, comm, stream), "ncclAllGather");
    return braze_nccl_check(braze_nccl.AllGather(xp, (void *)(uintptr_t)scratch, c->x_bytes, ncclInt8, comm, stream),
                            "ncclAllGather") ||
           braze_cu_unpack(y, scratch, G, c->outer, c->row, s);
  case BRAZE_CU_REDUCE_SCATTER:
    if (c->outer == 1)
      return braze_nccl_check(braze_nccl.ReduceScatter(xp, yp, c->count, c->dtype, c->op, comm, stream),
                              "ncclReduceScatter");
    return braze_cu_pack(scratch, x, G, c->outer, c->row, s) ||
           braze_nccl_check(braze_nccl.ReduceScatter((void *)(uintptr_t)scratch, yp, c->count, c->dtype, c->op, comm,
                                                     stream),
                            "ncclReduceScatter");
  case BRAZE_CU_ALL_TO_ALL:
    return braze_cu_all_to_all(c, comm, G, x, y, scratch, s);
  case BRAZE_CU_ALL_SLICE:
    return braze_cu_copy2d(y, c->row, x + (size_t)p * c->row, (size_t)G * c->row, c->row, c->outer, s);
  }
  return braze_cu_fail("unknown collective kind %d", (int)c->kind);
}

/* ---- overlap: collectives on a second stream ----
 *
 * An entry whose collective is followed by work that does not read its result runs the
 * collective on a communication stream: an event recorded on the entry's stream after
 * the collective's producers, which the communication stream waits for; the collective;
 * an event recorded after it, which the entry's stream waits for before the first step
 * that reads the result (and at the entry's end). The entry conversion keeps every
 * buffer the collective touches (its operand, result and staging) from being reused
 * until then (targets/common/entry-graph.c). One communication stream and one pair of
 * events per async collective for each stream an entry is called on (in each context,
 * where one process drives several GPUs), made at the first call on it and kept; the
 * communication stream has the highest priority, so NCCL's blocks are scheduled as soon
 * as the GEMMs' blocks leave room. BRAZE_CUDA_OVERLAP=0 in the environment (read at
 * each call) runs them on the entry's stream instead, to measure what the overlap
 * gains. */
typedef struct {
  int slot; /* the context's (cuda-runtime.c): streams of one context only */
  CUstream main, comm;
  CUevent *ready, *done;
  int serial; /* this call: BRAZE_CUDA_OVERLAP=0 */
} BrazeCuOverlapSlot;

typedef struct {
  pthread_mutex_t lock;
  int num_async; /* the entry's async collectives */
  BrazeCuOverlapSlot *slots;
  int num_slots, cap_slots;
} BrazeCuOverlap;

static int braze_cu_overlap_make(BrazeCuOverlap *o, CUstream main, BrazeCuOverlapSlot *slot) {
  int least = 0, greatest = 0;
  *slot = (BrazeCuOverlapSlot){.slot = braze_cu_slot, .main = main};
  slot->ready = calloc((size_t)o->num_async, sizeof *slot->ready);
  slot->done = calloc((size_t)o->num_async, sizeof *slot->done);
  if (!slot->ready || !slot->done)
    return braze_cu_fail("out of host memory");
  if (braze_cu_check(braze_cu.CtxGetStreamPriorityRange(&least, &greatest), "cuCtxGetStreamPriorityRange") ||
      braze_cu_check(braze_cu.StreamCreateWithPriority(&slot->comm, CU_STREAM_NON_BLOCKING, greatest),
                     "cuStreamCreateWithPriority"))
    return 1;
  for (int i = 0; i < o->num_async; ++i)
    if (braze_cu_check(braze_cu.EventCreate(&slot->ready[i], CU_EVENT_DISABLE_TIMING), "cuEventCreate") ||
        braze_cu_check(braze_cu.EventCreate(&slot->done[i], CU_EVENT_DISABLE_TIMING), "cuEventCreate"))
      return 1;
  return 0;
}

/* The communication stream and events for calls on `main` (made at the first). */
static int braze_cu_overlap_slot(BrazeCuOverlap *o, CUstream main, BrazeCuOverlapSlot **out) {
  pthread_mutex_lock(&o->lock);
  int i = 0, failed = 0;
  while (i < o->num_slots && (o->slots[i].main != main || o->slots[i].slot != braze_cu_slot))
    ++i;
  if (i == o->num_slots) {
    if (o->num_slots == o->cap_slots) {
      int cap = o->cap_slots ? 2 * o->cap_slots : 4;
      BrazeCuOverlapSlot *grown = realloc(o->slots, (size_t)cap * sizeof *grown);
      failed = grown ? 0 : braze_cu_fail("out of host memory");
      if (grown) {
        o->slots = grown;
        o->cap_slots = cap;
      }
    }
    /* a slot that failed half way is kept out of the table (its resources leak) */
    if (!failed && !(failed = braze_cu_overlap_make(o, main, &o->slots[i])))
      o->num_slots++;
  }
  if (!failed) {
    const char *overlap = getenv("BRAZE_CUDA_OVERLAP");
    *out = &o->slots[i];
    (*out)->serial = overlap && strcmp(overlap, "0") == 0;
  }
  pthread_mutex_unlock(&o->lock);
  return failed;
}

/* Collective i of the entry on the communication stream, after the entry's work so far. */
static int braze_cu_collective_async(BrazeCuOverlapSlot *ov, int i, const BrazeCuCollective *c, CUdeviceptr x,
                                     CUdeviceptr y, CUdeviceptr scratch, CUstream s) {
  if (ov->serial)
    return braze_cu_collective(c, x, y, scratch, s);
  return braze_cu_check(braze_cu.EventRecord(ov->ready[i], s), "cuEventRecord") ||
         braze_cu_check(braze_cu.StreamWaitEvent(ov->comm, ov->ready[i], 0), "cuStreamWaitEvent") ||
         braze_cu_collective(c, x, y, scratch, ov->comm) ||
         braze_cu_check(braze_cu.EventRecord(ov->done[i], ov->comm), "cuEventRecord");
}

/* The entry's stream waits for collective i. */
static int braze_cu_join(BrazeCuOverlapSlot *ov, int i, CUstream s) {
  if (ov->serial)
    return 0;
  return braze_cu_check(braze_cu.StreamWaitEvent(s, ov->done[i], 0), "cuStreamWaitEvent");
}
