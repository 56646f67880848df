/* SPDX-License-Identifier: MIT */
/*
 * What the CUB reference files share (cub_ref.cu: reduce, scan, sort;
 * cub_more.cu: histograms, compaction, segmented, with their launchers in
 * cub_more_histogram.cu, cub_more_compaction.cu, cub_more_segmented.cu):
 * operators, identities, the count type, how a CUDA error becomes a row's
 * status, and the entry of cub_more.cu, to which cub_ref_run hands the
 * algorithms it does not run.
 */
#ifndef PRISM_BENCH_CUB_COMMON_CUH
#define PRISM_BENCH_CUB_COMMON_CUH

#include "cub_ref.h"

#include <cub/cub.cuh>
#include <cuda/std/limits>

#include <cstdint>
#include <cstdio>

namespace cub_ref_common {

#if defined(CCCL_VERSION) && CCCL_VERSION >= 2008000
using min_op = cuda::minimum<>;
using max_op = cuda::maximum<>;
#else
using min_op = cub::Min;
using max_op = cub::Max;
#endif

/* num_items is 32-bit, as most CUB users pass it: 64-bit counts would
 * double the build time for n >= 2^32, which the bench's sweeps do not
 * reach. */
using count_t = uint32_t;

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

/* Out of device memory is a skip (later rows may fit), anything else a
 * failure; msg names the call. */
inline cub_ref_status fail(cudaError_t err, const char *what, char *msg,
                           size_t msg_size) {
  bool oom = err == cudaErrorMemoryAllocation;
  if (oom)
    cudaGetLastError(); /* clear it: later runs may fit */
  snprintf(msg, msg_size, "%s: %s (%s)", what,
           oom ? "out of device memory" : cudaGetErrorString(err),
           cudaGetErrorName(err));
  return oom ? CUB_REF_SKIPPED : CUB_REF_FAILED;
}

/* Device memory of one run; released in one place whatever happened. */
struct device_memory {
  void *in = nullptr, *out = nullptr, *temp = nullptr;
  void *values_in = nullptr, *values_out = nullptr; /* sort pairs */
  void *count = nullptr; /* compaction: the number selected */
  void *aux = nullptr;   /* edges, flags, offsets or keys */
  cudaStream_t stream = nullptr;
  ~device_memory() {
    if (stream)
      cudaStreamDestroy(stream);
    cudaFree(aux);
    cudaFree(count);
    cudaFree(temp);
    cudaFree(values_out);
    cudaFree(values_in);
    cudaFree(out);
    cudaFree(in);
  }
};

/* timing.h's callbacks for a job: one launch, or the stream's sync. */
template <typename Job> int call_job(void *arg) {
  Job *j = static_cast<Job *>(arg);
  return static_cast<int>(j->launch(*j));
}

template <typename Job> int sync_job(void *arg) {
  return static_cast<int>(
      cudaStreamSynchronize(static_cast<Job *>(arg)->stream));
}

/* Whether cub_more_run takes the algorithm. */
inline bool is_more(cub_ref_algorithm algorithm) {
  return algorithm >= CUB_REF_HISTOGRAM_EVEN &&
         algorithm <= CUB_REF_SEGMENTED_SCAN;
}

/* cub_ref_run for the algorithms of cub_more.cu. */
cub_ref_status cub_more_run(int device, const cub_ref_request &request,
                            const bench_timer *timer, bench_timing *timing,
                            char *msg, size_t msg_size);

} // namespace cub_ref_common

#endif /* PRISM_BENCH_CUB_COMMON_CUH */
