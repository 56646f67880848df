/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's vtable: contexts (on prism's own objects or the
 * caller's), memory, events, and error mapping. */
#include "opencl_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every object cl holds is its own reference: made by prism, or the
 * caller's retained at context_init. */
static void release_cl(prism__cl *cl) {
  prism__cl_programs_release(cl);
  if (cl->queue)
    clReleaseCommandQueue(cl->queue);
  if (cl->context)
    clReleaseContext(cl->context);
  if (cl->device_retained)
    clReleaseDevice(cl->device);
  free(cl);
}

/* Whether device is one of context's devices; an error if the context
 * cannot say. */
static prism_status context_has_device(prism_context *ctx, cl_context context,
                                       cl_device_id device, int *has) {
  cl_uint count = 0;
  cl_int err = clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof count,
                                &count, NULL);
  if (err != CL_SUCCESS)
    return prism__fail_native(ctx, PRISM_INVALID_ARGUMENT, err,
                              "context is not a valid cl_context "
                              "(clGetContextInfo: %s)",
                              prism__cl_error_name(err));
  cl_device_id *ids = malloc((count ? count : 1) * sizeof *ids);
  if (!ids)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "out of host memory");
  err = clGetContextInfo(context, CL_CONTEXT_DEVICES, count * sizeof *ids, ids,
                         NULL);
  *has = 0;
  for (cl_uint i = 0; err == CL_SUCCESS && i < count; i++)
    *has |= ids[i] == device;
  free(ids);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clGetContextInfo(CL_CONTEXT_DEVICES)");
  return PRISM_OK;
}

/* The caller's queue: of context and device, and in order (the phases of
 * a primitive rely on the order instead of on events). */
static prism_status check_queue(prism_context *ctx,
                                const prism__cl_native_request *r) {
  cl_context qcontext = NULL;
  cl_device_id qdevice = NULL;
  cl_command_queue_properties props = 0;
  cl_int err = clGetCommandQueueInfo(r->queue, CL_QUEUE_CONTEXT,
                                     sizeof qcontext, &qcontext, NULL);
  if (err == CL_SUCCESS)
    err = clGetCommandQueueInfo(r->queue, CL_QUEUE_DEVICE, sizeof qdevice,
                                &qdevice, NULL);
  if (err == CL_SUCCESS)
    err = clGetCommandQueueInfo(r->queue, CL_QUEUE_PROPERTIES, sizeof props,
                                &props, NULL);
  if (err != CL_SUCCESS)
    return prism__fail_native(ctx, PRISM_INVALID_ARGUMENT, err,
                              "queue is not a valid cl_command_queue "
                              "(clGetCommandQueueInfo: %s)",
                              prism__cl_error_name(err));
  if (qcontext != r->context)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "queue belongs to another cl_context than context");
  if (qdevice != r->device)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "queue is a queue of another device than device");
  if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "queue is out of order "
                       "(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE): prism needs "
                       "an in-order queue");
  return PRISM_OK;
}

/* prism_opencl_context_create: the caller's objects, checked, then
 * retained into cl (so release_cl balances). */
static prism_status adopt_native(prism_context *ctx,
                                 const prism__cl_native_request *r,
                                 prism__cl *cl) {
  if (!r->context)
    return prism__fail(ctx, PRISM_NULL_POINTER, "context is NULL");
  if (!r->device)
    return prism__fail(ctx, PRISM_NULL_POINTER, "device is NULL");
  int has = 0;
  prism_status st = context_has_device(ctx, r->context, r->device, &has);
  if (st != PRISM_OK)
    return st;
  if (!has)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "device is not one of context's devices "
                       "(CL_CONTEXT_DEVICES)");
  if (r->queue && (st = check_queue(ctx, r)) != PRISM_OK)
    return st;
  cl_int err = clRetainDevice(r->device);
  if (err != CL_SUCCESS)
    return prism__fail_native(ctx, PRISM_INVALID_ARGUMENT, err,
                              "device is not a valid cl_device_id "
                              "(clRetainDevice: %s)",
                              prism__cl_error_name(err));
  cl->device = r->device;
  cl->device_retained = 1;
  if ((err = clRetainContext(r->context)) != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clRetainContext");
  cl->context = r->context;
  if (r->queue) {
    if ((err = clRetainCommandQueue(r->queue)) != CL_SUCCESS)
      return prism__cl_fail(ctx, err, "clRetainCommandQueue");
    cl->queue = r->queue;
  }
  return PRISM_OK;
}

/* prism's own context on the requested device. */
static prism_status create_context(prism_context *ctx,
                                   const prism__device_request *request,
                                   prism__cl *cl, prism__device_info *info) {
  prism_status st = prism__cl_select_device(ctx, request, cl, info);
  if (st != PRISM_OK)
    return st;
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)cl->platform, 0};
  cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
  if (!cl->context)
    return prism__cl_fail(ctx, err, "clCreateContext(%s)", info->device_name);
  return PRISM_OK;
}

