/* SPDX-License-Identifier: MIT */
/*
 * prism_cuda.h with the caller's own CUDA code: contexts on the caller's
 * stream, with the caller's copies and fills queued before and after
 * prism's work and nothing synchronised in between; buffers over the
 * caller's cudaMalloc memory, used by the primitives and refused where
 * they are not device memory of the context's device; native handles of
 * buffers and views; events both ways. Also views that start off a 16-byte
 * boundary, through every vectorised path of the CUDA backend.
 *
 * Skipped (exit 77) without a CUDA device, or when the environment's
 * backend is not CUDA.
 */
#include "harness.h"
#include "prism_cuda.h"
#include "vectors.h"

#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    cr_assert_eq(e_, cudaSuccess, "%s: %s", #call, cudaGetErrorString(e_));    \
  } while (0)

/* Large enough for the look-back paths (many tiles), small enough to be
 * quick; SMALL takes the single-block ones. */
#define BIG 300007u
#define SMALL 1000u

/* The environment's context, when it is a CUDA one (else the test skips),
 * with its device current for the test's own runtime calls. */
static prism_context *cuda_context(int *device) {
  prism_context *ctx = harness_context();
  if (prism_context_backend(ctx) != PRISM_BACKEND_CUDA) {
    prism_context_destroy(ctx);
    cr_skip_test("the environment's backend is not CUDA");
  }
  int d = -1;
  HARNESS_OK(ctx, prism_cuda_context_device(ctx, &d));
  CUDA_OK(cudaSetDevice(d));
  if (device)
    *device = d;
  return ctx;
}

static void fill_random(uint32_t *a, size_t n, uint32_t mask, uint64_t seed) {
  for (size_t i = 0; i < n; i++)
    a[i] = (uint32_t)vec_next(&seed) & mask;
}

static int compare_u32(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* cudaMalloc'd memory holding bytes of host, the copy done. */
static void *device_copy(const void *host, size_t bytes) {
  void *p = NULL;
  CUDA_OK(cudaMalloc(&p, bytes));
  CUDA_OK(cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice));
  CUDA_OK(cudaDeviceSynchronize());
  return p;
}

static prism_buffer *wrap(prism_context *ctx, void *p, size_t bytes) {
  prism_buffer *b = NULL;
  HARNESS_OK(ctx, prism_cuda_buffer_wrap(ctx, p, bytes, &b));
  cr_assert_not_null(b);
  cr_assert_eq(prism_buffer_size(b), bytes);
  return b;
}

/* bytes of device memory p into a new host array, after ctx's work. */
static void *device_read(prism_context *ctx, const void *p, size_t bytes) {
  HARNESS_OK(ctx, prism_context_finish(ctx));
  void *host = harness_malloc(bytes);
  CUDA_OK(cudaMemcpy(host, p, bytes, cudaMemcpyDeviceToHost));
  return host;
}

static prism_buffer *view(prism_buffer *parent, size_t offset, size_t bytes) {
  prism_buffer *v = NULL;
  prism_context *ctx = prism_buffer_context(parent);
  HARNESS_OK(ctx, prism_buffer_view(parent, offset, bytes, &v));
  return v;
}

/* ---- Contexts on the caller's stream ------------------------------------ */

