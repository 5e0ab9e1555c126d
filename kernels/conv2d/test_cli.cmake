# kernels/conv2d/test_cli.cmake — conv2d's own CLI messages (cli_case: tests/run/CMakeLists.txt;
# included by tests/workloads): a partial shape takes the default shape's value for each key it
# leaves out (harness/core/shape.c; it was "missing key 'n'" until all 9 were given).
cli_case(conv2d_partial_shape 0 " n=1 c=64 h=8 w=56 k=64 r=3 s=3 stride=1 pad=1 .* ok" ${G} -w conv2d -i openblas -d cpu -D f32
         -s conv2d:n=1,h=8 --no-out ${T})
