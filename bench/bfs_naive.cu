/* SPDX-License-Identifier: MIT */
/*
 * The naive top-down BFS (bfs_naive.h): the baseline of prism's BFS on
 * NVIDIA devices, in its textbook form (levels int32, two frontier queues,
 * a launch and a host round trip per level; every edge tries its atomicCAS,
 * with no plain read first).
 */
#include "bfs_naive.h"
#include "cuda_open.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <new>

namespace {

constexpr unsigned kThreads = 256; /* threads per block of expand */

/*
 * One level: thread i owns frontier vertex in_queue[i] and walks all of
 * its out-edges. A neighbour still at -1 is claimed with atomicCAS (one
 * thread wins it) and the winner takes the next free slot of out_queue
 * with atomicAdd on *out_size, so each vertex is queued once. Traffic:
 * the frontier's rows (offsets and column indices, uncoalesced across
 * threads of unequal degree), one atomic per edge on the levels, one per
 * newly reached vertex on the queue size. A high-degree vertex keeps its
 * thread (and its warp) busy alone: the imbalance the baseline stands for.
 */
__global__ void expand(const uint64_t *row_offsets, const uint32_t *col_indices,
                       int32_t *levels, const uint32_t *in_queue,
                       uint32_t in_size, uint32_t *out_queue,
                       uint32_t *out_size, int32_t next_level) {
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= in_size)
    return;
  uint32_t u = in_queue[i];
  uint64_t end = row_offsets[u + 1];
  for (uint64_t e = row_offsets[u]; e < end; e++) {
    uint32_t v = col_indices[e];
    if (atomicCAS(&levels[v], -1, next_level) == -1)
      out_queue[atomicAdd(out_size, 1u)] = v;
  }
}

/* Out of device memory is a skip, anything else a failure; msg names the
 * call. */
bfs_naive_status fail(cudaError_t err, const char *what, char *msg,
                      size_t msg_size) {
  bool oom = err == cudaErrorMemoryAllocation;
  cudaGetLastError(); /* clear it: later graphs may fit */
  snprintf(msg, msg_size, "%s: %s (%s)", what,
           oom ? "out of device memory" : cudaGetErrorString(err),
           cudaGetErrorName(err));
  return oom ? BFS_NAIVE_SKIPPED : BFS_NAIVE_FAILED;
}

} // namespace

struct bfs_naive {
  int device;
  size_t num_vertices;
  uint64_t *row_offsets = nullptr;
  uint32_t *col_indices = nullptr;
  int32_t *levels = nullptr;
  uint32_t *queue[2] = {nullptr, nullptr}; /* frontier in, frontier out */
  uint32_t *queue_size = nullptr;          /* the out queue's size */
  ~bfs_naive() {
    cudaFree(queue_size);
    cudaFree(queue[1]);
    cudaFree(queue[0]);
    cudaFree(levels);
    cudaFree(col_indices);
    cudaFree(row_offsets);
  }
};

