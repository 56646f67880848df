/* SPDX-License-Identifier: MIT */
/*
 * The device protocols' shared definitions: the look-back status words of
 * core/lookback.h pack and unpack as both backends read them; no kernel
 * source defines its own copy of them (the CUDA headers assert at compile
 * time that theirs are the header's); and every OpenCL compiler here
 * (PoCL's, NVIDIA's) reads core's protocol headers as the host does: the
 * same layout of the BFS state, the same status words, key images and
 * step decisions, computed on each device and compared with the host's.
 */
#include "bfs_step.h"
#include "harness.h"
#include "key_order.h"
#include "lookback.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PRISM_TEST_HAVE_OPENCL
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif
#endif

int harness_needs_backend = 0;

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

Test(protocol, value_words_round_trip) {
  cr_assert_eq(PRISM_LB_WORDS(4), 1);
  cr_assert_eq(PRISM_LB_WORDS(8), 2);
  cr_assert(!PRISM_LB_WORD_VALID(0ull), "a cleared word is empty");
  cr_assert(!PRISM_LB_WORD_PUBLISHED(0ull));
  for (uint64_t i = 0; i < 100000; i++) {
    const unsigned bits = (unsigned)mix(i);
    for (unsigned kind = 0; kind < 3; kind++) {
      const unsigned long long w = PRISM_LB_VALUE_WORD(kind, bits);
      cr_assert(PRISM_LB_WORD_VALID(w));
      cr_assert(PRISM_LB_WORD_PUBLISHED(w));
      cr_assert_eq(PRISM_LB_WORD_KIND(w), kind);
      cr_assert_eq(PRISM_LB_WORD_BITS(w), bits);
    }
  }
}

Test(protocol, count_words_round_trip) {
  cr_assert_eq(PRISM_LB_COUNT_FLAG(0ull), PRISM_LB_EMPTY);
  cr_assert_eq(PRISM_LB_COUNT_MASK, (1ull << 62) - 1);
  const unsigned flags[] = {PRISM_LB_AGGREGATE, PRISM_LB_PREFIX};
  for (uint64_t i = 0; i < 100000; i++) {
    const unsigned long long count = mix(i) & PRISM_LB_COUNT_MASK;
    for (int f = 0; f < 2; f++) {
      const unsigned long long w = PRISM_LB_COUNT_WORD(flags[f], count);
      cr_assert_eq(PRISM_LB_COUNT_FLAG(w), flags[f]);
      cr_assert_eq(PRISM_LB_COUNT_OF(w), count);
    }
  }
  /* The largest count still leaves the flag alone. */
  const unsigned long long top =
      PRISM_LB_COUNT_WORD(PRISM_LB_AGGREGATE, PRISM_LB_COUNT_MASK);
  cr_assert_eq(PRISM_LB_COUNT_FLAG(top), PRISM_LB_AGGREGATE);
  /* The flags grow as a status does: a reader may take the larger. */
  cr_assert(PRISM_LB_EMPTY < PRISM_LB_AGGREGATE &&
            PRISM_LB_AGGREGATE < PRISM_LB_PREFIX);
}

/* Every kernel source takes the status constants from lookback.h. */
Test(protocol, kernels_define_no_status_of_their_own) {
  static const char *const files[] = {"kernels_cl/scan.cl",
                                      "kernels_cl/select.cl",
                                      "kernels_cl/select_lookback.cl",
                                      "kernels_cl/segmented_lookback.cl",
                                      "kernels_cl/sort_onesweep.cl",
                                      "backend_cuda/tile_status.cuh",
                                      "backend_cuda/count_status.cuh",
                                      "backend_cuda/sort_status.cuh",
                                      "backend_cuda/segmented_status.cuh"};
  static const char *const banned[] = {
      "#define STATUS_EMPTY", "#define STATUS_PREFIX",
      "#define STATUS_FLAG_SHIFT", "STATUS_PREFIX = 2", "<< 62"};
  int read = 0;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", PRISM_SOURCE_DIR, files[f]);
    FILE *in = fopen(path, "rb");
    if (!in)
      continue; /* moved or merged: the others still count */
    read++;
    char line[4096];
    int number = 0;
    while (fgets(line, sizeof line, in)) {
      number++;
      for (size_t b = 0; b < sizeof banned / sizeof banned[0]; b++)
        cr_assert(!strstr(line, banned[b]),
                  "%s:%d defines a look-back constant of its own (%s): take "
                  "it from core/lookback.h",
                  files[f], number, banned[b]);
    }
    fclose(in);
  }
  cr_assert_gt(read, 0, "no kernel source found under %s", PRISM_SOURCE_DIR);
}

/* ---- Both sides: the headers as each OpenCL compiler reads them -------- */

/* A state for the step cases, the rest of it fixed. */
static prism_bfs_state case_state(unsigned long long fv, unsigned long long fe,
                                  unsigned long long pv, unsigned long long ue,
                                  unsigned long long reached, unsigned phase) {
  prism_bfs_state s;
  memset(&s, 0, sizeof s);
  s.phase = phase;
  s.level = 3;
  s.queue_parity = 1;
  s.small_count = 7;
  s.item_count = 2;
  s.frontier_vertices = fv;
  s.frontier_edges = fe;
  s.previous_vertices = pv;
  s.unvisited_edges = ue;
  s.reached = reached;
  return s;
}

