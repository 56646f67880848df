/* SPDX-License-Identifier: MIT */
/*
 * The top-k references on NVIDIA devices (cub_ref.h's cub_topk_run), on the
 * same host data prism gets, uploaded with cudaMalloc / cudaMemcpy and
 * timed the way prism is (timing.h: k calls, then cudaStreamSynchronize);
 * device memory and CUB's temporary storage are allocated before the clock
 * starts.
 *
 * - CUB sort-then-take: every row sorted descending as (key, column) pairs
 *   (or keys alone) by the launchers cub_sort.cu and cub_segmented_sort.cu
 *   already build (DeviceRadixSort for one row, DeviceSegmentedSort over
 *   uniform u32 offsets for more), out of place. Both are stable, and the
 *   bench's keys have no -0.0 (input_fill_random_bits), so the first k of
 *   each row are prism's top k bit for bit; they are in place, so taking
 *   them costs nothing and only the sort is timed.
 * - The seeds' register kernel: a thread per row, the best K keys so far
 *   sorted in registers (register_topk below).
 */
#include "cub_job.cuh"
#include "cuda_open.cuh"

#include "key_order.h"

#include <cub/version.cuh>
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <new>
#include <vector>

namespace {

using namespace cub_bench;

constexpr unsigned kRegisterThreads = 128; /* a block of the register kernel */

/* ---- The seeds' register kernel ------------------------------------------ */

/* A key's order-preserving image (core/key_order.h), by type; B is the
 * key's bits. */
template <prism_type T> struct key_image;
template <> struct key_image<PRISM_U32> {
  using B = uint32_t;
  __device__ static B of(B b) {
    return PRISM_KEY_IMAGE_U32(b);
  }
};
template <> struct key_image<PRISM_I32> {
  using B = uint32_t;
  __device__ static B of(B b) {
    return PRISM_KEY_IMAGE_I32(b);
  }
};
template <> struct key_image<PRISM_F32> {
  using B = uint32_t;
  __device__ static B of(B b) {
    return PRISM_KEY_IMAGE_F32(b);
  }
};
template <> struct key_image<PRISM_U64> {
  using B = uint64_t;
  __device__ static B of(B b) {
    return PRISM_KEY_IMAGE_U64(b);
  }
};
template <> struct key_image<PRISM_I64> {
  using B = uint64_t;
  __device__ static B of(B b) {
    return PRISM_KEY_IMAGE_I64(b);
  }
};
template <> struct key_image<PRISM_F64> {
  using B = uint64_t;
  __device__ static B of(B b) {
    return PRISM_KEY_IMAGE_F64(b);
  }
};

/*
 * The seeds' per-row register top-k, re-created: thread r owns row r and
 * writes its k keys and column indices. It keeps the K best (image,
 * column) pairs seen so far in registers, best first (an empty slot has
 * column kEmpty), and takes the keys of its row in order: one better than
 * the K-th replaces it and moves up past every slot it beats (the loops
 * are unrolled over K, so the arrays stay in registers). A later key
 * moves only past strictly smaller images, so equal keys keep the lower
 * column first, as prism's do. The threads of a warp read rows cols keys
 * apart, a sector each, and the next keys of each row come from L1. Memory:
 * the keys once, the k chosen keys once more (by column), the outputs once.
 */
template <prism_type T, int K>
__global__ void register_topk(const typename key_image<T>::B *__restrict__ keys,
                              size_t rows, size_t cols, unsigned k,
                              typename key_image<T>::B *__restrict__ keys_out,
                              void *__restrict__ values_out,
                              unsigned value_size) {
  using B = typename key_image<T>::B;
  constexpr uint32_t kEmpty = UINT32_MAX;
  const size_t r = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const B *row = keys + r * cols;
  B best[K];
  uint32_t col[K];
#pragma unroll
  for (int i = 0; i < K; i++) {
    best[i] = 0;
    col[i] = kEmpty;
  }
  for (size_t c = 0; c < cols; c++) {
    const B x = key_image<T>::of(row[c]);
    if (col[K - 1] != kEmpty && x <= best[K - 1])
      continue;
    best[K - 1] = x;
    col[K - 1] = static_cast<uint32_t>(c);
#pragma unroll
    for (int i = K - 1; i > 0; i--) {
      if (col[i - 1] == kEmpty || best[i] > best[i - 1]) {
        const B b = best[i];
        const uint32_t j = col[i];
        best[i] = best[i - 1];
        col[i] = col[i - 1];
        best[i - 1] = b;
        col[i - 1] = j;
      }
    }
  }
  const size_t out = r * k;
#pragma unroll
  for (int i = 0; i < K; i++) {
    if (static_cast<unsigned>(i) < k) {
      keys_out[out + i] = row[col[i]];
      if (value_size == 4)
        static_cast<uint32_t *>(values_out)[out + i] = col[i];
      else if (value_size == 8)
        static_cast<uint64_t *>(values_out)[out + i] = col[i];
    }
  }
}

/* ---- One reference's call ------------------------------------------------ */

/* Device memory of one run; released in one place whatever happened. */
struct topk_memory {
  void *in = nullptr, *out = nullptr, *temp = nullptr;
  void *values_in = nullptr, *values_out = nullptr; /* pairs */
  void *offsets = nullptr; /* the segmented sort's rows + 1 */
  cudaStream_t stream = nullptr;
  ~topk_memory() {
    if (stream)
      cudaStreamDestroy(stream);
    cudaFree(offsets);
    cudaFree(temp);
    cudaFree(values_out);
    cudaFree(values_in);
    cudaFree(out);
    cudaFree(in);
  }
};

/* One call of a reference: CUB's job (the sort), or the register kernel's
 * arguments. */
struct topk_call {
  cudaError_t (*launch)(topk_call &c);
  cub_job job; /* the sort */
  const void *in;
  void *keys_out, *values_out;
  size_t rows, cols, k, value_size;
  cudaStream_t stream;
};

cudaError_t launch_sort_job(topk_call &c) {
  return c.job.launch(c.job);
}

template <prism_type T, int K> cudaError_t launch_registers(topk_call &c) {
  using B = typename key_image<T>::B;
  const size_t blocks = (c.rows + kRegisterThreads - 1) / kRegisterThreads;
  register_topk<T, K>
      <<<static_cast<unsigned>(blocks), kRegisterThreads, 0, c.stream>>>(
          static_cast<const B *>(c.in), c.rows, c.cols,
          static_cast<unsigned>(c.k), static_cast<B *>(c.keys_out),
          c.values_out, static_cast<unsigned>(c.value_size));
  return cudaGetLastError();
}

/* The register kernel for k: the least K >= k. */
template <prism_type T> cudaError_t (*registers_for(size_t k))(topk_call &) {
  if (k <= 8)
    return launch_registers<T, 8>;
  if (k <= 16)
    return launch_registers<T, 16>;
  if (k <= 32)
    return launch_registers<T, 32>;
  return launch_registers<T, 64>;
}

cudaError_t (*registers_launcher(prism_type type, size_t k))(topk_call &) {
  switch (type) {
  case PRISM_I32:
    return registers_for<PRISM_I32>(k);
  case PRISM_U32:
    return registers_for<PRISM_U32>(k);
  case PRISM_F32:
    return registers_for<PRISM_F32>(k);
  case PRISM_I64:
    return registers_for<PRISM_I64>(k);
  case PRISM_U64:
    return registers_for<PRISM_U64>(k);
  case PRISM_F64:
    return registers_for<PRISM_F64>(k);
  default:
    return nullptr;
  }
}

/* CUB's launcher of the type: the radix sort for one row, the segmented
 * sort for more. */
template <typename K> cudaError_t (*sort_for(bool segmented))(cub_job &) {
  return segmented ? launch_segmented_sort<K> : launch_sort<K>;
}

cudaError_t (*sort_launcher(prism_type type, bool segmented))(cub_job &) {
  switch (type) {
  case PRISM_I32:
    return sort_for<int32_t>(segmented);
  case PRISM_U32:
    return sort_for<uint32_t>(segmented);
  case PRISM_F32:
    return sort_for<float>(segmented);
  case PRISM_I64:
    return sort_for<int64_t>(segmented);
  case PRISM_U64:
    return sort_for<uint64_t>(segmented);
  case PRISM_F64:
    return sort_for<double>(segmented);
  default:
    return nullptr;
  }
}

/* ---- Errors, uploads, the result ----------------------------------------- */

cub_ref_status skip(const char *why, char *msg, size_t msg_size) {
  snprintf(msg, msg_size, "%s", why);
  return CUB_REF_SKIPPED;
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

/* Host bytes to a new device allocation (at least 1 byte), landed before
 * it returns. */
cudaError_t upload(void **dst, const void *src, size_t bytes) {
  cudaError_t err = cudaMalloc(dst, bytes ? bytes : 1);
  if (err == cudaSuccess && bytes)
    err = cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice);
  return err != cudaSuccess ? err : cudaDeviceSynchronize();
}

/* The sort's values: each key's column in its row, value_size bytes. */
template <typename V>
cudaError_t upload_columns(void **dst, size_t rows, size_t cols) {
  std::vector<V> host(rows * cols);
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < cols; c++)
      host[r * cols + c] = static_cast<V>(c);
  return upload(dst, host.data(), host.size() * sizeof(V));
}

