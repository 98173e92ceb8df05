/* Origins of primitive ops (see ir/origins.h). */
#include "ir/origins.h"

#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"

static const char ORIGIN_KEY[] = "braze.origin";

MlirLocation braze_origin_loc(MlirLocation loc, const char *name) {
  MlirStringRef existing;
  if (braze_loc_origin(loc, &existing))
    return loc;
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute entry = mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(ORIGIN_KEY)),
                                                   mlirStringAttrGet(ctx, braze_ref(name)));
  return mlirLocationFusedGet(ctx, 1, &loc, mlirDictionaryAttrGet(ctx, 1, &entry));
}

bool braze_loc_origin(MlirLocation loc, MlirStringRef *origin) {
  if (mlirLocationIsAName(loc))
    return braze_loc_origin(mlirLocationNameGetChildLoc(loc), origin);
  if (mlirLocationIsACallSite(loc))
    return braze_loc_origin(mlirLocationCallSiteGetCallee(loc), origin);
  if (!mlirLocationIsAFused(loc))
    return false;
  MlirAttribute meta = mlirLocationFusedGetMetadata(loc);
  if (!mlirAttributeIsNull(meta) && mlirAttributeIsADictionary(meta)) {
    MlirAttribute name = mlirDictionaryAttrGetElementByName(meta, braze_ref(ORIGIN_KEY));
    if (!mlirAttributeIsNull(name) && mlirAttributeIsAString(name)) {
      *origin = mlirStringAttrGetValue(name);
      return true;
    }
  }
  intptr_t n = mlirLocationFusedGetNumLocations(loc);
  MlirLocation *locs = calloc((size_t)(n ? n : 1), sizeof *locs);
  mlirLocationFusedGetLocations(loc, locs);
  bool found = false;
  for (intptr_t i = 0; i < n && !found; ++i)
    found = braze_loc_origin(locs[i], origin);
  free(locs);
  return found;
}

static bool same_strings(MlirAttribute a, MlirAttribute b) {
  intptr_t n = mlirArrayAttrGetNumElements(a);
  if (n != mlirArrayAttrGetNumElements(b))
    return false;
  for (intptr_t i = 0; i < n; ++i)
    if (!mlirAttributeEqual(mlirArrayAttrGetElement(a, i), mlirArrayAttrGetElement(b, i)))
      return false;
  return true;
}

void braze_set_origins(MlirOperation generic, MlirAttribute origins) {
  MlirAttribute ops = mlirOperationGetAttributeByName(generic, braze_ref(BRAZE_OPS_ATTR));
  if (mlirAttributeIsNull(origins) || mlirAttributeIsNull(ops) || !mlirAttributeIsAArray(ops) ||
      same_strings(ops, origins))
    mlirOperationRemoveAttributeByName(generic, braze_ref(BRAZE_ORIGINS_ATTR));
  else
    mlirOperationSetAttributeByName(generic, braze_ref(BRAZE_ORIGINS_ATTR), origins);
}

MlirAttribute braze_origins_of(MlirOperation generic) {
  MlirAttribute origins = mlirOperationGetAttributeByName(generic, braze_ref(BRAZE_ORIGINS_ATTR));
  if (!mlirAttributeIsNull(origins))
    return origins;
  return mlirOperationGetAttributeByName(generic, braze_ref(BRAZE_OPS_ATTR));
}
