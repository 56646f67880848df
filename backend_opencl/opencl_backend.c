/* The OpenCL backend's vtable: contexts, memory, and error mapping. */
#include "opencl_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

prism_status prism__cl_fail(prism_context *ctx, cl_int err, const char *fmt,
                            ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  prism_status status =
      err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY
          ? PRISM_OUT_OF_MEMORY
          : PRISM_BACKEND_ERROR;
  return prism__fail_native(ctx, status, err, "%s: %s (%d)", what,
                            prism__cl_error_name(err), (int)err);
}

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

static prism_status mem_fill(prism_context *ctx, void *dst, size_t offset,
                             const void *pattern, size_t pattern_size,
                             size_t bytes) {
  if (bytes == 0)
    return PRISM_OK;
  /* In pieces: NVIDIA's fill faults on ranges past 4 GiB. */
  for (size_t done = 0; done < bytes; done += PRISM__CL_TRANSFER_PIECE) {
    size_t piece = bytes - done < PRISM__CL_TRANSFER_PIECE
                       ? bytes - done
                       : PRISM__CL_TRANSFER_PIECE;
    cl_int err =
        clEnqueueFillBuffer(prism__cl_of(ctx)->queue, (cl_mem)dst, pattern,
                            pattern_size, offset + done, piece, 0, NULL, NULL);
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
  if (bytes == 0)
    return PRISM_OK;
  /* In pieces, as for fills. */
  for (size_t done = 0; done < bytes; done += PRISM__CL_TRANSFER_PIECE) {
    size_t piece = bytes - done < PRISM__CL_TRANSFER_PIECE
                       ? bytes - done
                       : PRISM__CL_TRANSFER_PIECE;
    cl_int err = clEnqueueCopyBuffer(prism__cl_of(ctx)->queue, (cl_mem)src,
                                     (cl_mem)dst, src_offset + done,
                                     dst_offset + done, piece, 0, NULL, NULL);
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
};
