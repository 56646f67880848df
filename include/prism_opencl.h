/* SPDX-License-Identifier: MIT */
/*
 * prism and the caller's own OpenCL code: contexts on the caller's
 * cl_context, device and queue, buffers over the caller's cl_mem objects,
 * native handles and events. Needs the OpenCL header; prism.h itself does
 * not.
 *
 * Declared only for a library built with the OpenCL backend
 * (prism_backend_built(PRISM_BACKEND_OPENCL)); the functions return
 * PRISM_INVALID_ARGUMENT for a context, buffer or event of another backend.
 *
 * Reference counts: prism retains every OpenCL object the caller hands it
 * and releases it when the prism object that holds it goes, so the
 * caller's own references are never consumed; objects prism gives out
 * (prism_opencl_context_objects, prism_opencl_buffer_mem,
 * prism_opencl_event) are not retained for the caller: retain them to keep
 * them past the prism object.
 */
#ifndef PRISM_OPENCL_H
#define PRISM_OPENCL_H

#include "prism.h"

/* prism needs OpenCL 1.2; define a later version before this header to
 * see later declarations. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#if defined(__APPLE__)
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A context on the caller's OpenCL context and device that queues all its
 * work on queue, in order, with no synchronisation of its own beyond what
 * the API requires (calls that return a result to the host finish the
 * queue). device must be one of context's devices; queue must be an
 * in-order queue of that context and device (an out-of-order queue is
 * refused), or NULL for prism to make one. Program builds and the tuning
 * policy are as for prism_context_create. On failure *out is NULL and
 * prism_last_error() holds the message.
 */
PRISM_API prism_status prism_opencl_context_create(cl_context context,
                                                   cl_device_id device,
                                                   cl_command_queue queue,
                                                   prism_context **out);

/** The OpenCL objects of an OpenCL context (the caller's or the ones prism
 * made); any output may be NULL. */
PRISM_API prism_status prism_opencl_context_objects(const prism_context *ctx,
                                                    cl_context *context,
                                                    cl_device_id *device,
                                                    cl_command_queue *queue);

/**
 * A buffer over the whole of the caller's cl_mem (its CL_MEM_SIZE bytes;
 * make a view for a range), which must be a buffer (or sub-buffer) of the
 * context's cl_context: PRISM_INVALID_ARGUMENT for NULL, an image, or
 * memory of another cl_context. prism retains mem while the buffer or a
 * view of it lives, and never frees it. Overlap between arguments is
 * decided on the memory a sub-buffer names in its parent. A view of one
 * wrapped buffer serves every range without a new cl_mem; passing a
 * buffer and a sub-buffer of it (or two sub-buffers of one buffer) to one
 * call, one of them written, is what OpenCL 1.2 leaves undefined even for
 * ranges apart: prism accepts it (it works on PoCL and NVIDIA's OpenCL),
 * but views are the portable way.
 */
PRISM_API prism_status prism_opencl_buffer_wrap(prism_context *ctx, cl_mem mem,
                                                prism_buffer **out);

/** The cl_mem behind buf and the byte offset at which buf starts in it (a
 * view's offset); *mem is NULL for an empty buffer that has no memory.
 * Either output may be NULL. */
PRISM_API prism_status prism_opencl_buffer_mem(const prism_buffer *buf,
                                               cl_mem *mem, size_t *offset);

/** The cl_event inside an event (a marker on the context's queue), valid
 * until prism_event_destroy. */
PRISM_API prism_status prism_opencl_event(const prism_event *event,
                                          cl_event *out);

/** Work queued on ctx after this call waits for the caller's event, which
 * must belong to the context's cl_context (a barrier with a wait list);
 * the host does not wait. */
PRISM_API prism_status prism_opencl_context_wait(prism_context *ctx,
                                                 cl_event event);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_OPENCL_H */
