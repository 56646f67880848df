/* SPDX-License-Identifier: MIT */
/* The embedded OpenCL C sources: lookup by name, and what is built ahead
 * of each. */
#include "opencl_internal.h"

#include <string.h>

const prism__cl_source *prism__cl_find_source(const char *name) {
  for (size_t i = 0; i < prism__cl_source_count; i++)
    if (strcmp(prism__cl_sources[i].name, name) == 0)
      return &prism__cl_sources[i];
  return NULL;
}

/* Sources built ahead of every kernel file, and ahead of the sort files
 * ("sort_*.cl") besides: key_order.h (the key image) and lookback.h (the
 * look-back's status words) are core's, kept valid OpenCL C so the host,
 * the CUDA kernels and these share one definition. */
static const char *const prelude_all[] = {"common.cl", "key_order.h",
                                          "lookback.h"};
static const char *const prelude_sort[] = {"sort_keys.cl"};

size_t prism__cl_prelude(const prism__cl_source *source,
                         const prism__cl_source **out) {
  size_t count = 0;
  for (size_t i = 0; i < sizeof prelude_all / sizeof *prelude_all; i++)
    out[count++] = prism__cl_find_source(prelude_all[i]);
  if (strncmp(source->name, "sort_", 5) == 0)
    for (size_t i = 0; i < sizeof prelude_sort / sizeof *prelude_sort; i++)
      out[count++] = prism__cl_find_source(prelude_sort[i]);
  return count;
}
