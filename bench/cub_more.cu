/* SPDX-License-Identifier: MIT */
/*
 * CUB reference for histograms, compaction and segmented reduce and scan:
 * the same host data as prism, uploaded here, then timed by timing.c's
 * method (k calls, then cudaStreamSynchronize), temporary storage
 * allocated once outside the timed loop, as cub_ref.cu does.
 *
 * - Histograms: DeviceHistogram::HistogramEven with num_levels = bins + 1
 *   and the bounds prism gets, as levels of a type that holds them (u8:
 *   int levels 0..256, as CUB users write it; i32, u32: 64-bit); or
 *   HistogramRange over the same edges. u32 counters.
 * - Compaction: DeviceSelect::If / Flagged / Unique and DevicePartition::If
 *   with the predicate x < threshold; num_selected_out stays on the device
 *   during the timing, like prism's count_out. DevicePartition::If writes
 *   the rejected elements in reverse order at the tail (its documented
 *   rule); the tail is turned back on the host before the check, which so
 *   verifies CUB's output by CUB's own rule.
 * - DeviceSegmentedReduce::Sum / Min / Max over the same offsets (begin =
 *   offsets, end = offsets + 1).
 * - Segmented scan: DeviceScan::{Inclusive,Exclusive}{Sum,Scan}ByKey with
 *   keys = segment ids (4 bytes each, built on the host from the head
 *   flags), each segment's exclusive scan starting from the identity.
 */
#include "cub_common.cuh"
#include "cub_more.cuh"

#include <climits>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

namespace {

using namespace cub_ref_common;
using namespace cub_more;

/* One instance per sample / element type serves every algorithm here
 * (u8 only those that take bytes: pick keeps the others from it); the
 * families' launchers are compiled in their own files. */
template <typename T> cudaError_t launch(more_job &j) {
  switch (j.algorithm) {
  case CUB_REF_HISTOGRAM_EVEN:
  case CUB_REF_HISTOGRAM_RANGE:
    return launch_histogram<T>(j);
  case CUB_REF_SELECT_IF:
  case CUB_REF_SELECT_FLAGGED:
  case CUB_REF_PARTITION_IF:
  case CUB_REF_UNIQUE:
    return launch_compaction<T>(j);
  default:
    break;
  }
  if constexpr (!std::is_same_v<T, uint8_t>) {
    if (j.algorithm == CUB_REF_SEGMENTED_REDUCE ||
        j.algorithm == CUB_REF_SEGMENTED_SCAN)
      return launch_segmented<T>(j);
  }
  return cudaErrorNotSupported;
}

bool is_segmented(cub_ref_algorithm a) {
  return a == CUB_REF_SEGMENTED_REDUCE || a == CUB_REF_SEGMENTED_SCAN;
}

bool is_compaction(cub_ref_algorithm a) {
  return a == CUB_REF_SELECT_IF || a == CUB_REF_SELECT_FLAGGED ||
         a == CUB_REF_PARTITION_IF || a == CUB_REF_UNIQUE;
}

bool is_histogram(cub_ref_algorithm a) {
  return a == CUB_REF_HISTOGRAM_EVEN || a == CUB_REF_HISTOGRAM_RANGE;
}

cudaError_t (*pick(const cub_ref_request &r))(more_job &) {
  switch (r.type) {
  case PRISM_U8:
    return is_segmented(r.algorithm) ? nullptr : launch<uint8_t>;
  case PRISM_I32:
    return launch<int32_t>;
  case PRISM_U32:
    return launch<uint32_t>;
  case PRISM_F32:
    return launch<float>;
  case PRISM_I64:
    return launch<int64_t>;
  case PRISM_U64:
    return launch<uint64_t>;
  case PRISM_F64:
    return launch<double>;
  }
  return nullptr;
}

/* ---- The run ------------------------------------------------------------- */

/* Why CUB cannot take the request, or NULL. */
const char *unsupported(const cub_ref_request &r) {
  if (r.n > UINT32_MAX) /* see count_t */
    return "CUB reference built for n < 2^32";
  if (is_histogram(r.algorithm)) {
    if (r.n > INT_MAX || r.bins >= INT_MAX)
      return "CUB histogram reference built for n and bins < 2^31";
    /* HistogramEven's integer bins: (x - lower) * bins in 64 bits. */
    bool integer = r.type != PRISM_F32 && r.type != PRISM_F64;
    if (r.algorithm == CUB_REF_HISTOGRAM_EVEN && integer &&
        (r.upper - r.lower) * static_cast<double>(r.bins) >= 0x1p64)
      return "CUB's bin arithmetic would overflow (range * bins >= 2^64)";
  }
  if (r.algorithm == CUB_REF_SEGMENTED_REDUCE && r.offset_size != 4)
    return "CUB reference built for u32 offsets";
  return nullptr;
}

/* The bytes of CUB's output on the device, and of the result on the host
 * after the count (compaction). */
size_t out_bytes(const cub_ref_request &r, size_t elem) {
  if (is_histogram(r.algorithm))
    return r.bins * sizeof(uint32_t);
  if (r.algorithm == CUB_REF_SEGMENTED_REDUCE)
    return r.num_segments * elem;
  return r.n * elem;
}

/* The aux data on the device: as given, or segment ids from head flags. */
cudaError_t upload_aux(const cub_ref_request &r, void **aux) {
  if (r.algorithm != CUB_REF_SEGMENTED_SCAN) {
    cudaError_t err = cudaMalloc(aux, r.aux_bytes ? r.aux_bytes : 1);
    if (err == cudaSuccess && r.aux_bytes)
      err = cudaMemcpy(*aux, r.aux, r.aux_bytes, cudaMemcpyHostToDevice);
    return err != cudaSuccess ? err : cudaDeviceSynchronize();
  }
  const uint8_t *flags = static_cast<const uint8_t *>(r.aux);
  std::vector<uint32_t> keys(r.n);
  uint32_t id = 0;
  for (size_t i = 0; i < r.n; i++) {
    id += i > 0 && flags[i];
    keys[i] = id;
  }
  size_t bytes = r.n * sizeof(uint32_t);
  cudaError_t err = cudaMalloc(aux, bytes ? bytes : 1);
  if (err == cudaSuccess && bytes)
    err = cudaMemcpy(*aux, keys.data(), bytes, cudaMemcpyHostToDevice);
  return err != cudaSuccess ? err : cudaDeviceSynchronize();
}

/* The first call's result into the host layout (host_more.h). */
cudaError_t read_result(const cub_ref_request &r, const more_job &j,
                        size_t elem) {
  char *result = static_cast<char *>(r.result);
  if (!is_compaction(r.algorithm))
    return cudaMemcpy(result, j.out, out_bytes(r, elem),
                      cudaMemcpyDeviceToHost);
  uint64_t count = 0;
  cudaError_t err = cudaMemcpy(&count, j.count, 8, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess)
    return err;
  std::memcpy(result, &count, 8);
  bool partition = r.algorithm == CUB_REF_PARTITION_IF;
  size_t k = count > r.n ? 0 : static_cast<size_t>(count);
  size_t copied = partition ? r.n : k;
  if (copied == 0)
    return cudaSuccess;
  err = cudaMemcpy(result + 8, j.out, copied * elem, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess || !partition)
    return err;
  /* CUB's rejected part is in reverse input order: turn it back. */
  char *lo = result + 8 + k * elem, *hi = result + 8 + (r.n - 1) * elem;
  unsigned char tmp[8];
  for (; lo < hi; lo += elem, hi -= elem) {
    std::memcpy(tmp, lo, elem);
    std::memcpy(lo, hi, elem);
    std::memcpy(hi, tmp, elem);
  }
  return cudaSuccess;
}

} // namespace

