/* SPDX-License-Identifier: MIT */
/* CUB reference, scan: DeviceScan::{Inclusive,Exclusive}{Sum,Scan}
 * (cub_job.cuh). */
#include "cub_ops.cuh"

namespace cub_bench {

template <typename T> cudaError_t launch_scan(cub_job &j) {
  const T *in = static_cast<const T *>(j.in);
  T *out = static_cast<T *>(j.out);
  count_t n = static_cast<count_t>(j.n);
  void *t = j.temp;
  size_t &tb = j.temp_bytes;
  switch (j.op) {
  case PRISM_MIN:
    return j.exclusive
               ? cub::DeviceScan::ExclusiveScan(t, tb, in, out, min_op{},
                                                identity_min<T>(), n, j.stream)
               : cub::DeviceScan::InclusiveScan(t, tb, in, out, min_op{}, n,
                                                j.stream);
  case PRISM_MAX:
    return j.exclusive
               ? cub::DeviceScan::ExclusiveScan(t, tb, in, out, max_op{},
                                                identity_max<T>(), n, j.stream)
               : cub::DeviceScan::InclusiveScan(t, tb, in, out, max_op{}, n,
                                                j.stream);
  default:
    return j.exclusive
               ? cub::DeviceScan::ExclusiveSum(t, tb, in, out, n, j.stream)
               : cub::DeviceScan::InclusiveSum(t, tb, in, out, n, j.stream);
  }
}

CUB_JOB_INSTANCES(launch_scan)

} // namespace cub_bench