Test(cuda_interop, caller_stream) {
  int dev = -1;
  prism_context_destroy(cuda_context(&dev));
  cudaStream_t s = NULL;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  prism_context *ctx = NULL;
  prism_status st = prism_cuda_context_create(dev, s, &ctx);
  cr_assert_eq(st, PRISM_OK, "prism_cuda_context_create: %s",
               prism_last_error());
  cr_assert_eq(prism_context_backend(ctx), PRISM_BACKEND_CUDA);
  cudaStream_t got = NULL;
  HARNESS_OK(ctx, prism_cuda_context_stream(ctx, &got));
  cr_assert_eq(got, s, "the context runs on the caller's stream");
  int got_dev = -1;
  HARNESS_OK(ctx, prism_cuda_context_device(ctx, &got_dev));
  cr_assert_eq(got_dev, dev);

  const size_t n = (size_t)1 << 20, bytes = n * sizeof(uint32_t);
  uint32_t *h_keys = NULL, *h_sorted = NULL, *h_scan = NULL;
  CUDA_OK(cudaMallocHost((void **)&h_keys, bytes));
  CUDA_OK(cudaMallocHost((void **)&h_sorted, bytes));
  CUDA_OK(cudaMallocHost((void **)&h_scan, bytes));
  fill_random(h_keys, n, 0xffffffffu, 1);
  void *d_keys = NULL, *d_ones = NULL, *d_scan = NULL;
  CUDA_OK(cudaMalloc(&d_keys, bytes));
  CUDA_OK(cudaMalloc(&d_ones, bytes));
  CUDA_OK(cudaMalloc(&d_scan, bytes));
  prism_buffer *keys = wrap(ctx, d_keys, bytes);
  prism_buffer *ones = wrap(ctx, d_ones, bytes);
  prism_buffer *scan = wrap(ctx, d_scan, bytes);

  /* The caller's work, prism's, then the caller's again, all queued on s
   * with no synchronisation between them: only the stream orders them. */
  CUDA_OK(cudaMemsetAsync(d_keys, 0xFF, bytes, s));
  CUDA_OK(cudaMemcpyAsync(d_keys, h_keys, bytes, cudaMemcpyHostToDevice, s));
  CUDA_OK(cudaMemsetAsync(d_ones, 0x01, bytes, s)); /* 0x01010101 each */
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, keys, keys, n, NULL));
  HARNESS_OK(ctx, prism_scan(ctx, PRISM_U32, PRISM_SUM, PRISM_INCLUSIVE, ones,
                             scan, n));
  CUDA_OK(cudaMemsetAsync(d_ones, 0, bytes, s)); /* after the scan read it */
  CUDA_OK(cudaMemcpyAsync(h_sorted, d_keys, bytes, cudaMemcpyDeviceToHost, s));
  CUDA_OK(cudaMemcpyAsync(h_scan, d_scan, bytes, cudaMemcpyDeviceToHost, s));
  CUDA_OK(cudaStreamSynchronize(s));

  qsort(h_keys, n, sizeof *h_keys, compare_u32);
  for (size_t i = 0; i < n; i++) {
    cr_assert_eq(h_sorted[i], h_keys[i], "sorted key %zu", i);
    cr_assert_eq(h_scan[i], (uint32_t)((i + 1) * 0x01010101u), "scan %zu", i);
  }

  prism_buffer_destroy(keys);
  prism_buffer_destroy(ones);
  prism_buffer_destroy(scan);
  prism_context_destroy(ctx);

  /* The stream is the caller's: still usable after the context. */
  cudaEvent_t done = NULL;
  CUDA_OK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  CUDA_OK(cudaMemsetAsync(d_keys, 0, bytes, s));
  CUDA_OK(cudaEventRecord(done, s));
  CUDA_OK(cudaStreamSynchronize(s));
  CUDA_OK(cudaEventQuery(done));
  CUDA_OK(cudaEventDestroy(done));
  CUDA_OK(cudaStreamDestroy(s));
  /* Wrapped memory is never freed by prism. */
  CUDA_OK(cudaFree(d_keys));
  CUDA_OK(cudaFree(d_ones));
  CUDA_OK(cudaFree(d_scan));
  CUDA_OK(cudaFreeHost(h_keys));
  CUDA_OK(cudaFreeHost(h_sorted));
  CUDA_OK(cudaFreeHost(h_scan));
}

/* The legacy and per-thread default streams. */
Test(cuda_interop, default_streams) {
  int dev = -1;
  prism_context_destroy(cuda_context(&dev));
  const cudaStream_t streams[2] = {0, cudaStreamPerThread};
  for (int k = 0; k < 2; k++) {
    prism_context *ctx = NULL;
    prism_status st = prism_cuda_context_create(dev, streams[k], &ctx);
    cr_assert_eq(st, PRISM_OK, "stream %d: %s", k, prism_last_error());
    cudaStream_t got = (cudaStream_t)1;
    HARNESS_OK(ctx, prism_cuda_context_stream(ctx, &got));
    cr_assert_eq(got, streams[k]);
    harness_assert_alive(ctx, "an error");
    prism_context_destroy(ctx);
  }
}

Test(cuda_interop, devices_and_streams_checked) {
  int dev = -1, count = 0;
  prism_context_destroy(cuda_context(&dev));
  CUDA_OK(cudaGetDeviceCount(&count));
  prism_context *ctx = (prism_context *)1;
  HARNESS_EXPECT(NULL, PRISM_DEVICE_NOT_FOUND, "device",
                 prism_cuda_context_create(count, 0, &ctx));
  cr_assert_null(ctx);
  HARNESS_EXPECT(NULL, PRISM_DEVICE_NOT_FOUND, "device",
                 prism_cuda_context_create(-1, 0, &ctx));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "out",
                 prism_cuda_context_create(dev, 0, NULL));
  if (count < 2) {
    cr_log_info("one CUDA device: a stream of another device is not tried");
    return;
  }
  const int other = dev == 0 ? 1 : 0;
  cudaStream_t s = NULL;
  CUDA_OK(cudaSetDevice(other));
  CUDA_OK(cudaStreamCreate(&s));
  CUDA_OK(cudaSetDevice(dev));
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "stream",
                 prism_cuda_context_create(dev, s, &ctx));
  cr_assert_null(ctx);
  /* Its own device takes it. */
  prism_status st = prism_cuda_context_create(other, s, &ctx);
  cr_assert_eq(st, PRISM_OK, "%s", prism_last_error());
  harness_assert_alive(ctx, "an error");
  prism_context_destroy(ctx);
  CUDA_OK(cudaSetDevice(other));
  CUDA_OK(cudaStreamDestroy(s));
}

