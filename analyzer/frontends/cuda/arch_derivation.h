// CUDA front-end, arch derivation: another arch's uses from a parse's, without parsing again,
// where the two archs' preprocessing differs only in branches that add nothing. Private to
// analyzer/frontends/cuda.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/frontends/cuda/arch_trace.h"
#include "analyzer/frontends/cuda/use_collector.h"

namespace cudalint::cuda::detail {

// Derivation: another arch's uses from a parse without parsing again. When that arch's
// preprocessing differs from the parse's only in ArchTrace::groups inside plain functions, and
// the branch it takes instead holds tokens that can add no use, call or declaration (plain
// arithmetic on the function's scalar variables, or nothing), its uses are the parse's without
// those in the branch the parse took, with what the removed calls reached computed again.
struct Derivation {
  struct Group {
    bool ok = false;                 // in a plain function; its branch declares nothing used outside
    // The `#if` / `#else` branch adds nothing, and parses (plain_statements_parse: a branch with
    // a syntax error gets a parse of the file, which reports it).
    bool inert[2] = {false, false};
    uint32_t taken_begin = 0, taken_end = 0;  // the recording parse's branch, in the group's file
  };
  std::vector<Group> groups;  // parallel to ArchTrace::groups
  // The recording parse's functions (keys compared, never dereferenced: the AST is gone), the
  // places of their callees, uses and headers.
  std::unordered_map<const clang::FunctionDecl*, FnInfo> fns;
  std::unordered_map<const clang::FunctionDecl*, std::vector<std::pair<clang::FileID, uint32_t>>> callee_at;
  std::vector<const clang::FunctionDecl*> var_roots;
  std::vector<RawUse> raw;
  std::map<clang::FileID, HeaderInfo> headers;
  clang::FileID main;
};

// The uses of arch `k` from the parse for `r` that recorded `d` and left `t`, when k's
// preprocessing differs from r's only in groups whose other branch adds nothing (Derivation);
// none otherwise (then k needs a parse).
std::optional<ArchResult> derive(const Derivation& d, const ArchTrace& t, const domain::Arch& r, const domain::Arch& k,
                                 std::string_view text);

}  // namespace cudalint::cuda::detail
