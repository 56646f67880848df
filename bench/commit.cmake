# SPDX-License-Identifier: MIT
# Writes OUTPUT, a header that defines PRISM_BENCH_COMMIT as
# `git describe --always --dirty` of SOURCE_DIR ("unknown" without git or
# outside a checkout). Run at every build (a result names the commit it was
# built from, not the one configured), it rewrites the header only when the
# text changes, so meta.c recompiles only then.
set(commit unknown)
if(GIT)
  execute_process(COMMAND ${GIT} describe --always --dirty
    WORKING_DIRECTORY ${SOURCE_DIR}
    OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND described)
    set(commit ${described})
  endif()
endif()
set(text "#define PRISM_BENCH_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