Test(cuda_interop, accessors_refuse) {
  prism_context *ctx = cuda_context(NULL);
  cudaStream_t s = NULL;
  HARNESS_OK(ctx, prism_cuda_context_stream(ctx, &s));
  cr_assert_not_null(s, "prism's own stream is a stream of its own");
  CUDA_OK(cudaStreamQuery(s));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "stream",
                 prism_cuda_context_stream(ctx, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "device",
                 prism_cuda_context_device(ctx, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_cuda_context_stream(NULL, &s));
  prism_buffer *b = harness_poisoned(ctx, 64);
  void *p = NULL;
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "buf",
                 prism_cuda_buffer_pointer(NULL, &p));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "device_ptr",
                 prism_cuda_buffer_pointer(b, NULL));
  HARNESS_OK(ctx, prism_cuda_buffer_pointer(b, &p));
  cr_assert_not_null(p);
  prism_buffer_destroy(b);
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "buf",
                 prism_cuda_buffer_pointer(b, &p));
  harness_assert_alive(ctx, "an error");
  prism_context_destroy(ctx);
}

/* ---- Wrapped memory ------------------------------------------------------ */

Test(cuda_interop, wrapped_memory_in_primitives) {
  prism_context *ctx = cuda_context(NULL);
  const size_t n = BIG, bytes = n * sizeof(uint32_t);
  uint32_t *keys = harness_malloc(bytes), *flags32 = harness_malloc(bytes);
  int32_t *values = harness_malloc(bytes);
  uint32_t *idx = harness_malloc(bytes), *pos = harness_malloc(bytes);
  unsigned char *flags = harness_malloc(n);
  fill_random(keys, n, 0xffffu, 2);
  fill_random(idx, n, 0xffffffffu, 3);
  fill_random(flags32, n, 1u, 4);
  for (size_t i = 0; i < n; i++) {
    values[i] = (int32_t)(keys[i] % 2001u) - 1000;
    idx[i] %= (uint32_t)n;
    pos[i] = (uint32_t)i;
    flags[i] = (unsigned char)flags32[i];
  }
  const size_t segments = 1000;
  uint32_t offsets[1001];
  fill_random(offsets, segments + 1, 0xffffffffu, 5);
  for (size_t s = 0; s <= segments; s++)
    offsets[s] %= (uint32_t)n + 1;
  offsets[0] = 0;
  offsets[segments] = (uint32_t)n;
  qsort(offsets, segments + 1, sizeof *offsets, compare_u32);

  void *d_keys = device_copy(keys, bytes),
       *d_values = device_copy(values, bytes);
  void *d_idx = device_copy(idx, bytes), *d_flags = device_copy(flags, n);
  void *d_offsets = device_copy(offsets, sizeof offsets);
  void *d_pos = device_copy(pos, bytes);
  void *d_out = NULL, *d_out2 = NULL;
  CUDA_OK(cudaMalloc(&d_out, bytes));
  CUDA_OK(cudaMalloc(&d_out2, bytes));
  prism_buffer *bk = wrap(ctx, d_keys, bytes), *bv = wrap(ctx, d_values, bytes);
  prism_buffer *bi = wrap(ctx, d_idx, bytes), *bf = wrap(ctx, d_flags, n);
  prism_buffer *bo = wrap(ctx, d_offsets, sizeof offsets);
  prism_buffer *bp = wrap(ctx, d_pos, bytes);
  prism_buffer *out = wrap(ctx, d_out, bytes), *out2 = wrap(ctx, d_out2, bytes);

  /* reduce */
  int32_t sum = 0;
  uint32_t want_sum = 0;
  for (size_t i = 0; i < n; i++)
    want_sum += (uint32_t)values[i];
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_I32, PRISM_SUM, bv, n, &sum));
  cr_assert_eq((uint32_t)sum, want_sum, "reduce");

  /* exclusive scan */
  HARNESS_OK(
      ctx, prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_EXCLUSIVE, bv, out, n));
  int32_t *got = device_read(ctx, d_out, bytes);
  uint32_t run = 0;
  for (size_t i = 0; i < n; i++) {
    cr_assert_eq((uint32_t)got[i], run, "scan %zu", i);
    run += (uint32_t)values[i];
  }
  free(got);

  /* sort_pairs: keys with their positions, stable */
  HARNESS_OK(ctx,
             prism_sort_pairs(ctx, PRISM_U32, bk, out, bp, out2, 4, n, NULL));
  uint32_t *sk = device_read(ctx, d_out, bytes);
  uint32_t *sv = device_read(ctx, d_out2, bytes);
  for (size_t i = 0; i < n; i++) {
    cr_assert_lt(sv[i], n, "value %zu", i);
    cr_assert_eq(keys[sv[i]], sk[i], "pair %zu: key %u, value %u", i, sk[i],
                 sv[i]);
    if (i > 0) {
      cr_assert_leq(sk[i - 1], sk[i], "sorted at %zu", i);
      if (sk[i - 1] == sk[i])
        cr_assert_lt(sv[i - 1], sv[i], "stable at %zu", i);
    }
  }
  free(sk);
  free(sv);

  /* gather: out[i] = keys[idx[i]], checked */
  size_t first_bad = 0;
  HARNESS_OK(ctx,
             prism_gather(ctx, 4, bk, n, PRISM_U32, bi, out, n, 1, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  uint32_t *gathered = device_read(ctx, d_out, bytes);
  for (size_t i = 0; i < n; i++)
    cr_assert_eq(gathered[i], keys[idx[i]], "gather %zu", i);
  free(gathered);

  /* histogram: 64 bins over the keys' [0, 65536) */
  HARNESS_OK(ctx, prism_histogram_even(ctx, PRISM_U32, bk, n, 64, 0.0, 65536.0,
                                       PRISM_U32, out));
  uint32_t *counts = device_read(ctx, d_out, 64 * sizeof(uint32_t));
  uint32_t want_counts[64] = {0};
  for (size_t i = 0; i < n; i++)
    want_counts[keys[i] >> 10]++;
  for (int b = 0; b < 64; b++)
    cr_assert_eq(counts[b], want_counts[b], "bin %d", b);
  free(counts);

  /* select_flagged by u8 flags */
  size_t kept = 0;
  HARNESS_OK(ctx, prism_select_flagged(ctx, PRISM_I32, bv, PRISM_U8, bf, out, n,
                                       NULL, &kept));
  int32_t *selected = device_read(ctx, d_out, bytes);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (flags[i]) {
      cr_assert_eq(selected[k], values[i], "selected %zu", k);
      k++;
    }
  cr_assert_eq(kept, k, "kept");
  free(selected);

  /* segmented reduce by u32 offsets */
  HARNESS_OK(ctx,
             prism_segmented_reduce(ctx, PRISM_I32, PRISM_SUM, bv, n, PRISM_U32,
                                    bo, segments, out, 1, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  int32_t *reduced = device_read(ctx, d_out, segments * sizeof(int32_t));
  for (size_t s = 0; s < segments; s++) {
    uint32_t want = 0;
    for (uint32_t i = offsets[s]; i < offsets[s + 1]; i++)
      want += (uint32_t)values[i];
    cr_assert_eq((uint32_t)reduced[s], want, "segment %zu", s);
  }
  free(reduced);

  prism_buffer *all[] = {bk, bv, bi, bf, bo, bp, out, out2};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    prism_buffer_destroy(all[i]);
  prism_context_destroy(ctx);
  void *mem[] = {d_keys,    d_values, d_idx, d_flags,
                 d_offsets, d_pos,    d_out, d_out2};
  for (size_t i = 0; i < sizeof mem / sizeof *mem; i++)
    CUDA_OK(cudaFree(mem[i])); /* still the caller's: prism freed none */
  free(keys);
  free(flags32);
  free(values);
  free(idx);
  free(pos);
  free(flags);
}

Test(cuda_interop, views_of_wrapped_memory) {
  prism_context *ctx = cuda_context(NULL);
  const size_t total = 4096, at = 256, bytes = 1024;
  unsigned char *p = NULL;
  CUDA_OK(cudaMalloc((void **)&p, total));
  CUDA_OK(cudaMemset(p, 0xAB, total));
  CUDA_OK(cudaDeviceSynchronize());
  prism_buffer *whole = wrap(ctx, p, total);
  prism_buffer *v = view(whole, at, bytes);
  prism_buffer *vv = view(v, 16, 64);

  void *ptr = NULL, *native = NULL;
  size_t offset = 1;
  HARNESS_OK(ctx, prism_cuda_buffer_pointer(whole, &ptr));
  cr_assert_eq(ptr, (void *)p);
  HARNESS_OK(ctx, prism_cuda_buffer_pointer(v, &ptr));
  cr_assert_eq(ptr, (void *)(p + at), "a view's pointer is base + offset");
  HARNESS_OK(ctx, prism_cuda_buffer_pointer(vv, &ptr));
  cr_assert_eq(ptr, (void *)(p + at + 16), "a view of a view");
  HARNESS_OK(ctx, prism_buffer_native(v, &native, &offset));
  cr_assert_eq(native, (void *)p);
  cr_assert_eq(offset, at);
  HARNESS_OK(ctx, prism_buffer_native(vv, &native, &offset));
  cr_assert_eq(native, (void *)p);
  cr_assert_eq(offset, at + 16);

  /* A scan in place over the view, through the caller's pointer. */
  int32_t in[256];
  for (int i = 0; i < 256; i++)
    in[i] = i + 1;
  HARNESS_OK(ctx, prism_buffer_write(v, 0, in, sizeof in));
  HARNESS_OK(ctx,
             prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, v, v, 256));
  unsigned char *host = device_read(ctx, p, total);
  for (size_t i = 0; i < total; i++)
    if (i < at || i >= at + bytes)
      cr_assert_eq(host[i], 0xAB, "byte %zu outside the view written", i);
  const int32_t *scanned = (const int32_t *)(host + at);
  for (int i = 0; i < 256; i++)
    cr_assert_eq(scanned[i], (i + 1) * (i + 2) / 2, "scan %d", i);
  free(host);

  /* The parent may go first; the views still name the memory. */
  prism_buffer_destroy(whole);
  int32_t sum = 0;
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_I32, PRISM_SUM, vv, 16, &sum));
  int32_t want = 0;
  for (int i = 4; i < 20; i++)
    want += (i + 1) * (i + 2) / 2;
  cr_assert_eq(sum, want, "reduce over a view of a view");
  prism_buffer_destroy(vv);
  prism_buffer_destroy(v);

  /* An empty wrap has no memory. */
  prism_buffer *empty = NULL;
  HARNESS_OK(ctx, prism_cuda_buffer_wrap(ctx, NULL, 0, &empty));
  cr_assert_eq(prism_buffer_size(empty), 0);
  ptr = (void *)1;
  HARNESS_OK(ctx, prism_cuda_buffer_pointer(empty, &ptr));
  cr_assert_null(ptr);
  prism_buffer_destroy(empty);
  prism_context_destroy(ctx);
  CUDA_OK(cudaFree(p));
}

