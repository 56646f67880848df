/* SPDX-License-Identifier: MIT */
/*
 * The dense references on NVIDIA devices (dense_ref.h): the naive
 * transpose, the naive stencil, the seeds' constant-memory conv2d and
 * cuDNN's convolution, on one upload of the input.
 */
#include "dense_ref.h"
#include "cuda_open.cuh"

#include <cuda_runtime.h>
#ifdef PRISM_BENCH_HAVE_CUDNN
#include <cudnn.h>
#endif

#include <climits>
#include <cstdint>
#include <cstdio>
#include <new>

namespace {

constexpr unsigned kThreads = 256;      /* a block of the 1-D kernels */
constexpr unsigned kConvBlockSide = 16; /* the seeds' conv2d: 16 x 16 */
constexpr unsigned kMaxGridY = 65535;

/* The naive stencil's taps: the offsets and weights of the nonzero
 * weights, in prism's order (dz, then dy, then dx). */
__constant__ int c_tap_dx[DENSE_REF_MAX_TAPS];
__constant__ int c_tap_dy[DENSE_REF_MAX_TAPS];
__constant__ int c_tap_dz[DENSE_REF_MAX_TAPS];
__constant__ float c_tap_w32[DENSE_REF_MAX_TAPS];
__constant__ double c_tap_w64[DENSE_REF_MAX_TAPS];

/* The seeds' conv2d weights, K x K, dx fastest. */
constexpr int kConvMaxWeights = DENSE_REF_CONV2D_MAX_K * DENSE_REF_CONV2D_MAX_K;
__constant__ float c_conv_w32[kConvMaxWeights];
__constant__ double c_conv_w64[kConvMaxWeights];

template <typename T> __device__ T tap_weight(int k);
template <> __device__ float tap_weight<float>(int k) {
  return c_tap_w32[k];
}
template <> __device__ double tap_weight<double>(int k) {
  return c_tap_w64[k];
}

template <typename T> __device__ T conv_weight(int k);
template <> __device__ float conv_weight<float>(int k) {
  return c_conv_w32[k];
}
template <> __device__ double conv_weight<double>(int k) {
  return c_conv_w64[k];
}

/*
 * The naive transpose: thread i owns input element i (of the whole batch)
 * and writes it to its place in the transposed matrix. Reads are
 * coalesced; consecutive threads write rows elements apart, so each write
 * takes a sector of its own: about 32 bytes moved for each element
 * written, the cost a tiled transpose avoids.
 */
template <typename E>
__global__ void naive_transpose(const E *in, E *out, size_t rows, size_t cols,
                                size_t n) {
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  size_t matrix = rows * cols, b = i / matrix, rc = i % matrix;
  size_t r = rc / cols, c = rc % cols;
  out[b * matrix + c * rows + r] = in[i];
}

/* Coordinate c of an axis of extent n under border: its index, or false
 * where the zero border reads 0.0. */
__device__ bool resolve(long long c, long long n, prism_border border,
                        long long *at) {
  if (c >= 0 && c < n) {
    *at = c;
    return true;
  }
  if (border == PRISM_BORDER_ZERO)
    return false;
  if (border == PRISM_BORDER_CLAMP)
    *at = c < 0 ? 0 : n - 1;
  else
    *at = (c % n + n) % n;
  return true;
}

/*
 * The naive stencil: thread i owns grid point i and writes out[i]. Each
 * tap is a load from global memory (neighbouring threads share them only
 * through the caches), the weight and offset a broadcast from constant
 * memory; the sum is prism's: fma from +0.0 over the nonzero weights in
 * order, 0.0 for a point outside a zero border.
 */
template <typename T>
__global__ void naive_stencil(const T *in, T *out, long long nx, long long ny,
                              long long nz, size_t points, int taps,
                              prism_border border) {
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= points)
    return;
  long long x = static_cast<long long>(i % nx);
  long long t = static_cast<long long>(i / nx);
  long long y = t % ny, z = t / ny;
  T acc = 0;
  for (int k = 0; k < taps; k++) {
    long long xx = 0, yy = 0, zz = 0;
    bool inside = resolve(x + c_tap_dx[k], nx, border, &xx) &&
                  resolve(y + c_tap_dy[k], ny, border, &yy) &&
                  resolve(z + c_tap_dz[k], nz, border, &zz);
    T v = inside ? in[(zz * ny + yy) * nx + xx] : T(0);
    acc = fma(tap_weight<T>(k), v, acc);
  }
  out[i] = acc;
}

