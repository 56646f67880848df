# SPDX-License-Identifier: MIT
# Check that README.md's "Using it" shows examples/quick.c as it is: its
# first ```c block must equal quick.c from its first #include line on
# (cmake -P):
#   cmake -DREADME=README.md -DSOURCE=examples/quick.c -P check_readme.cmake
if(NOT README OR NOT SOURCE)
  message(FATAL_ERROR "check_readme.cmake: set README and SOURCE")
endif()
file(READ "${README}" readme)
file(READ "${SOURCE}" source)
string(FIND "${readme}" "\n## Using it\n" at)
if(at LESS 0)
  message(FATAL_ERROR "${README} has no \"## Using it\" section")
endif()
string(SUBSTRING "${readme}" ${at} -1 readme)
string(FIND "${readme}" "\n```c\n" at)
if(at LESS 0)
  message(FATAL_ERROR "${README}: no ```c block under \"## Using it\"")
endif()
math(EXPR at "${at} + 6")
string(SUBSTRING "${readme}" ${at} -1 readme)
string(FIND "${readme}" "```\n" end)
string(SUBSTRING "${readme}" 0 ${end} shown)
string(FIND "${source}" "\n#include" at)
math(EXPR at "${at} + 1")
string(SUBSTRING "${source}" ${at} -1 source)
if(NOT shown STREQUAL source)
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/readme-example.c" "${shown}")
  message(FATAL_ERROR "README.md's example differs from ${SOURCE} (from its "
    "first #include on); what README.md shows is in "
    "${CMAKE_CURRENT_BINARY_DIR}/readme-example.c: diff the two")
endif()