Test(cuda_interop, wrap_refusals) {
  int dev = -1;
  prism_context *ctx = cuda_context(&dev);
  prism_buffer *b = (prism_buffer *)1;

  void *host = harness_malloc(4096);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "device_ptr",
                 prism_cuda_buffer_wrap(ctx, host, 4096, &b));
  cr_assert_null(b);
  free(host);

  void *pinned = NULL;
  CUDA_OK(cudaMallocHost(&pinned, 4096));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "device_ptr",
                 prism_cuda_buffer_wrap(ctx, pinned, 4096, &b));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "host",
                 prism_cuda_buffer_wrap(ctx, pinned, 4096, &b));
  CUDA_OK(cudaFreeHost(pinned));

  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "device_ptr",
                 prism_cuda_buffer_wrap(ctx, NULL, 16, &b));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_cuda_buffer_wrap(ctx, NULL, 0, NULL));

  /* Ranges past the allocation, by far more than any rounding of it. */
  char *d = NULL;
  CUDA_OK(cudaMalloc((void **)&d, 4096));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "bytes",
                 prism_cuda_buffer_wrap(ctx, d, (size_t)1 << 26, &b));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "allocation",
                 prism_cuda_buffer_wrap(ctx, d + 2048, (size_t)1 << 26, &b));
  cr_assert_null(b);
  prism_buffer *inside = wrap(ctx, d + 2048, 2048);
  prism_buffer_destroy(inside);

  /* Managed memory is device memory too. */
  int32_t *managed = NULL;
  CUDA_OK(cudaMallocManaged((void **)&managed, 64 * sizeof(int32_t),
                            cudaMemAttachGlobal));
  CUDA_OK(cudaDeviceSynchronize());
  for (int i = 0; i < 64; i++)
    managed[i] = i;
  prism_buffer *m = wrap(ctx, managed, 64 * sizeof(int32_t));
  int32_t sum = 0;
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_I32, PRISM_SUM, m, 64, &sum));
  cr_assert_eq(sum, 63 * 64 / 2);
  prism_buffer_destroy(m);
  CUDA_OK(cudaFree(managed));

  int count = 0;
  CUDA_OK(cudaGetDeviceCount(&count));
  if (count >= 2) {
    const int other = dev == 0 ? 1 : 0;
    void *elsewhere = NULL;
    CUDA_OK(cudaSetDevice(other));
    CUDA_OK(cudaMalloc(&elsewhere, 4096));
    CUDA_OK(cudaSetDevice(dev));
    HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "device_ptr",
                   prism_cuda_buffer_wrap(ctx, elsewhere, 4096, &b));
    CUDA_OK(cudaSetDevice(other));
    CUDA_OK(cudaFree(elsewhere));
    CUDA_OK(cudaSetDevice(dev));
  } else {
    cr_log_info("one CUDA device: memory of another device is not tried");
  }

  harness_assert_alive(ctx, "an error");
  prism_context_destroy(ctx);
  CUDA_OK(cudaFree(d));
}

