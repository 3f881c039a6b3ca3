// The macros whose values differ between the archs a file is parsed for, and a small evaluator
// of `#if` conditions over them.
//
// A parse for one arch records which of its conditionals depended on these macros and what
// they evaluated to (arch_trace.cpp). When another arch gives every one of those conditions
// the same value, the preprocessor produces the same tokens for it, so the first parse's AST,
// and its feature uses, serve that arch too (the per-arch verdicts are made later, by the
// rules). Whatever this evaluator cannot decide makes the caller parse again: it never guesses.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/domain/arch.h"

namespace cudalint::cuda {

// The <nv/target> queries the prelude defines per arch: `__CL_NV_<query>` (the name) is 1 when
// the condition holds for the arch being parsed, else 0.
const std::vector<std::pair<std::string, std::string>>& nv_target_queries();

// A macro's state for one arch: undefined, or an integer value.
struct MacroState {
  bool defined = false;
  long long value = 0;
  friend bool operator==(const MacroState&, const MacroState&) = default;
};

// The state of an arch-dependent macro (`__CUDA_ARCH__`, `__CUDA_ARCH_FEAT_SMxx_ALL`,
// `__CUDA_ARCH_SPECIFIC__`, `__CUDA_ARCH_FAMILY_SPECIFIC__`, the `__CL_NV_` queries) when
// parsing for `arch`, as the front-end's flags and prelude define it; nullopt for any other name.
std::optional<MacroState> arch_macro(std::string_view name, const domain::Arch& arch);

// What a condition's identifier is: nullopt when unknown (the evaluation fails). `value`
// nullopt with `defined` true: only `defined(X)` may use it.
struct Ident {
  bool defined = false;
  std::optional<long long> value;
};
using IdentLookup = std::function<std::optional<Ident>(std::string_view)>;

// Evaluates a preprocessor condition (comments and line continuations already removed or not:
// both are handled). nullopt when it holds anything the evaluator does not model (function-like
// operators such as `__has_include`, character literals, floating literals, division by zero,
// an unknown identifier) or is malformed.
std::optional<long long> eval_condition(std::string_view text, const IdentLookup& lookup);

// A directive's logical line from `offset` of `buffer` (backslash continuations joined): its
// text with comments replaced by a space (`//` ends it), the offset just past its newline (or the
// buffer's end), and whether a block comment starts in it (it may run on past the line).
struct DirectiveLine {
  std::string text;
  size_t end = 0;
  bool block_comment = false;
};
DirectiveLine directive_line(std::string_view buffer, size_t offset);
// directive_line's text: a condition to evaluate.
std::string directive_condition(std::string_view buffer, size_t offset);

}  // namespace cudalint::cuda
