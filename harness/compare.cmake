# harness/compare.cmake — sources of `gpubench compare`.