/* The same facts, in the same order, on the host: the layout of the BFS
 * state, a status word of each kind, key images, and the step decisions
 * after a top-down step with many out-edges (bottom-up next), with few
 * (top-down), after a bottom-up step whose frontier shrank (convert), and
 * after a step that reached every vertex (done). */
#define FACTS 19
static void host_facts(unsigned long long out[FACTS]) {
  prism_bfs_state s;
  out[0] = sizeof(prism_bfs_state);
  out[1] = offsetof(prism_bfs_state, phase);
  out[2] = offsetof(prism_bfs_state, frontier_vertices);
  out[3] = offsetof(prism_bfs_state, levels);
  out[4] = sizeof(prism_bfs_sums);
  out[5] = PRISM_LB_VALUE_WORD(PRISM_LB_PREFIX, 0xdeadbeefu);
  out[6] = PRISM_LB_COUNT_WORD(PRISM_LB_AGGREGATE, 0x123456789abcull);
  out[7] = PRISM_LB_COUNT_OF(out[6]);
  out[8] = PRISM_KEY_IMAGE_F32(0xbf800000u);
  out[9] = PRISM_KEY_IMAGE_F64(0x3ff0000000000000ull);
  out[10] = PRISM_KEY_IMAGE_I64(0xfffffffffffffffeull);
  const prism_bfs_switch h = {14.0f, 24.0f, 1000u};
  s = prism_bfs_choose(case_state(10, 500, 5, 1000, 20, 0), 0, h);
  out[11] = s.phase, out[12] = s.levels;
  s = prism_bfs_choose(case_state(10, 50, 5, 1000, 20, 0), 0, h);
  out[13] = s.phase, out[14] = s.levels;
  const prism_bfs_sums shrank = {3, 1, 4, 40, 30};
  s = prism_bfs_advance(case_state(30, 300, 20, 900, 500, 1), shrank, h);
  out[15] = s.phase, out[16] = s.level;
  const prism_bfs_sums all = {0, 0, 480, 10, 10};
  s = prism_bfs_advance(case_state(30, 300, 20, 900, 520, 0), all, h);
  out[17] = s.phase, out[18] = s.levels;
}

/* The kernel that computes host_facts on a device, after the headers. */
static const char probe_kernel[] =
    "prism_bfs_state case_state(ulong fv, ulong fe, ulong pv, ulong ue,\n"
    "                           ulong reached, uint phase) {\n"
    "  prism_bfs_state s = {0};\n"
    "  s.phase = phase; s.level = 3; s.queue_parity = 1;\n"
    "  s.small_count = 7; s.item_count = 2;\n"
    "  s.frontier_vertices = fv; s.frontier_edges = fe;\n"
    "  s.previous_vertices = pv; s.unvisited_edges = ue; s.reached = reached;\n"
    "  return s;\n"
    "}\n"
    "__kernel void protocol_facts(__global ulong *out) {\n"
    "  prism_bfs_state s;\n"
    "  __private char *at = (__private char *)&s;\n"
    "  out[0] = sizeof(prism_bfs_state);\n"
    "  out[1] = (ulong)((__private char *)&s.phase - at);\n"
    "  out[2] = (ulong)((__private char *)&s.frontier_vertices - at);\n"
    "  out[3] = (ulong)((__private char *)&s.levels - at);\n"
    "  out[4] = sizeof(prism_bfs_sums);\n"
    "  out[5] = PRISM_LB_VALUE_WORD(PRISM_LB_PREFIX, 0xdeadbeefu);\n"
    "  out[6] = PRISM_LB_COUNT_WORD(PRISM_LB_AGGREGATE, 0x123456789abcul);\n"
    "  out[7] = PRISM_LB_COUNT_OF(out[6]);\n"
    "  out[8] = PRISM_KEY_IMAGE_F32(0xbf800000u);\n"
    "  out[9] = PRISM_KEY_IMAGE_F64(0x3ff0000000000000ul);\n"
    "  out[10] = PRISM_KEY_IMAGE_I64(0xfffffffffffffffeul);\n"
    "  const prism_bfs_switch h = {14.0f, 24.0f, 1000u};\n"
    "  s = prism_bfs_choose(case_state(10, 500, 5, 1000, 20, 0), 0, h);\n"
    "  out[11] = s.phase; out[12] = s.levels;\n"
    "  s = prism_bfs_choose(case_state(10, 50, 5, 1000, 20, 0), 0, h);\n"
    "  out[13] = s.phase; out[14] = s.levels;\n"
    "  const prism_bfs_sums shrank = {3, 1, 4, 40, 30};\n"
    "  s = prism_bfs_advance(case_state(30, 300, 20, 900, 500, 1), shrank, "
    "h);\n"
    "  out[15] = s.phase; out[16] = s.level;\n"
    "  const prism_bfs_sums all = {0, 0, 480, 10, 10};\n"
    "  s = prism_bfs_advance(case_state(30, 300, 20, 900, 520, 0), all, h);\n"
    "  out[17] = s.phase; out[18] = s.levels;\n"
    "}\n";

