/* The collectives' reference semantics (docs/dialect-graph.md "Collectives"): given
 * the operand of every rank of the mesh, compute the result of every rank. The group
 * of rank r is the ranks whose mesh coordinates equal r's off the op's mesh_axes; a
 * member's position in the group is its coordinates on mesh_axes, row-major in the
 * listed order. Results are exact (sums in double); the driver rounds them. */
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "dialects/graph/mesh.h"
#include "reference/internal.h"

typedef struct {
  int64_t size;                            /* ranks in the group */
  int64_t position;                        /* this rank's place in it */
  int64_t members[BRAZE_MESH_MAX_DEVICES]; /* the ranks, by position */
} Group;

static int64_t linearize(const BrazeMesh *mesh, const int64_t *coords) {
  int64_t r = 0;
  for (int a = 0; a < mesh->num_axes; ++a)
    r = r * mesh->sizes[a] + coords[a];
  return r;
}

static void group_of(const BrazeMesh *mesh, const int *axes, int num_axes, int64_t rank, Group *g) {
  int64_t coords[BRAZE_MESH_MAX_AXES], member[BRAZE_MESH_MAX_AXES];
  braze_mesh_coords(mesh, rank, coords);
  g->size = 1;
  g->position = 0;
  for (int i = 0; i < num_axes; ++i) {
    g->size *= mesh->sizes[axes[i]];
    g->position = g->position * mesh->sizes[axes[i]] + coords[axes[i]];
  }
  for (int64_t p = 0; p < g->size; ++p) {
    memcpy(member, coords, sizeof member);
    int64_t rest = p; /* p's coordinates on the group's axes, row-major in listed order */
    for (int i = num_axes; i-- > 0;) {
      member[axes[i]] = rest % mesh->sizes[axes[i]];
      rest /= mesh->sizes[axes[i]];
    }
    g->members[p] = linearize(mesh, member);
  }
}

/* Copy the block of `shape` from src (starting at src_start along src_dim) into dst
 * (starting at dst_start along dst_dim); every other dim starts at 0 in both. */
static void place(const BrazeHostTensor *src, int src_dim, int64_t src_start, BrazeHostTensor *dst, int dst_dim,
                  int64_t dst_start, const int64_t *shape) {
  int rank = src->rank;
  int64_t src_strides[BRAZE_TENSOR_MAX_RANK], dst_strides[BRAZE_TENSOR_MAX_RANK], idx[BRAZE_TENSOR_MAX_RANK] = {0};
  ref_strides(rank, src->shape, src_strides);
  ref_strides(rank, dst->shape, dst_strides);
  for (int d = 0; d < rank; ++d)
    if (shape[d] == 0)
      return;
  do {
    int64_t s = ref_offset(idx, src_strides, rank) + src_start * src_strides[src_dim];
    int64_t t = ref_offset(idx, dst_strides, rank) + dst_start * dst_strides[dst_dim];
    dst->data[t] = src->data[s];
  } while (ref_index_next(idx, rank, shape));
}

static double combine(char kind, double a, double b) {
  return kind == 's' ? a + b : kind == 'x' ? ref_max(a, b) : ref_min(a, b);
}

/* kind: 's' sum, 'x' max, 'n' min, from the op's reduction attribute. */
static bool reduction_kind(MlirOperation op, char *kind) {
  const char *s = NULL;
  size_t n = 0;
  if (!braze_attr_str(op, "reduction", &s, &n) || n != 3)
    return ref_fail(op, "expected reduction = \"sum\", \"max\" or \"min\"");
  *kind = !memcmp(s, "sum", 3) ? 's' : !memcmp(s, "max", 3) ? 'x' : !memcmp(s, "min", 3) ? 'n' : 0;
  return *kind ? true : ref_fail(op, "expected reduction = \"sum\", \"max\" or \"min\"");
}

/* Elementwise reduction of the group's operands into `out` (shaped like them). */
static void reduce_group(const Group *g, const BrazeHostTensor *const *args, char kind, BrazeHostTensor *out) {
  int64_t n = braze_tensor_numel(out);
  const BrazeHostTensor *first = args[g->members[0]];
  memcpy(out->data, first->data, (size_t)n * sizeof *out->data);
  for (int64_t p = 1; p < g->size; ++p)
    for (int64_t i = 0; i < n; ++i)
      out->data[i] = combine(kind, out->data[i], args[g->members[p]]->data[i]);
}

static bool eval_rank(MlirOperation op, const char *m, const Group *g, const BrazeHostTensor *const *args,
                      int64_t rank, BrazeHostTensor *res) {
  const BrazeHostTensor *x = args[rank];
  int64_t chunk[BRAZE_TENSOR_MAX_RANK];
  memcpy(chunk, x->shape, sizeof chunk);
  int64_t dim = 0, other = 0;
  char kind = 0;
  if (!strcmp(m, "all_reduce")) {
    if (!reduction_kind(op, &kind))
      return false;
    reduce_group(g, args, kind, res);
    return true;
  }
  if (!strcmp(m, "all_to_all")) {
    braze_attr_i64(op, "split_dim", &dim);
    braze_attr_i64(op, "concat_dim", &other);
    chunk[dim] = x->shape[dim] / g->size;
    for (int64_t p = 0; p < g->size; ++p) /* member p's chunk for me, at position p */
      place(args[g->members[p]], (int)dim, g->position * chunk[dim], res, (int)other, p * x->shape[other], chunk);
    return true;
  }
  braze_attr_i64(op, "dim", &dim);
  if (!strcmp(m, "all_gather")) {
    for (int64_t p = 0; p < g->size; ++p)
      place(args[g->members[p]], (int)dim, 0, res, (int)dim, p * x->shape[dim], chunk);
    return true;
  }
  chunk[dim] = x->shape[dim] / g->size;
  if (!strcmp(m, "all_slice")) {
    place(x, (int)dim, g->position * chunk[dim], res, (int)dim, 0, chunk);
    return true;
  }
  /* reduce_scatter: reduce the group's operands, keep this rank's chunk. */
  BrazeHostTensor full;
  if (!reduction_kind(op, &kind) || !braze_tensor_init(&full, x->dtype, x->rank, x->shape))
    return kind ? ref_fail(op, "out of memory") : false;
  reduce_group(g, args, kind, &full);
  place(&full, (int)dim, g->position * chunk[dim], res, (int)dim, 0, chunk);
  braze_tensor_free(&full);
  return true;
}

bool ref_collective(MlirOperation op, const BrazeMesh *mesh, const BrazeHostTensor *const *args,
                    BrazeHostTensor *results) {
  int axes[BRAZE_MESH_MAX_AXES], num_axes = 0;
  int64_t group_size = 1;
  BrazeStr why = {0};
  if (!braze_collective_axes(op, mesh, axes, &num_axes, &group_size, &why)) {
    ref_fail(op, "%s", braze_str_cstr(&why));
    braze_str_free(&why);
    return false;
  }
  const char *m = braze_graph_op_mnemonic(op);
  int64_t n_ranks = braze_mesh_devices(mesh);
  for (int64_t r = 0; r < n_ranks; ++r) {
    Group g;
    group_of(mesh, axes, num_axes, r, &g);
    if (!eval_rank(op, m, &g, args, r, &results[r]))
      return false;
  }
  return true;
}
