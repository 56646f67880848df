/* SPDX-License-Identifier: MIT */
/* Backend and device choice from the environment. */
#include "env.h"
#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

int prism__equals_ignore_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return 0;
  return *a == *b;
}

static prism_status parse_backend(const char *value, prism_backend *out) {
  static const prism_backend all[] = {PRISM_BACKEND_CUDA, PRISM_BACKEND_OPENCL,
                                      PRISM_BACKEND_AUTO};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (prism__equals_ignore_case(value, prism_backend_name(all[i]))) {
      *out = all[i];
      return PRISM_OK;
    }
  }
  return prism__fail(NULL, PRISM_INVALID_ENVIRONMENT,
                     "PRISM_BACKEND='%s' is not a backend; valid values: "
                     "cuda, opencl, auto",
                     value);
}

static prism_status parse_device(const char *value, int *out) {
  char *end = NULL;
  errno = 0;
  long v = strtol(value, &end, 10);
  if (!isdigit((unsigned char)value[0]) || *end != '\0' || errno != 0 ||
      v > INT_MAX)
    return prism__fail(NULL, PRISM_INVALID_ENVIRONMENT,
                       "PRISM_DEVICE='%s' is not a device index; valid "
                       "values: a decimal integer from 0",
                       value);
  *out = (int)v;
  return PRISM_OK;
}

prism_status prism__options_from_env(prism_context_options *options) {
  const char *backend = getenv("PRISM_BACKEND");
  const char *device = getenv("PRISM_DEVICE");
  const char *platform = getenv("PRISM_OPENCL_PLATFORM");
  prism_status st;
  if (backend && *backend &&
      (st = parse_backend(backend, &options->backend)) != PRISM_OK)
    return st;
  if (device && *device &&
      (st = parse_device(device, &options->device)) != PRISM_OK)
    return st;
  if (platform && *platform)
    options->opencl_platform = platform;
  return PRISM_OK;
}
