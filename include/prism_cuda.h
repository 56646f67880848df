/* SPDX-License-Identifier: MIT */
/*
 * prism and the caller's own CUDA code: contexts on the caller's device and
 * stream, buffers over the caller's device memory, native handles and
 * events. Needs the CUDA runtime's header; prism.h itself does not.
 *
 * Declared only for a library built with the CUDA backend
 * (prism_backend_built(PRISM_BACKEND_CUDA)); the functions return
 * PRISM_INVALID_ARGUMENT for a context, buffer or event of another backend.
 */
#ifndef PRISM_CUDA_H
#define PRISM_CUDA_H

#include "prism.h"

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A context on CUDA device `device` that queues all its work on the
 * caller's stream, in order, with no synchronisation of its own beyond
 * what the API requires (calls that return a result to the host wait for
 * the stream). stream 0 is the legacy default stream; cudaStreamPerThread
 * is accepted too. The stream must belong to `device`
 * (PRISM_INVALID_ARGUMENT otherwise). The stream outlives the context: the
 * caller destroys it, after prism_context_destroy, which finishes the
 * context's work first. On failure *out is NULL and prism_last_error()
 * holds the message.
 */
PRISM_API prism_status prism_cuda_context_create(int device,
                                                 cudaStream_t stream,
                                                 prism_context **out);

/** The stream a CUDA context queues its work on: the caller's, or the one
 * prism made (a non-blocking stream, destroyed with the context). */
PRISM_API prism_status prism_cuda_context_stream(const prism_context *ctx,
                                                 cudaStream_t *stream);

/** The CUDA device ordinal of a CUDA context. */
PRISM_API prism_status prism_cuda_context_device(const prism_context *ctx,
                                                 int *device);

/**
 * A buffer over bytes of the caller's device memory from device_ptr: memory
 * cudaMalloc'd (or from cudaMallocAsync or a memory pool, or managed
 * memory) on the context's device, the whole range inside one allocation.
 * prism never frees it; the caller keeps it alive until the buffer and
 * every view of it are destroyed. Refused with PRISM_INVALID_ARGUMENT: a
 * NULL pointer with bytes > 0, host memory, memory of another device, a
 * range that leaves its allocation. bytes = 0 gives an empty buffer.
 */
PRISM_API prism_status prism_cuda_buffer_wrap(prism_context *ctx,
                                              void *device_ptr, size_t bytes,
                                              prism_buffer **out);

/** The device pointer at which buf starts (a view's offset included); NULL
 * for an empty buffer that has no memory. */
PRISM_API prism_status prism_cuda_buffer_pointer(const prism_buffer *buf,
                                                 void **device_ptr);

/** The cudaEvent_t inside an event (made with cudaEventDisableTiming),
 * valid until prism_event_destroy: wait on it with cudaStreamWaitEvent or
 * cudaEventSynchronize; do not destroy or re-record it. */
PRISM_API prism_status prism_cuda_event(const prism_event *event,
                                        cudaEvent_t *out);

/** Work queued on ctx after this call waits for the caller's event
 * (cudaStreamWaitEvent on the context's stream); the host does not wait. */
PRISM_API prism_status prism_cuda_context_wait(prism_context *ctx,
                                               cudaEvent_t event);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_CUDA_H */
