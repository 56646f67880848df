/* SPDX-License-Identifier: MIT */
/*
 * prism_opencl.h: prism on the caller's own cl_context, device and queue,
 * interleaved with the caller's kernels; buffers over the caller's cl_mem
 * (and sub-buffers); references; refusals; events both ways. The suite
 * makes its own OpenCL objects on the first platform with a device (or the
 * one PRISM_OPENCL_PLATFORM names: an index or a name/vendor substring)
 * and skips when there is none. Sizes are small: every program build costs
 * seconds on PoCL.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "harness.h"
#include "prism_opencl.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int harness_needs_backend = 0; /* the tests find their own device */

/* The caller's side: what an application would hold. */
typedef struct app {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  cl_kernel fill, check;
} app;

/* The caller's own kernels: keys from a hash, and a sortedness check that
 * raises a flag. */
static const char app_source[] =
    "__kernel void fill_keys(__global uint *keys, uint n, uint seed) {\n"
    "  const uint i = get_global_id(0);\n"
    "  if (i < n)\n"
    "    keys[i] = (i * 2654435761u) ^ seed;\n"
    "}\n"
    "__kernel void check_sorted(__global const uint *keys, uint n,\n"
    "                           __global uint *unsorted) {\n"
    "  const uint i = get_global_id(0);\n"
    "  if (i + 1 < n && keys[i] > keys[i + 1])\n"
    "    *unsorted = 1;\n"
    "}\n";

static uint32_t app_key(uint32_t i, uint32_t seed) {
  return (i * 2654435761u) ^ seed;
}

static int contains_nocase(const char *hay, const char *needle) {
  const size_t n = strlen(needle);
  for (; *hay; hay++) {
    size_t i = 0;
    while (i < n && hay[i] &&
           tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
      i++;
    if (i == n)
      return 1;
  }
  return n == 0;
}

/* The platform and device the suite runs on, or a skip. */
static void app_find_device(app *a) {
  cl_platform_id ids[16];
  cl_uint count = 0;
  if (clGetPlatformIDs(16, ids, &count) != CL_SUCCESS || count == 0)
    cr_skip_test("no OpenCL platform");
  if (count > 16)
    count = 16;
  const char *want = getenv("PRISM_OPENCL_PLATFORM");
  for (cl_uint p = 0; p < count; p++) {
    char name[256] = "", vendor[256] = "";
    clGetPlatformInfo(ids[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
    clGetPlatformInfo(ids[p], CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
    if (want && *want) {
      char *end = NULL;
      unsigned long index = strtoul(want, &end, 10);
      int match = end && *end == '\0' ? index == p
                                      : contains_nocase(name, want) ||
                                            contains_nocase(vendor, want);
      if (!match)
        continue;
    }
    if (clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, 1, &a->device, NULL) ==
        CL_SUCCESS) {
      a->platform = ids[p];
      return;
    }
  }
  cr_skip_test("no OpenCL device%s%s", want && *want ? " on platform " : "",
               want && *want ? want : "");
}

static cl_context app_new_context(const app *a) {
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)a->platform, 0};
  cl_context c = clCreateContext(props, 1, &a->device, NULL, NULL, &err);
  cr_assert_not_null(c, "clCreateContext: %d", (int)err);
  return c;
}

static cl_command_queue app_new_queue(cl_context c, cl_device_id device,
                                      cl_command_queue_properties props) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(c, device, props, &err);
  cr_assert_not_null(q, "clCreateCommandQueue: %d", (int)err);
  return q;
}

