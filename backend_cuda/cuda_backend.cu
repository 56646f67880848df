/* SPDX-License-Identifier: MIT */
/*
 * The CUDA backend's vtable: probing, contexts (on prism's own stream or
 * the caller's), finish, and the shared error helpers. Memory entry points
 * live in memory.cu, events in events.cu, primitives in reduce.cu, scan.cu,
 * sort.cu, gather_scatter.cu and the others; prism_cuda.h in
 * cuda_interop.cu.
 *
 * The CUDA runtime is linked statically, so this file must behave on a
 * machine with no driver at all: every runtime call that can meet a missing
 * driver turns into PRISM_BACKEND_UNAVAILABLE with a reason, never a crash.
 */
#include "cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" prism_status prism__cuda_fail(prism_context *ctx, cudaError_t err,
                                         const char *what) {
  // Non-sticky errors stay in the runtime's per-thread slot; clear it so a
  // later launch check does not blame an innocent kernel.
  (void)cudaGetLastError();
  prism_status status = err == cudaErrorMemoryAllocation ? PRISM_OUT_OF_MEMORY
                                                         : PRISM_BACKEND_ERROR;
  return prism__fail_native(ctx, status, (long long)err, "%s: %s", what,
                            cudaGetErrorString(err));
}

extern "C" prism_status prism__cuda_enter(prism_context *ctx,
                                          prism__cuda_ctx **out) {
  prism__cuda_ctx *c = (prism__cuda_ctx *)prism__impl(ctx);
  if (!c)
    return prism__fail(ctx, PRISM_INTERNAL, "CUDA context has no state");
  PRISM_CUDA_TRY(ctx, cudaSetDevice, c->device);
  *out = c;
  return PRISM_OK;
}

extern "C" prism_status prism__cuda_check_launch(prism_context *ctx,
                                                 const char *kernel) {
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess)
    return PRISM_OK;
  return prism__fail_native(ctx, PRISM_BACKEND_ERROR, (long long)err,
                            "launch of %s: %s", kernel,
                            cudaGetErrorString(err));
}

extern "C" prism_status prism__cuda_read_result(prism_context *ctx,
                                                prism__cuda_ctx *c,
                                                const void *src, size_t bytes,
                                                void *dst) {
  PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, c->host_result, src, bytes,
                 cudaMemcpyDeviceToHost, c->stream);
  PRISM_CUDA_TRY(ctx, cudaStreamSynchronize, c->stream);
  memcpy(dst, c->host_result, bytes);
  return PRISM_OK;
}

/* "MAJOR.MINOR" of a CUDA version number (12040 -> 12.4). */
static void format_version(int version, char *buf, size_t size) {
  snprintf(buf, size, "%d.%d", version / 1000, version % 1000 / 10);
}

/* Why cudaGetDeviceCount failed with err, as one line. */
static void describe_unavailable(cudaError_t err, char *buf, size_t size) {
  int driver = 0, runtime = 0;
  (void)cudaDriverGetVersion(&driver);
  (void)cudaRuntimeGetVersion(&runtime);
  (void)cudaGetLastError();
  char drv[32], rt[32];
  format_version(driver, drv, sizeof drv);
  format_version(runtime, rt, sizeof rt);
  if (driver == 0)
    snprintf(buf, size, "no NVIDIA driver: %s", cudaGetErrorString(err));
  else if (err == cudaErrorInsufficientDriver)
    snprintf(buf, size,
             "the NVIDIA driver supports CUDA %s, older than the CUDA %s "
             "runtime prism was built with: %s",
             drv, rt, cudaGetErrorString(err));
  else
    snprintf(buf, size, "CUDA driver %s cannot be used: %s", drv,
             cudaGetErrorString(err));
}

/* cudaGetDeviceCount, mapping "driver but no device" to a count of 0. */
static cudaError_t device_count(int *count) {
  *count = 0;
  cudaError_t err = cudaGetDeviceCount(count);
  if (err == cudaErrorNoDevice) {
    (void)cudaGetLastError();
    *count = 0;
    return cudaSuccess;
  }
  return err;
}