/* The segmented sort's offsets: row r is [r cols, (r + 1) cols). */
cudaError_t upload_offsets(void **dst, size_t rows, size_t cols) {
  std::vector<uint32_t> host(rows + 1);
  for (size_t r = 0; r <= rows; r++)
    host[r] = static_cast<uint32_t>(r * cols);
  return upload(dst, host.data(), host.size() * sizeof(uint32_t));
}

/* The first k of each of rows rows of cols elements of size bytes, from
 * the device into rows x k on the host. */
cudaError_t take_first(void *dst, const void *src, size_t rows, size_t cols,
                       size_t k, size_t size) {
  if (rows == 1 || k == cols)
    return cudaMemcpy(dst, src, rows * k * size, cudaMemcpyDeviceToHost);
  if (cols * size <= INT_MAX) /* within cudaMemcpy2D's pitch */
    return cudaMemcpy2D(dst, k * size, src, cols * size, k * size, rows,
                        cudaMemcpyDeviceToHost);
  cudaError_t err = cudaSuccess;
  for (size_t r = 0; r < rows && err == cudaSuccess; r++)
    err = cudaMemcpy(static_cast<char *>(dst) + r * k * size,
                     static_cast<const char *>(src) + r * cols * size, k * size,
                     cudaMemcpyDeviceToHost);
  return err;
}

