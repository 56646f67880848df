/* SPDX-License-Identifier: MIT */
/*
 * Gather (out[i] = in[idx[i]]) and scatter (out[idx[i]] = in[i]): one
 * kernel, move_elements, instantiated per element bits (uint32_t /
 * uint64_t: payloads move as raw bits), index type, direction and whether
 * out-of-range positions are recorded.
 *
 * An index that is negative or >= bound is never followed. Unchecked calls
 * are only queued. Checked calls (args->first_bad) keep the smallest bad
 * position in a 64-bit scratch counter (set to ~0 on the stream, lowered
 * with atomicMin) and bring it back through the pinned result slot with a
 * stream sync, as reduce does.
 */
#include "cuda_internal.h"
#include "dispatch.cuh"
#include "tuning.cuh"

#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/* Whether index k lies in [0, bound). */
template <class I>
__device__ __forceinline__ bool index_in_range(I k, size_t bound) {
  if (I(-1) < I(0) && k < I(0)) // signed index types only
    return false;
  return uint64_t(k) < uint64_t(bound);
}

/*
 * move_elements: ownership: thread t of the launch moves the one element of
 * position i = base + blockIdx.x * blockDim.x + threadIdx.x (i < end), no
 * loop; launches over chunks of MOVE_CHUNK_ELEMENTS cover n. Gather writes
 * out[i], scatter out[idx[i]]; nothing is written for an out-of-range
 * index. CHECKED: each warp's lowest lane with a bad index (the warp's
 * smallest bad i) lowers *first_bad with one 64-bit atomicMin.
 * Traffic: idx read once, coalesced; gather reads in at the indices
 * (random) and writes out coalesced, scatter reads in coalesced and writes
 * out at the indices (random): one element per position each way.
 */
template <class E, class I, bool SCATTER, bool CHECKED>
__global__ void __launch_bounds__(MOVE_BLOCK_THREADS)
    move_elements(const E *__restrict__ in, const I *idx, E *out, size_t base,
                  size_t end, size_t bound, unsigned long long *first_bad) {
  const size_t i = base + size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  bool bad = false;
  if (i < end) {
    const I k = idx[i];
    if (index_in_range(k, bound)) {
      if (SCATTER)
        out[size_t(k)] = in[i];
      else
        out[i] = in[size_t(k)];
    } else {
      bad = true;
    }
  }
  if (CHECKED) {
    // Every lane gets here (blocks are whole warps): positions rise with
    // the lane, so the lowest bad lane holds the warp's smallest bad i.
    const unsigned mask = __ballot_sync(0xffffffffu, bad);
    if (mask != 0 && int(threadIdx.x % WARP_THREADS) == __ffs(mask) - 1)
      atomicMin(first_bad, (unsigned long long)i);
  }
}

template <class E, class I, bool SCATTER, bool CHECKED>
prism_status launch_move(prism_context *ctx, prism__cuda_ctx *c,
                         const prism__gather_scatter_args *args,
                         unsigned long long *first_bad) {
  // One element per thread, no vectors: element alignment is enough.
  const E *in = mem_ptr<const E>(args->in);
  const I *idx = mem_ptr<const I>(args->indices);
  E *out = mem_ptr<E>(args->out);
  const size_t n = args->n;
  for (size_t base = 0; base < n; base += MOVE_CHUNK_ELEMENTS) {
    const size_t count =
        n - base < MOVE_CHUNK_ELEMENTS ? n - base : MOVE_CHUNK_ELEMENTS;
    const size_t blocks = (count + MOVE_BLOCK_THREADS - 1) / MOVE_BLOCK_THREADS;
    move_elements<E, I, SCATTER, CHECKED>
        <<<unsigned(blocks), MOVE_BLOCK_THREADS, 0, c->stream>>>(
            in, idx, out, base, base + count, args->bound, first_bad);
    prism_status st = prism__cuda_check_launch(ctx, "move_elements");
    if (st != PRISM_OK)
      return st;
  }
  return PRISM_OK;
}

template <class E, class I, bool SCATTER>
prism_status run_move(prism_context *ctx, prism__cuda_ctx *c,
                      const prism__gather_scatter_args *args) {
  if (!args->first_bad)
    return launch_move<E, I, SCATTER, false>(ctx, c, args, NULL);

  void *scratch = NULL;
  prism_status st = prism__scratch(ctx, sizeof(unsigned long long), &scratch);
  if (st != PRISM_OK)
    return st;
  unsigned long long *first_bad = static_cast<unsigned long long *>(scratch);
  PRISM_CUDA_TRY(ctx, cudaMemsetAsync, first_bad, 0xFF, sizeof *first_bad,
                 c->stream);
  st = launch_move<E, I, SCATTER, true>(ctx, c, args, first_bad);
  if (st != PRISM_OK)
    return st;
  unsigned long long found = 0;
  st = prism__cuda_read_result(ctx, c, first_bad, sizeof found, &found);
  if (st != PRISM_OK)
    return st;
  *args->first_bad = found == ~0ull ? SIZE_MAX : size_t(found);
  return PRISM_OK;
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status
prism__cuda_gather_scatter(prism_context *ctx,
                           const prism__gather_scatter_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (args->n == 0) { // core answers n = 0 itself; kept for safety
    if (args->first_bad)
      *args->first_bad = SIZE_MAX;
    return PRISM_OK;
  }
  return prism_cuda::dispatch_move(
      ctx, args->element_size, args->index_type, [&](auto tag) {
        using Tag = decltype(tag);
        using E = typename Tag::element;
        using I = typename Tag::index;
        return args->scatter ? prism_cuda::run_move<E, I, true>(ctx, c, args)
                             : prism_cuda::run_move<E, I, false>(ctx, c, args);
      });
}
