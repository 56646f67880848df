/* SPDX-License-Identifier: MIT */
/*
 * What the backend-specific public functions (prism_cuda.h, implemented in
 * backend_cuda/cuda_interop.cu; prism_opencl.h, in
 * backend_opencl/opencl_interop.c) need from core: contexts made from the
 * caller's native objects, buffers over the caller's memory, and the native
 * handles of live prism objects. Each function enters and leaves contexts
 * as it says; messages name fn.
 */
#ifndef PRISM_CORE_INTEROP_H
#define PRISM_CORE_INTEROP_H

#include "backend.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A context on backend b from the caller's native objects: b's
 * context_init receives a request whose native member is native. Failures
 * go to the thread-local slot (prism_last_error), prefixed with fn. */
prism_status prism__context_create_native(const prism__backend *b,
                                          const void *native, const char *fn,
                                          prism_context **out);

/** Enter ctx for fn (as every public call does) and check that it is a
 * context of backend b: PRISM_INVALID_ARGUMENT otherwise, saying which
 * backend it is. Pair every PRISM_OK with prism__leave. */
prism_status prism__enter_backend(prism_context *ctx, const prism__backend *b,
                                  const char *fn);

/** Leave ctx; returns st (as core/handles.h declares it). */
prism_status prism__leave(prism_context *ctx, prism_status st);

/** With ctx entered (prism__enter_backend): a new buffer handle over bytes
 * of the caller's memory native, which the backend has validated. core
 * takes its identity (mem_identity) and calls mem_unwrap when the last
 * handle on it goes; never mem_free. native may be NULL only with bytes 0. */
prism_status prism__buffer_wrap(prism_context *ctx, void *native, size_t bytes,
                                const char *fn, prism_buffer **out);

/** The native handle and byte offset of a live buffer of backend b (either
 * output may be NULL). Refusals go to the thread-local slot. */
prism_status prism__buffer_native_of(const prism_buffer *buf,
                                     const prism__backend *b, const char *fn,
                                     void **native, size_t *offset);

/** The native event of a live event of backend b. Refusals go to the
 * thread-local slot. */
prism_status prism__event_native_of(const prism_event *event,
                                    const prism__backend *b, const char *fn,
                                    void **native);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_CORE_INTEROP_H */
