/* SPDX-License-Identifier: MIT */
/*
 * What the CUB reference files share: the job cub_ref.cu runs for every
 * algorithm (cub_ref.h's request on the device), and the launchers, one
 * file per family, so that the heaviest CUB instantiations compile in
 * parallel: cub_reduce.cu, cub_scan.cu, cub_sort.cu, cub_histogram.cu,
 * cub_compaction.cu, cub_segmented.cu, cub_merge.cu,
 * cub_segmented_sort.cu.
 */
#ifndef PRISM_BENCH_CUB_JOB_CUH
#define PRISM_BENCH_CUB_JOB_CUH

#include "cub_ref.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cub_bench {

/* num_items is 32-bit, as most CUB users pass it: 64-bit counts would
 * double the build time for n >= 2^32, which the bench's sweeps do not
 * reach. */
using count_t = uint32_t;

/* One request on the device: the fields of cub_ref_request the algorithm
 * reads, with device pointers. */
struct cub_job {
  void *temp; // NULL: launch only asks for temp_bytes
  size_t temp_bytes;
  const void *in;
  void *out;
  const void *values_in; // sort, merge, segmented sort: pairs
  void *values_out;
  void *count;     // compaction: uint64_t on the device
  const void *aux; // edges, flags, offsets (u32) or keys (u32)
  size_t n;
  cub_ref_algorithm algorithm;
  prism_op op;
  bool exclusive;         // scans
  bool descending;        // sort
  size_t value_size;      // sort: 0 keys only, 4, 8
  int begin_bit, end_bit; // sort
  size_t bins;            // histograms
  double lower, upper;    // histogram_even
  prism_value threshold;  // select_if, partition_if: x < threshold
  size_t num_segments;    // segmented reduce, segmented sort
  size_t split;           // merge: keys of the first run
  cudaStream_t stream;
  cudaError_t (*launch)(cub_job &j);
};

/* Each launcher runs j.algorithm of its family on elements of type T, or
 * (j.temp NULL) only sets j.temp_bytes. Histograms and compaction take
 * every element type (u8 included); the others every type but u8. */
template <typename T> cudaError_t launch_reduce(cub_job &j);
template <typename T> cudaError_t launch_scan(cub_job &j);
template <typename T> cudaError_t launch_sort(cub_job &j);
template <typename T> cudaError_t launch_histogram(cub_job &j);
template <typename T> cudaError_t launch_compaction(cub_job &j);
template <typename T> cudaError_t launch_segmented(cub_job &j);
template <typename T> cudaError_t launch_merge(cub_job &j);
template <typename T> cudaError_t launch_segmented_sort(cub_job &j);

/* The explicit instances a launcher file compiles: every type but u8, or
 * every type. */
#define CUB_JOB_INSTANCES(launcher)                                            \
  template cudaError_t launcher<int32_t>(cub_job &);                           \
  template cudaError_t launcher<uint32_t>(cub_job &);                          \
  template cudaError_t launcher<float>(cub_job &);                             \
  template cudaError_t launcher<int64_t>(cub_job &);                           \
  template cudaError_t launcher<uint64_t>(cub_job &);                          \
  template cudaError_t launcher<double>(cub_job &);
#define CUB_JOB_INSTANCES_WITH_BYTES(launcher)                                 \
  CUB_JOB_INSTANCES(launcher)                                                  \
  template cudaError_t launcher<uint8_t>(cub_job &);

} // namespace cub_bench

#endif /* PRISM_BENCH_CUB_JOB_CUH */
