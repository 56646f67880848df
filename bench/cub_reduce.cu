/* SPDX-License-Identifier: MIT */
/* CUB reference, reduce: DeviceReduce::Sum, Min and Max (cub_job.cuh). */
#include "cub_ops.cuh"

namespace cub_bench {

template <typename T> cudaError_t launch_reduce(cub_job &j) {
  const T *in = static_cast<const T *>(j.in);
  T *out = static_cast<T *>(j.out);
  count_t n = static_cast<count_t>(j.n);
  switch (j.op) {
  case PRISM_MIN:
    return cub::DeviceReduce::Min(j.temp, j.temp_bytes, in, out, n, j.stream);
  case PRISM_MAX:
    return cub::DeviceReduce::Max(j.temp, j.temp_bytes, in, out, n, j.stream);
  default:
    return cub::DeviceReduce::Sum(j.temp, j.temp_bytes, in, out, n, j.stream);
  }
}

CUB_JOB_INSTANCES(launch_reduce)

} // namespace cub_bench
