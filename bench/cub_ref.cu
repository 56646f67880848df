/*
 * CUB reference: cub::DeviceReduce and cub::DeviceScan on the same data as
 * prism, timed by timing.c's method (k calls, then cudaStreamSynchronize).
 * A job carries the buffers, the case and a pointer to the launch instance
 * for its element type.
 */
#include "cub_ref.h"

#include <cub/cub.cuh>
#include <cuda/std/limits>

#include <cstdint>
#include <cstdio>

namespace {

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

struct job {
  void *temp; // NULL: launch only asks for temp_bytes
  size_t temp_bytes;
  const void *in;
  void *out;
  size_t n;
  cudaStream_t stream;
  cub_ref_algorithm algorithm;
  prism_op op;
  bool exclusive;
  cudaError_t (*launch)(job &j);
};

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

/* One instance per element type serves every operator and kind. */
template <typename T> cudaError_t launch(job &j) {
  if (j.algorithm == CUB_REF_REDUCE)
    return launch_reduce<T>(j, j.op);
  return launch_scan<T>(j, j.op, j.exclusive);
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
  }
  return nullptr;
}

int job_call(void *arg) {
  job *j = static_cast<job *>(arg);
  return static_cast<int>(j->launch(*j));
}

int job_sync(void *arg) {
  return static_cast<int>(
      cudaStreamSynchronize(static_cast<job *>(arg)->stream));
}

/* Device memory of one run; released in one place whatever happened. */
struct allocation {
  void *in = nullptr, *out = nullptr, *temp = nullptr;
  cudaStream_t stream = nullptr;
  ~allocation() {
    if (stream)
      cudaStreamDestroy(stream);
    cudaFree(temp);
    cudaFree(out);
    cudaFree(in);
  }
};

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
  size_t elem = prism_type_size(r.type);
  size_t in_bytes = r.n * elem;
  size_t out_bytes = r.algorithm == CUB_REF_REDUCE ? elem : in_bytes;
  allocation a;
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

  j.algorithm = r.algorithm;
  j.op = r.op;
  j.exclusive = r.kind == PRISM_EXCLUSIVE;
  j.in = a.in;
  j.out = a.out;
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
      cudaSuccess)
    return fail(err, "cudaMemcpy", msg, msg_size);

  int rc = bench_time(job_call, job_sync, &j, timer, timing);
  if (rc == -1) {
    snprintf(msg, msg_size, "out of host memory");
    return CUB_REF_FAILED;
  }
  if (rc != 0)
    return fail(static_cast<cudaError_t>(rc), "CUB", msg, msg_size);
  return CUB_REF_OK;
}
