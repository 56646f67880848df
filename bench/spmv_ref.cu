/* SPDX-License-Identifier: MIT */
/*
 * The SpMV references on NVIDIA devices (spmv_ref.h): cuSPARSE's
 * cusparseSpMV and the seeds' warp-per-row kernel, on one upload of the
 * matrix, x and y's start.
 */
#include "spmv_ref.h"
#include "cuda_open.cuh"

#include <cuda_runtime.h>
#ifdef PRISM_BENCH_HAVE_CUSPARSE
#include <cusparse.h>
#endif

#include <climits>
#include <cstdint>
#include <cstdio>
#include <new>
#include <vector>

namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kWarpsPerBlock = 8; /* 256 threads, a row per warp */

/*
 * The seeds' CSR SpMV: warp w owns row w and writes y[w]. Its lanes take
 * the row's entries lane, lane + 32, ... (coalesced reads of columns and
 * values, gathers of x), each summing its share from 0; a shuffle
 * reduction adds the 32 sums and lane 0 writes alpha * sum (+ beta * y,
 * read only when beta is not 0). Traffic: the row offsets, the columns and
 * values once, x gathered, y written once. A row of any length stays with
 * its warp: a short row leaves lanes idle, a huge one keeps one warp busy
 * while the others finish.
 */
template <typename T>
__global__ void warp_per_row(size_t rows, const uint64_t *row_offsets,
                             const uint32_t *col_indices, const T *values,
                             const T *x, T alpha, T beta, T *y) {
  size_t row =
      (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
  unsigned lane = threadIdx.x % kWarpSize;
  if (row >= rows) /* the whole warp: its lanes share the row */
    return;
  T sum = 0;
  uint64_t end = row_offsets[row + 1];
  for (uint64_t e = row_offsets[row] + lane; e < end; e += kWarpSize)
    sum += values[e] * x[col_indices[e]];
  for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0)
    y[row] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[row];
}

/* Out of device memory is a skip, anything else a failure; msg names the
 * call. */
spmv_ref_status fail(cudaError_t err, const char *what, char *msg,
                     size_t msg_size) {
  bool oom = err == cudaErrorMemoryAllocation;
  cudaGetLastError(); /* clear it: later matrices may fit */
  snprintf(msg, msg_size, "%s: %s (%s)", what,
           oom ? "out of device memory" : cudaGetErrorString(err),
           cudaGetErrorName(err));
  return oom ? SPMV_REF_SKIPPED : SPMV_REF_FAILED;
}

#ifdef PRISM_BENCH_HAVE_CUSPARSE
spmv_ref_status fail_sparse(cusparseStatus_t st, const char *what, char *msg,
                            size_t msg_size) {
  bool oom = st == CUSPARSE_STATUS_ALLOC_FAILED;
  snprintf(msg, msg_size, "%s: %s (%s)", what,
           oom ? "out of device memory" : cusparseGetErrorString(st),
           cusparseGetErrorName(st));
  return oom ? SPMV_REF_SKIPPED : SPMV_REF_FAILED;
}
#endif

/* Host bytes to a new device allocation (at least 1 byte), landed before
 * it returns: from pageable memory cudaMemcpy may return before the data
 * does. */
cudaError_t upload(void **dst, const void *src, size_t bytes) {
  cudaError_t err = cudaMalloc(dst, bytes ? bytes : 1);
  if (err == cudaSuccess && bytes)
    err = cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice);
  return err != cudaSuccess ? err : cudaDeviceSynchronize();
}

} // namespace

struct spmv_ref {
  int device = 0;
  prism_type type = PRISM_F32;
  size_t rows = 0, cols = 0, entries = 0;
  const uint64_t *host_offsets = nullptr; /* cuSPARSE's 32-bit copy */
  const uint32_t *host_columns = nullptr; /* its 64-bit copy */
  void *row_offsets = nullptr, *col_indices = nullptr, *values = nullptr;
  void *x = nullptr, *y = nullptr, *y0 = nullptr;
  cudaStream_t stream = nullptr;
  ~spmv_ref() {
    if (stream)
      cudaStreamDestroy(stream);
    cudaFree(y0);
    cudaFree(y);
    cudaFree(x);
    cudaFree(values);
    cudaFree(col_indices);
    cudaFree(row_offsets);
  }
};

