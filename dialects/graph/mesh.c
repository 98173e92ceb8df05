/* Meshes, shardings and collective groups (dialects/graph/mesh.h). */
#include "dialects/graph/mesh.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

/* ---- meshes ---- */

static bool valid_name(const char *s, size_t n) {
  if (n == 0 || n >= BRAZE_MESH_NAME_MAX)
    return false;
  for (size_t i = 0; i < n; ++i)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
          (i > 0 && s[i] >= '0' && s[i] <= '9')))
      return false;
  return true;
}

/* Append one axis; false with *why on a bad name, size, duplicate or too many axes. */
static bool add_axis(BrazeMesh *m, const char *name, size_t len, int64_t size, BrazeStr *why) {
  if (!valid_name(name, len)) {
    braze_str_printf(why, "mesh axis name '%.*s' must be an identifier of 1 to %d characters", (int)len, name,
                     BRAZE_MESH_NAME_MAX - 1);
    return false;
  }
  if (braze_mesh_axis(m, name, len) >= 0) {
    braze_str_printf(why, "mesh axis '%.*s' appears twice", (int)len, name);
    return false;
  }
  if (m->num_axes == BRAZE_MESH_MAX_AXES) {
    braze_str_printf(why, "a mesh has at most %d axes", BRAZE_MESH_MAX_AXES);
    return false;
  }
  if (size < 1 || size > BRAZE_MESH_MAX_DEVICES || braze_mesh_devices(m) * size > BRAZE_MESH_MAX_DEVICES) {
    braze_str_printf(why, "mesh axis '%.*s' has size %lld; a mesh has 1 to %d devices in all", (int)len, name,
                     (long long)size, BRAZE_MESH_MAX_DEVICES);
    return false;
  }
  memcpy(m->names[m->num_axes], name, len);
  m->names[m->num_axes][len] = '\0';
  m->sizes[m->num_axes++] = size;
  return true;
}

static const char mesh_form[] = "expected braze.mesh = [[\"name\", size], ...], e.g. [[\"tp\", 2]]";

bool braze_mesh_from_func(MlirOperation func, BrazeMesh *out, bool *present, BrazeStr *why) {
  memset(out, 0, sizeof *out);
  MlirAttribute a = mlirOperationGetAttributeByName(func, braze_ref("braze.mesh"));
  *present = !mlirAttributeIsNull(a);
  if (!*present)
    return true;
  if (!mlirAttributeIsAArray(a) || mlirArrayAttrGetNumElements(a) == 0) {
    braze_str_puts(why, mesh_form);
    return false;
  }
  for (intptr_t i = 0, n = mlirArrayAttrGetNumElements(a); i < n; ++i) {
    MlirAttribute pair = mlirArrayAttrGetElement(a, i);
    if (!mlirAttributeIsAArray(pair) || mlirArrayAttrGetNumElements(pair) != 2 ||
        !mlirAttributeIsAString(mlirArrayAttrGetElement(pair, 0)) ||
        !mlirAttributeIsAInteger(mlirArrayAttrGetElement(pair, 1))) {
      braze_str_printf(why, "%s (entry %lld is not a [name, size] pair)", mesh_form, (long long)i);
      return false;
    }
    MlirStringRef name = mlirStringAttrGetValue(mlirArrayAttrGetElement(pair, 0));
    if (!add_axis(out, name.data, name.length, mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(pair, 1)), why))
      return false;
  }
  return true;
}

bool braze_mesh_parse_text(const char *text, BrazeMesh *out, BrazeStr *why) {
  memset(out, 0, sizeof *out);
  for (const char *p = text; p && *p;) {
    const char *colon = strchr(p, ':'), *comma = strchr(p, ',');
    if (!colon || (comma && comma < colon)) {
      braze_str_printf(why, "mesh '%s': expected NAME:SIZE[,NAME:SIZE...], e.g. tp:2", text);
      return false;
    }
    char *end = NULL;
    long long size = strtoll(colon + 1, &end, 10);
    if (end == colon + 1 || (*end && *end != ',')) {
      braze_str_printf(why, "mesh '%s': the size of axis '%.*s' is not an integer", text, (int)(colon - p), p);
      return false;
    }
    if (!add_axis(out, p, (size_t)(colon - p), size, why))
      return false;
    p = *end ? end + 1 : end;
  }
  if (out->num_axes == 0) {
    braze_str_puts(why, "mesh: expected NAME:SIZE[,NAME:SIZE...], e.g. tp:2");
    return false;
  }
  return true;
}