/* Context, in-order queue and (with_kernels) the caller's program. */
static void app_open(app *a, int with_kernels) {
  memset(a, 0, sizeof *a);
  app_find_device(a);
  a->context = app_new_context(a);
  a->queue = app_new_queue(a->context, a->device, 0);
  if (!with_kernels)
    return;
  const char *text = app_source;
  cl_int err;
  a->program = clCreateProgramWithSource(a->context, 1, &text, NULL, &err);
  cr_assert_eq(err, CL_SUCCESS, "clCreateProgramWithSource: %d", (int)err);
  err = clBuildProgram(a->program, 1, &a->device, "", NULL, NULL);
  cr_assert_eq(err, CL_SUCCESS, "clBuildProgram: %d", (int)err);
  a->fill = clCreateKernel(a->program, "fill_keys", &err);
  cr_assert_eq(err, CL_SUCCESS, "clCreateKernel(fill_keys): %d", (int)err);
  a->check = clCreateKernel(a->program, "check_sorted", &err);
  cr_assert_eq(err, CL_SUCCESS, "clCreateKernel(check_sorted): %d", (int)err);
}

static void app_close(app *a) {
  if (a->fill)
    clReleaseKernel(a->fill);
  if (a->check)
    clReleaseKernel(a->check);
  if (a->program)
    clReleaseProgram(a->program);
  clReleaseCommandQueue(a->queue);
  clReleaseContext(a->context);
}

static cl_mem app_buffer(cl_context c, size_t bytes, const void *host) {
  cl_int err;
  cl_mem m =
      clCreateBuffer(c, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
                     bytes, (void *)host, &err);
  cr_assert_not_null(m, "clCreateBuffer(%zu): %d", bytes, (int)err);
  return m;
}

/* Global size: n rounded up to a multiple of 64. */
static size_t app_global(size_t n) {
  return (n + 63) / 64 * 64;
}

static void app_fill(const app *a, cl_mem keys, cl_uint n, cl_uint seed) {
  size_t global = app_global(n);
  cl_int err = clSetKernelArg(a->fill, 0, sizeof keys, &keys);
  err |= clSetKernelArg(a->fill, 1, sizeof n, &n);
  err |= clSetKernelArg(a->fill, 2, sizeof seed, &seed);
  cr_assert_eq(err, CL_SUCCESS, "clSetKernelArg(fill_keys)");
  err = clEnqueueNDRangeKernel(a->queue, a->fill, 1, NULL, &global, NULL, 0,
                               NULL, NULL);
  cr_assert_eq(err, CL_SUCCESS, "enqueue fill_keys: %d", (int)err);
}

static void app_check(const app *a, cl_mem keys, cl_uint n, cl_mem flag) {
  size_t global = app_global(n);
  cl_int err = clSetKernelArg(a->check, 0, sizeof keys, &keys);
  err |= clSetKernelArg(a->check, 1, sizeof n, &n);
  err |= clSetKernelArg(a->check, 2, sizeof flag, &flag);
  cr_assert_eq(err, CL_SUCCESS, "clSetKernelArg(check_sorted)");
  err = clEnqueueNDRangeKernel(a->queue, a->check, 1, NULL, &global, NULL, 0,
                               NULL, NULL);
  cr_assert_eq(err, CL_SUCCESS, "enqueue check_sorted: %d", (int)err);
}

static prism_context *prism_on(const app *a, cl_command_queue queue) {
  prism_context *ctx = NULL;
  prism_status st =
      prism_opencl_context_create(a->context, a->device, queue, &ctx);
  cr_assert_eq(st, PRISM_OK, "prism_opencl_context_create -> %s: %s",
               prism_status_name(st), prism_last_error());
  return ctx;
}

static prism_buffer *wrap(prism_context *ctx, cl_mem mem) {
  prism_buffer *b = NULL;
  HARNESS_OK(ctx, prism_opencl_buffer_wrap(ctx, mem, &b));
  return b;
}

static prism_buffer *view(prism_context *ctx, prism_buffer *parent,
                          size_t offset, size_t bytes) {
  prism_buffer *v = NULL;
  HARNESS_OK(ctx, prism_buffer_view(parent, offset, bytes, &v));
  return v;
}

static cl_uint context_refs(cl_context c) {
  cl_uint r = 0;
  clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof r, &r, NULL);
  return r;
}

static cl_uint queue_refs(cl_command_queue q) {
  cl_uint r = 0;
  clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof r, &r, NULL);
  return r;
}

