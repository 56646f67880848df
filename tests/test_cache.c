/* SPDX-License-Identifier: MIT */
/*
 * The OpenCL disk cache of program binaries when things go wrong: a FIFO
 * where an entry belongs, an entry holding another program's binary, a
 * build that fails for a while, a kernel the cached program will not give,
 * a launch out of resources. Each must leave the primitive correct (or
 * failing with a clear status), the context usable and the cache useful.
 *
 * No hook in the library: libprism's calls into libOpenCL resolve through
 * the global scope, so the OpenCL entry points defined here (exported:
 * ENABLE_EXPORTS) run first, count calls and fail on demand, and forward
 * to the real ones. Every test has its own cache directory. Tests read
 * entries with the layout of backend_opencl/opencl_disk_cache.c.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "harness.h"

#include <CL/cl.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int harness_needs_backend = 0; /* the tests choose OpenCL themselves */

/* ---- OpenCL, interposed ------------------------------------------------ */

#define MAX_TRACKED 256

/* What the interposers saw and what they are told to do. Criterion runs
 * each test in its own process, so this starts zeroed in every test. */
static struct {
  int source_builds; /* clCreateProgramWithSource calls */
  int binary_loads;  /* clCreateProgramWithBinary calls */
  int fail_builds;   /* while set, clBuildProgram fails */
  cl_int build_error;
  const char *fail_kernel; /* clCreateKernel of this name on a program */
  int kernel_failures;     /* from a binary fails this many times */
  int kernel_errors;       /* clCreateKernel calls the driver refused */
  int fail_launches;       /* clEnqueueNDRangeKernel fails this many times */
  cl_int launch_error;
  cl_program from_binary[MAX_TRACKED];
  int from_binary_count;
} fake;

/* The real entry point, looked up once. */
#define REAL(name, type)                                                       \
  static type real_ = NULL;                                                    \
  if (!real_)                                                                  \
    real_ = (type)dlsym(RTLD_NEXT, #name);                                     \
  cr_assert(real_, "no real " #name)

typedef cl_program (*create_source_fn)(cl_context, cl_uint, const char **,
                                       const size_t *, cl_int *);
typedef cl_program (*create_binary_fn)(cl_context, cl_uint,
                                       const cl_device_id *, const size_t *,
                                       const unsigned char **, cl_int *,
                                       cl_int *);
typedef cl_int (*build_fn)(cl_program, cl_uint, const cl_device_id *,
                           const char *,
                           void(CL_CALLBACK *)(cl_program, void *), void *);
typedef cl_kernel (*create_kernel_fn)(cl_program, const char *, cl_int *);
typedef cl_int (*enqueue_fn)(cl_command_queue, cl_kernel, cl_uint,
                             const size_t *, const size_t *, const size_t *,
                             cl_uint, const cl_event *, cl_event *);

cl_program clCreateProgramWithSource(cl_context context, cl_uint count,
                                     const char **strings,
                                     const size_t *lengths,
                                     cl_int *errcode_ret) {
  REAL(clCreateProgramWithSource, create_source_fn);
  fake.source_builds++;
  return real_(context, count, strings, lengths, errcode_ret);
}

cl_program clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                     const cl_device_id *device_list,
                                     const size_t *lengths,
                                     const unsigned char **binaries,
                                     cl_int *binary_status,
                                     cl_int *errcode_ret) {
  REAL(clCreateProgramWithBinary, create_binary_fn);
  fake.binary_loads++;
  cl_program p = real_(context, num_devices, device_list, lengths, binaries,
                       binary_status, errcode_ret);
  if (p && fake.from_binary_count < MAX_TRACKED)
    fake.from_binary[fake.from_binary_count++] = p;
  return p;
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices,
                      const cl_device_id *device_list, const char *options,
                      void(CL_CALLBACK *notify)(cl_program, void *),
                      void *user_data) {
  REAL(clBuildProgram, build_fn);
  if (fake.fail_builds)
    return fake.build_error;
  return real_(program, num_devices, device_list, options, notify, user_data);
}

static int came_from_binary(cl_program program) {
  for (int i = 0; i < fake.from_binary_count; i++)
    if (fake.from_binary[i] == program)
      return 1;
  return 0;
}

cl_kernel clCreateKernel(cl_program program, const char *name,
                         cl_int *errcode_ret) {
  REAL(clCreateKernel, create_kernel_fn);
  if (fake.kernel_failures > 0 && fake.fail_kernel &&
      strcmp(name, fake.fail_kernel) == 0 && came_from_binary(program)) {
    fake.kernel_failures--;
    if (errcode_ret)
      *errcode_ret = CL_INVALID_KERNEL_NAME;
    return NULL;
  }
  cl_kernel k = real_(program, name, errcode_ret);
  fake.kernel_errors += k == NULL;
  return k;
}

cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel,
                              cl_uint work_dim, const size_t *offset,
                              const size_t *global, const size_t *local,
                              cl_uint num_events, const cl_event *wait_list,
                              cl_event *event) {
  REAL(clEnqueueNDRangeKernel, enqueue_fn);
  if (fake.fail_launches > 0) {
    fake.fail_launches--;
    return fake.launch_error;
  }
  return real_(queue, kernel, work_dim, offset, global, local, num_events,
               wait_list, event);
}