/*
 * The seeds' conv2d: thread (x, y) of a 16 x 16 block owns pixel (x, y);
 * the K x K loop reads the input straight from global memory, each
 * coordinate clamped into the image, the weights from constant memory.
 * Rows past the grid's height are taken in steps of the grid.
 */
template <typename T>
__global__ void conv2d_constant(const T *in, T *out, int nx, int ny, int r) {
  int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= nx)
    return;
  int k = 2 * r + 1;
  for (int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); y < ny;
       y += static_cast<int>(gridDim.y * blockDim.y)) {
    T acc = 0;
    for (int dy = -r; dy <= r; dy++) {
      int yy = min(max(y + dy, 0), ny - 1);
      for (int dx = -r; dx <= r; dx++) {
        int xx = min(max(x + dx, 0), nx - 1);
        acc = fma(conv_weight<T>((dy + r) * k + dx + r),
                  in[static_cast<size_t>(yy) * nx + xx], acc);
      }
    }
    out[static_cast<size_t>(y) * nx + x] = acc;
  }
}

/* Out of device memory is a skip, anything else a failure; msg names the
 * call. */
dense_ref_status fail(cudaError_t err, const char *what, char *msg,
                      size_t msg_size) {
  bool oom = err == cudaErrorMemoryAllocation;
  cudaGetLastError(); /* clear it: later shapes may fit */
  snprintf(msg, msg_size, "%s: %s (%s)", what,
           oom ? "out of device memory" : cudaGetErrorString(err),
           cudaGetErrorName(err));
  return oom ? DENSE_REF_SKIPPED : DENSE_REF_FAILED;
}

dense_ref_status skip(const char *why, char *msg, size_t msg_size) {
  snprintf(msg, msg_size, "%s", why);
  return DENSE_REF_SKIPPED;
}

size_t blocks_for(size_t n) {
  return (n + kThreads - 1) / kThreads;
}

} // namespace

struct dense_ref {
  int device = 0;
  size_t bytes = 0;
  void *in = nullptr, *out = nullptr;
  cudaStream_t stream = nullptr;
  ~dense_ref() {
    if (stream)
      cudaStreamDestroy(stream);
    cudaFree(out);
    cudaFree(in);
  }
};