/* The queue's count once it has settled at want or below: an
 * implementation may hold a reference per command until it has retired the
 * command, which PoCL does on its own thread after clFinish returns (so a
 * count taken earlier may itself hold one). Waits up to 2 s, then returns
 * what it sees, so a reference kept for good still fails. */
static cl_uint queue_refs_settled(cl_command_queue q, cl_uint want) {
  cl_uint r = queue_refs(q);
  for (int i = 0; i < 200 && r > want; i++) {
    const struct timespec pause = {0, 10 * 1000 * 1000};
    nanosleep(&pause, NULL);
    r = queue_refs(q);
  }
  return r;
}

static cl_uint mem_refs(cl_mem m) {
  cl_uint r = 0;
  clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof r, &r, NULL);
  return r;
}

static int cmp_u32(const void *x, const void *y) {
  const uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return (a > b) - (a < b);
}

/* The context runs on the caller's objects, gives them back, and leaves
 * them as it found them; buffers hold their cl_mem while they live. */
Test(opencl_interop, context_on_callers_objects) {
  app a;
  app_open(&a, 1);
  const cl_uint n = 1000;
  cl_mem mem = app_buffer(a.context, n * 4, NULL);
  /* The counts include what the driver holds for the caller's own objects
   * and its last command (PoCL keeps a queue reference per queue for it),
   * so they are taken, and compared, after a command of the caller's. */
  app_fill(&a, mem, n, 5);
  cr_assert_eq(clFinish(a.queue), CL_SUCCESS);
  const cl_uint ctx_refs0 = context_refs(a.context);
  const cl_uint queue_refs0 = queue_refs(a.queue);

  prism_context *ctx = prism_on(&a, a.queue);
  cr_assert_eq(prism_context_backend(ctx), PRISM_BACKEND_OPENCL);
  cr_assert_gt(context_refs(a.context), ctx_refs0, "the context is retained");
  cr_assert_eq(queue_refs(a.queue), queue_refs0 + 1, "the queue is retained");
  cl_context c = NULL;
  cl_device_id d = NULL;
  cl_command_queue q = NULL;
  HARNESS_OK(ctx, prism_opencl_context_objects(ctx, &c, &d, &q));
  cr_assert(c == a.context && d == a.device && q == a.queue,
            "prism_opencl_context_objects gives the caller's objects");
  HARNESS_OK(ctx, prism_opencl_context_objects(ctx, NULL, NULL, NULL));

  /* A wrapped cl_mem: one reference while any handle on it lives. */
  const cl_uint mem_refs0 = mem_refs(mem);
  prism_buffer *whole = wrap(ctx, mem);
  cr_assert_eq(prism_buffer_size(whole), n * 4);
  cr_assert_eq(mem_refs(mem), mem_refs0 + 1, "the wrap retains mem");
  prism_buffer *half = view(ctx, whole, n * 2, n * 2);
  prism_buffer_destroy(whole);
  cr_assert_eq(mem_refs(mem), mem_refs0 + 1, "the view keeps mem");
  app_fill(&a, mem, n, 7);
  uint64_t sum = 0, want = 0; /* I64 sums wrap */
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_U64, PRISM_SUM, half, n / 4, &sum));
  for (cl_uint i = n / 2; i < n; i += 2)
    want += (uint64_t)app_key(i + 1, 7) << 32 | app_key(i, 7);
  cr_assert_eq(sum, want, "reduce over the view of the caller's memory");
  prism_buffer_destroy(half);
  cr_assert_eq(mem_refs(mem), mem_refs0, "the last handle releases mem");

  /* prism's own queue on the caller's context. */
  prism_context *own = prism_on(&a, NULL);
  HARNESS_OK(own, prism_opencl_context_objects(own, &c, NULL, &q));
  cr_assert(c == a.context && q && q != a.queue, "a queue of prism's own");
  cl_context qc = NULL;
  clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL);
  cr_assert(qc == a.context, "prism's queue is on the caller's context");
  prism_context_destroy(own);

  prism_context_destroy(ctx);
  /* The caller's objects still work, and hold no reference of prism's. */
  app_fill(&a, mem, n, 9);
  cr_assert_eq(clFinish(a.queue), CL_SUCCESS);
  uint32_t first = 0;
  clEnqueueReadBuffer(a.queue, mem, CL_TRUE, 0, 4, &first, 0, NULL, NULL);
  cr_assert_eq(first, app_key(0, 9));
  cr_assert_eq(context_refs(a.context), ctx_refs0,
               "destroying the context releases what it held");
  cr_assert_leq(queue_refs_settled(a.queue, queue_refs0), queue_refs0,
                "destroying the context releases the queue");
  clReleaseMemObject(mem);
  app_close(&a);
}

