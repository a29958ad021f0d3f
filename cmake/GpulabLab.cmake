# gpulab_add_lab(<id>): everything CMake builds for one lab, driven by labs/<id>/lab.json:
# the lab driver library the grader links runners against, and the reference and stub runners
# (so CI proves both compile for every configured architecture), for the cuda backend (unless
# GPULAB_CUDA_RUNNERS is off) and, where it is built, the sim backend. Reference runners are
# built where reference/<id> is there: the student kit and the Gradescope autograder have none.

function(gpulab_lab_json_list lab_json key out)
  string(JSON n ERROR_VARIABLE err LENGTH "${lab_json}" ${key})
  set(items "")
  if(NOT err)
    math(EXPR last "${n} - 1")
    if(n GREATER 0)
      foreach(i RANGE ${last})
        string(JSON item GET "${lab_json}" ${key} ${i})
        list(APPEND items "${item}")
      endforeach()
    endif()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

function(gpulab_add_runner name lab_id sources nvcc_flags)
  add_executable(${name} ${sources})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/labs/${lab_id})
  target_compile_options(${name} PRIVATE ${nvcc_flags} ${GPULAB_CUDA_WARNINGS})
  # As the grader links a submission (grader/linked_libraries.h): the driver (whose parts
  # register from static initializers) and the harness whole and before the objects, so that
  # nothing of theirs can be replaced; then again as plain libraries, for what they need.
  target_link_options(${name} BEFORE PRIVATE
    "LINKER:--whole-archive,$<TARGET_FILE:gpulab_driver_${lab_id}>,$<TARGET_FILE:gpulab_harness>,--no-whole-archive")
  target_link_libraries(${name} PRIVATE gpulab_driver_${lab_id} gpulab_harness)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${GPULAB_RUNNER_DIR})
endfunction()

# A runner for the CPU backend: gpulab sim-cc builds the lab's files and links the sim driver,
# harness and runtime whole and before the objects (host compiler options come first), as the
# grader does for a submission.
function(gpulab_add_sim_runner name lab_id sources flags)
  set(out ${GPULAB_RUNNER_DIR}/${name})
  add_custom_command(
    OUTPUT ${out}
    COMMAND gpulab-sim-cc ${flags} -I ${CMAKE_SOURCE_DIR}/labs/${lab_id} ${sources} -o ${out}
            "-Xcompiler=-Xlinker,--whole-archive,-Xlinker,$<TARGET_FILE:gpulab_driver_${lab_id}_sim>,-Xlinker,$<TARGET_FILE:gpulab_harness_sim>,-Xlinker,$<TARGET_FILE:gpulab_sim>,-Xlinker,--no-whole-archive"
    DEPENDS ${sources} ${CMAKE_SOURCE_DIR}/labs/${lab_id}/lab.json gpulab-sim-cc gpulab-sim-rewrite
            gpulab_sim gpulab_driver_${lab_id}_sim gpulab_harness_sim
    COMMENT "gpulab sim-cc: ${name}"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${out})
endfunction()

function(gpulab_add_lab lab_id)
  set(lab_dir ${CMAKE_SOURCE_DIR}/labs/${lab_id})
  file(READ ${lab_dir}/lab.json lab_json)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${lab_dir}/lab.json)
  gpulab_lab_json_list("${lab_json}" student_files files)
  gpulab_lab_json_list("${lab_json}" nvcc_flags flags)
  # The trusted driver: driver.cpp, or lab.json's driver_files (a .cu among them holds the
  # baseline kernel that a speedup is measured against, built with the lab's nvcc flags).
  gpulab_lab_json_list("${lab_json}" driver_files driver_names)
  if(NOT driver_names)
    set(driver_names driver.cpp)
  endif()
  set(driver_cxx "")
  set(driver_cu "")
  foreach(f IN LISTS driver_names)
    if(f MATCHES "\\.cu$")
      list(APPEND driver_cu ${lab_dir}/${f})
    else()
      list(APPEND driver_cxx ${lab_dir}/${f})
    endif()
  endforeach()

  set(ref_sources "")
  set(stub_sources "")
  foreach(f IN LISTS files)
    list(APPEND ref_sources ${CMAKE_SOURCE_DIR}/reference/${lab_id}/${f})
    list(APPEND stub_sources ${lab_dir}/${f})
  endforeach()
  set(with_reference OFF)
  if(EXISTS ${CMAKE_SOURCE_DIR}/reference/${lab_id})
    set(with_reference ON)
  endif()

  if(GPULAB_CUDA_RUNNERS)
    add_library(gpulab_driver_${lab_id} STATIC ${driver_cxx} ${driver_cu})
    target_include_directories(gpulab_driver_${lab_id} PRIVATE ${lab_dir})
    target_compile_options(gpulab_driver_${lab_id} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:${flags};${GPULAB_CUDA_WARNINGS}>")
    target_link_libraries(gpulab_driver_${lab_id} PUBLIC gpulab_harness)
    target_compile_options(gpulab_driver_${lab_id} PRIVATE
      "$<$<COMPILE_LANGUAGE:CXX>:${GPULAB_CXX_WARNINGS}>")
    set_target_properties(gpulab_driver_${lab_id} PROPERTIES ARCHIVE_OUTPUT_DIRECTORY
                                                             ${GPULAB_LIB_DIR})
    if(with_reference)
      gpulab_add_runner(${lab_id}-reference ${lab_id} "${ref_sources}" "${flags}")
    endif()
    gpulab_add_runner(${lab_id}-stub ${lab_id} "${stub_sources}" "${flags}")
  endif()

  if(GPULAB_HAVE_SIM)
    # The driver's .cu files go through gpulab sim-cc, like a student's.
    set(driver_cu_objects "")
    foreach(src IN LISTS driver_cu)
      get_filename_component(stem ${src} NAME_WE)
      set(obj ${CMAKE_CURRENT_BINARY_DIR}/sim-driver/${lab_id}/${stem}.o)
      add_custom_command(
        OUTPUT ${obj}
        COMMAND gpulab-sim-cc ${flags} -I ${lab_dir} -c ${src} -o ${obj}
        DEPENDS ${src} ${lab_dir}/lab.json gpulab-sim-cc gpulab-sim-rewrite
        COMMENT "gpulab sim-cc: ${lab_id}/${stem}.cu for the sim driver"
        VERBATIM)
      list(APPEND driver_cu_objects ${obj})
    endforeach()
    add_library(gpulab_driver_${lab_id}_sim STATIC ${driver_cxx} ${driver_cu_objects})
    target_include_directories(gpulab_driver_${lab_id}_sim PRIVATE ${lab_dir})
    target_link_libraries(gpulab_driver_${lab_id}_sim PUBLIC gpulab_harness_sim)
    target_compile_options(gpulab_driver_${lab_id}_sim PRIVATE ${GPULAB_CXX_WARNINGS})
    set_target_properties(gpulab_driver_${lab_id}_sim PROPERTIES ARCHIVE_OUTPUT_DIRECTORY
                                                                 ${GPULAB_LIB_DIR})
    if(with_reference)
      gpulab_add_sim_runner(${lab_id}-reference-sim ${lab_id} "${ref_sources}" "${flags}")
    endif()
    gpulab_add_sim_runner(${lab_id}-stub-sim ${lab_id} "${stub_sources}" "${flags}")
  endif()
endfunction()
