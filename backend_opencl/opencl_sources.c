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

/* Ahead of the sort files ("sort_*.cl") besides: their keys and tiles. */
#define SORT_PRELUDE "sort_keys.cl"

/* Ahead of the single-pass kernel files besides: the look-back. */
#define LOOKBACK_PRELUDE "lookback.cl"
static const char *const with_lookback[] = {"scan.cl", "select_lookback.cl",
                                            "segmented_lookback.cl",
                                            "sort_onesweep.cl"};

/* Ahead of the segmented strategies' files ("segmented_*.cl") besides:
 * what both share. */
#define SEGMENTED_PRELUDE "segmented.cl"

/* Ahead of the compaction strategies' files ("select_*.cl") besides: the
 * rule and the count passes. */
#define SELECT_PRELUDE "select.cl"

/* Ahead of the CPU histograms' file besides: the mapping. */
#define HISTOGRAM_PRELUDE "histogram.cl"

/* Ahead of bfs.cl: the step protocol and its state, core's, as CUDA's. */
#define BFS_PRELUDE "bfs_step.h"

static int uses_lookback(const char *name) {
  for (size_t i = 0; i < sizeof with_lookback / sizeof *with_lookback; i++)
    if (strcmp(name, with_lookback[i]) == 0)
      return 1;
  return 0;
}

size_t prism__cl_prelude(const prism__cl_source *source,
                         const prism__cl_source **out) {
  size_t count = 0;
  for (size_t i = 0; i < sizeof prelude_all / sizeof *prelude_all; i++)
    out[count++] = prism__cl_find_source(prelude_all[i]);
  if (strncmp(source->name, "sort_", 5) == 0)
    out[count++] = prism__cl_find_source(SORT_PRELUDE);
  if (uses_lookback(source->name))
    out[count++] = prism__cl_find_source(LOOKBACK_PRELUDE);
  if (strncmp(source->name, "segmented_", 10) == 0)
    out[count++] = prism__cl_find_source(SEGMENTED_PRELUDE);
  if (strncmp(source->name, "select_", 7) == 0)
    out[count++] = prism__cl_find_source(SELECT_PRELUDE);
  if (strcmp(source->name, "histogram_chunks.cl") == 0)
    out[count++] = prism__cl_find_source(HISTOGRAM_PRELUDE);
  if (strcmp(source->name, "bfs.cl") == 0)
    out[count++] = prism__cl_find_source(BFS_PRELUDE);
  return count;
}