/* ---- Events ----------------------------------------------------------------
 */

/* prism's event orders the caller's stream after prism's work. */
Test(cuda_interop, prism_event_on_caller_stream) {
  prism_context *ctx = cuda_context(NULL);
  const size_t n = (size_t)1 << 22, bytes = n * sizeof(int32_t);
  prism_buffer *in = NULL, *out = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, bytes, &in));
  HARNESS_OK(ctx, prism_buffer_create(ctx, bytes, &out));
  const int32_t one = 1;
  HARNESS_OK(ctx, prism_buffer_fill(in, 0, &one, sizeof one, bytes));
  HARNESS_OK(
      ctx, prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, in, out, n));
  prism_event *ev = NULL;
  HARNESS_OK(ctx, prism_event_record(ctx, &ev));
  cudaEvent_t native = NULL;
  HARNESS_OK(ctx, prism_cuda_event(ev, &native));
  cr_assert_not_null(native);

  cudaStream_t s = NULL;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  void *d_out = NULL;
  HARNESS_OK(ctx, prism_cuda_buffer_pointer(out, &d_out));
  int32_t *h = NULL;
  CUDA_OK(cudaMallocHost((void **)&h, bytes));
  CUDA_OK(cudaStreamWaitEvent(s, native, 0));
  CUDA_OK(cudaMemcpyAsync(h, d_out, bytes, cudaMemcpyDeviceToHost, s));
  CUDA_OK(cudaStreamSynchronize(s));
  for (size_t i = 0; i < n; i++)
    cr_assert_eq(h[i], (int32_t)(i + 1), "scan %zu seen by the caller", i);

  HARNESS_OK(ctx, prism_event_wait(ev));
  int done = 0;
  HARNESS_OK(ctx, prism_event_query(ev, &done));
  cr_assert_eq(done, 1);
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "out", prism_cuda_event(ev, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "event",
                 prism_cuda_event(NULL, &native));
  prism_event_destroy(ev);
  CUDA_OK(cudaStreamDestroy(s));
  CUDA_OK(cudaFreeHost(h));
  prism_buffer_destroy(in);
  prism_buffer_destroy(out);
  prism_context_destroy(ctx);
}

