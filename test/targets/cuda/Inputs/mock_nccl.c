/* A stand-in libnccl.so.2 for testing the mesh runtime (runtime/cuda/nccl-mesh.c) on
 * machines without GPUs, beside the stand-in driver (mock_cuda.c, whose "device"
 * memory is host memory). It is one rank of a mesh whose other ranks hold the same
 * data as this one (every input replicated), so each collective is computed for real:
 * all_reduce sums n copies (max/min: the value), all_gather concatenates n copies,
 * reduce_scatter keeps chunk `rank` of n copies summed, and a receive from any peer
 * gets what this rank sends to itself (what that peer sends here). Every call is logged
 * as "mock-nccl: ...", buffers named like the driver's (bufN+OFFSET).
 *
 * ncclCommInitAll makes the communicators of ranks 0..n-1 in one process (one per
 * device, the stand-in driver's MOCK_CUDA_DEVICES); their splits, grouped by one thread
 * (ncclGroupStart/End, as NCCL requires), get the size of their color among the
 * group's splits. Then each rank's thread computes its own rank's values as above, and
 * log lines name the calling thread's device ("mock-nccl[d1]: ..."). Group state is per
 * thread; the rest runs under one lock.
 *
 * Environment: MOCK_NCCL_FAIL=NAME (that function, e.g. ncclAllReduce, returns
 * ncclInternalError). The rank comes from ncclCommInitRank or ncclCommInitAll. */
#include <dlfcn.h>
#include <nccl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ncclComm {
  int id, size, rank;
  int clique; /* the ncclCommInitAll call that made it or its parent; 0: none */
};

static int next_comm = 1, next_clique = 1;
static pthread_mutex_t comm_lock = PTHREAD_MUTEX_INITIALIZER;

/* The stand-in driver's helpers, found once (threads call at once). */
static const char *(*driver_tag)(void);
static void (*driver_describe)(unsigned long long, char *, size_t);
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;

static void find_driver(void) {
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (cuda) {
    *(void **)&driver_tag = dlsym(cuda, "mock_cuda_tag");
    *(void **)&driver_describe = dlsym(cuda, "mock_cuda_describe");
  }
}

/* The stand-in driver's name of the calling thread ("" with one device, "[dN]"). */
static const char *tag(void) {
  pthread_once(&driver_once, find_driver);
  return driver_tag ? driver_tag() : "";
}

/* A log line: "mock-nccl: ...", or "mock-nccl[dN]: ..." with several devices. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  printf("mock-nccl%s: %s", tag(), line);
}

static ncclComm_t new_comm(int size, int rank, int clique) {
  ncclComm_t c = calloc(1, sizeof *c);
  pthread_mutex_lock(&comm_lock);
  *c = (struct ncclComm){next_comm++, size, rank, clique};
  pthread_mutex_unlock(&comm_lock);
  return c;
}

static int failing(const char *name) {
  const char *f = getenv("MOCK_NCCL_FAIL");
  if (f && strcmp(f, name) == 0) {
    say("%s fails (MOCK_NCCL_FAIL)\n", name);
    return 1;
  }
  return 0;
}

/* The driver's name of an address ("bufN+OFF"), through mock_cuda.c's helper. */
static void describe(const void *p, char *out, size_t n) {
  pthread_once(&driver_once, find_driver);
  if (driver_describe)
    driver_describe((unsigned long long)(uintptr_t)p, out, n);
  else
    snprintf(out, n, "%p", p);
}

static size_t type_size(ncclDataType_t t) {
  switch (t) {
  case ncclInt8:
  case ncclUint8:
    return 1;
  case ncclFloat16:
  case ncclBfloat16:
    return 2;
  case ncclInt32:
  case ncclUint32:
  case ncclFloat32:
    return 4;
  default:
    return 8;
  }
}

/* x * n for a sum of n equal values (max/min: x), element i of type t. */
static void scale(void *dst, const void *src, size_t count, ncclDataType_t t, ncclRedOp_t op, int n) {
  memmove(dst, src, count * type_size(t));
  if (op != ncclSum)
    return;
  for (size_t i = 0; i < count; ++i) {
    if (t == ncclFloat32) {
      ((float *)dst)[i] *= (float)n;
    } else if (t == ncclInt32) {
      ((int32_t *)dst)[i] *= n;
    } else if (t == ncclInt64) {
      ((int64_t *)dst)[i] *= n;
    } else if (t == ncclBfloat16) {
      uint32_t bits = (uint32_t)((uint16_t *)dst)[i] << 16;
      float f;
      memcpy(&f, &bits, 4);
      f *= (float)n;
      memcpy(&bits, &f, 4);
      ((uint16_t *)dst)[i] = (uint16_t)((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
    }
  }
}

const char *ncclGetErrorString(ncclResult_t r) { return r == ncclInternalError ? "mock: internal error" : "mock error"; }

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  if (failing("ncclGetUniqueId"))
    return ncclInternalError;
  memset(id, 0, sizeof *id);
  strcpy(id->internal, "mock-id");
  say("unique id\n");
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int n, ncclUniqueId id, int rank) {
  if (failing("ncclCommInitRank"))
    return ncclInternalError;
  *comm = new_comm(n, rank, 0);
  say("init comm %d: rank %d of %d (id %s)\n", (*comm)->id, rank, n, id.internal);
  return ncclSuccess;
}

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int n, const int *devices) {
  if (failing("ncclCommInitAll"))
    return ncclInternalError;
  int clique = next_clique++;
  for (int r = 0; r < n; ++r) {
    comms[r] = new_comm(n, r, clique);
    say("init all: comm %d: rank %d of %d on device %d\n", comms[r]->id, r, n, devices ? devices[r] : r);
  }
  return ncclSuccess;
}

