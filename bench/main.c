/*
 * prism-bench: times prism's primitives on one or more devices, verifies
 * every result against serial C, and sets each time beside references
 * measured in the same run (the device's copy bandwidth; serial C on CPU
 * devices; CUB on NVIDIA devices). See `prism-bench --help`.
 */
#include "measure.h"
#include "options.h"
#include "report.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEVICES 16

/* One context to open: from the environment, or from explicit options. */
typedef struct context_spec {
  int from_env;
  prism_context_options options;
  char label[160];
} context_spec;

static int contains_ci(const char *haystack, const char *needle) {
  size_t n = strlen(needle);
  for (; *haystack; haystack++) {
    size_t i = 0;
    while (i < n && tolower((unsigned char)haystack[i]) ==
                        tolower((unsigned char)needle[i]))
      i++;
    if (i == n)
      return 1;
  }
  return 0;
}

static void add_spec(context_spec *specs, int *count, prism_backend backend,
                     int device, const char *platform) {
  if (*count == MAX_DEVICES)
    return;
  context_spec *s = &specs[(*count)++];
  memset(s, 0, sizeof *s);
  prism_context_options_init(&s->options);
  s->options.backend = backend;
  s->options.device = device < 0 ? 0 : device;
  s->options.opencl_platform = platform;
  snprintf(s->label, sizeof s->label, "--backend %s%s%s --device %d",
           prism_backend_name(backend), platform ? " --opencl-platform " : "",
           platform ? platform : "", s->options.device);
}

/* --backend x --opencl-platform; the environment when neither nor --device
 * is given. --opencl-platform alone means OpenCL. */
static int context_specs(const bench_options *opt, context_spec *specs) {
  int count = 0;
  if (opt->backend_count == 0 && opt->platform_count == 0 && opt->device < 0) {
    memset(&specs[0], 0, sizeof specs[0]);
    specs[0].from_env = 1;
    snprintf(specs[0].label, sizeof specs[0].label, "the environment's choice");
    return 1;
  }
  prism_backend only_opencl[] = {PRISM_BACKEND_OPENCL};
  prism_backend only_auto[] = {PRISM_BACKEND_AUTO};
  const prism_backend *backends = opt->backends;
  int backend_count = opt->backend_count;
  if (backend_count == 0) {
    backends = opt->platform_count ? only_opencl : only_auto;
    backend_count = 1;
  }
  for (int b = 0; b < backend_count; b++) {
    if (backends[b] == PRISM_BACKEND_CUDA || opt->platform_count == 0) {
      add_spec(specs, &count, backends[b], opt->device, NULL);
      continue;
    }
    for (int p = 0; p < opt->platform_count; p++)
      add_spec(specs, &count, backends[b], opt->device, opt->platforms[p]);
  }
  return count;
}

static int same_device(const bench_device *a, prism_context *ctx) {
  return prism_context_backend(a->ctx) == prism_context_backend(ctx) &&
         strcmp(a->name, prism_context_device_name(ctx)) == 0 &&
         strcmp(a->platform, prism_context_platform_name(ctx)) == 0;
}

/* Open every spec's context; a backend or device this machine lacks is a
 * note, any other failure also fails the run. */
static int open_devices(const bench_options *opt, bench_device *devices,
                        int *exit_code) {
  context_spec specs[MAX_DEVICES];
  int spec_count = context_specs(opt, specs);
  int count = 0;
  for (int i = 0; i < spec_count; i++) {
    prism_context *ctx = NULL;
    prism_status st = prism_context_create(
        specs[i].from_env ? NULL : &specs[i].options, &ctx);
    if (st != PRISM_OK) {
      if (st == PRISM_BACKEND_UNAVAILABLE || st == PRISM_DEVICE_NOT_FOUND) {
        report_note("skipped %s: %s", specs[i].label, prism_last_error());
      } else {
        fprintf(stderr, "prism-bench: cannot open %s: %s: %s\n", specs[i].label,
                prism_status_name(st), prism_last_error());
        *exit_code = BENCH_EXIT_FAILED;
      }
      continue;
    }
    int duplicate = 0;
    for (int d = 0; d < count; d++)
      duplicate |= same_device(&devices[d], ctx);
    if (duplicate) {
      report_note("%s opens a device already measured", specs[i].label);
      prism_context_destroy(ctx);
      continue;
    }
    bench_device *dev = &devices[count++];
    memset(dev, 0, sizeof *dev);
    dev->ctx = ctx;
    dev->backend = prism_backend_name(prism_context_backend(ctx));
    dev->name = prism_context_device_name(ctx);
    dev->platform = prism_context_platform_name(ctx);
    dev->is_cpu = prism_context_is_cpu(ctx);
    dev->is_nvidia = prism_context_backend(ctx) == PRISM_BACKEND_CUDA ||
                     contains_ci(dev->platform, "nvidia");
  }
  return count;
}

