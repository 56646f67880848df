/* SPDX-License-Identifier: MIT */
/*
 * CUB reference, segmented sort: DeviceSegmentedSort::StableSort{Keys,Pairs}
 * [Descending] (cub_job.cuh) over the u32 offsets prism gets (begin =
 * offsets, end = offsets + 1), out of place (keys_in const and unchanged),
 * so every call sorts the same input, as prism's do. The stable sorts:
 * prism's is stable, and the check of the values (the input indices) needs
 * it. Keys are sorted as themselves, by CUB's radix order, which is the
 * order prism sorts in for the bench's keys (input_fill_random_bits makes no
 * -0.0, which CUB ranks equal to +0.0).
 */
#include "cub_ops.cuh"

namespace cub_bench {
namespace {

template <typename K, typename V>
cudaError_t launch_segmented_sort_pairs(cub_job &j) {
  const K *kin = static_cast<const K *>(j.in);
  K *kout = static_cast<K *>(j.out);
  const V *vin = static_cast<const V *>(j.values_in);
  V *vout = static_cast<V *>(j.values_out);
  const uint32_t *begin = static_cast<const uint32_t *>(j.aux);
  const int64_t n = static_cast<int64_t>(j.n);
  const int64_t segments = static_cast<int64_t>(j.num_segments);
  if (j.descending)
    return cub::DeviceSegmentedSort::StableSortPairsDescending(
        j.temp, j.temp_bytes, kin, kout, vin, vout, n, segments, begin,
        begin + 1, j.stream);
  return cub::DeviceSegmentedSort::StableSortPairs(j.temp, j.temp_bytes, kin,
                                                   kout, vin, vout, n, segments,
                                                   begin, begin + 1, j.stream);
}

} // namespace

template <typename K> cudaError_t launch_segmented_sort(cub_job &j) {
  if (j.value_size == 4)
    return launch_segmented_sort_pairs<K, uint32_t>(j);
  if (j.value_size == 8)
    return launch_segmented_sort_pairs<K, uint64_t>(j);
  const K *kin = static_cast<const K *>(j.in);
  K *kout = static_cast<K *>(j.out);
  const uint32_t *begin = static_cast<const uint32_t *>(j.aux);
  const int64_t n = static_cast<int64_t>(j.n);
  const int64_t segments = static_cast<int64_t>(j.num_segments);
  if (j.descending)
    return cub::DeviceSegmentedSort::StableSortKeysDescending(
        j.temp, j.temp_bytes, kin, kout, n, segments, begin, begin + 1,
        j.stream);
  return cub::DeviceSegmentedSort::StableSortKeys(
      j.temp, j.temp_bytes, kin, kout, n, segments, begin, begin + 1, j.stream);
}

CUB_JOB_INSTANCES(launch_segmented_sort)

} // namespace cub_bench
