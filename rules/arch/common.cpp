#include "rules/arch/common.h"

#include <fmt/format.h>

namespace cudalint::rules::arch {

std::vector<const model::ArchSetting*> arch_settings_of(const model::DockerStage& stage) {
  std::vector<const model::ArchSetting*> out;
  auto add = [&](const model::ArchSetting& s) {
    for (const auto* o : out)
      if (o->origin == s.origin) return;
    out.push_back(&s);
  };
  for (const auto& s : stage.arch_settings) add(s);
  for (const auto& step : stage.compile_steps)
    if (step.arch_list) add(*step.arch_list);
  return out;
}

std::string stage_label(const model::DockerStage& stage) {
  return stage.name.empty() ? fmt::format("stage {}", stage.index) : fmt::format("stage `{}`", stage.name);
}

}  // namespace cudalint::rules::arch
