# gpulab_add_lab(<id>): everything CMake builds for one lab, driven by labs/<id>/lab.json:
# the lab driver library the grader links runners against, the lab's build manifest (how a
# runner is built, lib/manifests/<id>.json: grader/sandbox/runner_recipe.h reads it), and the reference
# and stub runners built by that manifest (so CI proves both compile for every configured
# architecture), for the cuda backend (unless GPULAB_CUDA_RUNNERS is off) and, where it is
# built, the sim backend. Reference runners are built where reference/<id> is there: the
# student kit and the Gradescope autograder have none.

# The grader's code that turns a manifest into commands (grader/build/build.h, runner_recipe.h): the
# runners CMake builds through it are built again when it changes (and not when the rest of
# gpulab-build-runner does, which would rebuild every runner at each change to the grader).
set(GPULAB_RUNNER_RECIPE_CODE ${CMAKE_SOURCE_DIR}/grader/build/build.cpp
                              ${CMAKE_SOURCE_DIR}/grader/sandbox/runner_recipe.cpp)

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

# A value as JSON text: a string, and a list of strings (for the build manifest).
function(gpulab_json_string value out)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()
function(gpulab_json_strings out)
  set(items "")
  foreach(v IN LISTS ARGN)
    gpulab_json_string("${v}" q)
    list(APPEND items "${q}")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

# One backend's recipe in the manifest: its compiler, CUDA architectures, the warning flags
# gpulab's own code is compiled with (given to the reference and stub runners alone: see
# grader/sandbox/runner_recipe.h), and the archives linked whole and before the objects, in link order,
# as "role=path" (harness, driver, runtime).
function(gpulab_manifest_backend out compiler architectures warnings)
  gpulab_json_string("${compiler}" c)
  gpulab_json_strings(a ${architectures})
  gpulab_json_strings(w ${warnings})
  set(archives "")
  foreach(entry IN LISTS ARGN)
    string(REPLACE "=" ";" parts "${entry}")
    list(GET parts 0 role)
    list(GET parts 1 path)
    gpulab_json_string("${path}" path)
    list(APPEND archives "{\"role\": \"${role}\", \"path\": ${path}}")
  endforeach()
  list(JOIN archives ", " joined)
  set(${out} "{\"compiler\": ${c}, \"architectures\": ${a}, \"warning_flags\": ${w}, \"link_whole\": [${joined}]}"
      PARENT_SCOPE)
endfunction()