/* The caller's kernel, a prism sort and the caller's kernel again on one
 * queue, with no finish between: the queue's order is the only
 * synchronisation. */
Test(opencl_interop, interleaved_on_one_queue) {
  app a;
  app_open(&a, 1);
  prism_context *ctx = prism_on(&a, a.queue);
  const cl_uint n = 3000, seed = 0x5eed;
  cl_mem keys = app_buffer(a.context, n * 4, NULL);
  const cl_uint zero = 0;
  cl_mem flag = app_buffer(a.context, 4, &zero);
  prism_buffer *b = wrap(ctx, keys);

  app_fill(&a, keys, n, seed);
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, b, b, n, NULL));
  app_check(&a, keys, n, flag);
  uint32_t unsorted = 1;
  uint32_t *got = harness_malloc(n * 4);
  cr_assert_eq(clEnqueueReadBuffer(a.queue, flag, CL_FALSE, 0, 4, &unsorted, 0,
                                   NULL, NULL),
               CL_SUCCESS);
  cr_assert_eq(
      clEnqueueReadBuffer(a.queue, keys, CL_TRUE, 0, n * 4, got, 0, NULL, NULL),
      CL_SUCCESS);
  cr_assert_eq(unsorted, 0, "the caller's check saw sorted keys");
  uint32_t *want = harness_malloc(n * 4);
  for (cl_uint i = 0; i < n; i++)
    want[i] = app_key(i, seed);
  qsort(want, n, 4, cmp_u32);
  cr_assert(memcmp(got, want, n * 4) == 0, "the sort of the caller's keys");

  free(got);
  free(want);
  prism_buffer_destroy(b);
  prism_context_destroy(ctx);
  clReleaseMemObject(flag);
  clReleaseMemObject(keys);
  app_close(&a);
}

/* Inputs in a sub-buffer of the caller's buffer root, outputs in another
 * of the caller's buffers (OpenCL leaves concurrent use of a buffer and
 * its sub-buffer undefined); views at odd element offsets (no 16-byte
 * alignment: the scalar builds) and at 64 bytes (the vector ones). root
 * itself serves the identity checks. */