/* The sort's job on the device: the input, the columns and the offsets
 * uploaded, the outputs as large as the input. */
cub_ref_status sort_setup(const cub_topk_request &r, topk_memory &m,
                          topk_call &c, char *msg, size_t msg_size) {
  const size_t n = r.rows * r.cols, ks = prism_type_size(r.type);
  const bool segmented = r.rows > 1;
  if (n > UINT32_MAX) /* count_t; the segmented sort's u32 offsets */
    return skip("CUB reference built for n < 2^32", msg, msg_size);
  cudaError_t err;
  if ((err = upload(&m.in, r.input, n * ks)) != cudaSuccess)
    return fail(err, "cudaMalloc, cudaMemcpy (the keys)", msg, msg_size);
  if ((err = cudaMalloc(&m.out, n * ks)) != cudaSuccess ||
      (r.value_size &&
       (err = cudaMalloc(&m.values_out, n * r.value_size)) != cudaSuccess))
    return fail(err, "cudaMalloc", msg, msg_size);
  try {
    if (r.value_size == 4)
      err = upload_columns<uint32_t>(&m.values_in, r.rows, r.cols);
    else if (r.value_size == 8)
      err = upload_columns<uint64_t>(&m.values_in, r.rows, r.cols);
    if (err == cudaSuccess && segmented)
      err = upload_offsets(&m.offsets, r.rows, r.cols);
  } catch (const std::bad_alloc &) {
    return skip("out of host memory", msg, msg_size);
  }
  if (err != cudaSuccess)
    return fail(err, "cudaMalloc, cudaMemcpy (columns, offsets)", msg,
                msg_size);
  cub_job &j = c.job;
  j.in = m.in;
  j.out = m.out;
  j.values_in = m.values_in;
  j.values_out = m.values_out;
  j.aux = m.offsets;
  j.n = n;
  j.num_segments = r.rows;
  j.algorithm = segmented ? CUB_REF_SEGMENTED_SORT : CUB_REF_SORT;
  j.descending = true;
  j.value_size = r.value_size;
  j.begin_bit = 0;
  j.end_bit = static_cast<int>(8 * ks);
  j.stream = m.stream;
  j.launch = sort_launcher(r.type, segmented);
  c.launch = launch_sort_job;
  /* CUB's temporary storage, before the clock starts. */
  if ((err = j.launch(j)) != cudaSuccess)
    return fail(err, "CUB temp storage query", msg, msg_size);
  if ((err = cudaMalloc(&m.temp, j.temp_bytes ? j.temp_bytes : 1)) !=
      cudaSuccess)
    return fail(err, "cudaMalloc (CUB temp storage)", msg, msg_size);
  j.temp = m.temp;
  return CUB_REF_OK;
}

