// CUDA front-end: the C++ standard library's headers, which a prelude PCH may hold (the
// analysed file's leading `#include <...>`) and whose function bodies parses skip.
// Private to analyzer/frontends/cuda.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include <clang/Basic/SourceLocation.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/StringRef.h>

#include "analyzer/frontends/cuda/cuda_frontend.h"

namespace cudalint::cuda::detail {

// Whether `loc` lies in a header of the C++ standard library: a system header at such a path.
// `seen` remembers the answer per file.
bool in_std_library(const clang::SourceManager& sm, clang::SourceLocation loc, std::unordered_map<unsigned, bool>& seen);

// leading_std_includes for the analysed file: includes found as a parse would find them (editor
// buffers first), system headers not followed.
std::string std_includes_of(std::string_view text, llvm::StringRef file, const Options& opts);

}  // namespace cudalint::cuda::detail
