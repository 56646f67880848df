/* SPDX-License-Identifier: MIT */
/*
 * Reduce: a fixed grid of blocks each reduces a grid-strided share of the
 * input to one partial (reduce_partials), then one block reduces the
 * partials (reduce_final); small inputs take one block and one launch. The
 * result goes device -> pinned host memory -> the caller: the only host
 * synchronisation on any primitive's path. prism_reduce_to_buffer has the
 * last kernel write the caller's buffer instead, and waits for nothing.
 *
 * The grid depends only on n and the device (tuning.cuh), so float sums
 * round the same way on every run.
 */
#include "block.cuh"
#include "cuda_internal.h"
#include "dispatch.cuh"
#include "ops.cuh"

#include <string.h>

namespace prism_cuda {
namespace {

template <class Op, class T>
__device__ __forceinline__ T reduce_vec(const Vec16<T> &x) {
  T r = x.v[0];
#pragma unroll
  for (int c = 1; c < Vec16<T>::N; ++c)
    r = Op::apply(r, x.v[c]);
  return r;
}

/* This thread's share of in[0, n): vectors tid, tid + threads, ... in
 * UNROLL independent accumulators (loads of one trip do not wait on each
 * other), then the few elements before the first 16-byte boundary and after
 * the last whole vector, one per thread. Alignment: in needs only its
 * element's (a view's start); the vectors start at in + head, on a 16-byte
 * boundary, whatever in is. */
template <class T, prism_op OP>
__device__ __forceinline__ T thread_reduce(const T *__restrict__ in, size_t n,
                                           size_t tid, size_t threads) {
  using Op = prism_cuda::Op<T, OP>;
  using V = Vec16<T>;
  constexpr int UNROLL = ReducePolicy<T>::UNROLL;

  size_t head =
      (VECTOR_BYTES - uintptr_t(in) % VECTOR_BYTES) % VECTOR_BYTES / sizeof(T);
  if (head > n)
    head = n;
  const size_t nvec = (n - head) / V::N;
  const size_t tail = head + nvec * V::N;
  const V *__restrict__ vin = reinterpret_cast<const V *>(in + head);

  T acc[UNROLL];
#pragma unroll
  for (int k = 0; k < UNROLL; ++k)
    acc[k] = Op::identity();

  size_t i = tid;
  for (; i + (UNROLL - 1) * threads < nvec; i += UNROLL * threads) {
    V x[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k)
      x[k] = vin[i + k * threads];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k)
      acc[k] = Op::apply(acc[k], reduce_vec<Op>(x[k]));
  }
  for (; i < nvec; i += threads)
    acc[0] = Op::apply(acc[0], reduce_vec<Op>(vin[i]));
  // head and n - tail are below V::N <= threads: one element per thread.
  if (tid < head)
    acc[1 % UNROLL] = Op::apply(acc[1 % UNROLL], in[tid]);
  if (tid < n - tail)
    acc[2 % UNROLL] = Op::apply(acc[2 % UNROLL], in[tail + tid]);

#pragma unroll
  for (int k = 1; k < UNROLL; ++k)
    acc[0] = Op::apply(acc[0], acc[k]);
  return acc[0];
}

/* The block's total of the threads' shares, to out by thread 0. */
template <class T, prism_op OP, int BLOCK_THREADS>
__device__ __forceinline__ void block_reduce_to(const T *__restrict__ in,
                                                size_t n, size_t tid,
                                                size_t threads, T *out) {
  __shared__ T warp_slots[BLOCK_THREADS / WARP_THREADS];
  T v = thread_reduce<T, OP>(in, n, tid, threads);
  T total = block_reduce<prism_cuda::Op<T, OP>, BLOCK_THREADS>(v, warp_slots);
  if (threadIdx.x == 0)
    *out = total;
}

/*
 * reduce_partials: ownership: thread g of the grid reduces 16-byte vectors
 * g, g + G, g + 2G, ... (G = all threads of the grid) in registers; block b
 * writes partials[b]. Partials meet in reduce_final (or, with a grid of one
 * block, partials[0] is the result). Traffic: the input read once with
 * coalesced 128-bit loads, UNROLL in flight per thread; one element written
 * per block.
 */
template <class T, prism_op OP>
__global__ void
__launch_bounds__(ReducePolicy<T>::BLOCK_THREADS,
                  min_blocks_for_arch(ReducePolicy<T>::MIN_BLOCKS_PER_SM,
                                      ReducePolicy<T>::BLOCK_THREADS))
    reduce_partials(const T *__restrict__ in, size_t n,
                    T *__restrict__ partials) {
  constexpr int BLOCK = ReducePolicy<T>::BLOCK_THREADS;
  block_reduce_to<T, OP, BLOCK>(in, n, size_t(blockIdx.x) * BLOCK + threadIdx.x,
                                size_t(gridDim.x) * BLOCK,
                                partials + blockIdx.x);
}

/*
 * reduce_final: one block reduces the count partials (a few per SM) to
 * *result, in a fixed order. Traffic: negligible; this is a launch's worth
 * of latency.
 */
template <class T, prism_op OP>
__global__ void __launch_bounds__(ReducePolicy<T>::FINAL_THREADS)
    reduce_final(const T *__restrict__ partials, size_t count,
                 T *__restrict__ result) {
  constexpr int BLOCK = ReducePolicy<T>::FINAL_THREADS;
  block_reduce_to<T, OP, BLOCK>(partials, count, threadIdx.x, BLOCK, result);
}

template <class T, prism_op OP>
prism_status run_reduce(prism_context *ctx, prism__cuda_ctx *c,
                        const prism__reduce_args *args) {
  using P = ReducePolicy<T>;
  // in may start on any element boundary (a view): thread_reduce loads
  // whole 16-byte vectors only from the first 16-byte boundary on.
  const T *in = mem_ptr<const T>(args->in);
  T *result = args->out.native ? mem_ptr<T>(args->out)
                               : static_cast<T *>(c->dev_result);
  const unsigned grid =
      reduce_grid<T>(c->sm_count, c->max_threads_per_sm, args->n);

  if (grid == 1) {
    reduce_partials<T, OP>
        <<<1, P::BLOCK_THREADS, 0, c->stream>>>(in, args->n, result);
    prism_status st = prism__cuda_check_launch(ctx, "reduce_partials");
    if (st != PRISM_OK)
      return st;
  } else {
    void *scratch = NULL;
    prism_status st = prism__scratch(ctx, grid * sizeof(T), &scratch);
    if (st != PRISM_OK)
      return st;
    T *partials = static_cast<T *>(scratch);
    reduce_partials<T, OP>
        <<<grid, P::BLOCK_THREADS, 0, c->stream>>>(in, args->n, partials);
    st = prism__cuda_check_launch(ctx, "reduce_partials");
    if (st != PRISM_OK)
      return st;
    reduce_final<T, OP>
        <<<1, P::FINAL_THREADS, 0, c->stream>>>(partials, grid, result);
    st = prism__cuda_check_launch(ctx, "reduce_final");
    if (st != PRISM_OK)
      return st;
  }

  if (args->out.native)
    return PRISM_OK;
  return prism__cuda_read_result(ctx, c, result, sizeof(T), args->result);
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status prism__cuda_reduce(prism_context *ctx,
                                           const prism__reduce_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  return prism_cuda::dispatch_type_op(ctx, args->type, args->op, [&](auto tag) {
    using Tag = decltype(tag);
    using T = typename Tag::type;
    if (args->n == 0 && args->result) { // core answers n = 0 itself
      const T identity = prism_cuda::Op<T, Tag::op>::identity();
      memcpy(args->result, &identity, sizeof(T));
      return PRISM_OK;
    }
    return prism_cuda::run_reduce<T, Tag::op>(ctx, c, args);
  });
}
