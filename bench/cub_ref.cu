/* SPDX-License-Identifier: MIT */
/*
 * CUB reference: cub::DeviceReduce, cub::DeviceScan and
 * cub::DeviceRadixSort on the same data as prism, timed by timing.c's
 * method (k calls, then cudaStreamSynchronize); the other algorithms are
 * cub_more.cu's. A job carries the buffers,
 * the case and a pointer to the launch instance for its element type.
 * Sorts use the out-of-place API (keys_in const and unchanged), so every
 * call sorts the same input, as prism's do.
 */
#include "cub_common.cuh"

#include <cstring>
#include <new>
#include <vector>

namespace {

using namespace cub_ref_common;

struct job {
  void *temp; // NULL: launch only asks for temp_bytes
  size_t temp_bytes;
  const void *in;
  void *out;
  const void *values_in; // sort pairs
  void *values_out;
  size_t n;
  cudaStream_t stream;
  cub_ref_algorithm algorithm;
  prism_op op;
  bool exclusive;
  bool descending;   // sort
  size_t value_size; // sort: 0 keys only, 4, 8
  int begin_bit, end_bit;
  cudaError_t (*launch)(job &j);
};

template <typename T> cudaError_t launch_reduce(job &j, prism_op op) {
  const T *in = static_cast<const T *>(j.in);
  T *out = static_cast<T *>(j.out);
  count_t n = static_cast<count_t>(j.n);
  switch (op) {
  case PRISM_MIN:
    return cub::DeviceReduce::Min(j.temp, j.temp_bytes, in, out, n, j.stream);
  case PRISM_MAX:
    return cub::DeviceReduce::Max(j.temp, j.temp_bytes, in, out, n, j.stream);
  default:
    return cub::DeviceReduce::Sum(j.temp, j.temp_bytes, in, out, n, j.stream);
  }
}

template <typename T>
cudaError_t launch_scan(job &j, prism_op op, bool exclusive) {
  const T *in = static_cast<const T *>(j.in);
  T *out = static_cast<T *>(j.out);
  count_t n = static_cast<count_t>(j.n);
  void *t = j.temp;
  size_t &tb = j.temp_bytes;
  switch (op) {
  case PRISM_MIN:
    return exclusive
               ? cub::DeviceScan::ExclusiveScan(t, tb, in, out, min_op{},
                                                identity_min<T>(), n, j.stream)
               : cub::DeviceScan::InclusiveScan(t, tb, in, out, min_op{}, n,
                                                j.stream);
  case PRISM_MAX:
    return exclusive
               ? cub::DeviceScan::ExclusiveScan(t, tb, in, out, max_op{},
                                                identity_max<T>(), n, j.stream)
               : cub::DeviceScan::InclusiveScan(t, tb, in, out, max_op{}, n,
                                                j.stream);
  default:
    return exclusive
               ? cub::DeviceScan::ExclusiveSum(t, tb, in, out, n, j.stream)
               : cub::DeviceScan::InclusiveSum(t, tb, in, out, n, j.stream);
  }
}

template <typename K, typename V> cudaError_t launch_sort_pairs(job &j) {
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

template <typename K> cudaError_t launch_sort(job &j) {
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

/* One instance per element type serves every operator, kind, order and
 * value size. */
template <typename T> cudaError_t launch(job &j) {
  switch (j.algorithm) {
  case CUB_REF_REDUCE:
    return launch_reduce<T>(j, j.op);
  case CUB_REF_SORT:
    return launch_sort<T>(j);
  default:
    return launch_scan<T>(j, j.op, j.exclusive);
  }
}

cudaError_t (*pick(const cub_ref_request &r))(job &) {
  switch (r.type) {
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
  case PRISM_U8: /* reduce, scan and sort take no bytes */
    break;
  }
  return nullptr;
}

/* Sort values: each key's input index, as 4- or 8-byte integers. */
cudaError_t upload_indices(void *dst, size_t n, size_t value_size) {
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
  cudaError_t err =
      cudaMemcpy(dst, host.data(), host.size(), cudaMemcpyHostToDevice);
  return err != cudaSuccess ? err : cudaDeviceSynchronize();
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
  if (is_more(r.algorithm))
    return cub_more_run(device, r, timer, timing, msg, msg_size);
  size_t elem = prism_type_size(r.type);
  size_t in_bytes = r.n * elem;
  size_t out_bytes = r.algorithm == CUB_REF_REDUCE ? elem : in_bytes;
  bool pairs = r.algorithm == CUB_REF_SORT && r.value_size != 0;
  size_t value_bytes = pairs ? r.n * r.value_size : 0;
  device_memory a;
  job j{};
  j.launch = pick(r);
  if (!j.launch || r.algorithm == CUB_REF_NONE) {
    snprintf(msg, msg_size, "no CUB version of this case");
    return CUB_REF_SKIPPED;
  }
  if (r.n > UINT32_MAX) { /* see count_t */
    snprintf(msg, msg_size, "CUB reference built for n < 2^32");
    return CUB_REF_SKIPPED;
  }

  cudaError_t err;
  if ((err = cudaSetDevice(device)) != cudaSuccess)
    return fail(err, "cudaSetDevice", msg, msg_size);
  if ((err = cudaStreamCreate(&a.stream)) != cudaSuccess)
    return fail(err, "cudaStreamCreate", msg, msg_size);
  if ((err = cudaMalloc(&a.in, in_bytes)) != cudaSuccess ||
      (err = cudaMalloc(&a.out, out_bytes)) != cudaSuccess)
    return fail(err, "cudaMalloc", msg, msg_size);
  /* From pageable memory cudaMemcpy may return before the data lands. */
  if ((err = cudaMemcpy(a.in, r.input, in_bytes, cudaMemcpyHostToDevice)) !=
          cudaSuccess ||
      (err = cudaDeviceSynchronize()) != cudaSuccess)
    return fail(err, "cudaMemcpy", msg, msg_size);

  if (pairs) {
    if ((err = cudaMalloc(&a.values_in, value_bytes)) != cudaSuccess ||
        (err = cudaMalloc(&a.values_out, value_bytes)) != cudaSuccess)
      return fail(err, "cudaMalloc", msg, msg_size);
    try {
      err = upload_indices(a.values_in, r.n, r.value_size);
    } catch (const std::bad_alloc &) {
      snprintf(msg, msg_size, "out of host memory");
      return CUB_REF_SKIPPED;
    }
    if (err != cudaSuccess)
      return fail(err, "cudaMemcpy", msg, msg_size);
  }

  j.algorithm = r.algorithm;
  j.op = r.op;
  j.exclusive = r.kind == PRISM_EXCLUSIVE;
  j.descending = r.order == PRISM_DESCENDING;
  j.value_size = pairs ? r.value_size : 0;
  j.begin_bit = static_cast<int>(r.begin_bit);
  j.end_bit = static_cast<int>(r.end_bit);
  j.in = a.in;
  j.out = a.out;
  j.values_in = a.values_in;
  j.values_out = a.values_out;
  j.n = r.n;
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
  if ((err = cudaMemcpy(r.result, a.out, out_bytes, cudaMemcpyDeviceToHost)) !=
          cudaSuccess ||
      (pairs && (err = cudaMemcpy(static_cast<char *>(r.result) + out_bytes,
                                  a.values_out, value_bytes,
                                  cudaMemcpyDeviceToHost)) != cudaSuccess))
    return fail(err, "cudaMemcpy", msg, msg_size);

  int rc = bench_time(call_job<job>, sync_job<job>, &j, timer, timing);
  if (rc == -1) {
    snprintf(msg, msg_size, "out of host memory");
    return CUB_REF_FAILED;
  }
  if (rc != 0)
    return fail(static_cast<cudaError_t>(rc), "CUB", msg, msg_size);
  return CUB_REF_OK;
}
