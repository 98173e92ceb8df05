#include "support/json.h"

#include <string.h>

void braze_json_string(BrazeStr *out, const char *s, size_t len) {
  braze_str_puts(out, "\"");
  for (size_t i = 0; i < len; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      braze_str_printf(out, "\\%c", c);
    else if (c < 0x20)
      braze_str_printf(out, "\\u%04x", c);
    else
      braze_str_append(out, &s[i], 1);
  }
  braze_str_puts(out, "\"");
}

void braze_json_cstr(BrazeStr *out, const char *s) { braze_json_string(out, s, strlen(s)); }
