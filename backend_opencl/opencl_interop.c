/* SPDX-License-Identifier: MIT */
/*
 * prism_opencl.h: contexts on the caller's cl_context, device and queue;
 * buffers over the caller's cl_mem; the native handles of prism's objects.
 * core (core/interop.h) does the handles and the entering; this file checks
 * the OpenCL objects and takes the references prism keeps.
 */
#include "interop.h"
#include "opencl_internal.h"
#include "prism_opencl.h"

prism_status prism_opencl_context_create(cl_context context,
                                         cl_device_id device,
                                         cl_command_queue queue,
                                         prism_context **out) {
  const prism__cl_native_request request = {context, device, queue};
  return prism__context_create_native(&prism__backend_opencl, &request,
                                      "prism_opencl_context_create", out);
}

prism_status prism_opencl_context_objects(const prism_context *ctx,
                                          cl_context *context,
                                          cl_device_id *device,
                                          cl_command_queue *queue) {
  static const char fn[] = "prism_opencl_context_objects";
  prism_context *c = (prism_context *)ctx; /* entering counts, not writes */
  prism_status st = prism__enter_backend(c, &prism__backend_opencl, fn);
  if (st != PRISM_OK)
    return st;
  const prism__cl *cl = prism__cl_of(ctx);
  if (context)
    *context = cl->context;
  if (device)
    *device = cl->device;
  if (queue)
    *queue = cl->queue;
  return prism__leave(c, PRISM_OK);
}

/* mem: a buffer of the context's cl_context; its size into *bytes. */
static prism_status check_mem(prism_context *ctx, cl_mem mem, const char *fn,
                              size_t *bytes) {
  if (!mem)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: mem is NULL", fn);
  cl_mem_object_type type = 0;
  cl_context owner = NULL;
  cl_int err = clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL);
  if (err == CL_SUCCESS)
    err = clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
  if (err == CL_SUCCESS)
    err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof *bytes, bytes, NULL);
  if (err != CL_SUCCESS)
    return prism__fail_native(ctx, PRISM_INVALID_ARGUMENT, err,
                              "%s: mem is not a valid cl_mem "
                              "(clGetMemObjectInfo: %s)",
                              fn, prism__cl_error_name(err));
  if (type != CL_MEM_OBJECT_BUFFER)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: mem is an image, not a buffer", fn);
  if (owner != prism__cl_of(ctx)->context)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: mem belongs to another cl_context than ctx's", fn);
  return PRISM_OK;
}

static prism_status wrap(prism_context *ctx, cl_mem mem, const char *fn,
                         prism_buffer **out) {
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  size_t bytes = 0;
  prism_status st = check_mem(ctx, mem, fn, &bytes);
  if (st != PRISM_OK)
    return st;
  /* The buffer's own reference, which mem_unwrap releases. */
  cl_int err = clRetainMemObject(mem);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "%s: clRetainMemObject", fn);
  st = prism__buffer_wrap(ctx, mem, bytes, fn, out);
  if (st != PRISM_OK)
    clReleaseMemObject(mem);
  return st;
}

prism_status prism_opencl_buffer_wrap(prism_context *ctx, cl_mem mem,
                                      prism_buffer **out) {
  static const char fn[] = "prism_opencl_buffer_wrap";
  if (out)
    *out = NULL;
  prism_status st = prism__enter_backend(ctx, &prism__backend_opencl, fn);
  if (st != PRISM_OK)
    return st;
  return prism__leave(ctx, wrap(ctx, mem, fn, out));
}

prism_status prism_opencl_buffer_mem(const prism_buffer *buf, cl_mem *mem,
                                     size_t *offset) {
  if (mem)
    *mem = NULL;
  if (offset)
    *offset = 0;
  void *native = NULL;
  prism_status st = prism__buffer_native_of(
      buf, &prism__backend_opencl, "prism_opencl_buffer_mem", &native, offset);
  if (st == PRISM_OK && mem)
    *mem = (cl_mem)native;
  return st;
}

prism_status prism_opencl_event(const prism_event *event, cl_event *out) {
  static const char fn[] = "prism_opencl_event";
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  void *native = NULL;
  prism_status st =
      prism__event_native_of(event, &prism__backend_opencl, fn, &native);
  if (st == PRISM_OK)
    *out = (cl_event)native;
  return st;
}

prism_status prism_opencl_context_wait(prism_context *ctx, cl_event event) {
  static const char fn[] = "prism_opencl_context_wait";
  prism_status st = prism__enter_backend(ctx, &prism__backend_opencl, fn);
  if (st != PRISM_OK)
    return st;
  if (!event)
    return prism__leave(
        ctx, prism__fail(ctx, PRISM_NULL_POINTER, "%s: event is NULL", fn));
  return prism__leave(ctx, prism__cl_queue_wait(ctx, event, fn));
}
