/* SPDX-License-Identifier: MIT */
/* One element of any prism_type, as the checks' messages print it. */
#ifndef PRISM_REFERENCE_VALUE_H
#define PRISM_REFERENCE_VALUE_H

#include "prism.h"

#include <stddef.h>

/** Format one element of type at value into buf (size bytes): integers in
 * decimal, floats with every digit that tells them apart (%.9g, %.17g). */
void ref_format(prism_type type, const void *value, char *buf, size_t size);

#endif /* PRISM_REFERENCE_VALUE_H */
