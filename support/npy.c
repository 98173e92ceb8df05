#include "support/npy.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/context.h"

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

typedef struct {
  const char *descr;
  BrazeDType dtype;
} DescrEntry;

static const DescrEntry descr_table[] = {
    {"<f4", BRAZE_DTYPE_F32}, {"<f2", BRAZE_DTYPE_F16}, {"<u2", BRAZE_DTYPE_BF16},
    {"<i4", BRAZE_DTYPE_I32}, {"<i8", BRAZE_DTYPE_I64}, {"|b1", BRAZE_DTYPE_I1},
    {"<f8", BRAZE_DTYPE_F64}, {"|i1", BRAZE_DTYPE_I8}, {"|u1", BRAZE_DTYPE_U8},
    {"<i2", BRAZE_DTYPE_I16}, {"<u2", BRAZE_DTYPE_U16}, {"<u4", BRAZE_DTYPE_U32},
    {"<u8", BRAZE_DTYPE_U64}, /* '<u2' reads as bf16 unless the reader asks for ui16 */
};

static const char *descr_of(BrazeDType dtype) {
  for (size_t i = 0; i < sizeof descr_table / sizeof *descr_table; ++i)
    if (descr_table[i].dtype == dtype)
      return descr_table[i].descr;
  return "?";
}

static bool dtype_of_descr(const char *descr, size_t len, BrazeDType *out) {
  for (size_t i = 0; i < sizeof descr_table / sizeof *descr_table; ++i) {
    if (strlen(descr_table[i].descr) == len && memcmp(descr_table[i].descr, descr, len) == 0) {
      *out = descr_table[i].dtype;
      return true;
    }
  }
  return false;
}

/* The text following `'key':` in the header dict, with spaces skipped, or NULL. */
static const char *find_key(const char *header, const char *key) {
  char quoted[32];
  snprintf(quoted, sizeof quoted, "'%s'", key);
  const char *p = strstr(header, quoted);
  if (!p)
    return NULL;
  p += strlen(quoted);
  while (*p == ' ')
    ++p;
  if (*p != ':')
    return NULL;
  ++p;
  while (*p == ' ')
    ++p;
  return p;
}

static bool parse_descr(const char *header, const char *name, BrazeDType u2, BrazeDType *dtype, BrazeStr *error) {
  const char *p = find_key(header, "descr");
  const char *end = p && (*p == '\'' || *p == '"') ? strchr(p + 1, *p) : NULL;
  if (!end) {
    braze_str_printf(error, "%s: .npy header has no 'descr' string", name);
    return false;
  }
  size_t len = (size_t)(end - p - 1);
  if (dtype_of_descr(p + 1, len, dtype)) {
    if (*dtype == BRAZE_DTYPE_BF16 && u2 == BRAZE_DTYPE_U16)
      *dtype = BRAZE_DTYPE_U16;
    return true;
  }
  braze_str_printf(error,
                   "%s: unsupported .npy dtype '%.*s' (expected one of '<f4' '<f8' '<f2' '<u2' (bf16 bits) "
                   "'<i4' '<i8' '|i1' '<i2' '|u1' '<u4' '<u8' '|b1', little-endian)",
                   name, (int)len, p + 1);
  return false;
}

static bool parse_fortran_order(const char *header, const char *name, BrazeStr *error) {
  const char *p = find_key(header, "fortran_order");
  if (p && strncmp(p, "False", 5) == 0)
    return true;
  if (p && strncmp(p, "True", 4) == 0)
    braze_str_printf(error, "%s: fortran-order .npy arrays are not supported (save a C-order array: "
                            "numpy.ascontiguousarray)", name);
  else
    braze_str_printf(error, "%s: .npy header has no 'fortran_order' flag", name);
  return false;
}

static bool parse_shape(const char *header, const char *name, BrazeHostTensor *t, BrazeStr *error) {
  const char *p = find_key(header, "shape");
  if (!p || *p != '(') {
    braze_str_printf(error, "%s: .npy header has no 'shape' tuple", name);
    return false;
  }
  ++p;
  t->rank = 0;
  for (;;) {
    while (*p == ' ' || *p == ',')
      ++p;
    if (*p == ')')
      return true;
    if (!isdigit((unsigned char)*p) || t->rank == BRAZE_TENSOR_MAX_RANK) {
      braze_str_printf(error, "%s: bad .npy shape (non-negative integers, rank <= %d)", name,
                       BRAZE_TENSOR_MAX_RANK);
      return false;
    }
    char *end;
    errno = 0;
    long long dim = strtoll(p, &end, 10);
    if (errno) {
      braze_str_printf(error, "%s: .npy shape dimension out of range", name);
      return false;
    }
    t->shape[t->rank++] = dim;
    p = end;
    if (*p == 'L') /* Python 2 longs */
      ++p;
  }
}

