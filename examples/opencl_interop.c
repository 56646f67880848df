/* SPDX-License-Identifier: MIT */
/*
 * opencl_interop.c: prism inside an OpenCL application. The application
 * owns the context, device and queue, and a buffer its own kernel fills
 * with keys; prism runs on that queue and sorts the buffer's second half in
 * place, through a view of the application's cl_mem; the application's
 * second kernel checks on the device that the half is sorted. Nothing
 * waits in between: the queue's order is the synchronisation, and the one
 * read at the end brings back the verdict. Exits 77 where OpenCL has no
 * device (PRISM_OPENCL_PLATFORM, an index or a name substring, picks the
 * platform).
 */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120 /* what the example needs */
#endif
#include <prism_opencl.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 100000 /* keys; prism sorts keys [N / 2, N) */

static const char *source =
    "__kernel void fill(__global uint *keys, uint n) {\n"
    "  const uint i = get_global_id(0);\n"
    "  if (i < n)\n"
    "    keys[i] = i * 2654435761u;\n" /* a scramble of 0 .. n - 1 */
    "}\n"
    "__kernel void check(__global const uint *keys, uint first, uint n,\n"
    "                    __global uint *unsorted) {\n"
    "  const uint i = first + get_global_id(0);\n"
    "  if (i + 1 < n && keys[i] > keys[i + 1])\n"
    "    *unsorted = 1;\n"
    "}\n";

static int matches(cl_platform_id p, const char *want, unsigned index) {
  if (!want || !*want)
    return 1;
  char *end = NULL;
  unsigned long i = strtoul(want, &end, 10);
  if (end && *end == '\0')
    return i == index;
  char name[256] = "";
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL);
  for (char *c = name; *c; c++)
    *c = (char)tolower((unsigned char)*c);
  char lower[256];
  snprintf(lower, sizeof lower, "%s", want);
  for (char *c = lower; *c; c++)
    *c = (char)tolower((unsigned char)*c);
  return strstr(name, lower) != NULL;
}

/* The first device of the first platform that has one. */
static int find_device(cl_platform_id *platform, cl_device_id *device) {
  cl_platform_id ids[16];
  cl_uint count = 0;
  if (clGetPlatformIDs(16, ids, &count) != CL_SUCCESS)
    return 0;
  const char *want = getenv("PRISM_OPENCL_PLATFORM");
  for (cl_uint p = 0; p < count && p < 16; p++)
    if (matches(ids[p], want, p) &&
        clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, 1, device, NULL) ==
            CL_SUCCESS) {
      *platform = ids[p];
      return 1;
    }
  return 0;
}

static int launch(cl_command_queue q, cl_kernel k, size_t items) {
  size_t global = (items + 255) / 256 * 256;
  return clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL) ==
         CL_SUCCESS;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  if (!find_device(&platform, &device)) {
    printf("skipped: no OpenCL device here\n");
    return 77;
  }
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)platform, 0};
  cl_context context = clCreateContext(props, 1, &device, NULL, NULL, &err);
  cl_command_queue queue =
      context ? clCreateCommandQueue(context, device, 0, &err) : NULL;
  cl_program program =
      queue ? clCreateProgramWithSource(context, 1, &source, NULL, &err) : NULL;
  if (!program ||
      clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "OpenCL setup failed (%d)\n", (int)err);
    return 1;
  }
  cl_kernel fill = clCreateKernel(program, "fill", &err);
  cl_kernel check = clCreateKernel(program, "check", &err);
  cl_uint zero = 0, unsorted = 1, n = N, first = N / 2;
  cl_mem keys = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(cl_uint),
                               NULL, &err);
  cl_mem flag =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                     sizeof zero, &zero, &err);

  /* The application's kernel fills the keys ... */
  clSetKernelArg(fill, 0, sizeof keys, &keys);
  clSetKernelArg(fill, 1, sizeof n, &n);
  int ok = launch(queue, fill, N);

  /* ... prism sorts the second half in place, on the same queue ... */
  prism_context *ctx = NULL;
  prism_buffer *all = NULL, *half = NULL;
  prism_status st = prism_opencl_context_create(context, device, queue, &ctx);
  if (st == PRISM_OK)
    st = prism_opencl_buffer_wrap(ctx, keys, &all);
  if (st == PRISM_OK)
    st = prism_buffer_view(all, first * sizeof(cl_uint),
                           (N - first) * sizeof(cl_uint), &half);
  if (st == PRISM_OK)
    st = prism_sort_keys(ctx, PRISM_U32, half, half, N - first, NULL);
  if (st != PRISM_OK) {
    fprintf(stderr, "%s: %s\n", prism_status_name(st),
            ctx ? prism_context_last_error(ctx) : prism_last_error());
    return 1;
  }

  /* ... and the application's kernel checks it, all queued; one read at
   * the end waits for everything. */
  clSetKernelArg(check, 0, sizeof keys, &keys);
  clSetKernelArg(check, 1, sizeof first, &first);
  clSetKernelArg(check, 2, sizeof n, &n);
  clSetKernelArg(check, 3, sizeof flag, &flag);
  ok = ok && launch(queue, check, N - first);
  ok = ok && clEnqueueReadBuffer(queue, flag, CL_TRUE, 0, sizeof unsorted,
                                 &unsorted, 0, NULL, NULL) == CL_SUCCESS;
  ok = ok && unsorted == 0;
  printf("%s: %u keys sorted by prism on the application's queue (%s)\n",
         ok ? "ok" : "FAILED", (unsigned)(N - first),
         prism_context_device_name(ctx));

  prism_buffer_destroy(half);
  prism_buffer_destroy(all);
  prism_context_destroy(ctx); /* the application's objects stay its own */
  clReleaseMemObject(flag);
  clReleaseMemObject(keys);
  clReleaseKernel(check);
  clReleaseKernel(fill);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return ok ? 0 : 1;
}