/* The caller's event orders prism's work after the caller's. */
Test(cuda_interop, caller_event_before_prism) {
  prism_context *ctx = cuda_context(NULL);
  const size_t n = (size_t)1 << 22, bytes = n * sizeof(int32_t);
  int32_t *h = NULL;
  CUDA_OK(cudaMallocHost((void **)&h, bytes));
  for (size_t i = 0; i < n; i++)
    h[i] = (int32_t)(i % 7) - 3;
  int64_t want = 0;
  for (size_t i = 0; i < n; i++)
    want += h[i];
  void *d = NULL;
  CUDA_OK(cudaMalloc(&d, bytes));
  CUDA_OK(cudaMemset(d, 0, bytes));
  CUDA_OK(cudaDeviceSynchronize());
  prism_buffer *b = wrap(ctx, d, bytes);

  cudaStream_t s = NULL;
  cudaEvent_t e = NULL;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_OK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  CUDA_OK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s));
  CUDA_OK(cudaEventRecord(e, s));
  HARNESS_OK(ctx, prism_cuda_context_wait(ctx, e));
  int32_t sum = 1;
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_I32, PRISM_SUM, b, n, &sum));
  cr_assert_eq(sum, (int32_t)want, "the reduce ran after the caller's copy");

  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "event",
                 prism_cuda_context_wait(ctx, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_cuda_context_wait(NULL, e));
  harness_assert_alive(ctx, "an error");
  prism_buffer_destroy(b);
  prism_context_destroy(ctx);
  CUDA_OK(cudaEventDestroy(e));
  CUDA_OK(cudaStreamDestroy(s));
  CUDA_OK(cudaFree(d));
  CUDA_OK(cudaFreeHost(h));
}

/* ---- Views off a 16-byte boundary ---------------------------------------- */

/*
 * Every vectorised path of the backend takes the element-by-element one
 * when a view starts off its vector's boundary (or loads a head first):
 * each primitive here runs on views at such offsets, at a size of many
 * tiles and at a single block's, against a serial computation.
 */

/* A host array of bytes copied into a view of a fresh buffer at offset. */
static prism_buffer *view_upload(prism_context *ctx, const void *host,
                                 size_t bytes, size_t offset,
                                 prism_buffer **parent) {
  HARNESS_OK(ctx, prism_buffer_create(ctx, offset + bytes + 64, parent));
  prism_buffer *v = view(*parent, offset, bytes);
  HARNESS_OK(ctx, prism_buffer_write(v, 0, host, bytes));
  return v;
}

static void *view_download(prism_buffer *v, size_t bytes) {
  void *host = harness_malloc(bytes);
  HARNESS_OK(prism_buffer_context(v), prism_buffer_read(v, 0, host, bytes));
  return host;
}

Test(cuda_interop, unaligned_views_scan_reduce) {
  prism_context *ctx = cuda_context(NULL);
  const size_t sizes[2] = {SMALL, BIG};
  for (int z = 0; z < 2; z++) {
    const size_t n = sizes[z], bytes = n * sizeof(int32_t);
    uint32_t *raw = harness_malloc(bytes);
    fill_random(raw, n, 0xffu, 10 + z);
    for (size_t off = 4; off < 16; off += 4) {
      prism_buffer *pin, *pout;
      prism_buffer *in = view_upload(ctx, raw, bytes, off, &pin);
      prism_buffer *out = view_upload(ctx, raw, bytes, 16 - off + 8, &pout);
      int32_t sum = 0;
      HARNESS_OK(ctx, prism_reduce(ctx, PRISM_I32, PRISM_SUM, in, n, &sum));
      uint32_t want = 0;
      for (size_t i = 0; i < n; i++)
        want += raw[i];
      cr_assert_eq((uint32_t)sum, want, "reduce n %zu at %zu", n, off);
      HARNESS_OK(ctx, prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, in,
                                 out, n));
      uint32_t *got = view_download(out, bytes);
      uint32_t run = 0;
      for (size_t i = 0; i < n; i++) {
        run += raw[i];
        cr_assert_eq(got[i], run, "scan n %zu at %zu: %zu", n, off, i);
      }
      free(got);
      /* In place, then segmented by u8, u32 and u64 flags. */
      HARNESS_OK(ctx, prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_EXCLUSIVE, in,
                                 in, n));
      got = view_download(in, bytes);
      run = 0;
      for (size_t i = 0; i < n; i++) {
        cr_assert_eq(got[i], run, "scan in place n %zu at %zu: %zu", n, off, i);
        run += raw[i];
      }
      free(got);
      HARNESS_OK(ctx, prism_buffer_write(in, 0, raw, bytes));
      const prism_type flag_types[3] = {PRISM_U8, PRISM_U32, PRISM_U64};
      for (int f = 0; f < 3; f++) {
        const size_t fs = prism_type_size(flag_types[f]);
        unsigned char *fl = harness_malloc(n * fs);
        memset(fl, 0, n * fs);
        for (size_t i = 0; i < n; i++)
          if (raw[i] < 8)
            fl[i * fs] = 1;
        /* u8 flags at 1, 8 and 9 (off and on a 4-byte boundary, never on
         * a 16-byte one); wider flags one element in (off 16). */
        const size_t foff = fs == 1 ? (off == 8 ? 8 : off - 3) : fs;
        prism_buffer *pflags;
        prism_buffer *flags = view_upload(ctx, fl, n * fs, foff, &pflags);
        HARNESS_OK(ctx, prism_segmented_scan_flags(
                            ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, in,
                            flag_types[f], flags, out, n));
        got = view_download(out, bytes);
        run = 0;
        for (size_t i = 0; i < n; i++) {
          run = (fl[i * fs] || i == 0) ? raw[i] : run + raw[i];
          cr_assert_eq(got[i], run, "segmented %s flags at %zu, n %zu: %zu",
                       prism_type_name(flag_types[f]), foff, n, i);
        }
        free(got);
        free(fl);
        prism_buffer_destroy(flags);
        prism_buffer_destroy(pflags);
      }
      prism_buffer_destroy(in);
      prism_buffer_destroy(out);
      prism_buffer_destroy(pin);
      prism_buffer_destroy(pout);
    }
    free(raw);
  }
  prism_context_destroy(ctx);
}