# A runner CMake builds (a reference from reference/<id>, a stub from labs/<id>) is built by
# gpulab-build-runner (grader/build/build_runner_main.cpp): the grader's own function, with the lab's
# manifest, so a student's runner is built by the same commands (tests/unit/runner_recipe_test.cpp
# compares them). It runs again when the sources, the manifest, the linked archives or the
# recipe's code change.
function(gpulab_add_runner name lab_id backend src_dir sources)
  set(out ${GPULAB_RUNNER_DIR}/${name})
  if(backend STREQUAL "sim")
    set(archives gpulab_harness_sim gpulab_driver_${lab_id}_sim gpulab_sim gpulab-sim-cc
                 gpulab-sim-rewrite)
  else()
    set(archives gpulab_harness gpulab_driver_${lab_id})
  endif()
  add_custom_command(
    OUTPUT ${out}
    COMMAND gpulab-build-runner ${lab_id} ${backend} ${src_dir} ${out}
    DEPENDS ${sources} ${GPULAB_LIB_DIR}/manifests/${lab_id}.json ${GPULAB_RUNNER_RECIPE_CODE}
            ${archives}
    COMMENT "gpulab-build-runner: ${name}"
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
  set(driver_paths "")
  foreach(f IN LISTS driver_names)
    list(APPEND driver_paths ${lab_dir}/${f})
  endforeach()
  # reference_driver_files: driver sources kept with the solution (a baseline that would answer
  # another lab), linked in where reference/<id> is there; the student kit has none, and ships
  # the runner that needs them compiled (grader/build/kit_runners.h).
  gpulab_lab_json_list("${lab_json}" reference_driver_files reference_driver_names)
  if(EXISTS ${CMAKE_SOURCE_DIR}/reference/${lab_id})
    foreach(f IN LISTS reference_driver_names)
      list(APPEND driver_paths ${CMAKE_SOURCE_DIR}/reference/${lab_id}/${f})
    endforeach()
  endif()
  set(driver_cxx "")
  set(driver_cu "")
  foreach(f IN LISTS driver_paths)
    if(f MATCHES "\\.cu$")
      list(APPEND driver_cu ${f})
    else()
      list(APPEND driver_cxx ${f})
    endif()
  endforeach()

  set(ref_sources "")
  set(stub_sources "")
  foreach(f IN LISTS files)
    list(APPEND ref_sources ${CMAKE_SOURCE_DIR}/reference/${lab_id}/${f})
    list(APPEND stub_sources ${lab_dir}/${f})
  endforeach()
  set(with_reference OFF)
  # GPULAB_REFERENCE_RUNNERS off (the student preset): none; the grader builds one when it needs it.
  if(GPULAB_REFERENCE_RUNNERS AND EXISTS ${CMAKE_SOURCE_DIR}/reference/${lab_id})
    set(with_reference ON)
  endif()
  # What a runner's files see (the lab's folder, with its interface header): the manifest's
  # include_dirs, which a student's build is given and its sandbox shows.
  set(runner_includes ${lab_dir})
  set(backends "")

  if(GPULAB_CUDA_RUNNERS)
    add_library(gpulab_driver_${lab_id} STATIC ${driver_cxx} ${driver_cu})
    # A driver sees its lab's folder and families/ (what several labs' drivers share).
    target_include_directories(gpulab_driver_${lab_id} PRIVATE ${lab_dir} ${GPULAB_FAMILIES_DIR})
    target_compile_options(gpulab_driver_${lab_id} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:${flags};${GPULAB_CUDA_WARNINGS}>")
    target_link_libraries(gpulab_driver_${lab_id} PUBLIC gpulab_harness)
    target_compile_options(gpulab_driver_${lab_id} PRIVATE
      "$<$<COMPILE_LANGUAGE:CXX>:${GPULAB_CXX_WARNINGS}>")
    set_target_properties(gpulab_driver_${lab_id} PROPERTIES ARCHIVE_OUTPUT_DIRECTORY
                                                             ${GPULAB_LIB_DIR})
    gpulab_manifest_backend(cuda "${CMAKE_CUDA_COMPILER}" "${CMAKE_CUDA_ARCHITECTURES}"
      "${GPULAB_CUDA_WARNINGS}" "harness=$<TARGET_FILE:gpulab_harness>"
      "driver=$<TARGET_FILE:gpulab_driver_${lab_id}>")
    list(APPEND backends "\"cuda\": ${cuda}")
    if(with_reference)
      gpulab_add_runner(${lab_id}-reference ${lab_id} cuda ${CMAKE_SOURCE_DIR}/reference/${lab_id}
                        "${ref_sources}")
    endif()
    gpulab_add_runner(${lab_id}-stub ${lab_id} cuda ${lab_dir} "${stub_sources}")
  endif()

  if(GPULAB_HAVE_SIM)
    # The driver's .cu files go through gpulab sim-cc, like a student's. The runtime's headers
    # are inlined into what it compiles (a launch, an access), so the objects follow them too.
    file(GLOB sim_runtime_headers CONFIGURE_DEPENDS
         ${CMAKE_SOURCE_DIR}/sim/runtime/include/gpulab_sim/*)
    set(driver_cu_objects "")
    foreach(src IN LISTS driver_cu)
      get_filename_component(stem ${src} NAME_WE)
      set(obj ${CMAKE_CURRENT_BINARY_DIR}/sim-driver/${lab_id}/${stem}.o)
      add_custom_command(
        OUTPUT ${obj}
        COMMAND gpulab-sim-cc ${flags} -I ${lab_dir} -I ${GPULAB_FAMILIES_DIR} -c ${src} -o ${obj}
        DEPENDS ${src} ${lab_dir}/lab.json gpulab-sim-cc gpulab-sim-rewrite ${sim_runtime_headers}
        COMMENT "gpulab sim-cc: ${lab_id}/${stem}.cu for the sim driver"
        VERBATIM)
      list(APPEND driver_cu_objects ${obj})
    endforeach()
    add_library(gpulab_driver_${lab_id}_sim STATIC ${driver_cxx} ${driver_cu_objects})
    target_include_directories(gpulab_driver_${lab_id}_sim PRIVATE ${lab_dir} ${GPULAB_FAMILIES_DIR})
    target_link_libraries(gpulab_driver_${lab_id}_sim PUBLIC gpulab_harness_sim)
    target_compile_options(gpulab_driver_${lab_id}_sim PRIVATE ${GPULAB_CXX_WARNINGS})
    set_target_properties(gpulab_driver_${lab_id}_sim PROPERTIES ARCHIVE_OUTPUT_DIRECTORY
                                                                 ${GPULAB_LIB_DIR})
    # No warning flags: gpulab-sim-cc compiles rewritten code, where the host compiler's
    # warnings speak of the rewrite's text rather than the lab's.
    gpulab_manifest_backend(sim "$<TARGET_FILE:gpulab-sim-cc>" "" ""
      "harness=$<TARGET_FILE:gpulab_harness_sim>" "driver=$<TARGET_FILE:gpulab_driver_${lab_id}_sim>"
      "runtime=$<TARGET_FILE:gpulab_sim>")
    list(APPEND backends "\"sim\": ${sim}")
    if(with_reference)
      gpulab_add_runner(${lab_id}-reference-sim ${lab_id} sim ${CMAKE_SOURCE_DIR}/reference/${lab_id}
                        "${ref_sources}")
    endif()
    gpulab_add_runner(${lab_id}-stub-sim ${lab_id} sim ${lab_dir} "${stub_sources}")
  endif()

  # The lab's build manifest, written when the build is generated with every path resolved
  # (docs/GRADING.md, "Building a runner"); rewritten only when its text changes.
  gpulab_json_string("${lab_id}" id)
  gpulab_json_string("${CMAKE_CUDA_STANDARD}" std)
  gpulab_json_strings(includes ${runner_includes})
  gpulab_json_strings(nvcc ${flags})
  list(JOIN backends ", " backends)
  file(GENERATE OUTPUT ${GPULAB_LIB_DIR}/manifests/${lab_id}.json CONTENT
"{\"lab\": ${id}, \"cxx_standard\": ${std}, \"include_dirs\": ${includes}, \"nvcc_flags\": ${nvcc},
 \"backends\": {${backends}}}
")
endfunction()
