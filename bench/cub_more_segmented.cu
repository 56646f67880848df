/* SPDX-License-Identifier: MIT */
/*
 * CUB reference, segmented: DeviceSegmentedReduce and DeviceScan::*ByKey
 * (the job: cub_more.cuh).
 */
#include "cub_common.cuh"
#include "cub_more.cuh"

namespace cub_more {
namespace {

using namespace cub_ref_common;

template <typename T> cudaError_t launch_segmented_reduce(more_job &j) {
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

template <typename T> cudaError_t launch_segmented_scan(more_job &j) {
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

template <typename T> cudaError_t launch_segmented(more_job &j) {
  return j.algorithm == CUB_REF_SEGMENTED_SCAN ? launch_segmented_scan<T>(j)
                                               : launch_segmented_reduce<T>(j);
}

template cudaError_t launch_segmented<int32_t>(more_job &);
template cudaError_t launch_segmented<uint32_t>(more_job &);
template cudaError_t launch_segmented<float>(more_job &);
template cudaError_t launch_segmented<int64_t>(more_job &);
template cudaError_t launch_segmented<uint64_t>(more_job &);
template cudaError_t launch_segmented<double>(more_job &);

} // namespace cub_more
