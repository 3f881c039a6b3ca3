// Build step: precompiles cudalint's CUDA prelude for the default flags and writes "KEY\0PCH"
// to the file named on the command line, which prelude_pch_embed.cpp embeds in the program. A
// one-file run (an editor save, a pre-commit hook) then reads the prelude's declarations from
// the PCH instead of parsing its text for every arch, without a cache on disk.
#include <cstdio>

#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/frontends/cuda/features.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
    return 2;
  }
  auto [key, pch] = cudalint::cuda::precompile_default_prelude(cudalint::cuda::FeatureTable::builtin());
  if (pch.empty()) {
    std::fprintf(stderr, "cudalint_prelude_pch: Clang could not precompile the prelude\n");
    return 1;
  }
  std::string out = key;
  out += '\0';
  out += pch;
  std::FILE* f = std::fopen(argv[1], "wb");
  if (!f || std::fwrite(out.data(), 1, out.size(), f) != out.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "cudalint_prelude_pch: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
