// GPU architecture spellings: TORCH_CUDA_ARCH_LIST, nvcc and CMake forms, normalised.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace cudalint::domain {

struct TorchVersion;  // torch_support.h (which includes this file through cuda_support.h)

struct Arch {
  int major = 0;
  int minor = 0;
  char suffix = 0;   // 0, 'a' (arch-specific) or 'f' (family-specific)
  bool ptx = false;  // also embed PTX (`+PTX`, `code=compute_XX`)

  int sm() const { return major * 10 + minor; }
  std::string sm_name() const;      // "sm_90a"
  std::string torch_name() const;   // "9.0a" (without +PTX)
  friend bool operator==(const Arch& a, const Arch& b) {
    return a.major == b.major && a.minor == b.minor && a.suffix == b.suffix;
  }
};

// Parses one token in any spelling torch, nvcc or CMake use: "8.0", "8.6+PTX", "9.0a",
// "80", "sm_80", "compute_80", "sm_90a", "90a", "100f". Does not accept names.
std::optional<Arch> parse_arch_token(std::string_view token);

enum class ArchListKind { Explicit, Native, Empty };

struct ArchEntry {
  Arch arch;
  std::string text;  // as written, e.g. "8.6+PTX"
  Span span;         // in the file (the whole value's span when not mappable)
};

// A spelling torch rejects, with a mechanical replacement when one exists.
struct ArchSpellingIssue {
  std::string text;                        // the offending token (or separator)
  Span span;
  std::string reason;                      // "torch expects `8.0`, not `sm_80`"
  std::optional<std::string> replacement;  // exact text to put at `span`
  bool safe = true;                        // the replacement keeps the same archs
};

struct ArchList {
  ArchListKind kind = ArchListKind::Empty;
  std::vector<ArchEntry> entries;          // expanded (named archs become their entries)
  std::vector<ArchSpellingIssue> issues;   // spellings torch's parser would reject
};

// Whether the cpp_extension of `torch` accepts an arch entry ("9.0a", without +PTX) or a name
// ("Hopper") in TORCH_CUDA_ARCH_LIST. `torch` null: torch 2.11 (measured). For other releases
// only what data/torch_releases.md sources is judged; the rest is Unknown.
enum class TorchVerdict { Accepts, Rejects, Unknown };
TorchVerdict torch_accepts_arch(std::string_view dotted_or_name, const TorchVersion* torch);

// Parses a TORCH_CUDA_ARCH_LIST value as the cpp_extension of `torch` does (torch 2.11 when
// null): separators `;` and space; names such as `Ampere`; `+PTX`; `native` or empty = detect
// the visible GPU. `value_begin` is the file offset of value[0] when `contiguous` (the value
// appears in the file byte for byte); otherwise every span is `whole`.
ArchList parse_torch_arch_list(std::string_view value, bool contiguous, uint32_t value_begin,
                               Span whole, const TorchVersion* torch = nullptr);

}  // namespace cudalint::domain
