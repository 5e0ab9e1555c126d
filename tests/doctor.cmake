# tests/doctor.cmake — `gpubench doctor`: the verdict table on cards and toolkits we do not have,
# the facts tables, cuda_explain on every error name and SPEC parsing (label `unit`); the CMake
# default architecture lists against the facts table (label `unit`); the real command on this
# GPU-less machine and --assume cases, good and bad (label `cli`).

# Unit tests link only the doctor's pure sources, so they build even while other parts of the
# tree are being written.
add_executable(test_doctor ${CMAKE_CURRENT_SOURCE_DIR}/test_doctor.c
               ${CMAKE_SOURCE_DIR}/harness/cuda_facts.c ${CMAKE_SOURCE_DIR}/harness/cuda_explain.c
               ${CMAKE_SOURCE_DIR}/harness/doctor_verdict.c
               ${CMAKE_SOURCE_DIR}/harness/doctor_spec.c)
target_include_directories(test_doctor PRIVATE ${CMAKE_SOURCE_DIR})
if(MATH_LIB)
  target_link_libraries(test_doctor PRIVATE ${MATH_LIB})
endif()
add_test(NAME doctor_units COMMAND test_doctor)
add_test(NAME doctor_cmake_agree
         COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR} -DTEST=$<TARGET_FILE:test_doctor>
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/doctor_cmake_agree.cmake)
set_tests_properties(doctor_units doctor_cmake_agree PROPERTIES LABELS unit TIMEOUT 60)

# The command under test: the real binary (harness/main.c dispatches `doctor` to doctor_main).
set(DOCTOR $<TARGET_FILE:gpubench> doctor)

# doctor_cli(name [--nogpu] rc [-e regex]... [-x regex]... -- args...): see doctor_cli_case.sh.
function(doctor_cli name)
  list(FIND ARGN "--" sep)
  list(SUBLIST ARGN 0 ${sep} checks)
  math(EXPR first "${sep} + 1")
  set(args "")
  list(LENGTH ARGN n)
  if(first LESS n)
    list(SUBLIST ARGN ${first} -1 args)
  endif()
  add_test(NAME doctor_cli_${name}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/doctor_cli_case.sh ${checks} -- ${DOCTOR}
                   ${args})
  set_tests_properties(doctor_cli_${name} PROPERTIES LABELS cli TIMEOUT 60 SKIP_RETURN_CODE 77)
endfunction()

# The real machine (no NVIDIA driver here): says so, lists the build, exits 1.
if(GPUBENCH_HAVE_CUDA)
  string(REPLACE ";" "." doctor_archs_re "${GPUBENCH_CUDA_ARCHS}") # '.' matches the ';'
  set(doctor_build_re "build +CUDA ${GPUBENCH_CUDA_VERSION}, SASS [0-9].*CMake: ${doctor_archs_re}")
  set(doctor_why_re "No NVIDIA driver is loaded")
else()
  set(doctor_build_re "build +without CUDA")
  set(doctor_why_re "built without CUDA, so it uses no GPU")
endif()
doctor_cli(no_driver --nogpu 1 -e "NVIDIA driver +not loaded" -e "${doctor_why_re}"
           -e "${doctor_build_re}" -e "OpenBLAS +[0-9]+\\.[0-9]+.*core [A-Za-z0-9]+, [0-9]+ threads"
           -e "topology +[0-9]+ package" -e "no GPU is usable by this build" --)
doctor_cli(no_driver_json --nogpu 1 -e "\"driver_loaded\": false" -e "\"gpus\": \\[\\]"
           -e "\"usable\": 0" -- --format json)

# Hypothetical cards against hypothetical builds (the CMake default lists; spaces separate the
# architectures as well as ';' does).
set(B13 "cuda=13.0,archs=75-real 80-real 86-real 89-real 90-real 100-real 120,cublas=yes,cudnn=9.19")
set(B11 "cuda=11.8,archs=35-real 37-real 50-real 60-real 70-real 75-real 80-real 86-real 89-real 90,cublas=yes,cudnn=8.9")
set(B8 "cuda=8.0,archs=20-real 30-real 35-real 50-real 60,cublas=yes,cudnn=none")
set(K40M "cc=3.5,name=\"Tesla K40m\",mem=12GiB,driver=470.82")
set(NVS310 "cc=2.1,name=\"NVS 310\",mem=512MiB,driver=390.157")
doctor_cli(assume_k40m_cuda13 1 -e "Assumed GPU +Tesla K40m" -e "verdict +not usable"
           -e "no code for sm_35 \\(built for 75 80 86 89 90 100 120 \\+ PTX 120, which a 3.5 device cannot JIT\\)"
           -e "CUDA 13.0 cannot target Kepler: rebuild with CUDA 11.8: cmake -B build -DCMAKE_CUDA_ARCHITECTURES=35"
           -e "last driver branch R470" -e "cudnn: +no" -- --assume ${K40M} --assume-build ${B13})