#define N 1000
#define BINS 16
#define SEGMENTS 10
Test(opencl_interop, primitives_on_wrapped_memory) {
  app a;
  app_open(&a, 0);
  prism_context *ctx = prism_on(&a, a.queue);
  cl_uint align_bits = 0;
  clGetDeviceInfo(a.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                  &align_bits, NULL);
  const size_t align = align_bits / 8 ? align_bits / 8 : 128;
  const size_t in_bytes = 8 * N * 4;
  const size_t origin = align,
               sub_bytes = (in_bytes + align - 1) / align * align;
  cl_mem root = app_buffer(a.context, origin + sub_bytes, NULL);
  cl_mem outs = app_buffer(a.context, 8 * N * 4, NULL);
  cl_buffer_region region = {origin, sub_bytes};
  cl_int err;
  cl_mem sub =
      clCreateSubBuffer(root, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  cr_assert_not_null(sub, "clCreateSubBuffer: %d", (int)err);
  prism_buffer *wroot = wrap(ctx, root), *wsub = wrap(ctx, sub);
  prism_buffer *wouts = wrap(ctx, outs);
  cr_assert_eq(prism_buffer_size(wsub), sub_bytes);

  uint32_t keys[N], values[N], idx[N], offsets[SEGMENTS + 1];
  uint8_t flags[N];
  for (uint32_t i = 0; i < N; i++) {
    keys[i] = (i * 7919u) % 1600u;
    values[i] = i;
    idx[i] = (i * 31u) % N;
    flags[i] = (uint8_t)(keys[i] % 3 == 0);
  }
  for (uint32_t s = 0; s <= SEGMENTS; s++)
    offsets[s] = s * s * N / (SEGMENTS * SEGMENTS);
  /* Inputs: keys at 4 bytes in (odd), values on 64 bytes, the indices
   * odd again, the flags at an odd byte. */
  prism_buffer *vkeys = view(ctx, wsub, 4, N * 4);
  prism_buffer *vvalues = view(ctx, wsub, 4096, N * 4);
  prism_buffer *vidx = view(ctx, wsub, 8196, N * 4);
  prism_buffer *vflags = view(ctx, wsub, 12301, N);
  prism_buffer *voffsets = view(ctx, wsub, 13312, (SEGMENTS + 1) * 4);
  HARNESS_OK(ctx, prism_buffer_write(vkeys, 0, keys, sizeof keys));
  HARNESS_OK(ctx, prism_buffer_write(vvalues, 0, values, sizeof values));
  HARNESS_OK(ctx, prism_buffer_write(vidx, 0, idx, sizeof idx));
  HARNESS_OK(ctx, prism_buffer_write(vflags, 0, flags, sizeof flags));
  HARNESS_OK(ctx, prism_buffer_write(voffsets, 0, offsets, sizeof offsets));

  /* The native handles of views: the cl_mem and the view's offset. */
  cl_mem m = NULL;
  size_t off = 1;
  HARNESS_OK(ctx, prism_opencl_buffer_mem(vkeys, &m, &off));
  cr_assert(m == sub && off == 4, "a view of the sub-buffer: (sub, 4)");
  prism_buffer *out = view(ctx, wouts, 4, 2 * N * 4);
  HARNESS_OK(ctx, prism_opencl_buffer_mem(out, &m, NULL));
  cr_assert(m == outs, "a view of the buffer: outs");
  HARNESS_OK(ctx, prism_opencl_buffer_mem(out, NULL, &off));
  cr_assert_eq(off, 4);
  HARNESS_OK(ctx, prism_opencl_buffer_mem(wroot, &m, &off));
  cr_assert(m == root && off == 0, "a whole wrapped buffer: (root, 0)");

  /* Memory identity: the sub-buffer is memory of root. */
  prism_buffer *overlap = view(ctx, wroot, origin + 8, N * 4);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "out",
                 prism_scan(ctx, PRISM_U32, PRISM_SUM, PRISM_INCLUSIVE, vkeys,
                            overlap, N));
  prism_buffer_destroy(overlap);

  /* reduce */
  int32_t sum = 0, want_sum = 0;
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_I32, PRISM_SUM, vkeys, N, &sum));
  for (int i = 0; i < N; i++)
    want_sum += (int32_t)keys[i];
  cr_assert_eq(sum, want_sum, "reduce");

  /* scan */
  uint32_t got[2 * N];
  HARNESS_OK(ctx, prism_scan(ctx, PRISM_U32, PRISM_SUM, PRISM_INCLUSIVE, vkeys,
                             out, N));
  HARNESS_OK(ctx, prism_buffer_read(out, 0, got, N * 4));
  uint32_t run = 0;
  for (int i = 0; i < N; i++) {
    run += keys[i];
    cr_assert_eq(got[i], run, "scan [%d]", i);
  }

  /* sort_pairs: keys and values to out's halves */
  prism_buffer *out_keys = view(ctx, out, 0, N * 4);
  prism_buffer *out_values = view(ctx, out, N * 4, N * 4);
  HARNESS_OK(ctx, prism_sort_pairs(ctx, PRISM_U32, vkeys, out_keys, vvalues,
                                   out_values, 4, N, NULL));
  HARNESS_OK(ctx, prism_buffer_read(out, 0, got, 2 * N * 4));
  for (int i = 0; i < N; i++) {
    const uint32_t v = got[N + i];
    cr_assert(v < N && got[i] == keys[v], "sort_pairs: pair %d", i);
    if (i > 0)
      cr_assert(got[i - 1] < got[i] ||
                    (got[i - 1] == got[i] && got[N + i - 1] < v),
                "sort_pairs: order at %d", i);
  }

  /* gather */
  HARNESS_OK(ctx, prism_gather(ctx, 4, vkeys, N, PRISM_U32, vidx, out_keys, N,
                               1, NULL));
  HARNESS_OK(ctx, prism_buffer_read(out_keys, 0, got, N * 4));
  for (int i = 0; i < N; i++)
    cr_assert_eq(got[i], keys[idx[i]], "gather [%d]", i);

  /* histogram */
  uint32_t want_counts[BINS] = {0};
  for (int i = 0; i < N; i++)
    want_counts[keys[i] / (1600 / BINS)]++;
  HARNESS_OK(ctx, prism_histogram_even(ctx, PRISM_U32, vkeys, N, BINS, 0, 1600,
                                       PRISM_U32, out_values));
  HARNESS_OK(ctx, prism_buffer_read(out_values, 0, got, BINS * 4));
  cr_assert(memcmp(got, want_counts, sizeof want_counts) == 0, "histogram");

  /* select_flagged */
  size_t count = 0, k = 0;
  HARNESS_OK(ctx, prism_select_flagged(ctx, PRISM_U32, vkeys, PRISM_U8, vflags,
                                       out_keys, N, NULL, &count));
  HARNESS_OK(ctx, prism_buffer_read(out_keys, 0, got, count * 4));
  for (int i = 0; i < N; i++)
    if (flags[i]) {
      cr_assert(k < count && got[k] == keys[i], "select_flagged [%zu]", k);
      k++;
    }
  cr_assert_eq(count, k, "select_flagged count");

  /* segmented reduce */
  int32_t seg[SEGMENTS];
  HARNESS_OK(ctx, prism_segmented_reduce(ctx, PRISM_I32, PRISM_MAX, vkeys, N,
                                         PRISM_U32, voffsets, SEGMENTS,
                                         out_values, 1, NULL));
  HARNESS_OK(ctx, prism_buffer_read(out_values, 0, seg, sizeof seg));
  for (int s = 0; s < SEGMENTS; s++) {
    int32_t m_s = INT32_MIN;
    for (uint32_t i = offsets[s]; i < offsets[s + 1]; i++)
      m_s = (int32_t)keys[i] > m_s ? (int32_t)keys[i] : m_s;
    cr_assert_eq(seg[s], m_s, "segmented reduce [%d]", s);
  }

  prism_buffer *all[] = {vkeys,    vvalues,    vidx,  vflags, voffsets, out,
                         out_keys, out_values, wroot, wsub,   wouts};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    prism_buffer_destroy(all[i]);
  prism_context_destroy(ctx);
  clReleaseMemObject(sub);
  clReleaseMemObject(outs);
  clReleaseMemObject(root);
  app_close(&a);
}

