/* SPDX-License-Identifier: MIT */
/* Platform and device discovery, the platform choice, device facts. */
#include "opencl_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Discovery is serialised process-wide: PoCL 3.1 answers a clGetDeviceIDs
 * made while another thread's first call is initialising its devices with
 * CL_DEVICE_NOT_FOUND, so threads that create contexts at once would see
 * "no device". Once drivers are up the lock costs nothing that matters.
 */
#if defined(_WIN32)
#include <windows.h>
static SRWLOCK discovery = SRWLOCK_INIT;
static void discovery_lock(void) {
  AcquireSRWLockExclusive(&discovery);
}
static void discovery_unlock(void) {
  ReleaseSRWLockExclusive(&discovery);
}
#else
#include <pthread.h>
static pthread_mutex_t discovery = PTHREAD_MUTEX_INITIALIZER;
static void discovery_lock(void) {
  pthread_mutex_lock(&discovery);
}
static void discovery_unlock(void) {
  pthread_mutex_unlock(&discovery);
}
#endif

/* Platforms beyond this many are ignored (machines have one to three). */
#define MAX_PLATFORMS 16

typedef struct platform_list {
  cl_platform_id ids[MAX_PLATFORMS];
  cl_uint count;
} platform_list;

/* No ICD, no platform: clGetPlatformIDs fails or finds none. */
static cl_int list_platforms(platform_list *list) {
  list->count = 0;
  cl_int err = clGetPlatformIDs(MAX_PLATFORMS, list->ids, &list->count);
  if (err != CL_SUCCESS)
    list->count = 0;
  if (list->count > MAX_PLATFORMS)
    list->count = MAX_PLATFORMS;
  return err;
}

static cl_uint device_count(cl_platform_id platform) {
  cl_uint n = 0;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS)
    return 0;
  return n;
}

static void platform_string(cl_platform_id platform, cl_platform_info what,
                            char *buf, size_t size) {
  buf[0] = '\0';
  if (clGetPlatformInfo(platform, what, size, buf, NULL) != CL_SUCCESS)
    buf[0] = '\0';
  buf[size - 1] = '\0';
}

static void device_string(cl_device_id device, cl_device_info what, char *buf,
                          size_t size) {
  buf[0] = '\0';
  if (clGetDeviceInfo(device, what, size, buf, NULL) != CL_SUCCESS)
    buf[0] = '\0';
  buf[size - 1] = '\0';
}

static prism_status probe_locked(int *count, char *reason, size_t reason_size) {
  platform_list list;
  cl_int err = list_platforms(&list);
  *count = 0;
  if (list.count == 0) {
    snprintf(reason, reason_size,
             "no OpenCL platform (clGetPlatformIDs: %s); is an ICD "
             "installed under /etc/OpenCL/vendors?",
             err == CL_SUCCESS ? "none found" : prism__cl_error_name(err));
    return PRISM_BACKEND_UNAVAILABLE;
  }
  int total = 0;
  for (cl_uint p = 0; p < list.count; p++)
    total += (int)device_count(list.ids[p]);
  *count = total;
  if (total == 0)
    snprintf(reason, reason_size, "%u OpenCL platform(s) but no device",
             list.count);
  else
    snprintf(reason, reason_size, "%d device(s) on %u OpenCL platform(s)",
             total, list.count);
  return PRISM_OK;
}

prism_status prism__cl_probe(int *count, char *reason, size_t reason_size) {
  discovery_lock();
  prism_status st = probe_locked(count, reason, reason_size);
  discovery_unlock();
  return st;
}

static int contains_nocase(const char *haystack, const char *needle) {
  size_t n = strlen(needle);
  if (n == 0)
    return 1;
  for (; *haystack; haystack++) {
    size_t i = 0;
    while (i < n && haystack[i] &&
           tolower((unsigned char)haystack[i]) ==
               tolower((unsigned char)needle[i]))
      i++;
    if (i == n)
      return 1;
  }
  return 0;
}

static int is_decimal(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s))
      return 0;
  return 1;
}

