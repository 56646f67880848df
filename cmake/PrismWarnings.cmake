# SPDX-License-Identifier: MIT
# prism_warnings(target): strict warnings for prism's own C code; errors too
# when PRISM_WERROR is on (CI builds).
function(prism_warnings target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes
        -Wmissing-prototypes -Wno-unused-parameter>)
    if(PRISM_WERROR)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Werror>)
    endif()
  endif()
  if(CMAKE_CUDA_COMPILER)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-unused-parameter>)
    if(PRISM_WERROR)
      target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
    endif()
  endif()
endfunction()
