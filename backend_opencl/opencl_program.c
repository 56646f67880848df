/* SPDX-License-Identifier: MIT */
/*
 * Programs: embedded sources specialised by -D options, built on first use
 * per context (from the disk cache when it has them, from source when it
 * has not or its binary cannot be used) and kept, with their kernel
 * objects, until the context goes. Kernel launches.
 */
#include "opencl_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void prism__cl_options(char *buf, size_t size, prism_type type, prism_op op,
                       const char *fmt, ...) {
  static const char *const kernel_type[] = {"I32", "U32", "F32", "I64",
                                            "U64", "F64", "U8"};
  static const char *const op_name[] = {"SUM", "MIN", "MAX"};
  /* Signed sums run unsigned so they wrap (same bits, defined overflow). */
  if (op == PRISM_SUM && type == PRISM_I32)
    type = PRISM_U32;
  else if (op == PRISM_SUM && type == PRISM_I64)
    type = PRISM_U64;
  int used = snprintf(buf, size, "-DPRISM_TYPE_%s -DPRISM_OP_%s ",
                      kernel_type[type], op_name[op]);
  if (used < 0 || (size_t)used >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, size - (size_t)used, fmt, ap);
  va_end(ap);
}

static prism__cl_program *find_program(prism__cl *cl,
                                       const prism__cl_source *source,
                                       const char *options) {
  for (prism__cl_program *p = cl->programs; p; p = p->next)
    if (p->source == source && strcmp(p->options, options) == 0)
      return p;
  return NULL;
}

/* The build log, into the context (so prism_context_build_log has it). */
static void keep_build_log(prism_context *ctx, prism__cl *cl,
                           cl_program program) {
  size_t size = 0;
  char *log = NULL;
  if (clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                            &size) == CL_SUCCESS &&
      (log = malloc(size + 1)) != NULL) {
    if (clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, size,
                              log, NULL) != CL_SUCCESS)
      size = 0;
    log[size] = '\0';
  }
  prism__set_build_log(ctx, log ? log : "(no build log)");
  free(log);
}

/* Build the prelude + source from text. #line directives make the build
 * log name the file and line the compiler means. */
static prism_status build_from_source(prism_context *ctx, prism__cl *cl,
                                      const prism__cl_source *source,
                                      const char *options, cl_program *out) {
  const prism__cl_source *prelude[PRISM_CL_MAX_PRELUDE + 1]; /* and source */
  const size_t parts = prism__cl_prelude(source, prelude) + 1;
  prelude[parts - 1] = source;
  char lines[PRISM_CL_MAX_PRELUDE + 1][128];
  const char *texts[2 * (PRISM_CL_MAX_PRELUDE + 1)];
  size_t sizes[2 * (PRISM_CL_MAX_PRELUDE + 1)];
  for (size_t i = 0; i < parts; i++) {
    if (!prelude[i])
      return prism__fail(ctx, PRISM_INTERNAL, "a prelude of %s is not embedded",
                         source->name);
    snprintf(lines[i], sizeof lines[i], "\n#line 1 \"%s\"\n", prelude[i]->name);
    texts[2 * i] = lines[i];
    sizes[2 * i] = strlen(lines[i]);
    texts[2 * i + 1] = prelude[i]->text;
    sizes[2 * i + 1] = prelude[i]->size;
  }
  cl_int err;
  cl_program program = clCreateProgramWithSource(
      cl->context, (cl_uint)(2 * parts), texts, sizes, &err);
  if (!program)
    return prism__cl_fail(ctx, err, "clCreateProgramWithSource(%s)",
                          source->name);
  err = clBuildProgram(program, 1, &cl->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    keep_build_log(ctx, cl, program);
    clReleaseProgram(program);
    if (err != CL_BUILD_PROGRAM_FAILURE && err != CL_INVALID_BUILD_OPTIONS)
      return prism__cl_fail(ctx, err, "clBuildProgram(%s, \"%s\")",
                            source->name, options);
    return prism__fail_native(ctx, PRISM_BUILD_FAILED, err,
                              "building %s with \"%s\" failed on %s: %s "
                              "(see prism_context_build_log)",
                              source->name, options, cl->device_name,
                              prism__cl_error_name(err));
  }
  *out = program;
  return PRISM_OK;
}

