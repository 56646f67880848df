/* SPDX-License-Identifier: MIT */
/*
 * CUB as the reference (cub_ref.h): every algorithm through one protocol,
 * written once here. Upload the same host data as prism gets, ask CUB for
 * its temporary storage, allocate it (outside the timed loop), run once
 * and read the result back for verification, then time the calls by
 * timing.c's method (k calls, then cudaStreamSynchronize). The launchers
 * (cub_job.cuh) are in a file per family.
 *
 * - Histograms: HistogramEven with num_levels = bins + 1 and the bounds
 *   prism gets, as levels of a type that holds them (u8: int levels
 *   0..256, as CUB users write it; i32, u32: 64-bit); or HistogramRange
 *   over the same edges. u32 counters.
 * - Compaction: the predicate x < threshold; num_selected_out stays on the
 *   device during the timing, like prism's count_out. DevicePartition::If
 *   writes the rejected elements in reverse order at the tail (its
 *   documented rule); the tail is turned back on the host before the
 *   check, which so verifies CUB's output by CUB's own rule.
 * - Segmented reduce over the same offsets (begin = offsets, end =
 *   offsets + 1).
 * - Segmented scan: the scans by key with keys = segment ids (4 bytes
 *   each, built on the host from the head flags), each segment's exclusive
 *   scan starting from the identity.
 * - Segmented sort over the same u32 offsets (begin = offsets, end =
 *   offsets + 1), out of place, values the input indices as for sort.
 */
#include "cub_job.cuh"

#include <climits>
#include <cstdio>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

