/* select: placeholder until the kernels land. */
#include "cuda_internal.h"

extern "C" prism_status prism__cuda_select(prism_context *ctx,
                                           const prism__select_args *args) {
  (void)args;
  return prism__fail(ctx, PRISM_UNSUPPORTED, "CUDA backend: select not built");
}
