/* SPDX-License-Identifier: MIT */
/*
 * CUB reference, histograms: DeviceHistogram::HistogramEven and
 * HistogramRange (cub_job.cuh).
 */
#include "cub_ops.cuh"

namespace cub_bench {
namespace {

/* The level type of HistogramEven: one that holds the bounds (u8's upper
 * level 256, u32's 2^32). */
template <typename T> struct even_level { using type = T; };
template <> struct even_level<uint8_t> { using type = int; };
template <> struct even_level<int32_t> { using type = int64_t; };
template <> struct even_level<uint32_t> { using type = uint64_t; };

template <typename T> cudaError_t launch_histogram_even(cub_job &j) {
  using L = typename even_level<T>::type;
  return cub::DeviceHistogram::HistogramEven(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<uint32_t *>(j.out), static_cast<int>(j.bins + 1),
      static_cast<L>(j.lower), static_cast<L>(j.upper), static_cast<int>(j.n),
      j.stream);
}

template <typename T> cudaError_t launch_histogram_range(cub_job &j) {
  return cub::DeviceHistogram::HistogramRange(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<uint32_t *>(j.out), static_cast<int>(j.bins + 1),
      static_cast<const T *>(j.aux), static_cast<int>(j.n), j.stream);
}

} // namespace

template <typename T> cudaError_t launch_histogram(cub_job &j) {
  return j.algorithm == CUB_REF_HISTOGRAM_RANGE ? launch_histogram_range<T>(j)
                                                : launch_histogram_even<T>(j);
}

CUB_JOB_INSTANCES_WITH_BYTES(launch_histogram)

} // namespace cub_bench