/* ---- A private cache, and its entries ---------------------------------- */

static char cache[1024];

/* A new empty cache directory for this test: under PRISM_CACHE_DIR when
 * CTest set one (so it stays in the build tree), else under /tmp. */
static void use_private_cache(void) {
  const char *given = getenv("PRISM_CACHE_DIR");
  snprintf(cache, sizeof cache, "%s/prism-cache-test-XXXXXX",
           given && given[0] == '/' ? given : "/tmp");
  if (given && given[0] == '/')
    mkdir(given, 0755);
  cr_assert(mkdtemp(cache), "mkdtemp(%s)", cache);
  setenv("PRISM_CACHE_DIR", cache, 1);
}

/* Remove the private cache (entries and leftovers, flat). */
static void remove_private_cache(void) {
  DIR *d = opendir(cache);
  if (!d)
    return;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    char path[2048];
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(path, sizeof path, "%s/%s", cache, e->d_name);
    remove(path);
  }
  closedir(d);
  rmdir(cache);
}

/* The path of the one entry of kernel file stem (e.g. "reduce"), or of
 * some entry of another stem when other is set. */
static void find_entry(const char *stem, int other, char *path, size_t size) {
  DIR *d = opendir(cache);
  cr_assert(d, "opendir(%s)", cache);
  int found = 0;
  const size_t stem_len = strlen(stem);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    const size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 4, ".bin") != 0)
      continue;
    int mine =
        strncmp(e->d_name, stem, stem_len) == 0 && e->d_name[stem_len] == '-';
    if (mine == !other && (!other || !found)) {
      snprintf(path, size, "%s/%s", cache, e->d_name);
      found++;
    }
  }
  closedir(d);
  cr_assert_eq(found, 1, "want one %s entry of %s in %s",
               other ? "other than an" : "", stem, cache);
}

/* The whole file (malloc'd). */
static unsigned char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  cr_assert(f, "fopen(%s)", path);
  cr_assert_eq(fseek(f, 0, SEEK_END), 0);
  long n = ftell(f);
  cr_assert_gt(n, 0, "%s is empty", path);
  rewind(f);
  unsigned char *buf = harness_malloc((size_t)n);
  cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *size = (size_t)n;
  return buf;
}

static int same_file(const char *path, const unsigned char *bytes,
                     size_t size) {
  size_t now_size;
  unsigned char *now = slurp(path, &now_size);
  int same = now_size == size && memcmp(now, bytes, size) == 0;
  free(now);
  return same;
}

/* The entry layout (opencl_disk_cache.c): magic; key, names and binary
 * lengths and the FNV-1a of what follows, as uint64; key, names, binary. */
#define ENTRY_MAGIC "prism-cl-binary-3\n"
#define ENTRY_MAGIC_LEN (sizeof ENTRY_MAGIC - 1)
#define ENTRY_HEAD (ENTRY_MAGIC_LEN + 4 * sizeof(uint64_t))

typedef struct parsed_entry {
  uint64_t key_len, names_len, binary_len, sum;
  const unsigned char *key, *names, *binary;
} parsed_entry;

static parsed_entry parse_entry(const unsigned char *file, size_t size) {
  parsed_entry e;
  cr_assert_geq(size, ENTRY_HEAD);
  cr_assert_eq(memcmp(file, ENTRY_MAGIC, ENTRY_MAGIC_LEN), 0,
               "entry of another layout");
  uint64_t head[4];
  memcpy(head, file + ENTRY_MAGIC_LEN, sizeof head);
  e.key_len = head[0];
  e.names_len = head[1];
  e.binary_len = head[2];
  e.sum = head[3];
  cr_assert_eq(ENTRY_HEAD + e.key_len + e.names_len + e.binary_len, size);
  e.key = file + ENTRY_HEAD;
  e.names = e.key + e.key_len;
  e.binary = e.names + e.names_len;
  return e;
}

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* Write this entry's key and kernel names with another entry's binary
 * over path, its checksum right: only the names can give it away. */
