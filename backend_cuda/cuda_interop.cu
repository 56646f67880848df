/* SPDX-License-Identifier: MIT */
/*
 * prism_cuda.h: contexts on the caller's device and stream, buffers over
 * the caller's device memory, and the native handles of prism's objects.
 * core (core/interop.h) makes the handles and checks that an object
 * belongs to this backend; this file checks what only CUDA can tell.
 *
 * The wrap's range check asks the driver (cuMemGetAddressRange) through
 * the runtime's entry-point query, never by linking libcuda, so the library
 * still loads on a machine without an NVIDIA driver. Where the driver does
 * not give the entry point, or cannot say which allocation a pointer lies
 * in, the range goes unchecked: the caller's promise stands.
 */
#include "cuda_internal.h"
#include "interop.h"
#include "prism_cuda.h"

#include <cudaTypedefs.h> /* driver function types only: libcuda is not linked */
#include <stdint.h>

namespace {

/* The driver's cuMemGetAddressRange (the size_t form, the one since CUDA
 * 3.2), or NULL when the runtime cannot get it. Looked up once. */
PFN_cuMemGetAddressRange_v3020 address_range_entry() {
  static const PFN_cuMemGetAddressRange_v3020 entry = [] {
    void *fn = NULL;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t err = cudaGetDriverEntryPointByVersion(
        "cuMemGetAddressRange", &fn, 12000, cudaEnableDefault, &found);
    if (err != cudaSuccess || found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      fn = NULL;
    }
    return reinterpret_cast<PFN_cuMemGetAddressRange_v3020>(fn);
  }();
  return entry;
}

/* Whether [ptr, ptr + bytes) is memory a context on device c->device may
 * use: device memory of that device, or managed memory, all of it inside
 * one allocation. bytes > 0, ptr not NULL. */
prism_status check_memory(prism_context *ctx, const prism__cuda_ctx *c,
                          void *ptr, size_t bytes, const char *fn) {
  cudaPointerAttributes attr;
  cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
  if (err != cudaSuccess) {
    (void)cudaGetLastError(); // not sticky: the context stays usable
    return prism__fail_native(ctx, PRISM_INVALID_ARGUMENT, (long long)err,
                              "%s: device_ptr %p is not memory CUDA can "
                              "describe: cudaPointerGetAttributes: %s",
                              fn, ptr, cudaGetErrorString(err));
  }
  switch (attr.type) {
  case cudaMemoryTypeDevice:
    if (attr.device != c->device)
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: device_ptr %p is memory of CUDA device %d, not "
                         "of the context's device %d",
                         fn, ptr, attr.device, c->device);
    break;
  case cudaMemoryTypeManaged:
    break;
  case cudaMemoryTypeHost:
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: device_ptr %p is host memory (pinned: "
                       "cudaMallocHost or cudaHostRegister), not device "
                       "memory",
                       fn, ptr);
  default: // cudaMemoryTypeUnregistered
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: device_ptr %p is host memory (not allocated by "
                       "CUDA), not device memory",
                       fn, ptr);
  }

  const PFN_cuMemGetAddressRange_v3020 range = address_range_entry();
  if (!range)
    return PRISM_OK;
  CUdeviceptr base = 0;
  size_t size = 0;
  const uintptr_t at = uintptr_t(ptr);
  if (range(&base, &size, CUdeviceptr(at)) != CUDA_SUCCESS ||
      at < uintptr_t(base) || at - uintptr_t(base) >= size)
    return PRISM_OK; // the driver cannot say: unchecked (see the top)
  const size_t left = size - (at - uintptr_t(base));
  if (bytes > left)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: bytes %zu from device_ptr %p leave its allocation "
                       "of %zu bytes at %p (%zu bytes left there)",
                       fn, bytes, ptr, size, (void *)uintptr_t(base), left);
  return PRISM_OK;
}

prism_status wrap(prism_context *ctx, void *ptr, size_t bytes,
                  prism_buffer **out, const char *fn) {
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  // An empty buffer has no memory, whatever ptr is.
  if (bytes == 0)
    return prism__buffer_wrap(ctx, NULL, 0, fn, out);
  if (!ptr)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: device_ptr is NULL with bytes %zu", fn, bytes);
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st == PRISM_OK)
    st = check_memory(ctx, c, ptr, bytes, fn);
  if (st == PRISM_OK)
    st = prism__buffer_wrap(ctx, ptr, bytes, fn, out);
  return st;
}