/* Build from source and store the binary over the cache's entry. */
static prism_status build_and_store(prism_context *ctx, prism__cl *cl,
                                    const prism__cl_source *source,
                                    const char *options, cl_program *out) {
  prism_status st = build_from_source(ctx, cl, source, options, out);
  if (st == PRISM_OK)
    prism__cl_disk_cache_store(cl, source, options, *out);
  return st;
}

static prism_status get_program(prism_context *ctx, prism__cl *cl,
                                const char *file, const char *options,
                                prism__cl_program **out) {
  const prism__cl_source *source = prism__cl_find_source(file);
  if (!source)
    return prism__fail(ctx, PRISM_INTERNAL, "%s is not embedded", file);
  prism__cl_program *p = find_program(cl, source, options);
  if (p) {
    *out = p;
    return PRISM_OK;
  }
  p = calloc(1, sizeof *p);
  char *copy = malloc(strlen(options) + 1);
  if (!p || !copy) {
    free(p);
    free(copy);
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "out of host memory");
  }
  strcpy(copy, options);
  p->source = source;
  p->options = copy;
  /* A cached binary the driver refuses is a miss: the build from source
   * replaces the entry, and if that build fails too the entry stays. */
  p->program = prism__cl_disk_cache_load(cl, source, options);
  p->from_cache = p->program != NULL;
  if (!p->program) {
    prism_status st = build_and_store(ctx, cl, source, options, &p->program);
    if (st != PRISM_OK) {
      free(copy);
      free(p);
      return st;
    }
  }
  p->next = cl->programs;
  cl->programs = p;
  *out = p;
  return PRISM_OK;
}

/* A kernel could not be made from a program the disk cache gave, though
 * the load checked its kernel names: trust the binary no more. Build from
 * source, remake the kernels made so far and store over the entry. The
 * cached program and its kernels live on until the context goes: the
 * primitive asking may hold some of them already (reduce takes
 * reduce_partials, then reduce_final). */
static prism_status replace_cached_program(prism_context *ctx, prism__cl *cl,
                                           prism__cl_program *p) {
  cl_program program;
  prism_status st = build_and_store(ctx, cl, p->source, p->options, &program);
  if (st != PRISM_OK)
    return st;
  cl_kernel fresh[PRISM_CL_MAX_KERNELS] = {0};
  for (int i = 0; i < PRISM_CL_MAX_KERNELS && p->kernel_names[i]; i++) {
    cl_int err;
    const char *name = p->kernel_names[i];
    if ((fresh[i] = clCreateKernel(program, name, &err)) == NULL) {
      while (i-- > 0)
        clReleaseKernel(fresh[i]);
      clReleaseProgram(program);
      return prism__cl_fail(ctx, err, "clCreateKernel(%s in %s)", name,
                            p->source->name);
    }
  }
  p->replaced = p->program;
  memcpy(p->replaced_kernels, p->kernels, sizeof p->kernels);
  p->program = program;
  memcpy(p->kernels, fresh, sizeof fresh);
  p->from_cache = 0;
  return PRISM_OK;
}

prism_status prism__cl_kernel(prism_context *ctx, const char *file,
                              const char *options, const char *name,
                              cl_kernel *out) {
  prism__cl *cl = prism__cl_of(ctx);
  prism__cl_program *p = NULL;
  prism_status st = get_program(ctx, cl, file, options, &p);
  if (st != PRISM_OK)
    return st;
  int slot = 0;
  for (; slot < PRISM_CL_MAX_KERNELS && p->kernel_names[slot]; slot++)
    if (strcmp(p->kernel_names[slot], name) == 0) {
      *out = p->kernels[slot];
      return PRISM_OK;
    }
  if (slot == PRISM_CL_MAX_KERNELS)
    return prism__fail(ctx, PRISM_INTERNAL,
                       "%s: more than %d kernels asked for", file,
                       PRISM_CL_MAX_KERNELS);
  cl_int err;
  cl_kernel k = clCreateKernel(p->program, name, &err);
  if (!k && p->from_cache) {
    if ((st = replace_cached_program(ctx, cl, p)) != PRISM_OK)
      return st;
    k = clCreateKernel(p->program, name, &err);
  }
  if (!k)
    return prism__cl_fail(ctx, err, "clCreateKernel(%s in %s)", name, file);
  p->kernel_names[slot] = name;
  p->kernels[slot] = k;
  *out = k;
  return PRISM_OK;
}

