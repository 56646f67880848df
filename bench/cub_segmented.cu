/* SPDX-License-Identifier: MIT */
/*
 * CUB reference, segmented: DeviceSegmentedReduce and DeviceScan::*ByKey
 * (cub_job.cuh).
 */
#include "cub_ops.cuh"

namespace cub_bench {
namespace {

template <typename T> cudaError_t launch_segmented_reduce(cub_job &j) {
  const T *in = static_cast<const T *>(j.in);
  T *out = static_cast<T *>(j.out);
  const uint32_t *begin = static_cast<const uint32_t *>(j.aux);
  int64_t segments = static_cast<int64_t>(j.num_segments);
  switch (j.op) {
  case PRISM_MIN:
    return cub::DeviceSegmentedReduce::Min(
        j.temp, j.temp_bytes, in, out, segments, begin, begin + 1, j.stream);
  case PRISM_MAX:
    return cub::DeviceSegmentedReduce::Max(
        j.temp, j.temp_bytes, in, out, segments, begin, begin + 1, j.stream);
  default:
    return cub::DeviceSegmentedReduce::Sum(
        j.temp, j.temp_bytes, in, out, segments, begin, begin + 1, j.stream);
  }
}

template <typename T> cudaError_t launch_segmented_scan(cub_job &j) {
  const uint32_t *keys = static_cast<const uint32_t *>(j.aux);
  const T *in = static_cast<const T *>(j.in);
  T *out = static_cast<T *>(j.out);
  count_t n = static_cast<count_t>(j.n);
  void *t = j.temp;
  size_t &tb = j.temp_bytes;
  cuda::std::equal_to<> eq{};
  switch (j.op) {
  case PRISM_MIN:
    return j.exclusive ? cub::DeviceScan::ExclusiveScanByKey(
                             t, tb, keys, in, out, min_op{}, identity_min<T>(),
                             n, eq, j.stream)
                       : cub::DeviceScan::InclusiveScanByKey(
                             t, tb, keys, in, out, min_op{}, n, eq, j.stream);
  case PRISM_MAX:
    return j.exclusive ? cub::DeviceScan::ExclusiveScanByKey(
                             t, tb, keys, in, out, max_op{}, identity_max<T>(),
                             n, eq, j.stream)
                       : cub::DeviceScan::InclusiveScanByKey(
                             t, tb, keys, in, out, max_op{}, n, eq, j.stream);
  default:
    return j.exclusive
               ? cub::DeviceScan::ExclusiveSumByKey(t, tb, keys, in, out, n, eq,
                                                    j.stream)
               : cub::DeviceScan::InclusiveSumByKey(t, tb, keys, in, out, n, eq,
                                                    j.stream);
  }
}

} // namespace

template <typename T> cudaError_t launch_segmented(cub_job &j) {
  return j.algorithm == CUB_REF_SEGMENTED_SCAN ? launch_segmented_scan<T>(j)
                                               : launch_segmented_reduce<T>(j);
}

CUB_JOB_INSTANCES(launch_segmented)

} // namespace cub_bench