MlirAttribute braze_mesh_to_attr(MlirContext ctx, const BrazeMesh *mesh) {
  MlirAttribute pairs[BRAZE_MESH_MAX_AXES];
  for (int i = 0; i < mesh->num_axes; ++i) {
    MlirAttribute pair[2] = {mlirStringAttrGet(ctx, braze_ref(mesh->names[i])),
                             mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), mesh->sizes[i])};
    pairs[i] = mlirArrayAttrGet(ctx, 2, pair);
  }
  return mlirArrayAttrGet(ctx, mesh->num_axes, pairs);
}

int braze_mesh_axis(const BrazeMesh *mesh, const char *name, size_t len) {
  for (int i = 0; i < mesh->num_axes; ++i)
    if (strlen(mesh->names[i]) == len && memcmp(mesh->names[i], name, len) == 0)
      return i;
  return -1;
}

int64_t braze_mesh_devices(const BrazeMesh *mesh) {
  int64_t n = 1;
  for (int i = 0; i < mesh->num_axes; ++i)
    n *= mesh->sizes[i];
  return n;
}

void braze_mesh_coords(const BrazeMesh *mesh, int64_t rank, int64_t *coords) {
  for (int i = mesh->num_axes; i-- > 0;) {
    coords[i] = rank % mesh->sizes[i];
    rank /= mesh->sizes[i];
  }
}

void braze_mesh_describe(const BrazeMesh *mesh, BrazeStr *out) {
  for (int i = 0; i < mesh->num_axes; ++i)
    braze_str_printf(out, "%s%s=%lld", i ? " x " : "", mesh->names[i], (long long)mesh->sizes[i]);
}

