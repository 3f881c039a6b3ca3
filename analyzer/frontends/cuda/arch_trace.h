// CUDA front-end: what one parse's preprocessor does with the arch macros (arch_macros.h), and
// whether another arch would see the same tokens. Private to analyzer/frontends/cuda.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <clang/Basic/SourceLocation.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include "analyzer/domain/arch.h"
#include "analyzer/frontends/cuda/arch_macros.h"

namespace cudalint::cuda::detail {

// What one parse's preprocessor did with the arch-dependent macros (arch_macros.h) in the
// analysed file and its headers: enough to tell whether another arch would give it the same
// tokens, and so the same AST.
struct ArchTrace {
  bool unpredictable = false;  // something the check below cannot follow: parse every arch
  struct Cond {
    std::string text;  // an evaluated `#if`/`#elif` condition that used an arch macro
    bool value = false;
    std::map<std::string, bool, std::less<>> defined;  // other macros `defined()` asked about
    std::set<std::string, std::less<>> expanded;       // other macros expanded in it
  };
  std::vector<Cond> conds;
  std::vector<std::pair<std::string, bool>> ifdefs;  // `#ifdef`-style tests of arch macros
  std::set<std::string, std::less<>> expanded;       // arch macros expanded outside conditions
  // Where the preprocessing may differ between archs, in the analysed file ("") and its headers:
  // the `#if`...`#endif` groups that test an arch macro, and arch macros expanded in code.
  struct Span {
    std::string file;
    uint32_t begin = 0, end = 0;
  };
  std::vector<Span> arch_spans;
  bool defines_in_arch_groups = false;  // a #define/#undef inside such a group
  // Whether arch_spans say where the preprocessing may differ (body reuse relies on them).
  bool spans_complete() const { return !unpredictable && !defines_in_arch_groups; }
  // The groups of the form `#if C` [`#else`] `#endif` whose C (conds[cond]) tests an arch
  // macro: the text of each branch, [begin, end) of `file`, lies between its directives'
  // lines. An arch that takes the other branch may be derived from this parse (Derivation).
  struct Group {
    std::string file;
    size_t cond = 0;
    uint32_t begin = 0, end = 0;  // the whole group, `#if` to past `#endif`
    uint32_t branch_begin[2] = {0, 0}, branch_end[2] = {0, 0};  // `#if` branch, `#else` branch
    bool has_else = false;
    clang::FileID fid;  // `file` in the parse that recorded it
  };
  std::vector<Group> groups;
};

// A file as body reuse names it: "" for the analysed file, else the name it was opened by.
std::optional<std::string> reuse_file_name(const clang::SourceManager& sm, clang::FileID fid);

// Records in `t` what the preprocessor `pp` of the parse for `arch` does with the arch macros in
// the analysed file and its headers.
std::unique_ptr<clang::PPCallbacks> arch_tracer(const clang::Preprocessor& pp, const domain::Arch& arch, ArchTrace& t);

// An identifier of a recorded condition, for `arch`.
std::optional<Ident> cond_ident(const ArchTrace::Cond& c, std::string_view id, const domain::Arch& arch);

// Whether the recorded condition `c` has, for `arch`, the value it had in the recording parse.
bool cond_holds_for(const ArchTrace::Cond& c, const domain::Arch& arch);

// Whether parsing for `k` would give the tokens the parse for `j` (which left `t`) saw.
bool same_tokens(const ArchTrace& t, const domain::Arch& j, const domain::Arch& k);

// Whether `a` and `b` evaluate alike every arch test in `t` (another arch's trace): a guess at
// whether their parses share tokens, as the tests their own preprocessing meets may differ.
bool alike_under(const ArchTrace& t, const domain::Arch& a, const domain::Arch& b);

}  // namespace cudalint::cuda::detail
