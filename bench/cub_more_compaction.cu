/* SPDX-License-Identifier: MIT */
/*
 * CUB reference, compaction: DeviceSelect::If, Flagged and Unique, and
 * DevicePartition::If (the job: cub_more.cuh).
 */
#include "cub_common.cuh"
#include "cub_more.cuh"

namespace cub_more {
namespace {

using namespace cub_ref_common;

template <typename T> T value_as(const prism_value &v);
template <> uint8_t value_as(const prism_value &v) {
  return v.u8;
}
template <> int32_t value_as(const prism_value &v) {
  return v.i32;
}
template <> uint32_t value_as(const prism_value &v) {
  return v.u32;
}
template <> float value_as(const prism_value &v) {
  return v.f32;
}
template <> int64_t value_as(const prism_value &v) {
  return v.i64;
}
template <> uint64_t value_as(const prism_value &v) {
  return v.u64;
}
template <> double value_as(const prism_value &v) {
  return v.f64;
}

/* select_if's predicate: x < a. */
template <typename T> struct below {
  T a;
  __host__ __device__ bool operator()(const T &x) const {
    return x < a;
  }
};

template <typename T> cudaError_t launch_select_if(more_job &j) {
  return cub::DeviceSelect::If(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<T *>(j.out), static_cast<uint64_t *>(j.count),
      static_cast<int64_t>(j.n), below<T>{value_as<T>(j.threshold)}, j.stream);
}

template <typename T> cudaError_t launch_select_flagged(more_job &j) {
  return cub::DeviceSelect::Flagged(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<const uint8_t *>(j.aux), static_cast<T *>(j.out),
      static_cast<uint64_t *>(j.count), static_cast<int64_t>(j.n), j.stream);
}

template <typename T> cudaError_t launch_partition_if(more_job &j) {
  return cub::DevicePartition::If(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<T *>(j.out), static_cast<uint64_t *>(j.count),
      static_cast<int64_t>(j.n), below<T>{value_as<T>(j.threshold)}, j.stream);
}

template <typename T> cudaError_t launch_unique(more_job &j) {
  return cub::DeviceSelect::Unique(
      j.temp, j.temp_bytes, static_cast<const T *>(j.in),
      static_cast<T *>(j.out), static_cast<uint64_t *>(j.count),
      static_cast<int64_t>(j.n), j.stream);
}

} // namespace

template <typename T> cudaError_t launch_compaction(more_job &j) {
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

template cudaError_t launch_compaction<uint8_t>(more_job &);
template cudaError_t launch_compaction<int32_t>(more_job &);
template cudaError_t launch_compaction<uint32_t>(more_job &);
template cudaError_t launch_compaction<float>(more_job &);
template cudaError_t launch_compaction<int64_t>(more_job &);
template cudaError_t launch_compaction<uint64_t>(more_job &);
template cudaError_t launch_compaction<double>(more_job &);

} // namespace cub_more
