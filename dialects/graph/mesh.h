/* Meshes and shardings (docs/sharding.md, decision 0015): the `braze.mesh` attribute of
 * a func.func, the `braze.sharding` attribute of its arguments, results and annotated
 * ops, the `braze.partial_*` state, and the groups of the collective ops.
 *
 *   braze.mesh = [["dp", 2], ["tp", 4]]      ordered (name, size) pairs; ranks are the
 *                                            mesh points in row-major order
 *   braze.sharding = [[], ["tp"]]            per dim, the mesh axes it is split over
 *   braze.partial_sum = ["tp"]               (ops only) a partial value over these axes
 *
 * This first version splits a dim over at most one axis (the attribute form allows a
 * list; the parser refuses more than one, naming the limit). */
#ifndef BRAZE_DIALECTS_GRAPH_MESH_H
#define BRAZE_DIALECTS_GRAPH_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/graph.h"
#include "mlir-c/IR.h"
#include "support/strbuf.h"

enum { BRAZE_MESH_MAX_AXES = 4, BRAZE_MESH_NAME_MAX = 32 };
/* The most ranks a mesh may have: the simulation holds every rank's tensors at once. */
#define BRAZE_MESH_MAX_DEVICES 64

typedef struct {
  int num_axes;
  char names[BRAZE_MESH_MAX_AXES][BRAZE_MESH_NAME_MAX];
  int64_t sizes[BRAZE_MESH_MAX_AXES];
} BrazeMesh;

typedef enum { BRAZE_PARTIAL_NONE = 0, BRAZE_PARTIAL_SUM, BRAZE_PARTIAL_MAX, BRAZE_PARTIAL_MIN } BrazePartialKind;

/* A tensor's sharding on a mesh: split[d] is the mesh axis dim d is split over, or -1
 * (replicated along d); partial_axes a bit per mesh axis over which the value is
 * partial (of kind `partial`). */
typedef struct {
  int rank;
  int8_t split[BRAZE_MAX_RANK];
  uint8_t partial_axes;
  BrazePartialKind partial;
} BrazeSharding;

/* ---- meshes ---- */
/* The func.func's braze.mesh. *present false (and true returned) when it has none;
 * false with *why on a malformed one. */
bool braze_mesh_from_func(MlirOperation func, BrazeMesh *out, bool *present, BrazeStr *why);
/* "tp:2" or "dp:2,tp:4" (pass options and --mesh flags). */
bool braze_mesh_parse_text(const char *text, BrazeMesh *out, BrazeStr *why);
MlirAttribute braze_mesh_to_attr(MlirContext ctx, const BrazeMesh *mesh);
/* The axis index of `name`, or -1. */
int braze_mesh_axis(const BrazeMesh *mesh, const char *name, size_t len);
int64_t braze_mesh_devices(const BrazeMesh *mesh);
/* The coordinates of linear rank `rank` (row-major over the axes). */
void braze_mesh_coords(const BrazeMesh *mesh, int64_t rank, int64_t *coords);
/* "tp=2" or "dp=2 x tp=4", for messages. */
void braze_mesh_describe(const BrazeMesh *mesh, BrazeStr *out);
/* The func.func enclosing `op` (or op itself), null when none. */
MlirOperation braze_enclosing_func(MlirOperation op);

/* ---- shardings ---- */
void braze_sharding_replicated(BrazeSharding *s, int rank);
bool braze_sharding_equal(const BrazeSharding *a, const BrazeSharding *b);
bool braze_sharding_is_replicated(const BrazeSharding *s); /* no split, not partial */
/* Parse a braze.sharding attribute for a tensor of `rank` dims on `mesh`. */
bool braze_sharding_from_attr(MlirAttribute attr, const BrazeMesh *mesh, int rank, BrazeSharding *out, BrazeStr *why);
/* The braze.sharding attribute (split axes only) of `s`. */
MlirAttribute braze_sharding_to_attr(MlirContext ctx, const BrazeMesh *mesh, const BrazeSharding *s);
/* "[_, tp]" plus " partial(sum: tp)" when partial, for remarks and reports. */
void braze_sharding_describe(const BrazeMesh *mesh, const BrazeSharding *s, BrazeStr *out);
/* "partial_sum" / "partial_max" / "partial_min" (the attribute is braze.<name>). */
const char *braze_partial_name(BrazePartialKind kind);
/* The local shape of a global one: each split dim divided by its axis size; false
 * when a split dim does not divide evenly (*bad_dim says which). */
bool braze_sharding_local_shape(const BrazeMesh *mesh, const BrazeSharding *s, const int64_t *global, int64_t *local,
                                int *bad_dim);

/* ---- collective groups ---- */
/* A collective op's `mesh_axes` on `mesh`: the axis indices in the listed order, their
 * count and the group size (the product of their sizes). False with *why when absent,
 * empty, repeated or naming an axis the mesh does not have. */
bool braze_collective_axes(MlirOperation op, const BrazeMesh *mesh, int *axes, int *num_axes, int64_t *group_size,
                           BrazeStr *why);
/* An ArrayAttr of the names of the axes in `mask` (for building collectives). */
MlirAttribute braze_mesh_axes_attr(MlirContext ctx, const BrazeMesh *mesh, uint8_t mask);

#endif