static prism_status cuda_probe(int *count, char *reason, size_t reason_size) {
  char line[512];
  int n = 0;
  cudaError_t err = device_count(&n);
  prism_status status = PRISM_OK;
  if (err != cudaSuccess) {
    describe_unavailable(err, line, sizeof line);
    status = PRISM_BACKEND_UNAVAILABLE;
    n = 0;
  } else if (n == 0) {
    snprintf(line, sizeof line, "CUDA driver found no device");
  } else {
    cudaDeviceProp prop;
    const char *first = "?";
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
      first = prop.name;
    (void)cudaGetLastError();
    snprintf(line, sizeof line, "%d CUDA device%s; device 0: %s", n,
             n == 1 ? "" : "s", first);
  }
  if (count)
    *count = n;
  if (reason && reason_size > 0)
    snprintf(reason, reason_size, "%s", line);
  return status;
}

/* Releases what context_init made; tolerates a half-built state. The
 * caller's stream is left alone (context_fini has finished it). */
static void release(prism__cuda_ctx *c) {
  if (c->own_stream) {
    (void)cudaStreamSynchronize(c->stream);
    (void)cudaStreamDestroy(c->stream);
  }
  if (c->host_result)
    (void)cudaFreeHost(c->host_result);
  if (c->dev_result)
    (void)cudaFree(c->dev_result);
  (void)cudaGetLastError();
  free(c);
}

/* Whether the caller's stream belongs to device (the one current):
 * PRISM_INVALID_ARGUMENT naming `stream` otherwise. The legacy and
 * per-thread default streams (0, cudaStreamLegacy, cudaStreamPerThread)
 * stand for the current device's own, so they always do. */
static prism_status check_stream(prism_context *ctx, int device,
                                 cudaStream_t stream) {
  if (stream == 0 || stream == cudaStreamLegacy ||
      stream == cudaStreamPerThread)
    return PRISM_OK;
  int owner = -1;
  cudaError_t err = cudaStreamGetDevice(stream, &owner);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return prism__fail_native(ctx, PRISM_INVALID_ARGUMENT, (long long)err,
                              "stream %p cannot be used: cudaStreamGetDevice: "
                              "%s",
                              (void *)stream, cudaGetErrorString(err));
  }
  if (owner != device)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "stream %p belongs to CUDA device %d, not to device %d",
                       (void *)stream, owner, device);
  return PRISM_OK;
}

/* Fills c from the device's attributes, creates its stream unless the
 * caller gave one (native: c->stream is set, c->own_stream 0) and its
 * result slots. */
static prism_status open_device(prism_context *ctx, prism__cuda_ctx *c,
                                int native, prism__device_info *info) {
  PRISM_CUDA_TRY(ctx, cudaSetDevice, c->device);
  cudaDeviceProp prop;
  PRISM_CUDA_TRY(ctx, cudaGetDeviceProperties, &prop, c->device);
  c->sm_count = prop.multiProcessorCount > 0 ? prop.multiProcessorCount : 1;
  c->max_threads_per_sm = prop.maxThreadsPerMultiProcessor > 0
                              ? prop.maxThreadsPerMultiProcessor
                              : 1024;
  if (native) {
    prism_status st = check_stream(ctx, c->device, c->stream);
    if (st != PRISM_OK)
      return st;
  } else {
    PRISM_CUDA_TRY(ctx, cudaStreamCreateWithFlags, &c->stream,
                   cudaStreamNonBlocking);
    c->own_stream = 1;
  }
  PRISM_CUDA_TRY(ctx, cudaMallocHost, &c->host_result,
                 PRISM__CUDA_RESULT_BYTES);
  PRISM_CUDA_TRY(ctx, cudaMalloc, &c->dev_result, PRISM__CUDA_RESULT_BYTES);

  int runtime = 0;
  (void)cudaRuntimeGetVersion(&runtime);
  char rt[32];
  format_version(runtime, rt, sizeof rt);
  snprintf(info->device_name, sizeof info->device_name, "%s", prop.name);
  snprintf(info->platform_name, sizeof info->platform_name, "CUDA %s", rt);
  info->is_cpu = 0;
  info->type_mask = (1u << PRISM_TYPE_COUNT) - 1u;     // all types, f64 and u8
  snprintf(info->policy, sizeof info->policy, "cuda"); // tuning.cuh's
  return PRISM_OK;
}