namespace {

/* One timed call of a reference; the first error it meets stays here
 * (bench_time hands back only that the call failed). */
struct ref_call {
  spmv_ref *r;
  spmv_ref_kind kind;
  double alpha, beta;
  cudaError_t err = cudaSuccess;
#ifdef PRISM_BENCH_HAVE_CUSPARSE
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  cudaDataType value_type = CUDA_R_32F;
  void *buffer = nullptr;
  void *offsets = nullptr, *columns = nullptr; /* cuSPARSE's own copies */
  cusparseStatus_t sparse = CUSPARSE_STATUS_SUCCESS;
#endif
  ~ref_call() {
#ifdef PRISM_BENCH_HAVE_CUSPARSE
    if (y)
      cusparseDestroyDnVec(y);
    if (x)
      cusparseDestroyDnVec(x);
    if (a)
      cusparseDestroySpMat(a);
    if (handle)
      cusparseDestroy(handle);
    cudaFree(columns);
    cudaFree(offsets);
    cudaFree(buffer);
#endif
  }
};

template <typename T> cudaError_t launch_warp(const ref_call &c) {
  const spmv_ref &r = *c.r;
  if (r.rows == 0)
    return cudaSuccess;
  size_t blocks = (r.rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
  warp_per_row<T><<<static_cast<unsigned>(blocks), kWarpsPerBlock * kWarpSize,
                    0, r.stream>>>(
      r.rows, static_cast<const uint64_t *>(r.row_offsets),
      static_cast<const uint32_t *>(r.col_indices),
      static_cast<const T *>(r.values), static_cast<const T *>(r.x),
      static_cast<T>(c.alpha), static_cast<T>(c.beta), static_cast<T *>(r.y));
  return cudaGetLastError();
}

#ifdef PRISM_BENCH_HAVE_CUSPARSE
template <typename T> cusparseStatus_t launch_cusparse(ref_call &c) {
  T alpha = static_cast<T>(c.alpha), beta = static_cast<T>(c.beta);
  return cusparseSpMV(c.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c.a,
                      c.x, &beta, c.y, c.value_type, CUSPARSE_SPMV_ALG_DEFAULT,
                      c.buffer);
}

/* The row offsets and columns as cuSPARSE takes them, one index type for
 * both: 32-bit where the matrix fits (cuSPARSE's indices are signed),
 * else 64-bit (the offsets as they are, the columns widened). */
cudaError_t cusparse_indices(ref_call &c, cusparseIndexType_t *type) {
  spmv_ref &r = *c.r;
  bool narrow =
      r.entries <= INT32_MAX && r.rows <= INT32_MAX && r.cols <= INT32_MAX;
  *type = narrow ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  if (narrow) {
    std::vector<int32_t> offsets(r.rows + 1);
    for (size_t i = 0; i <= r.rows; i++)
      offsets[i] = static_cast<int32_t>(r.host_offsets[i]);
    return upload(&c.offsets, offsets.data(), offsets.size() * 4);
  }
  std::vector<int64_t> columns(r.entries);
  for (size_t e = 0; e < r.entries; e++)
    columns[e] = r.host_columns[e];
  return upload(&c.columns, columns.data(), columns.size() * 8);
}

/* The handle, the descriptors and the external buffer: all cuSPARSE needs
 * before the clock starts. */
spmv_ref_status cusparse_setup(ref_call &c, char *msg, size_t msg_size) {
  spmv_ref &r = *c.r;
  cusparseIndexType_t index;
  cusparseStatus_t st;
  cudaError_t err;
  if (r.rows == 0 || r.cols == 0) {
    snprintf(msg, msg_size, "cuSPARSE reference built for rows, cols > 0");
    return SPMV_REF_SKIPPED;
  }
  try {
    if ((err = cusparse_indices(c, &index)) != cudaSuccess)
      return fail(err, "cudaMemcpy (cuSPARSE's indices)", msg, msg_size);
  } catch (const std::bad_alloc &) {
    snprintf(msg, msg_size, "out of host memory");
    return SPMV_REF_SKIPPED;
  }
  c.value_type = r.type == PRISM_F64 ? CUDA_R_64F : CUDA_R_32F;
  if ((st = cusparseCreate(&c.handle)) != CUSPARSE_STATUS_SUCCESS)
    return fail_sparse(st, "cusparseCreate", msg, msg_size);
  if ((st = cusparseSetStream(c.handle, r.stream)) != CUSPARSE_STATUS_SUCCESS)
    return fail_sparse(st, "cusparseSetStream", msg, msg_size);
  if ((st = cusparseCreateCsr(
           &c.a, static_cast<int64_t>(r.rows), static_cast<int64_t>(r.cols),
           static_cast<int64_t>(r.entries),
           c.offsets ? c.offsets : r.row_offsets,
           c.columns ? c.columns : r.col_indices, r.values, index, index,
           CUSPARSE_INDEX_BASE_ZERO, c.value_type)) != CUSPARSE_STATUS_SUCCESS)
    return fail_sparse(st, "cusparseCreateCsr", msg, msg_size);
  if ((st = cusparseCreateDnVec(&c.x, static_cast<int64_t>(r.cols), r.x,
                                c.value_type)) != CUSPARSE_STATUS_SUCCESS ||
      (st = cusparseCreateDnVec(&c.y, static_cast<int64_t>(r.rows), r.y,
                                c.value_type)) != CUSPARSE_STATUS_SUCCESS)
    return fail_sparse(st, "cusparseCreateDnVec", msg, msg_size);
  size_t bytes = 0;
  double one = 1, zero = 0; /* any scalars of the type: only sizes */
  float one_f = 1, zero_f = 0;
  bool f64 = r.type == PRISM_F64;
  if ((st = cusparseSpMV_bufferSize(
           c.handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
           f64 ? static_cast<const void *>(&one) : &one_f, c.a, c.x,
           f64 ? static_cast<const void *>(&zero) : &zero_f, c.y, c.value_type,
           CUSPARSE_SPMV_ALG_DEFAULT, &bytes)) != CUSPARSE_STATUS_SUCCESS)
    return fail_sparse(st, "cusparseSpMV_bufferSize", msg, msg_size);
  if ((err = cudaMalloc(&c.buffer, bytes ? bytes : 1)) != cudaSuccess)
    return fail(err, "cudaMalloc (cuSPARSE's buffer)", msg, msg_size);
  return SPMV_REF_OK;
}
#endif

int call_ref(void *arg) {
  ref_call &c = *static_cast<ref_call *>(arg);
  bool f64 = c.r->type == PRISM_F64;
  if (c.kind == SPMV_REF_WARP) {
    c.err = f64 ? launch_warp<double>(c) : launch_warp<float>(c);
    return c.err != cudaSuccess;
  }
#ifdef PRISM_BENCH_HAVE_CUSPARSE
  c.sparse = f64 ? launch_cusparse<double>(c) : launch_cusparse<float>(c);
  return c.sparse != CUSPARSE_STATUS_SUCCESS;
#else
  return 1;
#endif
}

int sync_ref(void *arg) {
  ref_call &c = *static_cast<ref_call *>(arg);
  c.err = cudaStreamSynchronize(c.r->stream);
  return c.err != cudaSuccess;
}

/* What made a call or its sync fail, into msg. */
spmv_ref_status call_failed(const ref_call &c, char *msg, size_t msg_size) {
#ifdef PRISM_BENCH_HAVE_CUSPARSE
  if (c.sparse != CUSPARSE_STATUS_SUCCESS)
    return fail_sparse(c.sparse, "cusparseSpMV", msg, msg_size);
#endif
  return fail(c.err,
              c.kind == SPMV_REF_WARP ? "the warp-per-row kernel"
                                      : "cusparseSpMV",
              msg, msg_size);
}

} // namespace

extern "C" spmv_ref_status
spmv_ref_create(int device, const prism_csr_matrix *a, const void *x,
                const void *y0, spmv_ref **out, char *name, size_t name_size,
                char *msg, size_t msg_size) {
  *out = nullptr;
  cudaError_t err = cudaSuccess;
  const char *what = "";
  switch (
      bench_cuda_open(device, name, name_size, msg, msg_size, &err, &what)) {
  case cuda_open::skipped:
    return SPMV_REF_SKIPPED;
  case cuda_open::failed:
    return fail(err, what, msg, msg_size);
  case cuda_open::ok:
    break;
  }

  spmv_ref *r = new (std::nothrow) spmv_ref;
  if (!r) {
    snprintf(msg, msg_size, "out of host memory");
    return SPMV_REF_SKIPPED;
  }
  r->device = device;
  r->type = a->value_type;
  r->rows = a->csr.num_vertices;
  r->cols = a->num_cols;
  r->entries = a->csr.num_edges;
  r->host_offsets = a->csr.row_offsets;
  r->host_columns = a->csr.col_indices;
  size_t elem = prism_type_size(r->type);
  if ((err = cudaStreamCreate(&r->stream)) != cudaSuccess) {
    delete r;
    return fail(err, "cudaStreamCreate", msg, msg_size);
  }
  if ((err = upload(&r->row_offsets, a->csr.row_offsets,
                    (r->rows + 1) * sizeof(uint64_t))) != cudaSuccess ||
      (err = upload(&r->col_indices, a->csr.col_indices,
                    r->entries * sizeof(uint32_t))) != cudaSuccess ||
      (err = upload(&r->values, a->values, r->entries * elem)) != cudaSuccess ||
      (err = upload(&r->x, x, r->cols * elem)) != cudaSuccess ||
      (err = upload(&r->y0, y0, r->rows * elem)) != cudaSuccess ||
      (err = cudaMalloc(&r->y, r->rows ? r->rows * elem : 1)) != cudaSuccess) {
    delete r;
    return fail(err, "cudaMalloc, cudaMemcpy", msg, msg_size);
  }
  *out = r;
  return SPMV_REF_OK;
}

extern "C" spmv_ref_status spmv_ref_run(spmv_ref *r, spmv_ref_kind kind,
                                        double alpha, double beta,
                                        const bench_timer *timer,
                                        bench_timing *timing, void *result,
                                        char *msg, size_t msg_size) {
  cudaError_t err;
  if ((err = cudaSetDevice(r->device)) != cudaSuccess)
    return fail(err, "cudaSetDevice", msg, msg_size);
  ref_call c;
  c.r = r;
  c.kind = kind;
  c.alpha = alpha;
  c.beta = beta;
  if (kind == SPMV_REF_CUSPARSE) {
#ifdef PRISM_BENCH_HAVE_CUSPARSE
    spmv_ref_status st = cusparse_setup(c, msg, msg_size);
    if (st != SPMV_REF_OK)
      return st;
#else
    snprintf(msg, msg_size, "prism-bench was built without cuSPARSE");
    return SPMV_REF_SKIPPED;
#endif
  }
  size_t y_bytes = r->rows * prism_type_size(r->type);
  if (y_bytes &&
      (err = cudaMemcpyAsync(r->y, r->y0, y_bytes, cudaMemcpyDeviceToDevice,
                             r->stream)) != cudaSuccess)
    return fail(err, "cudaMemcpyAsync (y's start)", msg, msg_size);
  if (call_ref(&c) != 0 || sync_ref(&c) != 0)
    return call_failed(c, msg, msg_size);
  if (y_bytes && (err = cudaMemcpy(result, r->y, y_bytes,
                                   cudaMemcpyDeviceToHost)) != cudaSuccess)
    return fail(err, "cudaMemcpy (y)", msg, msg_size);
  int rc = bench_time(call_ref, sync_ref, &c, timer, timing);
  if (rc == -1) {
    snprintf(msg, msg_size, "out of host memory");
    return SPMV_REF_FAILED;
  }
  if (rc != 0)
    return call_failed(c, msg, msg_size);
  return SPMV_REF_OK;
}

extern "C" void spmv_ref_destroy(spmv_ref *r) {
  if (!r)
    return;
  cudaSetDevice(r->device);
  delete r;
}
