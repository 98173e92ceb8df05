/* dense_resource constants. The C API reads resource blobs only through typed
 * getters that crash when the blob is missing (a module may name a resource it does
 * not define) and that do not exist for f16/bf16. So the interpreter reads blobs
 * from the printed module instead: printing the top-level op emits its
 * `{-# dialect_resources: { builtin: { KEY: "0x<align:4 bytes><data>" } } #-}`
 * section, and a missing blob simply is not there. The printed text is made once
 * per braze_reference_run. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "reference/internal.h"
#include "support/strbuf.h"

static struct {
  bool printed;
  BrazeStr text;
} printed_module;

void ref_resources_begin(void) { printed_module.printed = false; }

void ref_resources_end(void) {
  braze_str_free(&printed_module.text);
  printed_module.printed = false;
}

static const char *module_text(MlirOperation op) {
  if (!printed_module.printed) {
    MlirOperation root = op;
    while (!mlirOperationIsNull(mlirOperationGetParentOperation(root)))
      root = mlirOperationGetParentOperation(root);
    braze_str_clear(&printed_module.text);
    mlirOperationPrint(root, braze_str_callback, &printed_module.text);
    printed_module.printed = true;
  }
  return braze_str_cstr(&printed_module.text);
}

/* The KEY of `dense_resource<KEY>` (quotes stripped) into buf. */
static bool resource_key(MlirAttribute attr, char *buf, size_t size) {
  BrazeStr s = {0};
  mlirAttributePrint(attr, braze_str_callback, &s);
  const char *open = strchr(braze_str_cstr(&s), '<');
  const char *close = open ? strchr(open, '>') : NULL;
  bool ok = open && close && (size_t)(close - open) < size;
  if (ok) {
    const char *start = open + 1;
    size_t len = (size_t)(close - start);
    if (len >= 2 && start[0] == '"' && start[len - 1] == '"') {
      start++;
      len -= 2;
    }
    memcpy(buf, start, len);
    buf[len] = '\0';
  }
  braze_str_free(&s);
  return ok;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* The hex blob of KEY in the resource section, or NULL. */
static const char *find_blob(const char *text, const char *key) {
  const char *section = strstr(text, "dialect_resources:");
  if (!section)
    return NULL;
  size_t key_len = strlen(key);
  for (const char *p = strstr(section, key); p; p = strstr(p + 1, key)) {
    bool starts_entry = p > section && (p[-1] == ' ' || p[-1] == '\n' || p[-1] == '"');
    const char *after = p + key_len;
    if (*after == '"')
      after++;
    if (starts_entry && strncmp(after, ": \"0x", 5) == 0)
      return after + 5;
  }
  return NULL;
}

bool ref_resource_fill(MlirOperation op, MlirAttribute attr, BrazeHostTensor *result) {
  char key[512];
  if (!resource_key(attr, key, sizeof key))
    return ref_fail(op, "cannot read the name of the dense_resource constant");
  const char *hex = find_blob(module_text(op), key);
  if (!hex)
    return ref_fail(op, "dense_resource<%s> has no blob in the module's dialect_resources section", key);
  size_t digits = 0;
  while (hex_digit(hex[digits]) >= 0)
    digits++;
  size_t want = (size_t)braze_tensor_numel(result) * braze_dtype_size(result->dtype);
  /* The first 4 bytes of a blob are its alignment. */
  if (hex[digits] != '"' || digits % 2 != 0 || digits / 2 < 4 || digits / 2 - 4 != want)
    return ref_fail(op, "dense_resource<%s> holds %zu bytes, the result type %s needs %zu", key,
                    digits / 2 >= 4 ? digits / 2 - 4 : 0, ref_type_str(result), want);
  unsigned char *bytes = malloc(want ? want : 1);
  for (size_t i = 0; i < want; ++i)
    bytes[i] = (unsigned char)(hex_digit(hex[8 + 2 * i]) << 4 | hex_digit(hex[8 + 2 * i + 1]));
  braze_tensor_unpack(result, bytes);
  free(bytes);
  return true;
}