static prism_status cuda_context_init(prism_context *ctx,
                                      const prism__device_request *request,
                                      prism__device_info *info) {
  int count = 0;
  cudaError_t err = device_count(&count);
  if (err != cudaSuccess) {
    char line[512];
    describe_unavailable(err, line, sizeof line);
    return prism__fail_native(ctx, PRISM_BACKEND_UNAVAILABLE, (long long)err,
                              "CUDA backend unavailable: %s", line);
  }
  // The caller's own device and stream (prism_cuda_context_create).
  const prism__cuda_native_request *native =
      (const prism__cuda_native_request *)request->native;
  const int device = native ? native->device : request->device;
  if (count == 0)
    return prism__fail(ctx, PRISM_DEVICE_NOT_FOUND,
                       "CUDA device %d not found: the CUDA driver found no "
                       "device",
                       device);
  if (device < 0 || device >= count)
    return prism__fail(ctx, PRISM_DEVICE_NOT_FOUND,
                       "CUDA device %d not found: %d CUDA device%s (valid "
                       "indices 0..%d)",
                       device, count, count == 1 ? "" : "s", count - 1);

  prism__cuda_ctx *c = (prism__cuda_ctx *)calloc(1, sizeof *c);
  if (!c)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY,
                       "out of host memory for the CUDA context");
  c->device = device;
  if (native)
    c->stream = native->stream;
  prism_status status = open_device(ctx, c, native != NULL, info);
  if (status != PRISM_OK) {
    release(c);
    return status;
  }
  prism__set_impl(ctx, c);
  return PRISM_OK;
}

static void cuda_context_fini(prism_context *ctx) {
  prism__cuda_ctx *c = (prism__cuda_ctx *)prism__impl(ctx);
  if (!c)
    return;
  (void)cudaSetDevice(c->device);
  // The caller's stream outlives the context, but queued work may still
  // use the result slots and scratch: finish it first (0: the legacy one).
  if (!c->own_stream)
    (void)cudaStreamSynchronize(c->stream);
  release(c);
  prism__set_impl(ctx, NULL);
}

static prism_status cuda_finish(prism_context *ctx) {
  prism__cuda_ctx *c = NULL;
  prism_status status = prism__cuda_enter(ctx, &c);
  if (status != PRISM_OK)
    return status;
  PRISM_CUDA_TRY(ctx, cudaStreamSynchronize, c->stream);
  return PRISM_OK;
}

extern "C" const prism__backend prism__backend_cuda = {
    "cuda",
    PRISM_BACKEND_CUDA,
    cuda_probe,
    cuda_context_init,
    cuda_context_fini,
    prism__cuda_mem_alloc,
    prism__cuda_mem_free,
    prism__cuda_mem_write,
    prism__cuda_mem_read,
    prism__cuda_mem_fill,
    prism__cuda_mem_copy,
    cuda_finish,
    prism__cuda_reduce,
    prism__cuda_scan,
    prism__cuda_sort,
    prism__cuda_gather_scatter,
    prism__cuda_histogram,
    prism__cuda_select,
    prism__cuda_segmented,
    prism__cuda_bfs,
    prism__cuda_mem_identity,
    prism__cuda_mem_unwrap,
    prism__cuda_event_record,
    prism__cuda_event_wait,
    prism__cuda_event_query,
    prism__cuda_queue_wait,
    prism__cuda_event_release,
    prism__cuda_spmv_tile_items,
    prism__cuda_spmv,
    prism__cuda_transpose,
    prism__cuda_stencil,
    prism__cuda_merge,
    prism__cuda_segmented_sort,
    prism__cuda_topk,
};