Test(cuda_interop, unaligned_views_select) {
  prism_context *ctx = cuda_context(NULL);
  const size_t sizes[2] = {SMALL, BIG};
  for (int z = 0; z < 2; z++) {
    const size_t n = sizes[z], bytes = n * sizeof(uint32_t);
    uint32_t *raw = harness_malloc(bytes);
    unsigned char *fl = harness_malloc(n), *bytes_in = harness_malloc(n);
    fill_random(raw, n, 0xffu, 20 + z);
    for (size_t i = 0; i < n; i++) {
      fl[i] = raw[i] & 1u;
      bytes_in[i] = (unsigned char)(raw[i] >> 6); /* runs for unique */
    }
    const size_t offs[2] = {4, 12};
    for (int o = 0; o < 2; o++) {
      const size_t off = offs[o];
      prism_buffer *pin, *pfl, *pbytes, *pout;
      prism_buffer *in = view_upload(ctx, raw, bytes, off, &pin);
      prism_buffer *flags = view_upload(ctx, fl, n, off - 1, &pfl);
      prism_buffer *bin = view_upload(ctx, bytes_in, n, off + 1, &pbytes);
      prism_buffer *out = view_upload(ctx, raw, bytes, 8, &pout);
      for (int partition = 0; partition < 2; partition++) {
        size_t kept = 0;
        HARNESS_OK(
            ctx, (partition ? prism_partition_flagged : prism_select_flagged)(
                     ctx, PRISM_U32, in, PRISM_U8, flags, out, n, NULL, &kept));
        uint32_t *got = view_download(out, bytes);
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
          if (fl[i])
            cr_assert_eq(got[k++], raw[i], "flagged %d n %zu at %zu", partition,
                         n, off);
        cr_assert_eq(kept, k);
        if (partition)
          for (size_t i = 0; i < n; i++)
            if (!fl[i])
              cr_assert_eq(got[k++], raw[i], "rejected n %zu at %zu", n, off);
        free(got);
      }
      prism_predicate pred;
      memset(&pred, 0, sizeof pred);
      pred.compare = PRISM_LESS;
      pred.a.u32 = 100;
      size_t kept = 0;
      HARNESS_OK(
          ctx, prism_select_if(ctx, PRISM_U32, in, &pred, out, n, NULL, &kept));
      uint32_t *got = view_download(out, bytes);
      size_t k = 0;
      for (size_t i = 0; i < n; i++)
        if (raw[i] < 100)
          cr_assert_eq(got[k++], raw[i], "select_if n %zu at %zu", n, off);
      cr_assert_eq(kept, k);
      free(got);
      /* Bytes: unique over a view off every boundary. */
      HARNESS_OK(ctx, prism_unique(ctx, PRISM_U8, bin, out, n, NULL, &kept));
      unsigned char *u = view_download(out, n);
      k = 0;
      for (size_t i = 0; i < n; i++)
        if (i == 0 || bytes_in[i] != bytes_in[i - 1])
          cr_assert_eq(u[k++], bytes_in[i], "unique n %zu at %zu", n, off + 1);
      cr_assert_eq(kept, k);
      free(u);
      prism_buffer *views[] = {in, flags, bin, out, pin, pfl, pbytes, pout};
      for (size_t i = 0; i < sizeof views / sizeof *views; i++)
        prism_buffer_destroy(views[i]);
    }
    free(raw);
    free(fl);
    free(bytes_in);
  }
  prism_context_destroy(ctx);
}