Test(protocol, host_facts_are_the_intended_ones) {
  unsigned long long f[FACTS];
  host_facts(f);
  cr_assert_eq(f[0], PRISM_BFS_STATE_BYTES);
  cr_assert_eq(f[1], PRISM_BFS_STATE_PHASE_AT);
  cr_assert_eq(f[3], PRISM_BFS_STATE_LEVELS_AT);
  cr_assert_eq(f[11], PRISM_BFS_PHASE_BOTTOM_UP);
  cr_assert_eq(f[13], PRISM_BFS_PHASE_TOP_DOWN);
  cr_assert_eq(f[15], PRISM_BFS_PHASE_CONVERT);
  cr_assert_eq(f[16], 4, "a bottom-up step moves one level on");
  cr_assert_eq(f[17], PRISM_BFS_PHASE_DONE);
  cr_assert_eq(f[18], 5, "every vertex reached: levels 0 .. 4");
  cr_assert_eq(f[8], 0x407fffffu, "-1.0f below every positive float");
}

#ifdef PRISM_TEST_HAVE_OPENCL
static char *read_source(const char *relative) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", PRISM_SOURCE_DIR, relative);
  FILE *in = fopen(path, "rb");
  cr_assert(in, "cannot open %s", path);
  cr_assert_eq(fseek(in, 0, SEEK_END), 0);
  const long size = ftell(in);
  cr_assert_geq(size, 0);
  rewind(in);
  char *text = malloc((size_t)size + 1);
  cr_assert(text);
  cr_assert_eq(fread(text, 1, (size_t)size, in), (size_t)size);
  fclose(in);
  text[size] = '\0';
  return text;
}

/* The facts as the device computes them, into out. */
static void device_facts(cl_platform_id platform, cl_device_id device,
                         unsigned long long out[FACTS]) {
  char name[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  cl_int err;
  cl_context ctx = clCreateContext(
      (cl_context_properties[]){CL_CONTEXT_PLATFORM,
                                (cl_context_properties)platform, 0},
      1, &device, NULL, NULL, &err);
  cr_assert_eq(err, CL_SUCCESS, "%s: clCreateContext: %d", name, err);
  char *headers[] = {read_source("core/key_order.h"),
                     read_source("core/lookback.h"),
                     read_source("core/bfs_step.h")};
  const char *sources[] = {headers[0], headers[1], headers[2], probe_kernel};
  cl_program program = clCreateProgramWithSource(ctx, 4, sources, NULL, &err);
  cr_assert_eq(err, CL_SUCCESS);
  err = clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log,
                          log, NULL);
    cr_assert_fail("%s cannot build core's protocol headers (%d):\n%s", name,
                   err, log);
  }
  cl_kernel kernel = clCreateKernel(program, "protocol_facts", &err);
  cr_assert_eq(err, CL_SUCCESS);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, FACTS * sizeof(cl_ulong),
                              NULL, &err);
  cr_assert_eq(err, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
  cr_assert_eq(err, CL_SUCCESS);
  cr_assert_eq(clSetKernelArg(kernel, 0, sizeof buf, &buf), CL_SUCCESS);
  const size_t one = 1;
  cr_assert_eq(
      clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, &one, 0, NULL, NULL),
      CL_SUCCESS);
  cl_ulong got[FACTS];
  cr_assert_eq(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof got, got, 0,
                                   NULL, NULL),
               CL_SUCCESS);
  for (int i = 0; i < FACTS; i++)
    out[i] = got[i];
  clReleaseCommandQueue(queue);
  clReleaseMemObject(buf);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseContext(ctx);
  for (int i = 0; i < 3; i++)
    free(headers[i]);
}

/* Every OpenCL device here computes what the host does. */
Test(protocol, every_opencl_compiler_reads_the_headers_as_the_host) {
  cl_uint platforms = 0;
  if (clGetPlatformIDs(0, NULL, &platforms) != CL_SUCCESS || platforms == 0)
    cr_skip_test("no OpenCL platform here");
  cl_platform_id ids[16];
  if (platforms > 16)
    platforms = 16;
  cr_assert_eq(clGetPlatformIDs(platforms, ids, NULL), CL_SUCCESS);
  unsigned long long want[FACTS];
  host_facts(want);
  int devices_checked = 0;
  for (cl_uint p = 0; p < platforms; p++) {
    cl_device_id devs[16];
    cl_uint count = 0;
    if (clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, 16, devs, &count) !=
        CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < count && d < 16; d++) {
      char name[256] = "";
      clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof name, name, NULL);
      unsigned long long got[FACTS];
      device_facts(ids[p], devs[d], got);
      for (int i = 0; i < FACTS; i++)
        cr_expect_eq(got[i], want[i],
                     "%s: fact %d is %llu on the device, %llu on the host",
                     name, i, got[i], want[i]);
      devices_checked++;
    }
  }
  if (devices_checked == 0)
    cr_skip_test("no OpenCL device here");
}
#endif