extern "C" bfs_naive_status
bfs_naive_create(int device, size_t num_vertices, const uint64_t *row_offsets,
                 size_t num_edges, const uint32_t *col_indices, bfs_naive **out,
                 char *name, size_t name_size, char *msg, size_t msg_size) {
  *out = nullptr;
  if (num_vertices == 0 || num_vertices > UINT32_MAX) {
    snprintf(msg, msg_size, "the naive BFS takes 1 to 2^32 - 1 vertices");
    return BFS_NAIVE_SKIPPED;
  }
  cudaError_t err = cudaSuccess;
  const char *what = "";
  switch (
      bench_cuda_open(device, name, name_size, msg, msg_size, &err, &what)) {
  case cuda_open::skipped:
    return BFS_NAIVE_SKIPPED;
  case cuda_open::failed:
    return fail(err, what, msg, msg_size);
  case cuda_open::ok:
    break;
  }

  bfs_naive *b = new (std::nothrow) bfs_naive;
  if (!b) {
    snprintf(msg, msg_size, "out of host memory");
    return BFS_NAIVE_SKIPPED;
  }
  b->device = device;
  b->num_vertices = num_vertices;
  size_t offset_bytes = (num_vertices + 1) * sizeof(uint64_t);
  size_t edge_bytes = num_edges * sizeof(uint32_t);
  size_t vertex_bytes = num_vertices * sizeof(uint32_t);
  if ((err = cudaMalloc(&b->row_offsets, offset_bytes)) != cudaSuccess ||
      (err = cudaMalloc(&b->col_indices, edge_bytes ? edge_bytes : 1)) !=
          cudaSuccess ||
      (err = cudaMalloc(&b->levels, vertex_bytes)) != cudaSuccess ||
      (err = cudaMalloc(&b->queue[0], vertex_bytes)) != cudaSuccess ||
      (err = cudaMalloc(&b->queue[1], vertex_bytes)) != cudaSuccess ||
      (err = cudaMalloc(&b->queue_size, sizeof(uint32_t))) != cudaSuccess) {
    delete b;
    return fail(err, "cudaMalloc", msg, msg_size);
  }
  /* From pageable memory cudaMemcpy may return before the data lands. */
  if ((err = cudaMemcpy(b->row_offsets, row_offsets, offset_bytes,
                        cudaMemcpyHostToDevice)) != cudaSuccess ||
      (edge_bytes &&
       (err = cudaMemcpy(b->col_indices, col_indices, edge_bytes,
                         cudaMemcpyHostToDevice)) != cudaSuccess) ||
      (err = cudaDeviceSynchronize()) != cudaSuccess) {
    delete b;
    return fail(err, "cudaMemcpy", msg, msg_size);
  }
  *out = b;
  return BFS_NAIVE_OK;
}

extern "C" bfs_naive_status bfs_naive_run(bfs_naive *b, uint32_t source,
                                          char *msg, size_t msg_size) {
  cudaError_t err;
  const int32_t zero = 0;
  if ((err = cudaSetDevice(b->device)) != cudaSuccess)
    return fail(err, "cudaSetDevice", msg, msg_size);
  if ((err = cudaMemset(b->levels, 0xff, b->num_vertices * sizeof(int32_t))) !=
          cudaSuccess ||
      (err = cudaMemcpy(b->levels + source, &zero, sizeof zero,
                        cudaMemcpyHostToDevice)) != cudaSuccess ||
      (err = cudaMemcpy(b->queue[0], &source, sizeof source,
                        cudaMemcpyHostToDevice)) != cudaSuccess)
    return fail(err, "BFS start (cudaMemset, cudaMemcpy)", msg, msg_size);

  uint32_t size = 1; /* of the frontier */
  int in = 0;
  for (int32_t level = 1; size > 0; level++, in ^= 1) {
    if ((err = cudaMemset(b->queue_size, 0, sizeof(uint32_t))) != cudaSuccess)
      return fail(err, "cudaMemset", msg, msg_size);
    unsigned blocks = static_cast<unsigned>(
        (static_cast<size_t>(size) + kThreads - 1) / kThreads);
    expand<<<blocks, kThreads>>>(b->row_offsets, b->col_indices, b->levels,
                                 b->queue[in], size, b->queue[in ^ 1],
                                 b->queue_size, level);
    if ((err = cudaGetLastError()) != cudaSuccess)
      return fail(err, "expand launch", msg, msg_size);
    /* The round trip: the host learns the next frontier's size. */
    if ((err = cudaMemcpy(&size, b->queue_size, sizeof size,
                          cudaMemcpyDeviceToHost)) != cudaSuccess)
      return fail(err, "expand (cudaMemcpy of the queue size)", msg, msg_size);
  }
  return BFS_NAIVE_OK;
}

extern "C" bfs_naive_status bfs_naive_levels(bfs_naive *b, int32_t *levels,
                                             char *msg, size_t msg_size) {
  cudaError_t err;
  if ((err = cudaSetDevice(b->device)) != cudaSuccess ||
      (err = cudaMemcpy(levels, b->levels, b->num_vertices * sizeof(int32_t),
                        cudaMemcpyDeviceToHost)) != cudaSuccess)
    return fail(err, "cudaMemcpy of the levels", msg, msg_size);
  return BFS_NAIVE_OK;
}

extern "C" void bfs_naive_destroy(bfs_naive *b) {
  if (!b)
    return;
  cudaSetDevice(b->device);
  delete b;
}