static prism_status context_init(prism_context *ctx,
                                 const prism__device_request *request,
                                 prism__device_info *info) {
  prism__cl *cl = calloc(1, sizeof *cl);
  if (!cl)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "out of host memory");
  const prism__cl_native_request *native = request->native;
  prism_status st;
  if (native) {
    st = adopt_native(ctx, native, cl);
    if (st == PRISM_OK)
      st = prism__cl_describe_device(ctx, cl, info);
  } else {
    st = create_context(ctx, request, cl, info);
  }
  if (st != PRISM_OK) {
    release_cl(cl);
    return st;
  }
  /* In order: calls on a context run in the order they were made, and the
   * phases of a primitive rely on it instead of on events. */
  if (!cl->queue) {
    cl_int err;
    cl->queue = clCreateCommandQueue(cl->context, cl->device, 0, &err);
    if (!cl->queue) {
      release_cl(cl);
      return prism__cl_fail(ctx, err, "clCreateCommandQueue(%s)",
                            info->device_name);
    }
  }
  /* Some drivers (NVIDIA's) defer allocation, so clCreateBuffer accepts
   * sizes the device can never hold; mem_alloc checks this limit itself. */
  if (clGetDeviceInfo(cl->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                      sizeof cl->max_alloc, &cl->max_alloc, NULL) != CL_SUCCESS)
    cl->max_alloc = 0;
  prism__set_impl(ctx, cl);
  return PRISM_OK;
}

static void context_fini(prism_context *ctx) {
  prism__cl *cl = prism__cl_of(ctx);
  if (!cl)
    return;
  clFinish(cl->queue);
  release_cl(cl);
  prism__set_impl(ctx, NULL);
}

/* Zero-byte buffers get one byte: OpenCL has no empty buffer, and a real
 * handle keeps every other path free of NULL checks. Out of resources and
 * a size beyond CL_DEVICE_MAX_MEM_ALLOC_SIZE are out-of-memory here, the
 * latter checked before the call since NVIDIA's clCreateBuffer accepts any
 * size and fails only at first use; a launch that reports
 * CL_OUT_OF_RESOURCES is a backend error instead (NVIDIA reports faults
 * that way). */
static prism_status mem_alloc(prism_context *ctx, size_t bytes, void **native) {
  prism__cl *cl = prism__cl_of(ctx);
  if (cl->max_alloc && bytes > cl->max_alloc)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY,
                       "buffer of %zu bytes exceeds the device's largest "
                       "allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu)",
                       bytes, (unsigned long long)cl->max_alloc);
  cl_int err;
  cl_mem mem = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, bytes ? bytes : 1,
                              NULL, &err);
  if (!mem && (err == CL_OUT_OF_RESOURCES || err == CL_INVALID_BUFFER_SIZE))
    return prism__fail_native(ctx, PRISM_OUT_OF_MEMORY, err,
                              "clCreateBuffer(%zu bytes): %s (%d)", bytes,
                              prism__cl_error_name(err), (int)err);
  if (!mem)
    return prism__cl_fail(ctx, err, "clCreateBuffer(%zu bytes)", bytes);
  *native = mem;
  return PRISM_OK;
}

static void mem_free(prism_context *ctx, void *native) {
  (void)ctx;
  if (native)
    clReleaseMemObject((cl_mem)native);
}

static prism_status mem_write(prism_context *ctx, void *dst, size_t offset,
                              const void *src, size_t bytes) {
  if (bytes == 0)
    return PRISM_OK;
  cl_int err = clEnqueueWriteBuffer(prism__cl_of(ctx)->queue, (cl_mem)dst,
                                    CL_TRUE, offset, bytes, src, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clEnqueueWriteBuffer(%zu bytes at %zu)",
                          bytes, offset);
  return PRISM_OK;
}

static prism_status mem_read(prism_context *ctx, const void *src, size_t offset,
                             void *dst, size_t bytes) {
  if (bytes == 0)
    return PRISM_OK;
  cl_int err = clEnqueueReadBuffer(prism__cl_of(ctx)->queue, (cl_mem)src,
                                   CL_TRUE, offset, bytes, dst, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clEnqueueReadBuffer(%zu bytes at %zu)",
                          bytes, offset);
  return PRISM_OK;
}

/* The buffer that mem is a sub-buffer of (mem itself when it is none),
 * and mem's origin in it: OpenCL 1.2 makes sub-buffers of buffers only,
 * but the walk does not rely on it. */
