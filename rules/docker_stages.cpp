#include "rules/docker_stages.h"

#include <fmt/format.h>

namespace cudalint::rules::stages {

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

std::vector<const model::DockerStage*> stage_chain(const model::DockerBuild& build, const model::DockerStage& stage) {
  std::vector<const model::DockerStage*> out{&stage};
  // Parents always precede children, so this terminates; the bound guards malformed input.
  const model::DockerStage* cur = &stage;
  while (out.size() <= build.stages.size() && cur->parent && *cur->parent < build.stages.size()) {
    cur = &build.stages[*cur->parent];
    out.insert(out.begin(), cur);
  }
  return out;
}

bool compiles_cuda(const model::ProjectModel& model, const model::CompileStep& step) {
  return step.known_cuda_package || (step.local_project && (model.first_cuda_source || step.force_cuda));
}

std::string stage_label(const model::DockerStage& stage) {
  return stage.name.empty() ? fmt::format("stage {}", stage.index) : fmt::format("stage `{}`", stage.name);
}

std::string toolkit_note(const model::DockerStage& stage, const model::Fact<domain::CudaVersion>& toolkit) {
  if (stage.installed_cuda && stage.installed_cuda->origin == toolkit.origin)
    return fmt::format("CUDA {} is installed here", toolkit.value.str());
  return fmt::format("CUDA {} comes from this base image", toolkit.value.str());
}

std::optional<size_t> entry_offset(const model::ArchSetting& s, const domain::ArchEntry& e) {
  const uint32_t base = s.origin.span.begin;
  if (!s.contiguous || e.span.begin < base || e.span.end > base + s.value.size() || e.span.begin >= e.span.end ||
      s.value.compare(e.span.begin - base, e.span.end - e.span.begin, e.text) != 0)
    return std::nullopt;
  return e.span.begin - base;
}

}  // namespace cudalint::rules::stages