/* Every case of one primitive on one device: type x op x kind x order x
 * values x n, with only the parameters the primitive uses varied. */
static void run_primitive(bench_run *run, bench_device *dev,
                          const bench_options *opt, const bench_primitive *p) {
  size_t ns[OPTIONS_MAX_ITEMS];
  int n_count = options_sizes(opt, dev->is_cpu, ns, OPTIONS_MAX_ITEMS);
  int op_count = p->uses & BENCH_USES_OP ? opt->op_count : 1;
  int kind_count = p->uses & BENCH_USES_KIND ? opt->kind_count : 1;
  int order_count = p->uses & BENCH_USES_ORDER ? opt->order_count : 1;
  int value_count = p->uses & BENCH_USES_VALUES ? opt->value_size_count : 1;
  for (int t = 0; t < opt->type_count; t++) {
    for (int o = 0; o < op_count; o++) {
      for (int k = 0; k < kind_count; k++) {
        for (int r = 0; r < order_count; r++) {
          for (int v = 0; v < value_count; v++) {
            for (int i = 0; i < n_count; i++) {
              bench_case c;
              memset(&c, 0, sizeof c);
              c.type = opt->types[t];
              c.op = opt->ops[o];
              c.kind = opt->kinds[k];
              if (p->uses & BENCH_USES_ORDER)
                c.order = opt->orders[r];
              if (p->uses & BENCH_USES_VALUES)
                c.value_size = opt->value_sizes[v];
              if (p->uses & BENCH_USES_BITS) {
                c.begin_bit = opt->begin_bit;
                c.end_bit = opt->end_bit;
              }
              c.n = ns[i];
              measure_case(run, dev, p, &c);
            }
          }
        }
      }
    }
  }
}

int main(int argc, char **argv) {
  bench_options opt;
  int rc = options_parse(argc, argv, &opt);
  if (rc >= 0)
    return rc;

  int exit_code = BENCH_EXIT_OK;
  bench_device devices[MAX_DEVICES];
  int count = open_devices(&opt, devices, &exit_code);
  if (count == 0) {
    fprintf(stderr, "prism-bench: no device to measure\n");
    return BENCH_EXIT_FAILED;
  }

  report_device header[MAX_DEVICES];
  for (int i = 0; i < count; i++) {
    report_device h = {devices[i].backend, devices[i].name, devices[i].platform,
                       devices[i].is_cpu};
    header[i] = h;
#ifndef PRISM_BENCH_HAVE_CUB
    if (devices[i].is_nvidia)
      report_note("no CUB rows: prism-bench was built without CUDA");
#endif
  }
  report_begin(opt.format, header, count, opt.reps);

  bench_run *run = measure_begin(&opt);
  if (!run) {
    fprintf(stderr, "prism-bench: out of host memory\n");
    return BENCH_EXIT_FAILED;
  }
  for (int d = 0; d < count; d++) {
    measure_copy(run, &devices[d]);
    for (int p = 0; p < opt.primitive_count; p++)
      run_primitive(run, &devices[d], &opt, opt.primitives[p]);
  }
  if (measure_end(run) != BENCH_EXIT_OK)
    exit_code = BENCH_EXIT_FAILED;
  report_end();

  for (int d = 0; d < count; d++)
    prism_context_destroy(devices[d].ctx);
  return exit_code;
}