/* Objects prism cannot use: refused with the argument named, nothing
 * retained, and everything usable afterwards. */
Test(opencl_interop, refusals) {
  app a;
  app_open(&a, 0);
  const cl_uint ctx_refs0 = context_refs(a.context);
  const cl_uint queue_refs0 = queue_refs(a.queue);
  prism_context *ctx = NULL;
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "context",
                 prism_opencl_context_create(NULL, a.device, a.queue, &ctx));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "device",
                 prism_opencl_context_create(a.context, NULL, a.queue, &ctx));
  HARNESS_EXPECT(
      NULL, PRISM_NULL_POINTER, "out",
      prism_opencl_context_create(a.context, a.device, a.queue, NULL));
  cr_assert_null(ctx);

  /* A queue of another cl_context. */
  cl_context other = app_new_context(&a);
  cl_command_queue other_queue = app_new_queue(other, a.device, 0);
  HARNESS_EXPECT(
      NULL, PRISM_INVALID_ARGUMENT, "queue belongs to another",
      prism_opencl_context_create(a.context, a.device, other_queue, &ctx));
  /* An out-of-order queue, where the device has them. */
  cl_int err;
  cl_command_queue ooo = clCreateCommandQueue(
      a.context, a.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (ooo) {
    HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "queue is out of order",
                   prism_opencl_context_create(a.context, a.device, ooo, &ctx));
    clReleaseCommandQueue(ooo);
  } else {
    cr_log_info("no out-of-order queues here (%d): not checked", (int)err);
  }
  /* A device not in the context: a sub-device, where the device splits. */
  cl_device_id parts[64];
  cl_uint nparts = 0;
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                  1, 0};
  if (clCreateSubDevices(a.device, equally, 0, NULL, &nparts) == CL_SUCCESS &&
      nparts > 0 && nparts <= 64 &&
      clCreateSubDevices(a.device, equally, nparts, parts, NULL) ==
          CL_SUCCESS) {
    HARNESS_EXPECT(
        NULL, PRISM_INVALID_ARGUMENT, "device is not one of",
        prism_opencl_context_create(a.context, parts[0], NULL, &ctx));
    for (cl_uint i = 0; i < nparts; i++)
      clReleaseDevice(parts[i]);
  } else {
    cr_log_info("the device does not split: a foreign device not checked");
  }
  cr_assert_null(ctx);
  cr_assert_eq(context_refs(a.context), ctx_refs0, "refusals retain nothing");
  cr_assert_leq(queue_refs_settled(a.queue, queue_refs0), queue_refs0);

  /* Memory: NULL, another cl_context's, an image. */
  ctx = prism_on(&a, a.queue);
  prism_buffer *b = NULL;
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "mem",
                 prism_opencl_buffer_wrap(ctx, NULL, &b));
  cl_mem foreign = app_buffer(other, 64, NULL);
  const cl_uint foreign_refs = mem_refs(foreign);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "mem belongs to another",
                 prism_opencl_buffer_wrap(ctx, foreign, &b));
  cr_assert_null(b);
  cr_assert_eq(mem_refs(foreign), foreign_refs, "a refused mem is not kept");
  cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 4;
  cl_mem image =
      clCreateImage(a.context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
  if (image) {
    HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "mem is an image",
                   prism_opencl_buffer_wrap(ctx, image, &b));
    clReleaseMemObject(image);
  } else {
    cr_log_info("no images here (%d): not checked", (int)err);
  }
  cl_mem mine = app_buffer(a.context, 64, NULL);
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_opencl_buffer_wrap(ctx, mine, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "buf",
                 prism_opencl_buffer_mem(NULL, NULL, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_opencl_buffer_wrap(NULL, mine, &b));

  /* The context still works. */
  b = wrap(ctx, mine);
  int32_t in[5] = {1, 2, 3, 4, 5}, back[5];
  HARNESS_OK(ctx, prism_buffer_write(b, 0, in, sizeof in));
  HARNESS_OK(ctx,
             prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, b, b, 5));
  HARNESS_OK(ctx, prism_buffer_read(b, 0, back, sizeof back));
  cr_assert_eq(back[4], 15, "the context works after refusals");
  prism_buffer_destroy(b);
  prism_context_destroy(ctx);

  clReleaseMemObject(mine);
  clReleaseMemObject(foreign);
  clReleaseCommandQueue(other_queue);
  clReleaseContext(other);
  app_close(&a);
}

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* prism's events in the caller's hands, the caller's events in prism's
 * queue, and events of another cl_context refused. */
