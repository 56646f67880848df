/* SPDX-License-Identifier: MIT */
/*
 * State and helpers shared by the CUDA backend's host files.
 *
 * Every entry point starts with prism__cuda_enter(), which fetches the
 * context's state and makes its device current: several contexts, even on
 * different devices, may live in one process and one thread.
 */
#ifndef PRISM_BACKEND_CUDA_INTERNAL_H
#define PRISM_BACKEND_CUDA_INTERNAL_H

#include "backend.h"
#include "error.h"

#include <cuda_runtime_api.h>

/* What prism_cuda_context_create hands context_init as the request's
 * native member (core/backend.h): the caller's device and stream. */
typedef struct prism__cuda_native_request {
  int device;
  cudaStream_t stream;
} prism__cuda_native_request;

/* Backend state of one context (stored with prism__set_impl). */
typedef struct prism__cuda_ctx {
  int device;
  int sm_count;           /* streaming multiprocessors: grid sizing */
  int max_threads_per_sm; /* resident threads per SM: blocks per SM */
  cudaStream_t stream;    /* prism's own: non-blocking, never waits on
                             stream 0; or the caller's (any kind) */
  int own_stream;         /* 1: prism created stream and destroys it */
  void *host_result;      /* pinned: results read back land here */
  void *dev_result;       /* one element: reduce writes its result here */
} prism__cuda_ctx;

/* The device address of a buffer argument (core/backend.h): its memory's
 * pointer plus the view's byte offset; NULL for an absent optional one.
 * Only element-aligned: vector paths check their own alignment. */
static inline void *prism__cuda_ptr(prism__mem m) {
  return m.native ? (void *)((char *)m.native + m.offset) : NULL;
}

/* Bytes of each per-context result slot: room for any element type
 * (cudaMalloc hands out at least this much anyway). */
#define PRISM__CUDA_RESULT_BYTES 256

/* Scratch regions are carved at this alignment, so that every region starts
 * on a 16-byte vector boundary and on its own cache lines. */
#define PRISM__CUDA_SCRATCH_ALIGN 256

/* bytes rounded up to PRISM__CUDA_SCRATCH_ALIGN. */
static inline size_t prism__cuda_align(size_t bytes) {
  return (bytes + PRISM__CUDA_SCRATCH_ALIGN - 1) &
         ~(size_t)(PRISM__CUDA_SCRATCH_ALIGN - 1);
}

