/* Writing JSON by hand (reports, fusion plans) with a fixed layout that tests can
 * check line by line. Reading JSON uses jansson (Debian's libjansson-dev). */
#ifndef BRAZE_SUPPORT_JSON_H
#define BRAZE_SUPPORT_JSON_H

#include <stddef.h>

#include "support/strbuf.h"

/* Append `s` (len bytes) as a quoted JSON string: '"' and '\' escaped, control
 * characters as \u00XX; other bytes (UTF-8) as they are. */
void braze_json_string(BrazeStr *out, const char *s, size_t len);
void braze_json_cstr(BrazeStr *out, const char *s);

#endif