/* Header length and offset of the header text for format versions 1-3. */
static bool parse_preamble(const char *bytes, size_t len, const char *name, size_t *header_start,
                           size_t *header_len, BrazeStr *error) {
  if (len < 10 || memcmp(bytes, npy_magic, 6) != 0) {
    braze_str_printf(error, "%s: not a .npy file (bad magic)", name);
    return false;
  }
  unsigned major = (unsigned char)bytes[6];
  const unsigned char *u = (const unsigned char *)bytes;
  if (major == 1) {
    *header_len = (size_t)u[8] | (size_t)u[9] << 8;
    *header_start = 10;
  } else if (major == 2 || major == 3) {
    if (len < 12) {
      braze_str_printf(error, "%s: truncated .npy file (incomplete header)", name);
      return false;
    }
    *header_len = (size_t)u[8] | (size_t)u[9] << 8 | (size_t)u[10] << 16 | (size_t)u[11] << 24;
    *header_start = 12;
  } else {
    braze_str_printf(error, "%s: unsupported .npy format version %u.%u", name, major, (unsigned)u[7]);
    return false;
  }
  if (*header_len > len - *header_start) {
    braze_str_printf(error, "%s: truncated .npy file (incomplete header)", name);
    return false;
  }
  return true;
}

bool braze_npy_parse(const char *bytes, size_t len, const char *name, BrazeHostTensor *out, BrazeStr *error) {
  return braze_npy_parse_as(bytes, len, name, BRAZE_DTYPE_BF16, out, error);
}

bool braze_npy_parse_as(const char *bytes, size_t len, const char *name, BrazeDType u2, BrazeHostTensor *out,
                        BrazeStr *error) {
  memset(out, 0, sizeof *out);
  size_t header_start, header_len;
  if (!parse_preamble(bytes, len, name, &header_start, &header_len, error))
    return false;
  char *header = strndup(bytes + header_start, header_len);
  BrazeHostTensor shape_only = {0};
  BrazeDType dtype = BRAZE_DTYPE_F32;
  bool ok = parse_descr(header, name, u2, &dtype, error) && parse_fortran_order(header, name, error) &&
            parse_shape(header, name, &shape_only, error);
  free(header);
  if (!ok)
    return false;
  /* Check the data size before allocating: a corrupt header must not allocate much. */
  size_t data_start = header_start + header_len, have = len - data_start, want = braze_dtype_size(dtype);
  for (int i = 0; i < shape_only.rank; ++i) {
    if (shape_only.shape[i] && want > SIZE_MAX / 8 / (size_t)shape_only.shape[i]) {
      braze_str_printf(error, "%s: .npy shape too large", name);
      return false;
    }
    want *= (size_t)shape_only.shape[i];
  }
  if (have != want) {
    braze_str_printf(error, "%s: %s .npy data: expected %zu bytes for the shape in the header, found %zu", name,
                     have < want ? "truncated" : "trailing bytes after", want, have);
    return false;
  }
  if (!braze_tensor_init(out, dtype, shape_only.rank, shape_only.shape)) {
    braze_str_printf(error, "%s: .npy shape too large", name);
    return false;
  }
  braze_tensor_unpack(out, bytes + data_start);
  return true;
}

bool braze_npy_read(const char *path, BrazeHostTensor *out, BrazeStr *error) {
  return braze_npy_read_as(path, BRAZE_DTYPE_BF16, out, error);
}

bool braze_npy_read_as(const char *path, BrazeDType u2, BrazeHostTensor *out, BrazeStr *error) {
  memset(out, 0, sizeof *out);
  size_t len = 0;
  char *bytes = braze_read_file(path, &len);
  if (!bytes) {
    braze_str_printf(error, "%s: cannot read file: %s", path, strerror(errno));
    return false;
  }
  bool ok = braze_npy_parse_as(bytes, len, path, u2, out, error);
  free(bytes);
  return ok;
}

void braze_npy_encode(const BrazeHostTensor *t, BrazeStr *out) {
  BrazeStr dict = {0};
  braze_str_printf(&dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr_of(t->dtype));
  for (int i = 0; i < t->rank; ++i)
    braze_str_printf(&dict, "%lld,%s", (long long)t->shape[i], i + 1 < t->rank ? " " : "");
  braze_str_puts(&dict, "), }");
  /* Pad with spaces so magic + length + header + '\n' is a multiple of 64. */
  size_t total = 10 + dict.len + 1;
  size_t padded = (total + 63) / 64 * 64;
  for (size_t i = total; i < padded; ++i)
    braze_str_puts(&dict, " ");
  braze_str_puts(&dict, "\n");
  unsigned char preamble[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(dict.len & 0xff),
                                (unsigned char)(dict.len >> 8)};
  braze_str_append(out, (const char *)preamble, sizeof preamble);
  braze_str_append(out, dict.data, dict.len);
  braze_str_free(&dict);
  size_t bytes = (size_t)braze_tensor_numel(t) * braze_dtype_size(t->dtype);
  char *raw = malloc(bytes ? bytes : 1);
  braze_tensor_pack(t, raw);
  braze_str_append(out, raw, bytes);
  free(raw);
}

bool braze_npy_write(const char *path, const BrazeHostTensor *t, BrazeStr *error) {
  BrazeStr image = {0};
  braze_npy_encode(t, &image);
  bool ok = braze_write_file(path, braze_str_cstr(&image), image.len);
  if (!ok)
    braze_str_printf(error, "%s: cannot write file: %s", path, strerror(errno));
  braze_str_free(&image);
  return ok;
}
