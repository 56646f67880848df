/* SPDX-License-Identifier: MIT */
/*
 * Device memory: allocation, host <-> device copies, fills, device copies.
 * Everything is queued on the context's stream; write and read wait for it,
 * since their host side must be done (or filled) when they return.
 */
#include "cuda_internal.h"
#include "tuning.cuh"

#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/*
 * fill_pattern: ownership: thread g of the grid writes words g, g + G, ...
 * (G = all threads of the grid, one wave); no partials. Traffic: write-only,
 * one coalesced store per word; the host widens the pattern to the largest
 * word (up to 8 bytes) that the range's alignment allows.
 */
template <class U>
__global__ void fill_pattern(U *__restrict__ dst, size_t count, U value) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    dst[i] = value;
}

template <class U>
prism_status launch_fill(prism_context *ctx, prism__cuda_ctx *c, void *dst,
                         uint64_t pattern, size_t bytes) {
  U value;
  memcpy(&value, &pattern, sizeof value);
  const size_t count = bytes / sizeof(U);
  // One wave of resident threads, looping: a larger grid only adds blocks.
  const size_t wave =
      size_t(c->sm_count) * size_t(c->max_threads_per_sm / FILL_BLOCK_THREADS);
  size_t blocks = (count + FILL_BLOCK_THREADS - 1) / FILL_BLOCK_THREADS;
  if (blocks > wave)
    blocks = wave;
  if (blocks == 0)
    return PRISM_OK;
  fill_pattern<U><<<unsigned(blocks), FILL_BLOCK_THREADS, 0, c->stream>>>(
      static_cast<U *>(dst), count, value);
  return prism__cuda_check_launch(ctx, "fill_pattern");
}

/* pattern_size is 2, 4 or 8 here. */
prism_status fill(prism_context *ctx, prism__cuda_ctx *c, char *dst,
                  const void *pattern, size_t pattern_size, size_t bytes) {
  unsigned char p[8];
  memcpy(p, pattern, pattern_size);
  // A pattern of one repeated byte is a memset (the copy engine's fast path).
  bool one_byte = true;
  for (size_t i = 1; i < pattern_size; ++i)
    one_byte = one_byte && p[i] == p[0];
  if (one_byte) {
    PRISM_CUDA_TRY(ctx, cudaMemsetAsync, dst, p[0], bytes, c->stream);
    return PRISM_OK;
  }
  // Widen to 4 or 8 bytes where address and size allow: fewer, wider
  // stores. The pattern repeats, so its doubling is the same fill.
  size_t width = pattern_size;
  while (width < 8 && uintptr_t(dst) % (2 * width) == 0 &&
         bytes % (2 * width) == 0) {
    memcpy(p + width, p, width);
    width *= 2;
  }
  uint64_t word = 0;
  memcpy(&word, p, width);
  switch (width) {
  case 2:
    return launch_fill<uint16_t>(ctx, c, dst, word, bytes);
  case 4:
    return launch_fill<uint32_t>(ctx, c, dst, word, bytes);
  default:
    return launch_fill<uint64_t>(ctx, c, dst, word, bytes);
  }
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status prism__cuda_mem_alloc(prism_context *ctx, size_t bytes,
                                              void **native) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  // An empty buffer still gets a handle of its own (cudaMalloc of 0 bytes
  // gives NULL).
  void *p = NULL;
  cudaError_t err = cudaMalloc(&p, bytes ? bytes : 1);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return prism__fail_native(ctx,
                              err == cudaErrorMemoryAllocation
                                  ? PRISM_OUT_OF_MEMORY
                                  : PRISM_BACKEND_ERROR,
                              (long long)err, "cudaMalloc of %zu bytes: %s",
                              bytes, cudaGetErrorString(err));
  }
  *native = p;
  return PRISM_OK;
}

extern "C" void prism__cuda_mem_free(prism_context *ctx, void *native) {
  prism__cuda_ctx *c = NULL;
  if (!native || prism__cuda_enter(ctx, &c) != PRISM_OK)
    return;
  // Queued work may still use the buffer.
  (void)cudaStreamSynchronize(c->stream);
  (void)cudaFree(native);
  (void)cudaGetLastError();
}

extern "C" prism_status prism__cuda_mem_write(prism_context *ctx, void *dst,
                                              size_t offset, const void *src,
                                              size_t bytes) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, static_cast<char *>(dst) + offset, src,
                 bytes, cudaMemcpyHostToDevice, c->stream);
  // From pinned memory the copy would still be in flight: src may be reused
  // only once it is done.
  PRISM_CUDA_TRY(ctx, cudaStreamSynchronize, c->stream);
  return PRISM_OK;
}

extern "C" prism_status prism__cuda_mem_read(prism_context *ctx,
                                             const void *src, size_t offset,
                                             void *dst, size_t bytes) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, dst,
                 static_cast<const char *>(src) + offset, bytes,
                 cudaMemcpyDeviceToHost, c->stream);
  PRISM_CUDA_TRY(ctx, cudaStreamSynchronize, c->stream);
  return PRISM_OK;
}

extern "C" prism_status prism__cuda_mem_fill(prism_context *ctx, void *dst,
                                             size_t offset, const void *pattern,
                                             size_t pattern_size,
                                             size_t bytes) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (bytes == 0)
    return PRISM_OK;
  char *at = static_cast<char *>(dst) + offset;
  if (pattern_size == 1) {
    PRISM_CUDA_TRY(ctx, cudaMemsetAsync, at,
                   *static_cast<const unsigned char *>(pattern), bytes,
                   c->stream);
    return PRISM_OK;
  }
  if (pattern_size != 2 && pattern_size != 4 && pattern_size != 8)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "pattern_size %zu: must be 1, 2, 4 or 8", pattern_size);
  return prism_cuda::fill(ctx, c, at, pattern, pattern_size, bytes);
}

extern "C" prism_status prism__cuda_mem_copy(prism_context *ctx, void *dst,
                                             size_t dst_offset, const void *src,
                                             size_t src_offset, size_t bytes) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, static_cast<char *>(dst) + dst_offset,
                 static_cast<const char *>(src) + src_offset, bytes,
                 cudaMemcpyDeviceToDevice, c->stream);
  return PRISM_OK;
}

/* One address space: a buffer's identity is its device address, so views
 * and wraps of one allocation compare by their byte ranges. */
extern "C" void prism__cuda_mem_identity(prism_context *ctx, void *native,
                                         const void **space, uint64_t *base) {
  (void)ctx;
  *space = NULL;
  *base = (uint64_t)(uintptr_t)native;
}

/* Wrapped memory is the caller's (prism_cuda_buffer_wrap): nothing to
 * release. */
extern "C" void prism__cuda_mem_unwrap(prism_context *ctx, void *native) {
  (void)ctx;
  (void)native;
}