/* A group's state, per thread (one thread issues a whole group). */
enum { MAX_P2P = 64 };
static _Thread_local struct {
  const void *buf;
  void *rbuf;
  size_t bytes;
  int peer;
} sends[MAX_P2P], recvs[MAX_P2P];
static _Thread_local int num_sends, num_recvs, in_group;
static _Thread_local struct {
  ncclComm_t child, parent;
  int color;
} splits[MAX_P2P];
static _Thread_local int num_splits;

ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t *out, ncclConfig_t *config) {
  (void)config;
  if (failing("ncclCommSplit"))
    return ncclInternalError;
  *out = new_comm(comm->size, key, comm->clique);
  say("split comm %d from comm %d: color %d key %d%s\n", (*out)->id, comm->id, color, key, in_group ? " (grouped)" : "");
  if (in_group && num_splits < MAX_P2P)
    splits[num_splits++] = (typeof(splits[0])){*out, comm, color};
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  say("destroy comm %d\n", comm->id);
  free(comm);
  return ncclSuccess;
}

ncclResult_t ncclCommCount(const ncclComm_t comm, int *count) {
  *count = comm->size;
  return ncclSuccess;
}

ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank) {
  *rank = comm->rank;
  return ncclSuccess;
}

ncclResult_t ncclAllReduce(const void *x, void *y, size_t count, ncclDataType_t t, ncclRedOp_t op, ncclComm_t comm,
                           cudaStream_t stream) {
  char a[64], b[64];
  describe(x, a, sizeof a);
  describe(y, b, sizeof b);
  say("all_reduce %s -> %s count %zu type %d op %d comm %d stream %s\n", a, b, count, (int)t, (int)op,
         comm->id, stream ? "set" : "0");
  if (failing("ncclAllReduce"))
    return ncclInternalError;
  scale(y, x, count, t, op, comm->size);
  return ncclSuccess;
}

ncclResult_t ncclAllGather(const void *x, void *y, size_t count, ncclDataType_t t, ncclComm_t comm,
                           cudaStream_t stream) {
  char a[64], b[64];
  describe(x, a, sizeof a);
  describe(y, b, sizeof b);
  say("all_gather %s -> %s count %zu type %d comm %d stream %s\n", a, b, count, (int)t, comm->id,
         stream ? "set" : "0");
  if (failing("ncclAllGather"))
    return ncclInternalError;
  size_t bytes = count * type_size(t);
  for (int q = 0; q < comm->size; ++q)
    memmove((char *)y + (size_t)q * bytes, x, bytes);
  return ncclSuccess;
}

ncclResult_t ncclReduceScatter(const void *x, void *y, size_t count, ncclDataType_t t, ncclRedOp_t op,
                               ncclComm_t comm, cudaStream_t stream) {
  char a[64], b[64];
  describe(x, a, sizeof a);
  describe(y, b, sizeof b);
  say("reduce_scatter %s -> %s count %zu type %d op %d comm %d stream %s\n", a, b, count, (int)t,
         (int)op, comm->id, stream ? "set" : "0");
  if (failing("ncclReduceScatter"))
    return ncclInternalError;
  scale(y, (const char *)x + (size_t)comm->rank * count * type_size(t), count, t, op, comm->size);
  return ncclSuccess;
}

/* Point to point inside a group: the sends to this rank are what every peer sends here. */
ncclResult_t ncclGroupStart(void) {
  say("group start\n");
  in_group = 1;
  num_sends = num_recvs = num_splits = 0;
  return ncclSuccess;
}

ncclResult_t ncclSend(const void *x, size_t count, ncclDataType_t t, int peer, ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  char a[64];
  describe(x, a, sizeof a);
  say("send %s count %zu type %d to %d comm %d\n", a, count, (int)t, peer, comm->id);
  if (failing("ncclSend") || !in_group || num_sends == MAX_P2P)
    return ncclInternalError;
  sends[num_sends].buf = x;
  sends[num_sends].bytes = count * type_size(t);
  sends[num_sends++].peer = peer == comm->rank ? -1 : peer; /* -1: to itself */
  return ncclSuccess;
}

ncclResult_t ncclRecv(void *y, size_t count, ncclDataType_t t, int peer, ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  char a[64];
  describe(y, a, sizeof a);
  say("recv %s count %zu type %d from %d comm %d\n", a, count, (int)t, peer, comm->id);
  if (failing("ncclRecv") || !in_group || num_recvs == MAX_P2P)
    return ncclInternalError;
  recvs[num_recvs].rbuf = y;
  recvs[num_recvs++].bytes = count * type_size(t);
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void) {
  say("group end\n");
  in_group = 0;
  for (int i = 0; i < num_splits; ++i) { /* a split's size: the splits of its color from its clique */
    int size = 0;
    for (int j = 0; j < num_splits; ++j)
      size += splits[j].color == splits[i].color && splits[j].parent->clique == splits[i].parent->clique;
    splits[i].child->size = size;
    say("comm %d: rank %d of %d\n", splits[i].child->id, splits[i].child->rank, size);
  }
  const void *to_self = NULL;
  for (int i = 0; i < num_sends; ++i)
    if (sends[i].peer < 0)
      to_self = sends[i].buf;
  for (int i = 0; i < num_recvs && to_self; ++i)
    memmove(recvs[i].rbuf, to_self, recvs[i].bytes);
  return failing("ncclGroupEnd") ? ncclInternalError : ncclSuccess;
}
