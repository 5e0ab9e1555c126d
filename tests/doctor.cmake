# tests/doctor.cmake