static void forge_entry(const char *path, const parsed_entry *mine,
                        const parsed_entry *other) {
  uint64_t head[4] = {mine->key_len, mine->names_len, other->binary_len, 0};
  uint64_t sum = fnv1a(0xcbf29ce484222325ull, mine->key, mine->key_len);
  sum = fnv1a(sum, mine->names, mine->names_len);
  head[3] = fnv1a(sum, other->binary, other->binary_len);
  FILE *f = fopen(path, "wb");
  cr_assert(f, "fopen(%s)", path);
  fwrite(ENTRY_MAGIC, 1, ENTRY_MAGIC_LEN, f);
  fwrite(head, sizeof head, 1, f);
  fwrite(mine->key, 1, mine->key_len, f);
  fwrite(mine->names, 1, mine->names_len, f);
  fwrite(other->binary, 1, other->binary_len, f);
  cr_assert_eq(fclose(f), 0);
}

/* ---- Contexts and a primitive ------------------------------------------ */

/* An OpenCL context from the environment, or the test skips. */
static prism_context *opencl_context(void) {
  setenv("PRISM_BACKEND", "opencl", 1);
  prism_context *ctx = NULL;
  prism_status st = prism_context_create(NULL, &ctx);
  if (st == PRISM_BACKEND_UNAVAILABLE || st == PRISM_DEVICE_NOT_FOUND)
    cr_skip_test("no OpenCL device here: %s", prism_last_error());
  cr_assert_eq(st, PRISM_OK, "%s", prism_last_error());
  return ctx;
}

/* Large enough for reduce's two kernels (partials, then final) under
 * either policy. */
#define REDUCE_N ((size_t)1 << 18)

/* A reduce of a known sum: its status, and *ok whether the sum is right. */
static prism_status try_reduce(prism_context *ctx, int *ok) {
  uint32_t *in = harness_malloc(REDUCE_N * sizeof *in);
  uint64_t want = 0;
  for (size_t i = 0; i < REDUCE_N; i++) {
    in[i] = (uint32_t)(i * 2654435761u) >> 12;
    want += in[i];
  }
  prism_buffer *b = harness_upload(ctx, in, REDUCE_N * sizeof *in);
  uint32_t got = 0;
  prism_status st = prism_reduce(ctx, PRISM_U32, PRISM_SUM, b, REDUCE_N, &got);
  *ok = got == (uint32_t)want;
  prism_buffer_destroy(b);
  free(in);
  return st;
}

static void assert_reduce(prism_context *ctx) {
  int ok = 0;
  HARNESS_OK(ctx, try_reduce(ctx, &ok));
  cr_assert(ok, "reduce gives the right sum");
}

/* Run a reduce in a fresh context, so the cache holds its entry. */
static void warm_cache(void) {
  prism_context *ctx = opencl_context();
  assert_reduce(ctx);
  prism_context_destroy(ctx);
}

/* A fresh context's reduce builds nothing from source: the cache gave it. */
static void assert_loads_from_cache(void) {
  const int sources = fake.source_builds, binaries = fake.binary_loads;
  prism_context *ctx = opencl_context();
  assert_reduce(ctx);
  prism_context_destroy(ctx);
  cr_assert_eq(fake.source_builds, sources, "no build from source");
  cr_assert_gt(fake.binary_loads, binaries, "a binary from the cache");
}

/* ---- The cases --------------------------------------------------------- */

/* A FIFO where an entry belongs: opening it to read must not wait for a
 * writer (it would forever), and the store replaces it. */
Test(cache, fifo_at_entry_path) {
  use_private_cache();
  warm_cache();
  char path[2048];
  find_entry("reduce", 0, path, sizeof path);
  cr_assert_eq(remove(path), 0);
  cr_assert_eq(mkfifo(path, 0644), 0, "mkfifo(%s)", path);

  alarm(60); /* a regression hangs: fail instead */
  const int sources = fake.source_builds;
  prism_context *ctx = opencl_context();
  assert_reduce(ctx);
  prism_context_destroy(ctx);
  alarm(0);
  cr_assert_eq(fake.source_builds, sources + 1, "built from source");

  struct stat st;
  cr_assert_eq(stat(path, &st), 0);
  cr_assert(S_ISREG(st.st_mode), "the store replaced the FIFO");
  assert_loads_from_cache();
  remove_private_cache();
}

