# kernels/gemm/test_cli.cmake — gemm's own CLI messages (cli_case: tests/run/CMakeLists.txt;
# included by tests/workloads): a shape whose three matrices do not fit in this machine's memory
# is refused before anything is allocated (bench/gemm.c's host_bytes, checked by the plan).
cli_case(gemm_shape_too_big 2 "needs [0-9.]+ GiB of host memory" ${G} -w gemm --shape gemm:m=100000,n=100000,k=100000)
