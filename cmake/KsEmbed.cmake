# ks_embed_text(TARGET NAMESPACE ns FILES a.cuh ...): each file's text compiled into TARGET as
# `extern const char k<Name>[]` in namespace `ns` (a_b.cuh -> kAB...: algorithm_support.cuh ->
# kAlgorithmSupport), regenerated when a file changes. Device code that NVRTC compiles at run time
# stays in .cuh files, highlighted, checked and diffed as code. A file's header comment, the lines
# up to its first blank line, is left out of the text.
function(ks_embed_text target)
  cmake_parse_arguments(E "" "NAMESPACE;NAME" "FILES" ${ARGN})
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded/${E_NAME}.cpp")
  string(REPLACE ";" "|" files "${E_FILES}")
  add_custom_command(OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" "-DOUT=${out}" "-DNAMESPACE=${E_NAMESPACE}" "-DFILES=${files}"
            -P "${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake"
    DEPENDS ${E_FILES} "${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake"
    COMMENT "Embedding ${E_NAME}" VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
