/* SPDX-License-Identifier: MIT */
/*
 * CUB reference, sort: DeviceRadixSort::Sort{Keys,Pairs}[Descending]
 * (cub_job.cuh), out of place (keys_in const and unchanged), so every call
 * sorts the same input, as prism's do.
 */
#include "cub_ops.cuh"

namespace cub_bench {
namespace {

template <typename K, typename V> cudaError_t launch_sort_pairs(cub_job &j) {
  const K *kin = static_cast<const K *>(j.in);
  K *kout = static_cast<K *>(j.out);
  const V *vin = static_cast<const V *>(j.values_in);
  V *vout = static_cast<V *>(j.values_out);
  count_t n = static_cast<count_t>(j.n);
  if (j.descending)
    return cub::DeviceRadixSort::SortPairsDescending(
        j.temp, j.temp_bytes, kin, kout, vin, vout, n, j.begin_bit, j.end_bit,
        j.stream);
  return cub::DeviceRadixSort::SortPairs(j.temp, j.temp_bytes, kin, kout, vin,
                                         vout, n, j.begin_bit, j.end_bit,
                                         j.stream);
}

} // namespace

template <typename K> cudaError_t launch_sort(cub_job &j) {
  if (j.value_size == 4)
    return launch_sort_pairs<K, uint32_t>(j);
  if (j.value_size == 8)
    return launch_sort_pairs<K, uint64_t>(j);
  const K *kin = static_cast<const K *>(j.in);
  K *kout = static_cast<K *>(j.out);
  count_t n = static_cast<count_t>(j.n);
  if (j.descending)
    return cub::DeviceRadixSort::SortKeysDescending(
        j.temp, j.temp_bytes, kin, kout, n, j.begin_bit, j.end_bit, j.stream);
  return cub::DeviceRadixSort::SortKeys(j.temp, j.temp_bytes, kin, kout, n,
                                        j.begin_bit, j.end_bit, j.stream);
}

CUB_JOB_INSTANCES(launch_sort)

} // namespace cub_bench
