/* select: placeholder until the kernels land. */
#include "opencl_internal.h"

prism_status prism__cl_select(prism_context *ctx,
                              const prism__select_args *args) {
  (void)args;
  return prism__fail(ctx, PRISM_UNSUPPORTED,
                     "OpenCL backend: select not built");
}
