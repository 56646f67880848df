/* SPDX-License-Identifier: MIT */
/*
 * CUB reference, compaction: DeviceSelect::If, Flagged and Unique, and
 * DevicePartition::If (cub_job.cuh).
 */
#include "cub_ops.cuh"

#include <cstring>

namespace cub_bench {
namespace {

/* The member of v of type T: every member of prism_value starts at its
 * first byte. */
template <typename T> T value_as(const prism_value &v) {
  static_assert(sizeof(T) <= sizeof v, "a prism_value member");
  T x;
  std::memcpy(&x, &v, sizeof x);
  return x;
}

/* select_if's predicate: x < a. */
template <typename T> struct below {
  T a;
  __host__ __device__ bool operator()(const T &x) const {
    return x < a;
  }
};

template <typename T> cudaError_t launch_select_if(cub_job &j) {
  return cub::DeviceSelect::If(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<T *>(j.out), static_cast<uint64_t *>(j.count),
      static_cast<int64_t>(j.n), below<T>{value_as<T>(j.threshold)}, j.stream);
}

template <typename T> cudaError_t launch_select_flagged(cub_job &j) {
  return cub::DeviceSelect::Flagged(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<const uint8_t *>(j.aux), static_cast<T *>(j.out),
      static_cast<uint64_t *>(j.count), static_cast<int64_t>(j.n), j.stream);
}

template <typename T> cudaError_t launch_partition_if(cub_job &j) {
  return cub::DevicePartition::If(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<T *>(j.out), static_cast<uint64_t *>(j.count),
      static_cast<int64_t>(j.n), below<T>{value_as<T>(j.threshold)}, j.stream);
}

template <typename T> cudaError_t launch_unique(cub_job &j) {
  return cub::DeviceSelect::Unique(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<T *>(j.out), static_cast<uint64_t *>(j.count),
      static_cast<int64_t>(j.n), j.stream);
}

} // namespace

template <typename T> cudaError_t launch_compaction(cub_job &j) {
  switch (j.algorithm) {
  case CUB_REF_SELECT_IF:
    return launch_select_if<T>(j);
  case CUB_REF_SELECT_FLAGGED:
    return launch_select_flagged<T>(j);
  case CUB_REF_PARTITION_IF:
    return launch_partition_if<T>(j);
  default:
    return launch_unique<T>(j);
  }
}

CUB_JOB_INSTANCES_WITH_BYTES(launch_compaction)

} // namespace cub_bench
