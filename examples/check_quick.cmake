# SPDX-License-Identifier: MIT
# Run the example and check what it prints (cmake -P):
#   cmake -DEXE=path/to/quick -DEXPECTED=quick.expected -P check_quick.cmake
# stdout must be the lines of EXPECTED and then one line naming the backend
# and device; stderr must be empty (no compiler chatter reaches the user).
if(NOT EXE OR NOT EXPECTED)
  message(FATAL_ERROR "check_quick.cmake: set EXE and EXPECTED")
endif()
execute_process(COMMAND "${EXE}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} failed (${rc}):\n${out}${err}")
endif()
file(READ "${EXPECTED}" expected)
string(LENGTH "${expected}" length)
string(SUBSTRING "${out}" 0 ${length} head)
string(SUBSTRING "${out}" ${length} -1 tail)
if(NOT head STREQUAL expected OR NOT tail MATCHES "^(cuda|opencl) on [^\n]+\n$")
  message(FATAL_ERROR "${EXE} printed:\n${out}expected:\n${expected}"
                      "(cuda|opencl) on DEVICE")
endif()
if(NOT err STREQUAL "")
  message(FATAL_ERROR "${EXE} wrote to stderr:\n${err}")
endif()
message(STATUS "${out}")