doctor_cli(assume_k40m_cuda118 0 -e "verdict +usable$" -e "SASS sm_35" -e "cublas: yes"
           -e "cudnn: +no - cuDNN 8.9 supports sm_50" -e "1 of 1 GPU usable"
           -- --assume ${K40M} --assume-build ${B11})
doctor_cli(assume_nvs310_cuda8 0 -e "verdict +usable$" -e "SASS sm_20\\) for sm_21"
           -e "cudnn: +no - this build has no cuDNN" -- --assume ${NVS310} --assume-build ${B8})
doctor_cli(assume_nvs310_cuda13 1 -e "rebuild with CUDA 8.0" -e "ARCHITECTURES=20" -e "R390"
           -- --assume ${NVS310} --assume-build ${B13})
doctor_cli(assume_old_driver 1 -e "supports CUDA up to 12.2" -e "Update the driver to 580.65.06"
           -- --assume cc=8.9,name=RTX4090,driver=535.54.03 --assume-build ${B13})
doctor_cli(assume_jit 0 -e "usable via PTX JIT" -e "compute_90" -e "first launch"
           -- --assume cc=12.0,name=RTX5090,driver=570.26 --assume-build ${B11})
doctor_cli(assume_two 0 -e "1 of 2 GPUs usable" -e "Assumed GPU +T4"
           -- --assume ${K40M} --assume cc=7.5,name=T4,driver=580.95.05 --assume-build ${B13})
doctor_cli(assume_json 1 -e "\"schema\": \"gpubench-doctor-1\"" -e "\"verdict\": \"not usable\""
           -e "\"fix\": \"CUDA 13.0 cannot target Kepler" -e "\"usable\": 0"
           -- --assume ${K40M} --assume-build ${B13} --format json)
doctor_cli(assume_this_build 1 -e "Assumed GPU +NVS 310" -e "verdict +not usable"
           -- --assume ${NVS310})
doctor_cli(help 0 -e "^usage: gpubench doctor" -e "--assume SPEC" -- --help)

# Usage errors: exit 2, one line naming the bad argument or key.
doctor_cli(bad_key 2 -e "--assume: unknown key 'foo'" -- --assume cc=3.5,foo=1)
doctor_cli(bad_cc 2 -e "--assume: bad value for cc: '3'" -- --assume cc=3)
doctor_cli(missing_cc 2 -e "--assume: missing key cc" -- --assume name=x)
doctor_cli(bad_mem 2 -e "--assume: bad value for mem: '12XB'" -- --assume cc=3.5,mem=12XB)
doctor_cli(bad_driver 2 -e "--assume: bad value for driver: 'new'" -- --assume cc=3.5,driver=new)
doctor_cli(bad_quote 2 -e "--assume: unterminated quote" -- --assume "cc=3.5,name=\"K40")
doctor_cli(bad_build 2 -e "--assume-build: bad value for archs: bad architecture '35-foo'"
           -- --assume cc=3.5 --assume-build archs=35-foo)
doctor_cli(bad_build_key 2 -e "--assume-build: unknown key 'toolkit'"
           -- --assume-build toolkit=11.8)
doctor_cli(missing_spec 2 -e "--assume needs a SPEC" -- --assume)
doctor_cli(bad_format 2 -e "--format: unknown format 'xml'" -- --format xml)
doctor_cli(unknown_arg 2 -e "unknown argument '--bogus'" -- --bogus)

# --format json must be valid JSON, for the real machine and for assumed devices.
find_program(DOCTOR_PYTHON3 python3)
if(DOCTOR_PYTHON3)
  foreach(case real assumed)
    if(case STREQUAL real)
      set(json_args "--format json")
    else()
      set(json_args "--format json --assume cc=3.5,name='\"K40m, 12 GB\"' --assume cc=8.9,driver=none")
    endif()
    string(REPLACE ";" " " doctor_cmd "${DOCTOR}")
    add_test(NAME doctor_cli_json_valid_${case}
             COMMAND sh -c "${doctor_cmd} ${json_args} | ${DOCTOR_PYTHON3} -m json.tool >/dev/null")
    set_tests_properties(doctor_cli_json_valid_${case} PROPERTIES LABELS cli TIMEOUT 60)
  endforeach()
endif()

# The toolkit's stub libcuda.so on the library path (a common mistake) is "no driver", not "driver
# too old": cudaErrorStubLibrary, explained as such.
if(GPUBENCH_HAVE_CUDA AND EXISTS "${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so")
  string(REPLACE ";" " " doctor_cmd "${DOCTOR}")
  add_test(NAME doctor_cli_stub_library
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/doctor_cli_case.sh --nogpu 1
                   -e "cudaErrorStubLibrary" -e "stub libcuda.so" -e "LD_LIBRARY_PATH" --
                   sh -c "d=$(mktemp -d) && ln -s ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so $d/libcuda.so.1 && LD_LIBRARY_PATH=$d ${doctor_cmd}; rc=$?; rm -rf $d; exit $rc")
  set_tests_properties(doctor_cli_stub_library PROPERTIES LABELS cli TIMEOUT 60
                       SKIP_RETURN_CODE 77)
endif()
