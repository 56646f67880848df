/* SPDX-License-Identifier: MIT */
/* Formatting one element, and the checks' message helper. */
#include "ref_value.h"

#include "ref_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

void ref_format(prism_type type, const void *v, char *buf, size_t size) {
  switch (type) {
  case PRISM_I32:
    snprintf(buf, size, "%" PRId32, *(const int32_t *)v);
    break;
  case PRISM_U32:
    snprintf(buf, size, "%" PRIu32, *(const uint32_t *)v);
    break;
  case PRISM_I64:
    snprintf(buf, size, "%" PRId64, *(const int64_t *)v);
    break;
  case PRISM_U64:
    snprintf(buf, size, "%" PRIu64, *(const uint64_t *)v);
    break;
  case PRISM_F32:
    snprintf(buf, size, "%.9g", (double)*(const float *)v);
    break;
  case PRISM_F64:
    snprintf(buf, size, "%.17g", *(const double *)v);
    break;
  case PRISM_U8:
    snprintf(buf, size, "%u", (unsigned)*(const uint8_t *)v);
    break;
  }
}

int ref__say(char *msg, size_t msg_size, const char *fmt, ...) {
  if (msg && msg_size > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_size, fmt, ap);
    va_end(ap);
  }
  return 0;
}