/* The backend state of a CUDA context, entered for fn; PRISM_OK must be
 * paired with prism__leave. */
prism_status enter(const prism_context *ctx, const char *fn,
                   prism_context **entered, prism__cuda_ctx **c) {
  // Entering marks who is inside; nothing the caller can see changes.
  prism_context *e = const_cast<prism_context *>(ctx);
  prism_status st = prism__enter_backend(e, &prism__backend_cuda, fn);
  if (st != PRISM_OK)
    return st;
  *entered = e;
  *c = static_cast<prism__cuda_ctx *>(prism__impl(e));
  if (!*c)
    return prism__leave(
        e, prism__fail(e, PRISM_INTERNAL, "%s: CUDA context has no state", fn));
  return PRISM_OK;
}

} // namespace

extern "C" prism_status prism_cuda_context_create(int device,
                                                  cudaStream_t stream,
                                                  prism_context **out) {
  static const char fn[] = "prism_cuda_context_create";
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  // context_init (cuda_backend.cu) checks the device and the stream.
  const prism__cuda_native_request request = {device, stream};
  return prism__context_create_native(&prism__backend_cuda, &request, fn, out);
}

extern "C" prism_status prism_cuda_context_stream(const prism_context *ctx,
                                                  cudaStream_t *stream) {
  static const char fn[] = "prism_cuda_context_stream";
  prism_context *e = NULL;
  prism__cuda_ctx *c = NULL;
  prism_status st = enter(ctx, fn, &e, &c);
  if (st != PRISM_OK)
    return st;
  if (!stream)
    return prism__leave(
        e, prism__fail(e, PRISM_NULL_POINTER, "%s: stream is NULL", fn));
  *stream = c->stream;
  return prism__leave(e, PRISM_OK);
}

extern "C" prism_status prism_cuda_context_device(const prism_context *ctx,
                                                  int *device) {
  static const char fn[] = "prism_cuda_context_device";
  prism_context *e = NULL;
  prism__cuda_ctx *c = NULL;
  prism_status st = enter(ctx, fn, &e, &c);
  if (st != PRISM_OK)
    return st;
  if (!device)
    return prism__leave(
        e, prism__fail(e, PRISM_NULL_POINTER, "%s: device is NULL", fn));
  *device = c->device;
  return prism__leave(e, PRISM_OK);
}

extern "C" prism_status prism_cuda_buffer_wrap(prism_context *ctx,
                                               void *device_ptr, size_t bytes,
                                               prism_buffer **out) {
  static const char fn[] = "prism_cuda_buffer_wrap";
  if (out)
    *out = NULL;
  prism_status st = prism__enter_backend(ctx, &prism__backend_cuda, fn);
  if (st != PRISM_OK)
    return st;
  return prism__leave(ctx, wrap(ctx, device_ptr, bytes, out, fn));
}

extern "C" prism_status prism_cuda_buffer_pointer(const prism_buffer *buf,
                                                  void **device_ptr) {
  static const char fn[] = "prism_cuda_buffer_pointer";
  if (!device_ptr)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: device_ptr is NULL", fn);
  *device_ptr = NULL;
  void *native = NULL;
  size_t offset = 0;
  prism_status st =
      prism__buffer_native_of(buf, &prism__backend_cuda, fn, &native, &offset);
  if (st != PRISM_OK)
    return st;
  *device_ptr = native ? static_cast<char *>(native) + offset : NULL;
  return PRISM_OK;
}

extern "C" prism_status prism_cuda_event(const prism_event *event,
                                         cudaEvent_t *out) {
  static const char fn[] = "prism_cuda_event";
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  void *native = NULL;
  prism_status st =
      prism__event_native_of(event, &prism__backend_cuda, fn, &native);
  if (st != PRISM_OK)
    return st;
  *out = static_cast<cudaEvent_t>(native);
  return PRISM_OK;
}

extern "C" prism_status prism_cuda_context_wait(prism_context *ctx,
                                                cudaEvent_t event) {
  static const char fn[] = "prism_cuda_context_wait";
  prism_status st = prism__enter_backend(ctx, &prism__backend_cuda, fn);
  if (st != PRISM_OK)
    return st;
  if (!event)
    return prism__leave(
        ctx, prism__fail(ctx, PRISM_NULL_POINTER, "%s: event is NULL", fn));
  return prism__leave(ctx, prism__cuda_queue_wait(ctx, event));
}
