// Inline-PTX splitter: any bytes; offsets inside the text and mnemonics found there.
#include "analyzer/frontends/cuda/ptx.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(ptx) {
  using namespace cudalint;
  std::string_view text = fuzz::as_text(data, size);
  for (const auto& in : cuda::parse_ptx(text)) {
    CUDALINT_FUZZ_CHECK(!in.mnemonic.empty());
    CUDALINT_FUZZ_CHECK(in.offset < size);
    CUDALINT_FUZZ_CHECK(text.substr(in.offset, in.mnemonic.size()) == in.mnemonic);
  }
  return 0;
}
