/* SPDX-License-Identifier: MIT */
/* The launchers' operators and their identities (cub_job.cuh). */
#ifndef PRISM_BENCH_CUB_OPS_CUH
#define PRISM_BENCH_CUB_OPS_CUH

#include "cub_job.cuh"

#include <cub/cub.cuh>
#include <cuda/std/limits>

namespace cub_bench {

#if defined(CCCL_VERSION) && CCCL_VERSION >= 2008000
using min_op = cuda::minimum<>;
using max_op = cuda::maximum<>;
#else
using min_op = cub::Min;
using max_op = cub::Max;
#endif

template <typename T> T identity_min() {
  return cuda::std::numeric_limits<T>::has_infinity
             ? cuda::std::numeric_limits<T>::infinity()
             : cuda::std::numeric_limits<T>::max();
}

template <typename T> T identity_max() {
  return cuda::std::numeric_limits<T>::has_infinity
             ? -cuda::std::numeric_limits<T>::infinity()
             : cuda::std::numeric_limits<T>::lowest();
}

} // namespace cub_bench

#endif /* PRISM_BENCH_CUB_OPS_CUH */