static cl_mem root_of(cl_mem mem, size_t *origin) {
  *origin = 0;
  for (;;) {
    cl_mem parent = NULL;
    size_t offset = 0;
    if (clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent,
                           &parent, NULL) != CL_SUCCESS ||
        !parent ||
        clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof offset, &offset, NULL) !=
            CL_SUCCESS)
      return mem;
    *origin += offset;
    mem = parent;
  }
}

/*
 * The driver's fill and copy take byte offsets, but NVIDIA's fill kernel
 * indexes elements with 32 bits and faults at element 2^31 and beyond. So
 * both go to the driver in pieces of PRISM__CL_TRANSFER_PIECE bytes, and a
 * piece that ends past 2^31 bytes goes through a sub-buffer starting at the
 * aligned address at or below it, where every offset is small. Offsets
 * are any (views: core adds the view's offset; fills keep the absolute
 * offset a multiple of the pattern, and the origin is one too, as a
 * multiple of the base alignment or equal to the offset). A caller's
 * sub-buffer (prism_opencl_buffer_wrap) gets its window from its root
 * buffer, since sub-buffers of sub-buffers do not exist.
 */
typedef struct window {
  cl_mem mem;    /* the buffer itself, or a sub-buffer of it */
  size_t offset; /* where the piece starts within mem */
} window;

static prism_status open_window(prism_context *ctx, cl_mem buf, size_t offset,
                                size_t bytes, window *w) {
  w->mem = buf;
  w->offset = offset;
  if (offset + bytes <= PRISM__CL_SMALL_OFFSETS)
    return PRISM_OK;
  size_t root_origin;
  cl_mem root = root_of(buf, &root_origin);
  offset += root_origin;
  size_t align = prism__cl_of(ctx)->facts.base_align;
  size_t origin = align ? offset / align * align : offset;
  cl_buffer_region region = {origin, offset + bytes - origin};
  cl_int err;
  w->mem =
      clCreateSubBuffer(root, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clCreateSubBuffer(%zu bytes at %zu)",
                          region.size, origin);
  w->offset = offset - origin;
  return PRISM_OK;
}

static void close_window(cl_mem buf, window *w) {
  if (w->mem != buf)
    clReleaseMemObject(w->mem); /* freed once queued work is done */
}

static size_t piece_at(size_t done, size_t bytes) {
  return bytes - done < PRISM__CL_TRANSFER_PIECE ? bytes - done
                                                 : PRISM__CL_TRANSFER_PIECE;
}

static prism_status mem_fill(prism_context *ctx, void *dst, size_t offset,
                             const void *pattern, size_t pattern_size,
                             size_t bytes) {
  cl_mem buf = (cl_mem)dst;
  for (size_t done = 0; done < bytes; done += PRISM__CL_TRANSFER_PIECE) {
    const size_t piece = piece_at(done, bytes);
    window w;
    prism_status st = open_window(ctx, buf, offset + done, piece, &w);
    if (st != PRISM_OK)
      return st;
    cl_int err =
        clEnqueueFillBuffer(prism__cl_of(ctx)->queue, w.mem, pattern,
                            pattern_size, w.offset, piece, 0, NULL, NULL);
    close_window(buf, &w);
    if (err != CL_SUCCESS)
      return prism__cl_fail(ctx, err,
                            "clEnqueueFillBuffer(%zu bytes at %zu, pattern of "
                            "%zu)",
                            piece, offset + done, pattern_size);
  }
  return PRISM_OK;
}

static prism_status mem_copy(prism_context *ctx, void *dst, size_t dst_offset,
                             const void *src, size_t src_offset, size_t bytes) {
  cl_mem dbuf = (cl_mem)dst, sbuf = (cl_mem)src;
  for (size_t done = 0; done < bytes; done += PRISM__CL_TRANSFER_PIECE) {
    const size_t piece = piece_at(done, bytes);
    window d, s;
    prism_status st = open_window(ctx, dbuf, dst_offset + done, piece, &d);
    if (st != PRISM_OK)
      return st;
    st = open_window(ctx, sbuf, src_offset + done, piece, &s);
    if (st != PRISM_OK) {
      close_window(dbuf, &d);
      return st;
    }
    cl_int err = clEnqueueCopyBuffer(prism__cl_of(ctx)->queue, s.mem, d.mem,
                                     s.offset, d.offset, piece, 0, NULL, NULL);
    close_window(dbuf, &d);
    close_window(sbuf, &s);
    if (err != CL_SUCCESS)
      return prism__cl_fail(ctx, err,
                            "clEnqueueCopyBuffer(%zu bytes, %zu -> %zu)", piece,
                            src_offset + done, dst_offset + done);
  }
  return PRISM_OK;
}