/* "0: NVIDIA CUDA (2 devices), 1: Portable Computing Language (1 device)" */
static void describe_platforms(const platform_list *list, char *buf,
                               size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (cl_uint p = 0; p < list->count && used < size; p++) {
    char name[128];
    platform_string(list->ids[p], CL_PLATFORM_NAME, name, sizeof name);
    cl_uint n = device_count(list->ids[p]);
    int w = snprintf(buf + used, size - used, "%s%u: %s (%u device%s)",
                     p ? ", " : "", p, name, n, n == 1 ? "" : "s");
    if (w < 0)
      break;
    used += (size_t)w;
  }
}

/* Index of the platform the request names, or -1 with the error set. An
 * empty name asks for no platform in particular, as NULL does. */
static int choose_platform(prism_context *ctx, const platform_list *list,
                           const char *want) {
  char found[512];
  if (!want || !want[0]) {
    for (cl_uint p = 0; p < list->count; p++)
      if (device_count(list->ids[p]) > 0)
        return (int)p;
    describe_platforms(list, found, sizeof found);
    prism__fail(ctx, PRISM_DEVICE_NOT_FOUND,
                "no OpenCL platform has a device; platforms: %s", found);
    return -1;
  }
  if (is_decimal(want)) {
    unsigned long index = strtoul(want, NULL, 10);
    if (index < list->count)
      return (int)index;
    describe_platforms(list, found, sizeof found);
    prism__fail(ctx, PRISM_DEVICE_NOT_FOUND,
                "no OpenCL platform with index %s; platforms: %s", want, found);
    return -1;
  }
  for (cl_uint p = 0; p < list->count; p++) {
    char name[256], vendor[256];
    platform_string(list->ids[p], CL_PLATFORM_NAME, name, sizeof name);
    platform_string(list->ids[p], CL_PLATFORM_VENDOR, vendor, sizeof vendor);
    if (contains_nocase(name, want) || contains_nocase(vendor, want))
      return (int)p;
  }
  describe_platforms(list, found, sizeof found);
  prism__fail(ctx, PRISM_DEVICE_NOT_FOUND,
              "no OpenCL platform matches \"%s\" (an index or a name/vendor "
              "substring); platforms: %s",
              want, found);
  return -1;
}

/* Whether the space-separated extension list has ext. */
static int has_extension(const char *list, const char *ext) {
  size_t n = strlen(ext);
  for (const char *p = strstr(list, ext); p; p = strstr(p + 1, ext))
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
      return 1;
  return 0;
}

/* Types the device can hold (ext: its extensions): 64-bit integers unless
 * an embedded profile lacks them, doubles only with cl_khr_fp64 or a
 * double FP config. */
static unsigned type_mask(cl_device_id device, const char *ext) {
  char profile[64];
  device_string(device, CL_DEVICE_PROFILE, profile, sizeof profile);
  unsigned mask = (1u << PRISM_I32) | (1u << PRISM_U32) | (1u << PRISM_F32) |
                  (1u << PRISM_U8);
  if (strcmp(profile, "EMBEDDED_PROFILE") != 0 ||
      has_extension(ext, "cles_khr_int64"))
    mask |= (1u << PRISM_I64) | (1u << PRISM_U64);
  cl_device_fp_config fp64 = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64,
                      NULL) != CL_SUCCESS)
    fp64 = 0;
  if (fp64 != 0 || has_extension(ext, "cl_khr_fp64"))
    mask |= 1u << PRISM_F64;
  return mask;
}

/* cl_nv_device_attribute_query's CL_DEVICE_KERNEL_EXEC_TIMEOUT_NV. */
#define DEVICE_KERNEL_EXEC_TIMEOUT_NV 0x4005

/* The device's facts for the policy (ext: its extensions). */
static void device_facts(cl_device_id device, const char *ext,
                         prism__cl_device_facts *f) {
  cl_bool timeout = CL_FALSE;
  cl_device_type type = 0;
  cl_uint cus = 0, align_bits = 0;
  size_t max_wg = 0;
  cl_ulong local_mem = 0;
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg,
                  NULL);
  clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem,
                  &local_mem, NULL);
  clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                  &align_bits, NULL);
  f->is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
  f->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  f->compute_units = cus ? cus : 1;
  f->max_wg = max_wg ? max_wg : 1;
  f->local_mem = (size_t)local_mem;
  f->base_align = align_bits / 8;
  f->nvidia = has_extension(ext, "cl_nv_device_attribute_query");
  if (!f->nvidia ||
      clGetDeviceInfo(device, DEVICE_KERNEL_EXEC_TIMEOUT_NV, sizeof timeout,
                      &timeout, NULL) != CL_SUCCESS)
    timeout = CL_FALSE;
  f->exec_timeout = timeout != CL_FALSE;
}

