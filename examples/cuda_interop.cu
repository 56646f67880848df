/* SPDX-License-Identifier: MIT */
/*
 * prism inside a CUDA application: the application owns the stream and
 * the memory, prism sorts in the middle of its own kernels.
 *
 * fill_keys writes pseudo-random keys into the application's cudaMalloc
 * memory; prism, on the application's stream, sorts a view of the second
 * half in place; check_keys then checks on the device that the half is
 * sorted, holds the same keys (by their sum) and that the first half is
 * untouched. Everything is queued on one stream with no synchronisation
 * until the one copy of the verdict at the end.
 *
 * Exits 0 when the check passes, 1 when it fails, 77 with no CUDA device.
 */
#include "prism.h"
#include "prism_cuda.h"

#include <cuda_runtime.h>
#include <stdio.h>

#define N (1u << 20)
#define THREADS 256

/* The check's verdict and the sums it compares. */
struct Verdict {
  unsigned unsorted;          /* adjacent pairs of the half out of order */
  unsigned changed;           /* keys of the first half that changed */
  unsigned long long sum_in;  /* the half's keys before the sort */
  unsigned long long sum_out; /* and after */
};

__host__ __device__ unsigned key_of(unsigned i) {
  unsigned x = i * 2654435761u + 0x9e3779b9u; /* a cheap, fixed hash */
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  return x ^ (x >> 13);
}

__global__ void fill_keys(unsigned *keys, unsigned n, Verdict *v) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  keys[i] = key_of(i);
  if (i >= n / 2)
    atomicAdd(&v->sum_in, (unsigned long long)keys[i]);
}

__global__ void check_keys(const unsigned *keys, unsigned n, Verdict *v) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (i < n / 2) {
    if (keys[i] != key_of(i))
      atomicAdd(&v->changed, 1u);
    return;
  }
  atomicAdd(&v->sum_out, (unsigned long long)keys[i]);
  if (i + 1 < n && keys[i] > keys[i + 1])
    atomicAdd(&v->unsorted, 1u);
}

static int cuda_failed(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return 0;
  fprintf(stderr, "cuda_interop: %s: %s\n", what, cudaGetErrorString(err));
  return 1;
}

static int prism_failed(prism_status st, prism_context *ctx, const char *what) {
  if (st == PRISM_OK)
    return 0;
  fprintf(stderr, "cuda_interop: %s: %s: %s\n", what, prism_status_name(st),
          ctx ? prism_context_last_error(ctx) : prism_last_error());
  return 1;
}

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("cuda_interop: skipped: no CUDA device\n");
    return 77;
  }
  cudaStream_t stream = NULL;
  unsigned *keys = NULL;
  Verdict *verdict = NULL;
  if (cuda_failed(cudaSetDevice(0), "cudaSetDevice") ||
      cuda_failed(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                  "cudaStreamCreateWithFlags") ||
      cuda_failed(cudaMalloc((void **)&keys, N * sizeof(unsigned)),
                  "cudaMalloc") ||
      cuda_failed(cudaMalloc((void **)&verdict, sizeof(Verdict)), "cudaMalloc"))
    return 1;

  prism_context *ctx = NULL;
  prism_buffer *all = NULL, *half = NULL;
  if (prism_failed(prism_cuda_context_create(0, stream, &ctx), NULL,
                   "prism_cuda_context_create") ||
      prism_failed(
          prism_cuda_buffer_wrap(ctx, keys, N * sizeof(unsigned), &all), ctx,
          "prism_cuda_buffer_wrap") ||
      prism_failed(prism_buffer_view(all, N / 2 * sizeof(unsigned),
                                     N / 2 * sizeof(unsigned), &half),
                   ctx, "prism_buffer_view"))
    return 1;

  const unsigned blocks = (N + THREADS - 1) / THREADS;
  if (cuda_failed(cudaMemsetAsync(verdict, 0, sizeof(Verdict), stream),
                  "cudaMemsetAsync"))
    return 1;
  fill_keys<<<blocks, THREADS, 0, stream>>>(keys, N, verdict);
  if (cuda_failed(cudaGetLastError(), "fill_keys") ||
      prism_failed(prism_sort_keys(ctx, PRISM_U32, half, half, N / 2, NULL),
                   ctx, "prism_sort_keys"))
    return 1;
  check_keys<<<blocks, THREADS, 0, stream>>>(keys, N, verdict);
  Verdict v;
  if (cuda_failed(cudaGetLastError(), "check_keys") ||
      cuda_failed(cudaMemcpyAsync(&v, verdict, sizeof v, cudaMemcpyDeviceToHost,
                                  stream),
                  "cudaMemcpyAsync") ||
      cuda_failed(cudaStreamSynchronize(stream), "cudaStreamSynchronize"))
    return 1;

  /* prism first (it finishes its work on the stream), then what it used. */
  prism_buffer_destroy(half);
  prism_buffer_destroy(all);
  prism_context_destroy(ctx);
  cudaFree(verdict);
  cudaFree(keys);
  cudaStreamDestroy(stream);

  const int ok = v.unsorted == 0 && v.changed == 0 && v.sum_in == v.sum_out;
  printf("cuda_interop: sorted the second half of %u keys in place on the "
         "application's stream: %s (%u out of order, %u changed outside, "
         "sums %s)\n",
         N, ok ? "ok" : "FAILED", v.unsorted, v.changed,
         v.sum_in == v.sum_out ? "equal" : "differ");
  return ok ? 0 : 1;
}
