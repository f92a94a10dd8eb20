# Turns data files (GPU catalogue, machine profiles, faults) into a C++ source so the binary
# carries them and runs from any directory. gpuvet_embed_files(TARGET NAME FILES... BASE DIR)
function(gpuvet_embed_files target)
  cmake_parse_arguments(ARG "" "BASE;NAMESPACE" "FILES" ${ARGN})
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_embedded.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DBASE=${ARG_BASE} -DNAMESPACE=${ARG_NAMESPACE}
            "-DFILES=${ARG_FILES}" -P "${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake"
    DEPENDS ${ARG_FILES} "${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake"
    COMMENT "Embedding data files into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
