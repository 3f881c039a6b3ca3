// Clang's own headers that system headers include (stddef.h, stdarg.h, stdint.h, ...) and its
// CUDA wrappers of standard headers, embedded at build time (embed_headers.cmake): a cudalint
// binary copied where no LLVM is installed still parses <vector> and <cstdio>.
#pragma once

#include <span>
#include <string_view>

namespace cudalint::cuda {

struct EmbeddedHeader {
  std::string_view path;  // relative to the resource directory's include/
  std::string_view text;
};

std::span<const EmbeddedHeader> clang_resource_headers();

}  // namespace cudalint::cuda
