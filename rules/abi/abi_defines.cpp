#include "rules/abi/abi_defines.h"

#include <fmt/format.h>

namespace cudalint::rules::abi {

namespace {

constexpr std::string_view kMacro = "_GLIBCXX_USE_CXX11_ABI";

// "-D_GLIBCXX_USE_CXX11_ABI=0" → 0
std::optional<int> from_flag(std::string_view flag) {
  if (flag.starts_with("-D")) flag.remove_prefix(2);
  if (!flag.starts_with(kMacro)) return std::nullopt;
  flag.remove_prefix(kMacro.size());
  if (flag == "=0") return 0;
  if (flag == "=1") return 1;
  return std::nullopt;
}

}  // namespace

std::vector<AbiDefine> all_abi_defines(const model::ProjectModel& model) {
  std::vector<AbiDefine> out;
  for (const auto& u : model.setup_pys) {
    for (const auto& ext : u.setup.extensions) {
      std::string who = fmt::format("setup.py extension `{}`", ext.name ? ext.name->value : std::string("?"));
      std::string target = ext.name ? ext.name->value : std::string();
      for (const auto* list : {&ext.cxx_args, &ext.nvcc_args})
        for (const auto& a : list->items)
          if (auto v = from_flag(a.value)) out.push_back({*v, {u.file->path, a.span}, who, u.file->path, target});
      for (const auto& [name, value] : ext.define_macros)
        if (name.value == kMacro && value && (value->value == "0" || value->value == "1"))
          out.push_back({value->value[0] - '0', {u.file->path, value->span}, who, u.file->path, target});
    }
  }
  for (const auto& p : model.cmake_projects)
    for (const auto& f : p.facts.abi_defines)
      if (f.value.value == "0" || f.value.value == "1")
        out.push_back({f.value.value[0] - '0', f.value.origin,
                       f.target.empty() ? std::string("CMake directory") : fmt::format("CMake target `{}`", f.target),
                       p.top_level, f.target});
  return out;
}

std::vector<BuildTorch> torches_building(const model::BuildGraph& graph, const AbiDefine& def) {
  auto applies = [&](const model::BuildTarget& t) {
    if (t.project_file != def.project_file) return false;
    return def.target.empty() || t.name == def.target || t.kind == model::BuildTarget::Kind::Project;
  };
  std::vector<BuildTorch> out;
  for (const auto& inv : graph.invocations) {
    if (!inv.torch) continue;
    bool builds = false;
    for (size_t t : inv.targets) builds = builds || (t < graph.targets.size() && applies(graph.targets[t]));
    if (!builds) continue;
    bool seen = false;
    for (const auto& b : out) seen = seen || b.torch.origin == inv.torch->origin;
    if (!seen) out.push_back({*inv.torch, inv.torch_cuda_variant});
  }
  return out;
}

}  // namespace cudalint::rules::abi