namespace cub_ref_common {

cub_ref_status cub_more_run(int device, const cub_ref_request &r,
                            const bench_timer *timer, bench_timing *timing,
                            char *msg, size_t msg_size) {
  size_t elem = prism_type_size(r.type);
  device_memory a;
  more_job j{};
  j.launch = pick(r);
  if (!j.launch) {
    snprintf(msg, msg_size, "no CUB version of this case");
    return CUB_REF_SKIPPED;
  }
  if (const char *why = unsupported(r)) {
    snprintf(msg, msg_size, "%s", why);
    return CUB_REF_SKIPPED;
  }

  cudaError_t err;
  size_t in_bytes = r.n * elem, result_bytes = out_bytes(r, elem);
  if ((err = cudaSetDevice(device)) != cudaSuccess)
    return fail(err, "cudaSetDevice", msg, msg_size);
  if ((err = cudaStreamCreate(&a.stream)) != cudaSuccess)
    return fail(err, "cudaStreamCreate", msg, msg_size);
  if ((err = cudaMalloc(&a.in, in_bytes ? in_bytes : 1)) != cudaSuccess ||
      (err = cudaMalloc(&a.out, result_bytes ? result_bytes : 1)) !=
          cudaSuccess ||
      (err = cudaMalloc(&a.count, 8)) != cudaSuccess)
    return fail(err, "cudaMalloc", msg, msg_size);
  /* From pageable memory cudaMemcpy may return before the data lands. */
  if ((err = cudaMemcpy(a.in, r.input, in_bytes, cudaMemcpyHostToDevice)) !=
          cudaSuccess ||
      (err = cudaDeviceSynchronize()) != cudaSuccess)
    return fail(err, "cudaMemcpy", msg, msg_size);
  if (r.aux || r.algorithm == CUB_REF_SEGMENTED_SCAN) {
    try {
      err = upload_aux(r, &a.aux);
    } catch (const std::bad_alloc &) {
      snprintf(msg, msg_size, "out of host memory");
      return CUB_REF_SKIPPED;
    }
    if (err != cudaSuccess)
      return fail(err, "cudaMemcpy (aux data)", msg, msg_size);
  }

  j.algorithm = r.algorithm;
  j.op = r.op;
  j.exclusive = r.kind == PRISM_EXCLUSIVE;
  j.in = a.in;
  j.out = a.out;
  j.count = a.count;
  j.aux = a.aux;
  j.n = r.n;
  j.bins = r.bins;
  j.lower = r.lower;
  j.upper = r.upper;
  j.threshold = r.threshold;
  j.num_segments = r.num_segments;
  j.stream = a.stream;
  if ((err = j.launch(j)) != cudaSuccess) /* temp_bytes query */
    return fail(err, "CUB temp storage query", msg, msg_size);
  if ((err = cudaMalloc(&a.temp, j.temp_bytes ? j.temp_bytes : 1)) !=
      cudaSuccess)
    return fail(err, "cudaMalloc (CUB temp storage)", msg, msg_size);
  j.temp = a.temp;

  if ((err = j.launch(j)) != cudaSuccess ||
      (err = cudaStreamSynchronize(a.stream)) != cudaSuccess)
    return fail(err, "CUB", msg, msg_size);
  if ((err = read_result(r, j, elem)) != cudaSuccess)
    return fail(err, "cudaMemcpy", msg, msg_size);

  int rc =
      bench_time(call_job<more_job>, sync_job<more_job>, &j, timer, timing);
  if (rc == -1) {
    snprintf(msg, msg_size, "out of host memory");
    return CUB_REF_FAILED;
  }
  if (rc != 0)
    return fail(static_cast<cudaError_t>(rc), "CUB", msg, msg_size);
  return CUB_REF_OK;
}

} // namespace cub_ref_common