Test(cuda_interop, unaligned_views_histogram) {
  prism_context *ctx = cuda_context(NULL);
  const size_t sizes[2] = {SMALL, BIG};
  prism_buffer *counts = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, 256 * sizeof(uint32_t), &counts));
  for (int z = 0; z < 2; z++) {
    const size_t n = sizes[z];
    uint32_t *raw = harness_malloc(n * sizeof(uint32_t));
    unsigned char *bytes_in = harness_malloc(n);
    double *wide = harness_malloc(n * sizeof(double));
    fill_random(raw, n, 0xffu, 30 + z);
    uint32_t want[256] = {0};
    for (size_t i = 0; i < n; i++) {
      bytes_in[i] = (unsigned char)raw[i];
      wide[i] = raw[i] + 0.5;
      want[raw[i]]++;
    }
    for (size_t off = 1; off < 16; off++) {
      prism_buffer *p;
      prism_buffer *s = view_upload(ctx, bytes_in, n, off, &p);
      HARNESS_OK(ctx, prism_histogram_even(ctx, PRISM_U8, s, n, 256, 0.0, 256.0,
                                           PRISM_U32, counts));
      uint32_t *got = view_download(counts, 256 * sizeof(uint32_t));
      for (int b = 0; b < 256; b++)
        cr_assert_eq(got[b], want[b], "u8 at %zu, n %zu: bin %d", off, n, b);
      free(got);
      prism_buffer_destroy(s);
      prism_buffer_destroy(p);
    }
    for (size_t off = 4; off < 16; off += 4) {
      prism_buffer *p;
      prism_buffer *s = view_upload(ctx, raw, n * sizeof(uint32_t), off, &p);
      HARNESS_OK(ctx, prism_histogram_even(ctx, PRISM_U32, s, n, 256, 0.0,
                                           256.0, PRISM_U32, counts));
      uint32_t *got = view_download(counts, 256 * sizeof(uint32_t));
      for (int b = 0; b < 256; b++)
        cr_assert_eq(got[b], want[b], "u32 at %zu, n %zu: bin %d", off, n, b);
      free(got);
      prism_buffer_destroy(s);
      prism_buffer_destroy(p);
    }
    prism_buffer *p;
    prism_buffer *s = view_upload(ctx, wide, n * sizeof(double), 8, &p);
    HARNESS_OK(ctx, prism_histogram_even(ctx, PRISM_F64, s, n, 256, 0.0, 256.0,
                                         PRISM_U32, counts));
    uint32_t *got = view_download(counts, 256 * sizeof(uint32_t));
    for (int b = 0; b < 256; b++)
      cr_assert_eq(got[b], want[b], "f64 at 8, n %zu: bin %d", n, b);
    free(got);
    prism_buffer_destroy(s);
    prism_buffer_destroy(p);
    free(raw);
    free(bytes_in);
    free(wide);
  }
  prism_buffer_destroy(counts);
  prism_context_destroy(ctx);
}

Test(cuda_interop, unaligned_views_sort_gather) {
  prism_context *ctx = cuda_context(NULL);
  const size_t sizes[2] = {SMALL, BIG};
  for (int z = 0; z < 2; z++) {
    const size_t n = sizes[z], bytes = n * sizeof(uint32_t);
    uint32_t *keys = harness_malloc(bytes), *idx = harness_malloc(bytes);
    uint64_t *vals = harness_malloc(n * sizeof(uint64_t));
    fill_random(keys, n, 0xfffu, 40 + z);
    fill_random(idx, n, 0xffffffffu, 50 + z);
    for (size_t i = 0; i < n; i++) {
      idx[i] %= (uint32_t)n;
      vals[i] = ((uint64_t)keys[i] << 32) | i;
    }
    prism_buffer *pk, *pv, *pi, *po;
    prism_buffer *k = view_upload(ctx, keys, bytes, 4, &pk);
    prism_buffer *v = view_upload(ctx, vals, n * sizeof(uint64_t), 8, &pv);
    prism_buffer *ix = view_upload(ctx, idx, bytes, 12, &pi);
    prism_buffer *o = view_upload(ctx, keys, bytes, 4, &po);

    HARNESS_OK(ctx, prism_gather(ctx, 4, k, n, PRISM_U32, ix, o, n, 0, NULL));
    uint32_t *g = view_download(o, bytes);
    for (size_t i = 0; i < n; i++)
      cr_assert_eq(g[i], keys[idx[i]], "gather n %zu: %zu", n, i);
    free(g);

    /* Pairs in place, 8-byte values: stable, values carry key and
     * position. */
    HARNESS_OK(ctx, prism_sort_pairs(ctx, PRISM_U32, k, k, v, v, 8, n, NULL));
    uint32_t *sk = view_download(k, bytes);
    uint64_t *sv = view_download(v, n * sizeof(uint64_t));
    for (size_t i = 0; i < n; i++) {
      cr_assert_eq((uint32_t)(sv[i] >> 32), sk[i], "pair n %zu: %zu", n, i);
      cr_assert_eq(keys[(uint32_t)sv[i]], sk[i], "value n %zu: %zu", n, i);
      if (i > 0) {
        cr_assert_leq(sk[i - 1], sk[i], "sorted n %zu: %zu", n, i);
        if (sk[i - 1] == sk[i])
          cr_assert_lt((uint32_t)sv[i - 1], (uint32_t)sv[i], "stable n %zu", n);
      }
    }
    free(sk);
    free(sv);
    prism_buffer *all[] = {k, v, ix, o, pk, pv, pi, po};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
      prism_buffer_destroy(all[i]);
    free(keys);
    free(idx);
    free(vals);
  }
  prism_context_destroy(ctx);
}
