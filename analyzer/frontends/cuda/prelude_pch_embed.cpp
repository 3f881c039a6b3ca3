// The prelude PCH that the build step (prelude_pch_main.cpp) wrote, embedded in the program as
// read-only data.
#include "analyzer/frontends/cuda/cuda_frontend.h"

#ifndef CUDALINT_PRELUDE_PCH_FILE
#error "CUDALINT_PRELUDE_PCH_FILE: the file cudalint_prelude_pch wrote"
#endif

// .incbin keeps the ~1 MB out of the compiler's front-end (an array initialiser that size is slow
// to compile); the symbols bracket the bytes.
__asm__(
    ".section .rodata.cudalint_prelude_pch,\"a\",@progbits\n"
    ".balign 64\n"
    ".globl cudalint_prelude_pch_begin\n.hidden cudalint_prelude_pch_begin\n"
    ".globl cudalint_prelude_pch_end\n.hidden cudalint_prelude_pch_end\n"
    "cudalint_prelude_pch_begin:\n"
    ".incbin \"" CUDALINT_PRELUDE_PCH_FILE "\"\n"
    "cudalint_prelude_pch_end:\n"
    ".previous\n");
extern "C" const char cudalint_prelude_pch_begin[];
extern "C" const char cudalint_prelude_pch_end[];

namespace cudalint::cuda {

std::string_view embedded_prelude_pch() {
  return {cudalint_prelude_pch_begin, static_cast<size_t>(cudalint_prelude_pch_end - cudalint_prelude_pch_begin)};
}

}  // namespace cudalint::cuda
