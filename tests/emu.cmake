# tests/emu.cmake