static prism_status finish(prism_context *ctx) {
  cl_int err = clFinish(prism__cl_of(ctx)->queue);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clFinish");
  return PRISM_OK;
}

/* Buffers overlap when they share a root buffer and their ranges in it
 * do. */
static void mem_identity(prism_context *ctx, void *native, const void **space,
                         uint64_t *base) {
  (void)ctx;
  size_t origin = 0;
  *space = native ? root_of((cl_mem)native, &origin) : NULL;
  *base = origin;
}

/* The reference prism_opencl_buffer_wrap took. */
static void mem_unwrap(prism_context *ctx, void *native) {
  (void)ctx;
  if (native)
    clReleaseMemObject((cl_mem)native);
}

/* ---- events ------------------------------------------------------------- */

/* A marker after the queued work. The queue is flushed, so that a queue
 * of another context, or the caller's own code, may wait for it. */
static prism_status event_record(prism_context *ctx, void **native) {
  cl_command_queue queue = prism__cl_of(ctx)->queue;
  cl_event ev = NULL;
  cl_int err = clEnqueueMarkerWithWaitList(queue, 0, NULL, &ev);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clEnqueueMarkerWithWaitList");
  if ((err = clFlush(queue)) != CL_SUCCESS) {
    clReleaseEvent(ev);
    return prism__cl_fail(ctx, err, "clFlush");
  }
  *native = ev;
  return PRISM_OK;
}

static prism_status event_wait(prism_context *ctx, void *native) {
  cl_event ev = (cl_event)native;
  cl_int err = clWaitForEvents(1, &ev);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clWaitForEvents");
  return PRISM_OK;
}

static prism_status event_query(prism_context *ctx, void *native, int *done) {
  cl_int status = CL_QUEUED;
  cl_int err =
      clGetEventInfo((cl_event)native, CL_EVENT_COMMAND_EXECUTION_STATUS,
                     sizeof status, &status, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err,
                          "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)");
  if (status < 0)
    return prism__cl_fail(ctx, status, "the work before the event failed");
  *done = status == CL_COMPLETE;
  return PRISM_OK;
}

prism_status prism__cl_queue_wait(prism_context *ctx, cl_event event,
                                  const char *fn) {
  prism__cl *cl = prism__cl_of(ctx);
  cl_context owner = NULL;
  cl_int err =
      clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof owner, &owner, NULL);
  if (err != CL_SUCCESS)
    return prism__fail_native(ctx, PRISM_INVALID_ARGUMENT, err,
                              "%s: event is not a valid cl_event "
                              "(clGetEventInfo: %s)",
                              fn, prism__cl_error_name(err));
  if (owner != cl->context)
    return prism__fail(ctx, PRISM_CONTEXT_MISMATCH,
                       "%s: event belongs to another cl_context than ctx's: "
                       "an OpenCL queue can wait only for events of its own "
                       "cl_context",
                       fn);
  err = clEnqueueBarrierWithWaitList(cl->queue, 1, &event, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "%s: clEnqueueBarrierWithWaitList", fn);
  return PRISM_OK;
}

/* prism_context_wait_event, the one caller. */
static prism_status queue_wait(prism_context *ctx, void *native) {
  return prism__cl_queue_wait(ctx, (cl_event)native,
                              "prism_context_wait_event");
}

static void event_release(prism_context *ctx, void *native) {
  (void)ctx;
  if (native)
    clReleaseEvent((cl_event)native);
}

const prism__backend prism__backend_opencl = {
    .name = "opencl",
    .kind = PRISM_BACKEND_OPENCL,
    .probe = prism__cl_probe,
    .context_init = context_init,
    .context_fini = context_fini,
    .mem_alloc = mem_alloc,
    .mem_free = mem_free,
    .mem_write = mem_write,
    .mem_read = mem_read,
    .mem_fill = mem_fill,
    .mem_copy = mem_copy,
    .finish = finish,
    .reduce = prism__cl_reduce,
    .scan = prism__cl_scan,
    .sort = prism__cl_sort,
    .gather_scatter = prism__cl_gather_scatter,
    .histogram = prism__cl_histogram,
    .select = prism__cl_select,
    .segmented = prism__cl_segmented,
    .bfs = prism__cl_bfs,
    .mem_identity = mem_identity,
    .mem_unwrap = mem_unwrap,
    .event_record = event_record,
    .event_wait = event_wait,
    .event_query = event_query,
    .queue_wait = queue_wait,
    .event_release = event_release,
    .spmv_tile_items = prism__cl_spmv_tile_items,
    .spmv = prism__cl_spmv,
    .transpose = prism__cl_transpose,
    .stencil = prism__cl_stencil,
    .merge = prism__cl_merge,
    .segmented_sort = prism__cl_segmented_sort,
    .topk = prism__cl_topk,
};
