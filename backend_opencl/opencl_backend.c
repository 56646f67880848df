/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's vtable: contexts, memory, and error mapping. */
#include "opencl_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void release_cl(prism__cl *cl) {
  prism__cl_programs_release(cl);
  if (cl->queue)
    clReleaseCommandQueue(cl->queue);
  if (cl->context)
    clReleaseContext(cl->context);
  free(cl);
}

static prism_status context_init(prism_context *ctx,
                                 const prism__device_request *request,
                                 prism__device_info *info) {
  prism__cl *cl = calloc(1, sizeof *cl);
  if (!cl)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "out of host memory");
  prism_status st = prism__cl_select_device(ctx, request, cl, info);
  if (st != PRISM_OK) {
    release_cl(cl);
    return st;
  }
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)cl->platform, 0};
  cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
  if (!cl->context) {
    release_cl(cl);
    return prism__cl_fail(ctx, err, "clCreateContext(%s)", info->device_name);
  }
  /* In order: calls on a context run in the order they were made, and the
   * phases of a primitive rely on it instead of on events. */
  cl->queue = clCreateCommandQueue(cl->context, cl->device, 0, &err);
  if (!cl->queue) {
    release_cl(cl);
    return prism__cl_fail(ctx, err, "clCreateCommandQueue(%s)",
                          info->device_name);
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

/*
 * The driver's fill and copy take byte offsets, but NVIDIA's fill kernel
 * indexes elements with 32 bits and faults at element 2^31 and beyond. So
 * both go to the driver in pieces of PRISM__CL_TRANSFER_PIECE bytes, and a
 * piece that ends past 2^31 bytes goes through a sub-buffer starting at the
 * aligned address at or below it, where every offset is small.
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
  size_t align = prism__cl_of(ctx)->facts.base_align;
  size_t origin = align ? offset / align * align : offset;
  cl_buffer_region region = {origin, offset + bytes - origin};
  cl_int err;
  w->mem =
      clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
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
};
