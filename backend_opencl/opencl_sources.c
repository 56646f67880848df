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

/* Sources built ahead of every kernel file: key_order.h (the key image)
 * and lookback.h (the look-back's status words) are core's, kept valid
 * OpenCL C so the host, the CUDA kernels and these share one definition;
 * local_memory.h states the tile kernels' local memory for them and the
 * host's fit (tuning.c). */
static const char *const prelude_all[] = {"common.cl", "key_order.h",
                                          "lookback.h", "local_memory.h"};

/* Sources built ahead of one kernel file besides, after prelude_all, in
 * this order: the sort's keys and tiles (sort_keys.cl), the look-back
 * (lookback.cl) for the single-pass kernels, a primitive's shared file for
 * its strategies' files (segmented.cl, select.cl, histogram.cl), the BFS
 * step protocol (core's bfs_step.h). A file not listed gets prelude_all
 * alone. */
#define PRISM_CL_MAX_AHEAD 2
static const struct {
  const char *file;
  const char *ahead[PRISM_CL_MAX_AHEAD];
} ahead_of[] = {
    {"scan.cl", {"lookback.cl"}},
    {"select_lookback.cl", {"lookback.cl", "select.cl"}},
    {"select_chunks.cl", {"select.cl"}},
    {"segmented_lookback.cl", {"lookback.cl", "segmented.cl"}},
    {"segmented_chunks.cl", {"segmented.cl"}},
    {"histogram_chunks.cl", {"histogram.cl"}},
    {"sort_single.cl", {"sort_keys.cl"}},
    {"sort_upsweep.cl", {"sort_keys.cl"}},
    {"sort_onesweep.cl", {"sort_keys.cl", "lookback.cl"}},
    {"sort_classic.cl", {"sort_keys.cl"}},
    {"bfs.cl", {"bfs_step.h"}},
};

_Static_assert(sizeof prelude_all / sizeof *prelude_all + PRISM_CL_MAX_AHEAD <=
                   PRISM_CL_MAX_PRELUDE,
               "opencl_internal.h's PRISM_CL_MAX_PRELUDE holds every list");

size_t prism__cl_prelude(const prism__cl_source *source,
                         const prism__cl_source **out) {
  size_t count = 0;
  for (size_t i = 0; i < sizeof prelude_all / sizeof *prelude_all; i++)
    out[count++] = prism__cl_find_source(prelude_all[i]);
  for (size_t i = 0; i < sizeof ahead_of / sizeof *ahead_of; i++)
    if (strcmp(source->name, ahead_of[i].file) == 0)
      for (size_t j = 0; j < PRISM_CL_MAX_AHEAD && ahead_of[i].ahead[j]; j++)
        out[count++] = prism__cl_find_source(ahead_of[i].ahead[j]);
  return count;
}