/* The program that made kernel (or made it before a rebuild replaced it)
 * and the kernel's slot there, or NULL. */
static prism__cl_program *program_of(prism__cl *cl, cl_kernel kernel,
                                     int *slot) {
  for (prism__cl_program *p = cl->programs; p; p = p->next)
    for (int i = 0; i < PRISM_CL_MAX_KERNELS && p->kernel_names[i]; i++)
      if (p->kernels[i] == kernel || p->replaced_kernels[i] == kernel) {
        *slot = i;
        return p;
      }
  return NULL;
}

#define VIEWS_OPTION "-DPRISM_VIEWS"

/* The kernel of the same name from the PRISM_VIEWS build of its program's
 * options (kernel itself when its program has them). */
static prism_status views_kernel(prism_context *ctx, cl_kernel *kernel,
                                 const char *name) {
  int slot = 0;
  prism__cl_program *p = program_of(prism__cl_of(ctx), *kernel, &slot);
  if (!p)
    return prism__fail(ctx, PRISM_INTERNAL,
                       "%s: a kernel of no program of the context", name);
  if (strstr(p->options, VIEWS_OPTION))
    return PRISM_OK;
  char options[1024];
  int used = snprintf(options, sizeof options, "%s " VIEWS_OPTION, p->options);
  if (used < 0 || (size_t)used >= sizeof options)
    return prism__fail(ctx, PRISM_INTERNAL, "%s: build options too long", name);
  return prism__cl_kernel(ctx, p->source->name, options, p->kernel_names[slot],
                          kernel);
}

prism_status prism__cl_launch(prism_context *ctx, cl_kernel kernel,
                              const char *name, const prism__cl_arg *args,
                              unsigned nargs, size_t global, size_t local) {
  for (unsigned i = 0; i < nargs; i++)
    if (args[i].view_offset && *(const cl_ulong *)args[i].value != 0) {
      prism_status st = views_kernel(ctx, &kernel, name);
      if (st != PRISM_OK)
        return st;
      break;
    }
  /* Arguments persist on a kernel object between launches: a list one
   * short would run with the last call's value in that slot. */
  cl_uint want = 0;
  cl_int info =
      clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof want, &want, NULL);
  if (info != CL_SUCCESS)
    return prism__cl_fail(ctx, info, "clGetKernelInfo(%s)", name);
  if (want != nargs)
    return prism__fail(ctx, PRISM_INTERNAL,
                       "%s takes %u arguments, the launch passed %u", name,
                       (unsigned)want, nargs);
  for (unsigned i = 0; i < nargs; i++) {
    cl_int err = clSetKernelArg(kernel, i, args[i].size, args[i].value);
    if (err != CL_SUCCESS)
      return prism__cl_fail(ctx, err, "clSetKernelArg(%s, %u)", name, i);
  }
  cl_int err = clEnqueueNDRangeKernel(prism__cl_of(ctx)->queue, kernel, 1, NULL,
                                      &global, &local, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err,
                          "clEnqueueNDRangeKernel(%s, %zu work-items in "
                          "groups of %zu)",
                          name, global, local);
  return PRISM_OK;
}

void prism__cl_programs_release(prism__cl *cl) {
  prism__cl_program *p = cl->programs;
  while (p) {
    prism__cl_program *next = p->next;
    for (int i = 0; i < PRISM_CL_MAX_KERNELS && p->kernel_names[i]; i++)
      clReleaseKernel(p->kernels[i]);
    clReleaseProgram(p->program);
    for (int i = 0; i < PRISM_CL_MAX_KERNELS && p->replaced_kernels[i]; i++)
      clReleaseKernel(p->replaced_kernels[i]);
    if (p->replaced)
      clReleaseProgram(p->replaced);
    free(p->options);
    free(p);
    p = next;
  }
  cl->programs = NULL;
}
