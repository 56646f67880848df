/* SPDX-License-Identifier: MIT */
/*
 * What the reference's own files share (not for the tests or the bench):
 * prism.h's min/max rule for floats, and the message helper of the checks.
 */
#ifndef PRISM_REFERENCE_INTERNAL_H
#define PRISM_REFERENCE_INTERNAL_H

#include "prism.h"
#include "ref_types.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* prism.h's float min and max: any NaN operand gives NaN (the operand
 * itself), -0.0 orders below +0.0. Exact, and independent of order. */
#define REF__FLOAT_LESS(a, b)                                                  \
  ((a) < (b) || ((a) == (b) && signbit(a) && !signbit(b)))
#define REF__FLOAT_MIN(a, b)                                                   \
  (isnan(a) ? (a) : isnan(b) ? (b) : REF__FLOAT_LESS(b, a) ? (b) : (a))
#define REF__FLOAT_MAX(a, b)                                                   \
  (isnan(a) ? (a) : isnan(b) ? (b) : REF__FLOAT_LESS(a, b) ? (b) : (a))

/* printf into msg (msg_size bytes; nothing when 0). Returns 0, the value
 * of a check that fails, so that `return ref__say(...)` reads as one. */
int ref__say(char *msg, size_t msg_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif /* PRISM_REFERENCE_INTERNAL_H */