namespace {

using namespace cub_bench;

bool is_histogram(cub_ref_algorithm a) {
  return a == CUB_REF_HISTOGRAM_EVEN || a == CUB_REF_HISTOGRAM_RANGE;
}

bool is_compaction(cub_ref_algorithm a) {
  return a == CUB_REF_SELECT_IF || a == CUB_REF_SELECT_FLAGGED ||
         a == CUB_REF_PARTITION_IF || a == CUB_REF_UNIQUE;
}

/* One instance per element type serves every algorithm (u8 only those
 * that take bytes: pick keeps the others from it). */
template <typename T> cudaError_t launch(cub_job &j) {
  if (is_histogram(j.algorithm))
    return launch_histogram<T>(j);
  if (is_compaction(j.algorithm))
    return launch_compaction<T>(j);
  if constexpr (!std::is_same_v<T, uint8_t>) {
    switch (j.algorithm) {
    case CUB_REF_REDUCE:
      return launch_reduce<T>(j);
    case CUB_REF_SCAN:
      return launch_scan<T>(j);
    case CUB_REF_SORT:
      return launch_sort<T>(j);
    case CUB_REF_SEGMENTED_REDUCE:
    case CUB_REF_SEGMENTED_SCAN:
      return launch_segmented<T>(j);
    case CUB_REF_MERGE:
      return launch_merge<T>(j);
    case CUB_REF_SEGMENTED_SORT:
      return launch_segmented_sort<T>(j);
    default:
      break;
    }
  }
  return cudaErrorNotSupported;
}

cudaError_t (*pick(const cub_ref_request &r))(cub_job &) {
  if (r.algorithm == CUB_REF_NONE)
    return nullptr;
  switch (r.type) {
  case PRISM_U8:
    return is_histogram(r.algorithm) || is_compaction(r.algorithm)
               ? launch<uint8_t>
               : nullptr;
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
  if ((r.algorithm == CUB_REF_SEGMENTED_REDUCE ||
       r.algorithm == CUB_REF_SEGMENTED_SORT) &&
      r.offset_size != 4)
    return "CUB reference built for u32 offsets";
  return nullptr;
}

/* The bytes of CUB's output on the device: the result's, but for sort
 * pairs' values and compaction's count (cub_ref.h's layouts). */
size_t out_bytes(const cub_ref_request &r, size_t elem) {
  if (r.algorithm == CUB_REF_REDUCE)
    return elem;
  if (is_histogram(r.algorithm))
    return r.bins * sizeof(uint32_t);
  if (r.algorithm == CUB_REF_SEGMENTED_REDUCE)
    return r.num_segments * elem;
  return r.n * elem;
}

/* Sort, merge and segmented sort pairs: values beside the keys. */
bool sorts_pairs(const cub_ref_request &r) {
  return (r.algorithm == CUB_REF_SORT || r.algorithm == CUB_REF_MERGE ||
          r.algorithm == CUB_REF_SEGMENTED_SORT) &&
         r.value_size != 0;
}

/* Out of device memory is a skip (later rows may fit), anything else a
 * failure; msg names the call. */
cub_ref_status fail(cudaError_t err, const char *what, char *msg,
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

/* Host bytes to a new device allocation (at least 1 byte), landed before
 * it returns: from pageable memory cudaMemcpy may return before the data
 * does. */
cudaError_t upload(void **dst, const void *src, size_t bytes) {
  cudaError_t err = cudaMalloc(dst, bytes ? bytes : 1);
  if (err == cudaSuccess && bytes)
    err = cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice);
  return err != cudaSuccess ? err : cudaDeviceSynchronize();
}

/* Sort values: each key's input index, as 4- or 8-byte integers. */
cudaError_t upload_indices(void **dst, size_t n, size_t value_size) {
  std::vector<unsigned char> host(n * value_size);
  for (size_t i = 0; i < n; i++) {
    if (value_size == 4) {
      uint32_t v = static_cast<uint32_t>(i);
      std::memcpy(&host[i * 4], &v, 4);
    } else {
      uint64_t v = static_cast<uint64_t>(i);
      std::memcpy(&host[i * 8], &v, 8);
    }
  }
  return upload(dst, host.data(), host.size());
}

/* The aux data on the device: as given, or segment ids from head flags. */
cudaError_t upload_aux(const cub_ref_request &r, void **aux) {
  if (r.algorithm != CUB_REF_SEGMENTED_SCAN)
    return upload(aux, r.aux, r.aux_bytes);
  const uint8_t *flags = static_cast<const uint8_t *>(r.aux);
  std::vector<uint32_t> keys(r.n);
  uint32_t id = 0;
  for (size_t i = 0; i < r.n; i++) {
    id += i > 0 && flags[i];
    keys[i] = id;
  }
  return upload(aux, keys.data(), r.n * sizeof(uint32_t));
}

/* The request's data on the device, into a and the job's pointers. A
 * host allocation that fails is a skip. */
cub_ref_status upload_request(const cub_ref_request &r, device_memory &a,
                              cub_job &j, char *msg, size_t msg_size) {
  size_t elem = prism_type_size(r.type);
  size_t result_bytes = out_bytes(r, elem);
  cudaError_t err;
  if ((err = cudaStreamCreate(&a.stream)) != cudaSuccess)
    return fail(err, "cudaStreamCreate", msg, msg_size);
  if ((err = cudaMalloc(&a.out, result_bytes ? result_bytes : 1)) !=
          cudaSuccess ||
      (is_compaction(r.algorithm) &&
       (err = cudaMalloc(&a.count, 8)) != cudaSuccess) ||
      (sorts_pairs(r) &&
       (err = cudaMalloc(&a.values_out, r.n * r.value_size)) != cudaSuccess))
    return fail(err, "cudaMalloc", msg, msg_size);
  if ((err = upload(&a.in, r.input, r.n * elem)) != cudaSuccess)
    return fail(err, "cudaMemcpy", msg, msg_size);
  try {
    if (sorts_pairs(r) &&
        (err = upload_indices(&a.values_in, r.n, r.value_size)) != cudaSuccess)
      return fail(err, "cudaMemcpy", msg, msg_size);
    if ((r.aux || r.algorithm == CUB_REF_SEGMENTED_SCAN) &&
        (err = upload_aux(r, &a.aux)) != cudaSuccess)
      return fail(err, "cudaMemcpy (aux data)", msg, msg_size);
  } catch (const std::bad_alloc &) {
    snprintf(msg, msg_size, "out of host memory");
    return CUB_REF_SKIPPED;
  }
  j.in = a.in;
  j.out = a.out;
  j.values_in = a.values_in;
  j.values_out = a.values_out;
  j.count = a.count;
  j.aux = a.aux;
  j.stream = a.stream;
  return CUB_REF_OK;
}

/* The first call's result into the host layout (cub_ref.h). */
cudaError_t read_result(const cub_ref_request &r, const cub_job &j) {
  size_t elem = prism_type_size(r.type);
  char *result = static_cast<char *>(r.result);
  if (!is_compaction(r.algorithm)) {
    size_t bytes = out_bytes(r, elem);
    cudaError_t err = cudaMemcpy(result, j.out, bytes, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess || !sorts_pairs(r))
      return err;
    return cudaMemcpy(result + bytes, j.values_out, r.n * r.value_size,
                      cudaMemcpyDeviceToHost);
  }
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

/* timing.h's callbacks: one launch, or the stream's sync. */
int call_job(void *arg) {
  cub_job *j = static_cast<cub_job *>(arg);
  return static_cast<int>(j->launch(*j));
}

int sync_job(void *arg) {
  return static_cast<int>(
      cudaStreamSynchronize(static_cast<cub_job *>(arg)->stream));
}

/* The protocol: the temp storage query, its allocation, one run and its
 * result, then the timed calls. */
cub_ref_status run_job(const cub_ref_request &r, device_memory &a, cub_job &j,
                       const bench_timer *timer, bench_timing *timing,
                       char *msg, size_t msg_size) {
  cudaError_t err;
  if ((err = j.launch(j)) != cudaSuccess) /* temp_bytes query */
    return fail(err, "CUB temp storage query", msg, msg_size);
  if ((err = cudaMalloc(&a.temp, j.temp_bytes ? j.temp_bytes : 1)) !=
      cudaSuccess)
    return fail(err, "cudaMalloc (CUB temp storage)", msg, msg_size);
  j.temp = a.temp;
  if ((err = j.launch(j)) != cudaSuccess ||
      (err = cudaStreamSynchronize(a.stream)) != cudaSuccess)
    return fail(err, "CUB", msg, msg_size);
  if ((err = read_result(r, j)) != cudaSuccess)
    return fail(err, "cudaMemcpy", msg, msg_size);
  int rc = bench_time(call_job, sync_job, &j, timer, timing);
  if (rc == -1) {
    snprintf(msg, msg_size, "out of host memory");
    return CUB_REF_FAILED;
  }
  if (rc != 0)
    return fail(static_cast<cudaError_t>(rc), "CUB", msg, msg_size);
  return CUB_REF_OK;
}

} // namespace

extern "C" int cub_ref_probe(int device, char *name, size_t name_size,
                             char *why, size_t why_size) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    snprintf(why, why_size, "no CUDA device (%s)", cudaGetErrorString(err));
    cudaGetLastError();
    return 0;
  }
  if (device < 0 || device >= count) {
    snprintf(why, why_size, "no CUDA device %d (%d found)", device, count);
    return 0;
  }
  cudaDeviceProp prop;
  err = cudaGetDeviceProperties(&prop, device);
  if (err != cudaSuccess) {
    snprintf(why, why_size, "CUDA device %d: %s", device,
             cudaGetErrorString(err));
    return 0;
  }
  snprintf(name, name_size, "%s", prop.name);
  return 1;
}

extern "C" cub_ref_status cub_ref_run(int device,
                                      const cub_ref_request *request,
                                      const bench_timer *timer,
                                      bench_timing *timing, char *msg,
                                      size_t msg_size) {
  const cub_ref_request &r = *request;
  cub_job j{};
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
  if ((err = cudaSetDevice(device)) != cudaSuccess)
    return fail(err, "cudaSetDevice", msg, msg_size);
  device_memory a;
  cub_ref_status st = upload_request(r, a, j, msg, msg_size);
  if (st != CUB_REF_OK)
    return st;
  j.algorithm = r.algorithm;
  j.op = r.op;
  j.exclusive = r.kind == PRISM_EXCLUSIVE;
  j.descending = r.order == PRISM_DESCENDING;
  j.value_size = sorts_pairs(r) ? r.value_size : 0;
  j.begin_bit = static_cast<int>(r.begin_bit);
  j.end_bit = static_cast<int>(r.end_bit);
  j.n = r.n;
  j.bins = r.bins;
  j.lower = r.lower;
  j.upper = r.upper;
  j.threshold = r.threshold;
  j.num_segments = r.num_segments;
  j.split = r.split;
  return run_job(r, a, j, timer, timing, msg, msg_size);
}