/* The register kernel's call: the input uploaded, rows x k outputs. */
cub_ref_status registers_setup(const cub_topk_request &r, topk_memory &m,
                               topk_call &c, char *msg, size_t msg_size) {
  const size_t ks = prism_type_size(r.type);
  if (r.k > CUB_TOPK_REGISTERS_MAX_K)
    return skip("the register kernel takes k up to 64", msg, msg_size);
  if (r.cols >= UINT32_MAX) /* u32 columns, UINT32_MAX for an empty slot */
    return skip("the register kernel takes rows of fewer than 2^32 - 1 keys",
                msg, msg_size);
  if ((r.rows + kRegisterThreads - 1) / kRegisterThreads > INT_MAX)
    return skip("more rows than the register kernel's grid", msg, msg_size);
  cudaError_t err;
  if ((err = upload(&m.in, r.input, r.rows * r.cols * ks)) != cudaSuccess)
    return fail(err, "cudaMalloc, cudaMemcpy (the keys)", msg, msg_size);
  if ((err = cudaMalloc(&m.out, r.rows * r.k * ks)) != cudaSuccess ||
      (r.value_size &&
       (err = cudaMalloc(&m.values_out, r.rows * r.k * r.value_size)) !=
           cudaSuccess))
    return fail(err, "cudaMalloc", msg, msg_size);
  c.launch = registers_launcher(r.type, r.k);
  return CUB_REF_OK;
}

/* The first call's result into the host layout: rows x k keys, then rows
 * x k values. */
cudaError_t read_result(const cub_topk_request &r, const topk_memory &m) {
  const size_t ks = prism_type_size(r.type);
  /* The sort's outputs are whole rows; the register kernel's rows of k. */
  const size_t cols = r.reference == CUB_TOPK_SORT ? r.cols : r.k;
  char *result = static_cast<char *>(r.result);
  cudaError_t err = take_first(result, m.out, r.rows, cols, r.k, ks);
  if (err != cudaSuccess || !r.value_size)
    return err;
  return take_first(result + r.rows * r.k * ks, m.values_out, r.rows, cols, r.k,
                    r.value_size);
}

/* timing.h's callbacks: one launch, or the stream's sync. */
int call_topk(void *arg) {
  topk_call *c = static_cast<topk_call *>(arg);
  return static_cast<int>(c->launch(*c));
}

int sync_topk(void *arg) {
  return static_cast<int>(
      cudaStreamSynchronize(static_cast<topk_call *>(arg)->stream));
}

} // namespace

extern "C" cub_ref_status
cub_topk_run(int device, const cub_topk_request *request,
             const bench_timer *timer, bench_timing *timing, char *name,
             size_t name_size, char *msg, size_t msg_size) {
  const cub_topk_request &r = *request;
  if (r.type == PRISM_U8)
    return skip("top-k takes every type but u8", msg, msg_size);
  if (r.rows == 0 || r.k == 0 || r.k > r.cols)
    return skip("no top-k of this shape", msg, msg_size);
  cudaError_t err = cudaSuccess;
  const char *what = "";
  switch (
      bench_cuda_open(device, name, name_size, msg, msg_size, &err, &what)) {
  case cuda_open::skipped:
    return CUB_REF_SKIPPED;
  case cuda_open::failed:
    return fail(err, what, msg, msg_size);
  case cuda_open::ok:
    break;
  }
  topk_memory m;
  if ((err = cudaStreamCreate(&m.stream)) != cudaSuccess)
    return fail(err, "cudaStreamCreate", msg, msg_size);
  topk_call c{};
  c.stream = m.stream;
  cub_ref_status st = r.reference == CUB_TOPK_SORT
                          ? sort_setup(r, m, c, msg, msg_size)
                          : registers_setup(r, m, c, msg, msg_size);
  if (st != CUB_REF_OK)
    return st;
  c.in = m.in;
  c.keys_out = m.out;
  c.values_out = m.values_out;
  c.rows = r.rows;
  c.cols = r.cols;
  c.k = r.k;
  c.value_size = r.value_size;
  const char *call =
      r.reference == CUB_TOPK_SORT ? "CUB sort" : "the register kernel";
  if ((err = c.launch(c)) != cudaSuccess ||
      (err = cudaStreamSynchronize(m.stream)) != cudaSuccess)
    return fail(err, call, msg, msg_size);
  if ((err = read_result(r, m)) != cudaSuccess)
    return fail(err, "cudaMemcpy (the result)", msg, msg_size);
  int rc = bench_time(call_topk, sync_topk, &c, timer, timing);
  if (rc == -1)
    return skip("out of host memory", msg, msg_size);
  if (rc != 0)
    return fail(static_cast<cudaError_t>(rc), call, msg, msg_size);
  return CUB_REF_OK;
}

extern "C" int cub_topk_has_device_topk(char *version, size_t version_size) {
  snprintf(version, version_size, "%d.%d.%d", CUB_MAJOR_VERSION,
           CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
#if __has_include(<cub/device/device_topk.cuh>)
  return 1;
#else
  return 0;
#endif
}
