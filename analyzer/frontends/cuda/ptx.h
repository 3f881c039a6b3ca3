// Inline-PTX instructions from the text of an `asm()` statement.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudalint::cuda {

struct PtxInstruction {
  std::string mnemonic;  // with qualifiers: "cp.async.ca.shared.global", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
  size_t offset = 0;     // byte offset of the mnemonic in the asm text
};

// Splits at `;` and newlines, skips `{`/`}`, labels (`L1:`), predicates (`@p`, `@!p`),
// comments (`//`, `/* */`), directives (`.reg .b32 r;`) and `%`-templated operands. Never
// throws; the input may be any bytes.
std::vector<PtxInstruction> parse_ptx(std::string_view text);

}  // namespace cudalint::cuda