MlirOperation braze_enclosing_func(MlirOperation op) {
  while (!mlirOperationIsNull(op) && !braze_op_is(op, "func.func"))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* ---- shardings ---- */

void braze_sharding_replicated(BrazeSharding *s, int rank) {
  memset(s, 0, sizeof *s);
  s->rank = rank;
  for (int d = 0; d < BRAZE_MAX_RANK; ++d)
    s->split[d] = -1;
}

bool braze_sharding_equal(const BrazeSharding *a, const BrazeSharding *b) {
  if (a->rank != b->rank || a->partial_axes != b->partial_axes || (a->partial_axes && a->partial != b->partial))
    return false;
  for (int d = 0; d < a->rank; ++d)
    if (a->split[d] != b->split[d])
      return false;
  return true;
}

bool braze_sharding_is_replicated(const BrazeSharding *s) {
  for (int d = 0; d < s->rank; ++d)
    if (s->split[d] >= 0)
      return false;
  return s->partial_axes == 0;
}

static const char sharding_form[] = "expected braze.sharding = [[axes of dim 0], [axes of dim 1], ...], e.g. [[], [\"tp\"]]";

bool braze_sharding_from_attr(MlirAttribute attr, const BrazeMesh *mesh, int rank, BrazeSharding *out, BrazeStr *why) {
  braze_sharding_replicated(out, rank);
  if (!mlirAttributeIsAArray(attr)) {
    braze_str_puts(why, sharding_form);
    return false;
  }
  if (mlirArrayAttrGetNumElements(attr) != rank) {
    braze_str_printf(why, "braze.sharding has %lld entries; expected one per dim (%d)",
                     (long long)mlirArrayAttrGetNumElements(attr), rank);
    return false;
  }
  uint8_t used = 0;
  for (int d = 0; d < rank; ++d) {
    MlirAttribute axes = mlirArrayAttrGetElement(attr, d);
    if (!mlirAttributeIsAArray(axes)) {
      braze_str_puts(why, sharding_form);
      return false;
    }
    intptr_t n = mlirArrayAttrGetNumElements(axes);
    if (n > 1) {
      braze_str_printf(why, "dim %d is split over %lld mesh axes; braze splits a dim over at most one", d, (long long)n);
      return false;
    }
    if (n == 0)
      continue;
    MlirAttribute name = mlirArrayAttrGetElement(axes, 0);
    MlirStringRef s = mlirAttributeIsAString(name) ? mlirStringAttrGetValue(name) : (MlirStringRef){"", 0};
    int axis = mlirAttributeIsAString(name) ? braze_mesh_axis(mesh, s.data, s.length) : -1;
    if (axis < 0) {
      BrazeStr m = {0};
      braze_mesh_describe(mesh, &m);
      braze_str_printf(why, "dim %d names mesh axis '%.*s', which the mesh (%s) does not have", d, (int)s.length,
                       s.data, braze_str_cstr(&m));
      braze_str_free(&m);
      return false;
    }
    if (used & (1u << axis)) {
      braze_str_printf(why, "mesh axis '%s' splits two dims", mesh->names[axis]);
      return false;
    }
    used |= (uint8_t)(1u << axis);
    out->split[d] = (int8_t)axis;
  }
  return true;
}

MlirAttribute braze_sharding_to_attr(MlirContext ctx, const BrazeMesh *mesh, const BrazeSharding *s) {
  MlirAttribute dims[BRAZE_MAX_RANK];
  for (int d = 0; d < s->rank; ++d) {
    MlirAttribute name = s->split[d] >= 0 ? mlirStringAttrGet(ctx, braze_ref(mesh->names[s->split[d]]))
                                          : (MlirAttribute){NULL};
    dims[d] = mlirArrayAttrGet(ctx, s->split[d] >= 0 ? 1 : 0, &name);
  }
  return mlirArrayAttrGet(ctx, s->rank, dims);
}

const char *braze_partial_name(BrazePartialKind kind) {
  switch (kind) {
  case BRAZE_PARTIAL_SUM:
    return "partial_sum";
  case BRAZE_PARTIAL_MAX:
    return "partial_max";
  case BRAZE_PARTIAL_MIN:
    return "partial_min";
  default:
    return "";
  }
}

void braze_sharding_describe(const BrazeMesh *mesh, const BrazeSharding *s, BrazeStr *out) {
  braze_str_puts(out, "[");
  for (int d = 0; d < s->rank; ++d)
    braze_str_printf(out, "%s%s", d ? ", " : "", s->split[d] >= 0 ? mesh->names[s->split[d]] : "_");
  braze_str_puts(out, "]");
  if (!s->partial_axes)
    return;
  braze_str_printf(out, " partial(%s:", braze_partial_name(s->partial) + 8);
  for (int a = 0; a < mesh->num_axes; ++a)
    if (s->partial_axes & (1u << a))
      braze_str_printf(out, " %s", mesh->names[a]);
  braze_str_puts(out, ")");
}

bool braze_sharding_local_shape(const BrazeMesh *mesh, const BrazeSharding *s, const int64_t *global, int64_t *local,
                                int *bad_dim) {
  for (int d = 0; d < s->rank; ++d) {
    int64_t n = s->split[d] >= 0 ? mesh->sizes[s->split[d]] : 1;
    if (global[d] % n != 0) {
      *bad_dim = d;
      return false;
    }
    local[d] = global[d] / n;
  }
  return true;
}

/* ---- collective groups ---- */

bool braze_collective_axes(MlirOperation op, const BrazeMesh *mesh, int *axes, int *num_axes, int64_t *group_size,
                           BrazeStr *why) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref("mesh_axes"));
  *num_axes = 0;
  *group_size = 1;
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAArray(a) || mlirArrayAttrGetNumElements(a) == 0) {
    braze_str_puts(why, "expects a non-empty array attribute 'mesh_axes' of mesh axis names (e.g. mesh_axes = [\"tp\"])");
    return false;
  }
  uint8_t seen = 0;
  for (intptr_t i = 0, n = mlirArrayAttrGetNumElements(a); i < n; ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(a, i);
    MlirStringRef s = mlirAttributeIsAString(e) ? mlirStringAttrGetValue(e) : (MlirStringRef){"", 0};
    int axis = mlirAttributeIsAString(e) ? braze_mesh_axis(mesh, s.data, s.length) : -1;
    if (axis < 0) {
      BrazeStr m = {0};
      braze_mesh_describe(mesh, &m);
      braze_str_printf(why, "mesh_axes entry %lld ('%.*s') is not an axis of the function's mesh (%s)", (long long)i,
                       (int)s.length, s.data, braze_str_cstr(&m));
      braze_str_free(&m);
      return false;
    }
    if (seen & (1u << axis)) {
      braze_str_printf(why, "mesh_axes names '%s' twice", mesh->names[axis]);
      return false;
    }
    seen |= (uint8_t)(1u << axis);
    axes[(*num_axes)++] = axis;
    *group_size *= mesh->sizes[axis];
  }
  return true;
}

MlirAttribute braze_mesh_axes_attr(MlirContext ctx, const BrazeMesh *mesh, uint8_t mask) {
  MlirAttribute names[BRAZE_MESH_MAX_AXES];
  int n = 0;
  for (int a = 0; a < mesh->num_axes; ++a)
    if (mask & (1u << a))
      names[n++] = mlirStringAttrGet(ctx, braze_ref(mesh->names[a]));
  return mlirArrayAttrGet(ctx, n, names);
}
