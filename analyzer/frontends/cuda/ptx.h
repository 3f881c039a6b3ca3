// Inline-PTX instructions from the text of an `asm()` statement.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudalint::cuda {

struct PtxInstruction {
  // The opcode with its qualifiers as written: "cp.async.ca.shared.global",
  // "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32". Table rows match it by the longest
  // dotted prefix.
  std::string mnemonic;
  std::string opcode;                   // "cp", "mma", "wgmma" (before the first '.')
  std::vector<std::string> qualifiers;  // "async", "ca", "shared", "global"
  std::string predicate;                // "@p", "@!%p1" when guarded, else empty
  size_t offset = 0;                    // byte offset of the mnemonic in the asm text
};

// Statements end at `;`, and at a newline unless the operands go on (after a `,`, inside
// `{...}` or `[...]`). Skips block braces, labels (`L1:`), predicates (`@p`, `@!p`), comments
// (`//`, `/* */`), directives (`.reg .b32 r;`) and `%`-templated operands (`%0`, `%%laneid`,
// `%=`). Never throws; the input may be any bytes.
std::vector<PtxInstruction> parse_ptx(std::string_view text);

}  // namespace cudalint::cuda
