/* SPDX-License-Identifier: MIT */
/*
 * The CUB reference for histograms, compaction and segmented primitives
 * (cub_more.cu runs it) in three files, one per family, so that the
 * heaviest CUB instantiations compile in parallel: the job they share and
 * the launchers each file instantiates for the element types.
 */
#ifndef PRISM_BENCH_CUB_MORE_CUH
#define PRISM_BENCH_CUB_MORE_CUH

#include "cub_ref.h"

#include <cuda_runtime.h>

#include <cstddef>

namespace cub_more {

struct more_job {
  void *temp; // NULL: launch only asks for temp_bytes
  size_t temp_bytes;
  const void *in;
  void *out;
  void *count;     // compaction: uint64_t on the device
  const void *aux; // device: edges, flags, offsets (u32) or keys (u32)
  size_t n;
  size_t bins;
  double lower, upper;
  prism_value threshold;
  size_t num_segments;
  prism_op op;
  bool exclusive;
  cub_ref_algorithm algorithm;
  cudaStream_t stream;
  cudaError_t (*launch)(more_job &j);
};

/* Each launcher runs j.algorithm of its family on T, or (j.temp NULL)
 * only sets j.temp_bytes. Histograms and compaction take every element
 * type (u8 included); segmented every type but u8. */
template <typename T> cudaError_t launch_histogram(more_job &j);
template <typename T> cudaError_t launch_compaction(more_job &j);
template <typename T> cudaError_t launch_segmented(more_job &j);

} // namespace cub_more

#endif /* PRISM_BENCH_CUB_MORE_CUH */