/* cl->platform and cl->device chosen (and cl->platform_name): the rest of
 * cl's device fields and info, whoever chose the device. */
static prism_status describe_device(prism_context *ctx, prism__cl *cl,
                                    prism__device_info *info) {
  device_string(cl->device, CL_DEVICE_NAME, cl->device_name,
                sizeof cl->device_name);
  device_string(cl->device, CL_DRIVER_VERSION, cl->driver_version,
                sizeof cl->driver_version);
  char ext[8192];
  device_string(cl->device, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
  device_facts(cl->device, ext, &cl->facts);
  if (prism__cl_choose_policy(&cl->facts, &cl->policy) != 0)
    return prism__fail(ctx, PRISM_INVALID_ENVIRONMENT,
                       "PRISM_OPENCL_POLICY='%s' is not a policy; valid "
                       "values: gpu, cpu (or unset: by device type)",
                       getenv("PRISM_OPENCL_POLICY"));

  snprintf(info->device_name, sizeof info->device_name, "%s", cl->device_name);
  snprintf(info->platform_name, sizeof info->platform_name, "%s",
           cl->platform_name);
  info->is_cpu = cl->facts.is_cpu;
  info->type_mask = type_mask(cl->device, ext);
  snprintf(info->policy, sizeof info->policy, "%s", cl->policy.name);
  return PRISM_OK;
}

static prism_status select_locked(prism_context *ctx,
                                  const prism__device_request *request,
                                  prism__cl *cl, prism__device_info *info) {
  platform_list list;
  cl_int err = list_platforms(&list);
  if (list.count == 0)
    return prism__fail_native(ctx, PRISM_BACKEND_UNAVAILABLE, err,
                              "no OpenCL platform (clGetPlatformIDs: %s)",
                              err == CL_SUCCESS ? "none found"
                                                : prism__cl_error_name(err));
  int p = choose_platform(ctx, &list, request->platform);
  if (p < 0)
    return PRISM_DEVICE_NOT_FOUND;
  cl->platform = list.ids[p];
  platform_string(cl->platform, CL_PLATFORM_NAME, cl->platform_name,
                  sizeof cl->platform_name);

  cl_uint n = device_count(cl->platform);
  if (n == 0 || (cl_uint)request->device >= n)
    return prism__fail(ctx, PRISM_DEVICE_NOT_FOUND,
                       "no OpenCL device %d on platform %d (%s), which has "
                       "%u device%s",
                       request->device, p, cl->platform_name, n,
                       n == 1 ? "" : "s");
  cl_device_id *ids = malloc(n * sizeof *ids);
  if (!ids)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "out of host memory");
  err = clGetDeviceIDs(cl->platform, CL_DEVICE_TYPE_ALL, n, ids, NULL);
  if (err == CL_SUCCESS)
    cl->device = ids[request->device];
  free(ids);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clGetDeviceIDs");
  return describe_device(ctx, cl, info);
}

prism_status prism__cl_select_device(prism_context *ctx,
                                     const prism__device_request *request,
                                     prism__cl *cl, prism__device_info *info) {
  discovery_lock();
  prism_status st = select_locked(ctx, request, cl, info);
  discovery_unlock();
  return st;
}

prism_status prism__cl_describe_device(prism_context *ctx, prism__cl *cl,
                                       prism__device_info *info) {
  cl_platform_id platform = NULL;
  cl_int err = clGetDeviceInfo(cl->device, CL_DEVICE_PLATFORM, sizeof platform,
                               &platform, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
  cl->platform = platform;
  platform_string(cl->platform, CL_PLATFORM_NAME, cl->platform_name,
                  sizeof cl->platform_name);
  discovery_lock();
  prism_status st = describe_device(ctx, cl, info);
  discovery_unlock();
  return st;
}
