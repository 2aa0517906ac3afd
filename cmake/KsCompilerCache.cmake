# ccache for every compiler (C, C++, CUDA) when it is installed; KS_CCACHE=OFF turns it off.
#
# A fresh clone in another folder reuses what any earlier build on the machine compiled: ccache's
# base_dir is this source tree (absolute paths under it are hashed as relative ones) and the
# working directory is left out of the hash (hash_dir), which RelWithDebInfo's -g otherwise adds.
# CCACHE_DIR and the size limit are the user's (ccache's defaults: ~/.cache/ccache, 5 GB).
option(KS_CCACHE "Compile through ccache when it is installed" ON)
if(NOT KS_CCACHE)
  return()
endif()
find_program(KS_CCACHE_PROGRAM ccache)
if(NOT KS_CCACHE_PROGRAM)
  return()
endif()
foreach(_lang C CXX CUDA)
  if(NOT DEFINED CMAKE_${_lang}_COMPILER_LAUNCHER)
    set(CMAKE_${_lang}_COMPILER_LAUNCHER
        "${CMAKE_COMMAND};-E;env;CCACHE_BASEDIR=${CMAKE_CURRENT_SOURCE_DIR};CCACHE_NOHASHDIR=1;${KS_CCACHE_PROGRAM}")
  endif()
endforeach()
