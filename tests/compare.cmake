# tests/compare.cmake