/* Another program's binary under this entry's key, checksum right: the
 * load must refuse it (its kernels are not this program's), the build
 * from source must replace it, and the next context load the new one. */
Test(cache, another_programs_binary) {
  use_private_cache();
  prism_context *ctx = opencl_context();
  assert_reduce(ctx);
  int32_t small[5] = {1, 2, 3, 4, 5};
  prism_buffer *b = harness_upload(ctx, small, sizeof small);
  HARNESS_OK(ctx,
             prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, b, b, 5));
  prism_buffer_destroy(b);
  prism_context_destroy(ctx);

  char path[2048], other_path[2048];
  find_entry("reduce", 0, path, sizeof path);
  find_entry("reduce", 1, other_path, sizeof other_path);
  size_t size, other_size;
  unsigned char *file = slurp(path, &size);
  unsigned char *other_file = slurp(other_path, &other_size);
  parsed_entry mine = parse_entry(file, size);
  parsed_entry other = parse_entry(other_file, other_size);
  forge_entry(path, &mine, &other);
  size_t forged_size;
  unsigned char *forged = slurp(path, &forged_size);

  const int sources = fake.source_builds;
  ctx = opencl_context();
  assert_reduce(ctx);
  prism_context_destroy(ctx);
  cr_assert_eq(fake.source_builds, sources + 1, "built from source");
  cr_assert_eq(fake.kernel_errors, 0, "refused at load, before any kernel");
  cr_assert(!same_file(path, forged, forged_size), "the entry is replaced");
  assert_loads_from_cache();
  free(forged);
  free(other_file);
  free(file);
  remove_private_cache();
}

/* Every build fails for a while (the host out of memory): the call fails
 * naming the build, the good entry stays as it was, and once builds work
 * again the same context takes its program from the cache. */
Test(cache, transient_build_failure_keeps_entry) {
  use_private_cache();
  warm_cache();
  char path[2048];
  find_entry("reduce", 0, path, sizeof path);
  size_t size;
  unsigned char *before = slurp(path, &size);

  prism_context *ctx = opencl_context();
  fake.fail_builds = 1;
  fake.build_error = CL_OUT_OF_HOST_MEMORY;
  int ok;
  HARNESS_EXPECT(ctx, PRISM_OUT_OF_MEMORY, "clBuildProgram(reduce.cl",
                 try_reduce(ctx, &ok));
  cr_assert_eq(prism_context_last_native_error(ctx), CL_OUT_OF_HOST_MEMORY);
  cr_assert(same_file(path, before, size), "the entry is untouched");

  fake.fail_builds = 0;
  const int sources = fake.source_builds;
  assert_reduce(ctx);
  prism_context_destroy(ctx);
  cr_assert_eq(fake.source_builds, sources, "the entry serves again");
  cr_assert(same_file(path, before, size), "the entry is untouched");
  assert_loads_from_cache();
  free(before);
  remove_private_cache();
}

/* The cached program will not give one of its kernels, after another of
 * its kernels is in the primitive's hands: rebuild from source, replace
 * the kernels, store over the entry, and leave the held kernel working. */
Test(cache, kernel_missing_from_cached_program) {
  use_private_cache();
  warm_cache();
  prism_context *ctx = opencl_context();
  fake.fail_kernel = "reduce_final";
  fake.kernel_failures = 1;
  const int sources = fake.source_builds;
  assert_reduce(ctx);
  cr_assert_eq(fake.kernel_failures, 0, "reduce_final was asked for");
  cr_assert_eq(fake.source_builds, sources + 1, "built from source");
  assert_reduce(ctx); /* with the kernels of the new program */
  prism_context_destroy(ctx);
  assert_loads_from_cache();
  remove_private_cache();
}

/* A launch out of resources is memory running out, not a backend fault:
 * PRISM_OUT_OF_MEMORY with the native code kept; the context goes on. */
Test(cache, launch_out_of_resources) {
  use_private_cache();
  prism_context *ctx = opencl_context();
  assert_reduce(ctx);
  fake.fail_launches = 1;
  fake.launch_error = CL_OUT_OF_RESOURCES;
  int ok;
  HARNESS_EXPECT(ctx, PRISM_OUT_OF_MEMORY, "CL_OUT_OF_RESOURCES",
                 try_reduce(ctx, &ok));
  cr_assert_eq(prism_context_last_native_error(ctx), CL_OUT_OF_RESOURCES);
  assert_reduce(ctx);
  prism_context_destroy(ctx);
  remove_private_cache();
}
