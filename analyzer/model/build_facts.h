// Reading the build graph's values: paths without touching the disk, globs, and arch lists in
// the spellings torch, CMake and nvcc use, each arch with where it is written.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/compile_db/compile_db.h"
#include "analyzer/model/build_graph.h"

namespace cudalint::model::facts {

std::string parent_of(const std::string& abs);
// `path` lies strictly below `dir` (every path is below "/").
bool under(const std::string& path, const std::string& dir);
// "a/../b/./c" against `dir`, lexically.
std::string resolve(const std::string& dir, const std::string& rel);

// A file pattern: `*` and `?` stay within one path component unless `recurse` (CMake's
// GLOB_RECURSE), `**/` matches any number of directories.
struct SourceGlob {
  std::string pattern;  // absolute
  bool recurse = false;
};
bool glob_matches(const SourceGlob& g, std::string_view path);

// TORCH_CUDA_ARCH_LIST's value as archs (none when it names nothing statically: native, empty).
std::vector<TargetArch> torch_list_archs(const std::string& value, const Origin& origin, std::string_view via);
// CMake's "80;90-real;90a-virtual"; `unreadable` when an entry is not an arch (native, all, a
// variable left unexpanded).
std::vector<TargetArch> cmake_list_archs(const std::string& value, const Origin& origin, bool& unreadable);
// The archs an nvcc command's arch options name, each at `at`.
std::vector<TargetArch> flag_archs(const cuda::CompileFlags& f, const Origin& at);
TargetArch flag_arch(const domain::Arch& arch, const std::string& flag, const Origin& at);
// Words of a flag string ("-gencode arch=compute_80,code=sm_80 -O3"), split at spaces and `;`.
std::vector<std::string> split_words(const std::string& s);
// Adds the archs of `more` that `to` lacks.
void merge_archs(std::vector<TargetArch>& to, const std::vector<TargetArch>& more);

}  // namespace cudalint::model::facts