namespace {

/* One timed call of a reference; the first error it meets stays here
 * (bench_time hands back only that the call failed). */
struct ref_call {
  dense_ref *r = nullptr;
  cudaError_t (*launch)(ref_call &c) = nullptr;
  const char *what = ""; /* the call, for an error */
  cudaError_t err = cudaSuccess;
  /* transpose */
  size_t rows = 0, cols = 0, n = 0;
  /* stencils */
  prism_stencil_desc desc{};
  int taps = 0;
#ifdef PRISM_BENCH_HAVE_CUDNN
  cudnnHandle_t handle = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  void *weights = nullptr, *workspace = nullptr;
  size_t workspace_bytes = 0;
  cudnnStatus_t dnn = CUDNN_STATUS_SUCCESS;
#endif
  ~ref_call() {
#ifdef PRISM_BENCH_HAVE_CUDNN
    if (conv)
      cudnnDestroyConvolutionDescriptor(conv);
    if (w)
      cudnnDestroyFilterDescriptor(w);
    if (y)
      cudnnDestroyTensorDescriptor(y);
    if (x)
      cudnnDestroyTensorDescriptor(x);
    if (handle)
      cudnnDestroy(handle);
    cudaFree(workspace);
    cudaFree(weights);
#endif
  }
};

template <typename E> cudaError_t launch_transpose(ref_call &c) {
  const dense_ref &r = *c.r;
  naive_transpose<E>
      <<<static_cast<unsigned>(blocks_for(c.n)), kThreads, 0, r.stream>>>(
          static_cast<const E *>(r.in), static_cast<E *>(r.out), c.rows, c.cols,
          c.n);
  return cudaGetLastError();
}

template <typename T> cudaError_t launch_stencil(ref_call &c) {
  const dense_ref &r = *c.r;
  size_t points = c.desc.nx * c.desc.ny * c.desc.nz;
  naive_stencil<T>
      <<<static_cast<unsigned>(blocks_for(points)), kThreads, 0, r.stream>>>(
          static_cast<const T *>(r.in), static_cast<T *>(r.out),
          static_cast<long long>(c.desc.nx), static_cast<long long>(c.desc.ny),
          static_cast<long long>(c.desc.nz), points, c.taps, c.desc.border);
  return cudaGetLastError();
}

template <typename T> cudaError_t launch_conv2d(ref_call &c) {
  const dense_ref &r = *c.r;
  size_t rows = (c.desc.ny + kConvBlockSide - 1) / kConvBlockSide;
  dim3 block(kConvBlockSide, kConvBlockSide);
  dim3 grid(
      static_cast<unsigned>((c.desc.nx + kConvBlockSide - 1) / kConvBlockSide),
      static_cast<unsigned>(rows < kMaxGridY ? rows : kMaxGridY));
  conv2d_constant<T><<<grid, block, 0, r.stream>>>(
      static_cast<const T *>(r.in), static_cast<T *>(r.out),
      static_cast<int>(c.desc.nx), static_cast<int>(c.desc.ny),
      static_cast<int>(c.desc.radius));
  return cudaGetLastError();
}

#ifdef PRISM_BENCH_HAVE_CUDNN
cudaError_t launch_cudnn(ref_call &c) {
  const float alpha = 1, beta = 0;
  c.dnn = cudnnConvolutionForward(c.handle, &alpha, c.x, c.r->in, c.w,
                                  c.weights, c.conv, c.algo, c.workspace,
                                  c.workspace_bytes, &beta, c.y, c.r->out);
  return c.dnn == CUDNN_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

/* Out of memory or not supported is a skip, anything else a failure. */
dense_ref_status fail_dnn(cudnnStatus_t st, const char *what, char *msg,
                          size_t msg_size) {
  bool skipped =
      st == CUDNN_STATUS_ALLOC_FAILED || st == CUDNN_STATUS_NOT_SUPPORTED;
  snprintf(msg, msg_size, "%s: %s", what, cudnnGetErrorString(st));
  return skipped ? DENSE_REF_SKIPPED : DENSE_REF_FAILED;
}

const char *algo_name(cudnnConvolutionFwdAlgo_t algo) {
  switch (algo) {
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM:
    return "IMPLICIT_GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM:
    return "IMPLICIT_PRECOMP_GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_GEMM:
    return "GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT:
    return "DIRECT";
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT:
    return "FFT";
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING:
    return "FFT_TILING";
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD:
    return "WINOGRAD";
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED:
    return "WINOGRAD_NONFUSED";
  default:
    return "?";
  }
}

/* The handle, the descriptors, the weights, the algorithm and its
 * workspace: all cuDNN needs before the clock starts. */
dense_ref_status cudnn_setup(ref_call &c, const void *weights, char *msg,
                             size_t msg_size) {
  const prism_stencil_desc &d = c.desc;
  const int k = static_cast<int>(2 * d.radius + 1);
  const int pad = static_cast<int>(d.radius);
  if (d.nx > INT_MAX || d.ny > INT_MAX)
    return skip("cuDNN takes extents up to INT_MAX", msg, msg_size);
  const int w = static_cast<int>(d.nx), h = static_cast<int>(d.ny);
  cudnnStatus_t st;
  if ((st = cudnnCreate(&c.handle)) != CUDNN_STATUS_SUCCESS) {
    snprintf(msg, msg_size, "cudnnCreate: %s", cudnnGetErrorString(st));
    return DENSE_REF_SKIPPED; /* no usable cuDNN here */
  }
  if ((st = cudnnSetStream(c.handle, c.r->stream)) != CUDNN_STATUS_SUCCESS)
    return fail_dnn(st, "cudnnSetStream", msg, msg_size);
  if ((st = cudnnCreateTensorDescriptor(&c.x)) != CUDNN_STATUS_SUCCESS ||
      (st = cudnnCreateTensorDescriptor(&c.y)) != CUDNN_STATUS_SUCCESS ||
      (st = cudnnCreateFilterDescriptor(&c.w)) != CUDNN_STATUS_SUCCESS ||
      (st = cudnnCreateConvolutionDescriptor(&c.conv)) != CUDNN_STATUS_SUCCESS)
    return fail_dnn(st, "cudnnCreate*Descriptor", msg, msg_size);
  if ((st = cudnnSetTensor4dDescriptor(c.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
                                       1, 1, h, w)) != CUDNN_STATUS_SUCCESS ||
      (st = cudnnSetTensor4dDescriptor(c.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
                                       1, 1, h, w)) != CUDNN_STATUS_SUCCESS)
    return fail_dnn(st, "cudnnSetTensor4dDescriptor", msg, msg_size);
  if ((st = cudnnSetFilter4dDescriptor(c.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW,
                                       1, 1, k, k)) != CUDNN_STATUS_SUCCESS)
    return fail_dnn(st, "cudnnSetFilter4dDescriptor", msg, msg_size);
  if ((st = cudnnSetConvolution2dDescriptor(
           c.conv, pad, pad, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
           CUDNN_DATA_FLOAT)) != CUDNN_STATUS_SUCCESS)
    return fail_dnn(st, "cudnnSetConvolution2dDescriptor", msg, msg_size);
  if ((st = cudnnSetConvolutionMathType(c.conv, CUDNN_FMA_MATH)) !=
      CUDNN_STATUS_SUCCESS)
    return fail_dnn(st, "cudnnSetConvolutionMathType", msg, msg_size);
  int on, oc, oh, ow;
  if ((st = cudnnGetConvolution2dForwardOutputDim(
           c.conv, c.x, c.w, &on, &oc, &oh, &ow)) != CUDNN_STATUS_SUCCESS)
    return fail_dnn(st, "cudnnGetConvolution2dForwardOutputDim", msg, msg_size);
  if (on != 1 || oc != 1 || oh != h || ow != w) {
    snprintf(msg, msg_size, "cuDNN's output is %dx%dx%dx%d, not 1x1x%dx%d", on,
             oc, oh, ow, h, w);
    return DENSE_REF_FAILED;
  }
  cudaError_t err;
  size_t weight_bytes = static_cast<size_t>(k) * k * sizeof(float);
  if ((err = cudaMalloc(&c.weights, weight_bytes)) != cudaSuccess ||
      (err = cudaMemcpy(c.weights, weights, weight_bytes,
                        cudaMemcpyHostToDevice)) != cudaSuccess)
    return fail(err, "cudaMalloc, cudaMemcpy (cuDNN's weights)", msg, msg_size);
  cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int found = 0;
  if ((st = cudnnFindConvolutionForwardAlgorithm(
           c.handle, c.x, c.w, c.conv, c.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
           &found, perf)) != CUDNN_STATUS_SUCCESS)
    return fail_dnn(st, "cudnnFindConvolutionForwardAlgorithm", msg, msg_size);
  int best = -1; /* the fastest that ran, without tensor cores (TF32) */
  for (int i = 0; i < found && best < 0; i++) {
    if (perf[i].status == CUDNN_STATUS_SUCCESS &&
        perf[i].mathType != CUDNN_TENSOR_OP_MATH &&
        perf[i].mathType != CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)
      best = i;
  }
  if (best < 0)
    return skip("cudnnFindConvolutionForwardAlgorithm found no algorithm "
                "without tensor cores",
                msg, msg_size);
  c.algo = perf[best].algo;
  if ((st = cudnnGetConvolutionForwardWorkspaceSize(
           c.handle, c.x, c.w, c.conv, c.y, c.algo, &c.workspace_bytes)) !=
      CUDNN_STATUS_SUCCESS)
    return fail_dnn(st, "cudnnGetConvolutionForwardWorkspaceSize", msg,
                    msg_size);
  if (c.workspace_bytes &&
      (err = cudaMalloc(&c.workspace, c.workspace_bytes)) != cudaSuccess)
    return fail(err, "cudaMalloc (cuDNN's workspace)", msg, msg_size);
  c.launch = launch_cudnn;
  c.what = "cudnnConvolutionForward";
  snprintf(msg, msg_size, "cuDNN %d.%d: algorithm %s, %zu bytes of workspace",
           static_cast<int>(cudnnGetVersion() / 10000),
           static_cast<int>(cudnnGetVersion() / 100 % 100), algo_name(c.algo),
           c.workspace_bytes);
  return DENSE_REF_OK;
}
#endif

int call_ref(void *arg) {
  ref_call &c = *static_cast<ref_call *>(arg);
  c.err = c.launch(c);
  return c.err != cudaSuccess;
}

int sync_ref(void *arg) {
  ref_call &c = *static_cast<ref_call *>(arg);
  c.err = cudaStreamSynchronize(c.r->stream);
  return c.err != cudaSuccess;
}

/* What made a call or its sync fail, into msg. */
dense_ref_status call_failed(const ref_call &c, char *msg, size_t msg_size) {
#ifdef PRISM_BENCH_HAVE_CUDNN
  if (c.dnn != CUDNN_STATUS_SUCCESS)
    return fail_dnn(c.dnn, c.what, msg, msg_size);
#endif
  return fail(c.err, c.what, msg, msg_size);
}

/* One call into result, then the calls timed. */
dense_ref_status run_and_time(ref_call &c, const bench_timer *timer,
                              bench_timing *timing, void *result, char *msg,
                              size_t msg_size) {
  cudaError_t err;
  if (call_ref(&c) != 0 || sync_ref(&c) != 0)
    return call_failed(c, msg, msg_size);
  if ((err = cudaMemcpy(result, c.r->out, c.r->bytes,
                        cudaMemcpyDeviceToHost)) != cudaSuccess)
    return fail(err, "cudaMemcpy (the result)", msg, msg_size);
  int rc = bench_time(call_ref, sync_ref, &c, timer, timing);
  if (rc == -1)
    return skip("host out of memory", msg, msg_size);
  if (rc != 0)
    return call_failed(c, msg, msg_size);
  return DENSE_REF_OK;
}

/* The nonzero weights of the box and their offsets, in prism's order,
 * into constant memory. */
dense_ref_status upload_taps(ref_call &c, const void *weights, char *msg,
                             size_t msg_size) {
  static int dx[DENSE_REF_MAX_TAPS], dy[DENSE_REF_MAX_TAPS],
      dz[DENSE_REF_MAX_TAPS];
  static float w32[DENSE_REF_MAX_TAPS];
  static double w64[DENSE_REF_MAX_TAPS];
  const prism_stencil_desc &d = c.desc;
  const int r = static_cast<int>(d.radius);
  const int ry = d.dims >= 2 ? r : 0, rz = d.dims >= 3 ? r : 0;
  const bool f64 = d.type == PRISM_F64;
  int taps = 0, i = 0;
  for (int z = -rz; z <= rz; z++) {
    for (int y = -ry; y <= ry; y++) {
      for (int x = -r; x <= r; x++, i++) {
        double wi = f64 ? static_cast<const double *>(weights)[i]
                        : static_cast<const float *>(weights)[i];
        if (wi == 0)
          continue;
        if (taps == DENSE_REF_MAX_TAPS) {
          snprintf(msg, msg_size,
                   "the naive stencil takes up to %d nonzero weights",
                   DENSE_REF_MAX_TAPS);
          return DENSE_REF_SKIPPED;
        }
        dx[taps] = x;
        dy[taps] = y;
        dz[taps] = z;
        w32[taps] = static_cast<float>(wi);
        w64[taps] = wi;
        taps++;
      }
    }
  }
  cudaError_t err;
  size_t ints = taps * sizeof(int);
  if (taps &&
      ((err = cudaMemcpyToSymbol(c_tap_dx, dx, ints)) != cudaSuccess ||
       (err = cudaMemcpyToSymbol(c_tap_dy, dy, ints)) != cudaSuccess ||
       (err = cudaMemcpyToSymbol(c_tap_dz, dz, ints)) != cudaSuccess ||
       (err = f64 ? cudaMemcpyToSymbol(c_tap_w64, w64, taps * sizeof(double))
                  : cudaMemcpyToSymbol(c_tap_w32, w32, taps * sizeof(float))) !=
           cudaSuccess))
    return fail(err, "cudaMemcpyToSymbol (the taps)", msg, msg_size);
  c.taps = taps;
  return DENSE_REF_OK;
}

dense_ref_status conv2d_setup(ref_call &c, const void *weights, char *msg,
                              size_t msg_size) {
  const prism_stencil_desc &d = c.desc;
  const size_t k = 2 * static_cast<size_t>(d.radius) + 1;
  if (d.dims != 2)
    return skip("the seeds' conv2d is 2-D", msg, msg_size);
  if (d.border != PRISM_BORDER_CLAMP)
    return skip("the seeds' conv2d clamps its border", msg, msg_size);
  if (k > DENSE_REF_CONV2D_MAX_K)
    return skip("the seeds' conv2d takes K up to 15", msg, msg_size);
  if (d.nx > INT_MAX || d.ny > INT_MAX || d.nx * d.ny > INT_MAX)
    return skip("the seeds' conv2d indexes with int", msg, msg_size);
  bool f64 = d.type == PRISM_F64;
  size_t bytes = k * k * (f64 ? sizeof(double) : sizeof(float));
  cudaError_t err = f64 ? cudaMemcpyToSymbol(c_conv_w64, weights, bytes)
                        : cudaMemcpyToSymbol(c_conv_w32, weights, bytes);
  if (err != cudaSuccess)
    return fail(err, "cudaMemcpyToSymbol (the weights)", msg, msg_size);
  c.launch = f64 ? launch_conv2d<double> : launch_conv2d<float>;
  c.what = "the seeds' conv2d kernel";
  return DENSE_REF_OK;
}

} // namespace

extern "C" dense_ref_status dense_ref_create(int device, const void *input,
                                             size_t bytes, dense_ref **out,
                                             char *name, size_t name_size,
                                             char *msg, size_t msg_size) {
  *out = nullptr;
  cudaError_t err = cudaSuccess;
  const char *what = "";
  switch (
      bench_cuda_open(device, name, name_size, msg, msg_size, &err, &what)) {
  case cuda_open::skipped:
    return DENSE_REF_SKIPPED;
  case cuda_open::failed:
    return fail(err, what, msg, msg_size);
  case cuda_open::ok:
    break;
  }
  dense_ref *r = new (std::nothrow) dense_ref;
  if (!r)
    return skip("out of host memory", msg, msg_size);
  r->device = device;
  r->bytes = bytes;
  if ((err = cudaStreamCreate(&r->stream)) != cudaSuccess ||
      (err = cudaMalloc(&r->in, bytes ? bytes : 1)) != cudaSuccess ||
      (err = cudaMalloc(&r->out, bytes ? bytes : 1)) != cudaSuccess ||
      (bytes && (err = cudaMemcpy(r->in, input, bytes,
                                  cudaMemcpyHostToDevice)) != cudaSuccess) ||
      (err = cudaDeviceSynchronize()) != cudaSuccess) {
    delete r;
    return fail(err, "cudaMalloc, cudaMemcpy (the input)", msg, msg_size);
  }
  *out = r;
  return DENSE_REF_OK;
}

extern "C" dense_ref_status
dense_ref_transpose(dense_ref *r, size_t element_size, size_t rows, size_t cols,
                    size_t batch, const bench_timer *timer,
                    bench_timing *timing, void *result, char *msg,
                    size_t msg_size) {
  cudaError_t err;
  if ((err = cudaSetDevice(r->device)) != cudaSuccess)
    return fail(err, "cudaSetDevice", msg, msg_size);
  ref_call c;
  c.r = r;
  c.rows = rows;
  c.cols = cols;
  c.n = rows * cols * batch;
  c.what = "the naive transpose kernel";
  if (c.n == 0 || c.n * element_size != r->bytes)
    return skip("the transpose is not the input's size", msg, msg_size);
  if (blocks_for(c.n) > INT_MAX)
    return skip("more elements than the naive transpose's grid", msg, msg_size);
  switch (element_size) {
  case 1:
    c.launch = launch_transpose<uint8_t>;
    break;
  case 2:
    c.launch = launch_transpose<uint16_t>;
    break;
  case 4:
    c.launch = launch_transpose<uint32_t>;
    break;
  default:
    c.launch = launch_transpose<uint64_t>;
    break;
  }
  msg[0] = '\0';
  return run_and_time(c, timer, timing, result, msg, msg_size);
}

extern "C" dense_ref_status
dense_ref_stencil(dense_ref *r, dense_ref_kind kind,
                  const prism_stencil_desc *desc, const void *weights,
                  const bench_timer *timer, bench_timing *timing, void *result,
                  char *msg, size_t msg_size) {
  cudaError_t err;
  if ((err = cudaSetDevice(r->device)) != cudaSuccess)
    return fail(err, "cudaSetDevice", msg, msg_size);
  ref_call c;
  c.r = r;
  c.desc = *desc;
  size_t points = desc->nx * desc->ny * desc->nz;
  size_t size = desc->type == PRISM_F64 ? sizeof(double) : sizeof(float);
  if (points * size != r->bytes)
    return skip("the grid is not the input's size", msg, msg_size);
  dense_ref_status st = DENSE_REF_OK;
  msg[0] = '\0';
  switch (kind) {
  case DENSE_REF_NAIVE:
    if (blocks_for(points) > INT_MAX)
      return skip("more points than the naive stencil's grid", msg, msg_size);
    st = upload_taps(c, weights, msg, msg_size);
    c.launch = desc->type == PRISM_F64 ? launch_stencil<double>
                                       : launch_stencil<float>;
    c.what = "the naive stencil kernel";
    break;
  case DENSE_REF_CONV2D:
    st = conv2d_setup(c, weights, msg, msg_size);
    break;
  case DENSE_REF_CUDNN:
    if (desc->dims != 2)
      return skip("cuDNN's rows are 2-D", msg, msg_size);
    if (desc->border != PRISM_BORDER_ZERO)
      return skip("cuDNN pads with zeros: its rows have the zero border", msg,
                  msg_size);
    if (desc->type != PRISM_F32)
      return skip("cuDNN's rows are f32", msg, msg_size);
#ifdef PRISM_BENCH_HAVE_CUDNN
    st = cudnn_setup(c, weights, msg, msg_size);
#else
    return skip("prism-bench was built without cuDNN (no cudnn.h and "
                "libcudnn found, or PRISM_BENCH_WITH_CUDNN=OFF)",
                msg, msg_size);
#endif
    break;
  }
  if (st != DENSE_REF_OK)
    return st;
  char chosen[256];
  snprintf(chosen, sizeof chosen, "%s", msg);
  st = run_and_time(c, timer, timing, result, msg, msg_size);
  if (st == DENSE_REF_OK)
    snprintf(msg, msg_size, "%s", chosen);
  return st;
}

extern "C" void dense_ref_destroy(dense_ref *r) {
  if (!r)
    return;
  cudaSetDevice(r->device);
  delete r;
}
