# tests/cpu.cmake
