/* histogram: placeholder until the kernels land. */
#include "opencl_internal.h"

prism_status prism__cl_histogram(prism_context *ctx,
                                 const prism__histogram_args *args) {
  (void)args;
  return prism__fail(ctx, PRISM_UNSUPPORTED,
                     "OpenCL backend: histogram not built");
}