#ifdef __cplusplus
extern "C" {
#endif

/* Records err on ctx (clearing the runtime's per-thread last error, so it
 * is not reported again by a later launch check) and returns the status:
 * PRISM_OUT_OF_MEMORY for allocation failures, else PRISM_BACKEND_ERROR.
 * The message reads "<what>: <runtime's description>". */
prism_status prism__cuda_fail(prism_context *ctx, cudaError_t err,
                              const char *what);

/* Fetches the context's state into *out and makes its device current. */
prism_status prism__cuda_enter(prism_context *ctx, prism__cuda_ctx **out);

/* Checks that the kernel launch just made was accepted. */
prism_status prism__cuda_check_launch(prism_context *ctx, const char *kernel);

/* Copies bytes (at most PRISM__CUDA_RESULT_BYTES) of device memory src to
 * dst through the context's pinned result slot, once the stream has done
 * everything queued before: the one round trip of a call that returns a
 * value to the host. */
prism_status prism__cuda_read_result(prism_context *ctx, prism__cuda_ctx *c,
                                     const void *src, size_t bytes, void *dst);

/* Vtable members defined outside cuda_backend.cu (memory.cu, reduce.cu,
 * scan.cu, sort.cu, gather_scatter.cu, histogram.cu, select.cu,
 * segmented.cu, bfs.cu, spmv.cu, transpose.cu, stencil.cu, merge.cu,
 * segmented_sort.cu, cuda_interop.cu);
 * see core/backend.h for their contracts. */
prism_status prism__cuda_mem_alloc(prism_context *ctx, size_t bytes,
                                   void **native);
void prism__cuda_mem_free(prism_context *ctx, void *native);
prism_status prism__cuda_mem_write(prism_context *ctx, void *dst, size_t offset,
                                   const void *src, size_t bytes);
prism_status prism__cuda_mem_read(prism_context *ctx, const void *src,
                                  size_t offset, void *dst, size_t bytes);
prism_status prism__cuda_mem_fill(prism_context *ctx, void *dst, size_t offset,
                                  const void *pattern, size_t pattern_size,
                                  size_t bytes);
prism_status prism__cuda_mem_copy(prism_context *ctx, void *dst,
                                  size_t dst_offset, const void *src,
                                  size_t src_offset, size_t bytes);
prism_status prism__cuda_reduce(prism_context *ctx,
                                const prism__reduce_args *args);
prism_status prism__cuda_scan(prism_context *ctx, const prism__scan_args *args);
prism_status prism__cuda_sort(prism_context *ctx, const prism__sort_args *args);
/* The bytes of pooled scratch prism__cuda_sort takes for args (0: none), so
 * a caller that keeps data of its own in the pool can reserve room for the
 * sort below it. */
size_t prism__cuda_sort_scratch_bytes(prism_context *ctx,
                                      const prism__sort_args *args);
prism_status prism__cuda_gather_scatter(prism_context *ctx,
                                        const prism__gather_scatter_args *args);
prism_status prism__cuda_histogram(prism_context *ctx,
                                   const prism__histogram_args *args);
prism_status prism__cuda_select(prism_context *ctx,
                                const prism__select_args *args);
prism_status prism__cuda_segmented(prism_context *ctx,
                                   const prism__segmented_args *args);
prism_status prism__cuda_bfs(prism_context *ctx, const prism__bfs_args *args);
void prism__cuda_mem_identity(prism_context *ctx, void *native,
                              const void **space, uint64_t *base);
void prism__cuda_mem_unwrap(prism_context *ctx, void *native);
prism_status prism__cuda_event_record(prism_context *ctx, void **native);
prism_status prism__cuda_event_wait(prism_context *ctx, void *native);
prism_status prism__cuda_event_query(prism_context *ctx, void *native,
                                     int *done);
prism_status prism__cuda_queue_wait(prism_context *ctx, void *native);
void prism__cuda_event_release(prism_context *ctx, void *native);
size_t prism__cuda_spmv_tile_items(prism_context *ctx, prism_type type);
prism_status prism__cuda_spmv(prism_context *ctx, const prism__spmv_args *args);
prism_status prism__cuda_transpose(prism_context *ctx,
                                   const prism__transpose_args *args);
prism_status prism__cuda_stencil(prism_context *ctx,
                                 const prism__stencil_args *args);
prism_status prism__cuda_merge(prism_context *ctx,
                               const prism__merge_args *args);
prism_status prism__cuda_segmented_sort(prism_context *ctx,
                                        const prism__segmented_sort_args *args);
prism_status prism__cuda_topk(prism_context *ctx, const prism__topk_args *args);

#ifdef __cplusplus
}
#endif

/* Calls a CUDA runtime function and returns from the enclosing function with
 * the recorded status when it fails; the message names the function. */
#define PRISM_CUDA_TRY(ctx, fn, ...)                                           \
  do {                                                                         \
    cudaError_t prism_err_ = fn(__VA_ARGS__);                                  \
    if (prism_err_ != cudaSuccess)                                             \
      return prism__cuda_fail((ctx), prism_err_, #fn);                         \
  } while (0)

#ifdef __cplusplus
namespace prism_cuda {
/* prism__cuda_ptr as a T * (const T for inputs). */
template <class T> inline T *mem_ptr(prism__mem m) {
  return static_cast<T *>(prism__cuda_ptr(m));
}
} // namespace prism_cuda
#endif

#endif /* PRISM_BACKEND_CUDA_INTERNAL_H */