Test(opencl_interop, events) {
  app a;
  app_open(&a, 0);
  prism_context *ctx = prism_on(&a, a.queue);
  const int n = 256;
  int32_t in[256], back[256];
  for (int i = 0; i < n; i++)
    in[i] = i;
  cl_mem mem = app_buffer(a.context, sizeof in, in);
  prism_buffer *b = wrap(ctx, mem);
  /* A first scan builds the program and takes what it needs, so the one
   * behind the user event below does nothing but queue. */
  HARNESS_OK(ctx, prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, b, b,
                             (size_t)n));

  /* prism's event, waited for by the caller. */
  prism_event *ev = NULL;
  HARNESS_OK(ctx, prism_event_record(ctx, &ev));
  cl_event native = NULL;
  HARNESS_OK(ctx, prism_opencl_event(ev, &native));
  cr_assert_not_null(native);
  cl_context owner = NULL;
  clGetEventInfo(native, CL_EVENT_CONTEXT, sizeof owner, &owner, NULL);
  cr_assert(owner == a.context, "the event is of the caller's context");
  cr_assert_eq(clWaitForEvents(1, &native), CL_SUCCESS);
  int done = 0;
  HARNESS_OK(ctx, prism_event_query(ev, &done));
  cr_assert_eq(done, 1, "done once the caller has waited");
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "out", prism_opencl_event(ev, NULL));
  prism_event_destroy(ev);

  /* The caller's user event holds prism's queue. */
  cl_int err;
  cl_event gate = clCreateUserEvent(a.context, &err);
  cr_assert_not_null(gate, "clCreateUserEvent: %d", (int)err);
  HARNESS_OK(ctx, prism_opencl_context_wait(ctx, gate));
  HARNESS_OK(ctx, prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, b, b,
                             (size_t)n));
  cl_event read = NULL;
  cr_assert_eq(clEnqueueReadBuffer(a.queue, mem, CL_FALSE, 0, sizeof back, back,
                                   0, NULL, &read),
               CL_SUCCESS);
  clFlush(a.queue);
  sleep_ms(100);
  cl_int status = CL_COMPLETE;
  clGetEventInfo(read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                 &status, NULL);
  cr_assert_neq(status, CL_COMPLETE, "nothing runs before the user event");
  cr_assert_eq(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  cr_assert_eq(clWaitForEvents(1, &read), CL_SUCCESS);
  /* Two inclusive scans of 0, 1, 2, ...: element i is the sum over j <= i
   * of j (j + 1) / 2. */
  for (int i = 0; i < n; i++) {
    int32_t want = 0;
    for (int j = 0; j <= i; j++)
      want += j * (j + 1) / 2;
    cr_assert_eq(back[i], want, "both scans, in order, at %d", i);
  }
  clReleaseEvent(read);
  clReleaseEvent(gate);

  /* Events of another cl_context: the caller's, and another prism
   * context's. */
  cl_context other = app_new_context(&a);
  cl_command_queue other_queue = app_new_queue(other, a.device, 0);
  cl_event foreign = clCreateUserEvent(other, &err);
  cr_assert_not_null(foreign);
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "another cl_context",
                 prism_opencl_context_wait(ctx, foreign));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "event",
                 prism_opencl_context_wait(ctx, NULL));
  clSetUserEventStatus(foreign, CL_COMPLETE);
  clReleaseEvent(foreign);
  prism_context *elsewhere = NULL;
  HARNESS_OK(NULL, prism_opencl_context_create(other, a.device, other_queue,
                                               &elsewhere));
  prism_event *far = NULL;
  HARNESS_OK(elsewhere, prism_event_record(elsewhere, &far));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "another cl_context",
                 prism_context_wait_event(ctx, far));
  HARNESS_OK(elsewhere, prism_event_wait(far));
  prism_event_destroy(far);
  prism_context_destroy(elsewhere);

  /* The context still works. */
  HARNESS_OK(ctx, prism_buffer_write(b, 0, in, sizeof in));
  int32_t total = 0;
  HARNESS_OK(ctx,
             prism_reduce(ctx, PRISM_I32, PRISM_SUM, b, (size_t)n, &total));
  cr_assert_eq(total, n * (n - 1) / 2);

  prism_buffer_destroy(b);
  prism_context_destroy(ctx);
  clReleaseMemObject(mem);
  clReleaseCommandQueue(other_queue);
  clReleaseContext(other);
  app_close(&a);
}
