// Helpers shared by rules that read Dockerfile stages.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/project_model.h"

namespace cudalint::rules::stages {

// Every TORCH_CUDA_ARCH_LIST setting a stage defines or its compile steps see, each once.
std::vector<const model::ArchSetting*> arch_settings_of(const model::DockerStage& stage);

// Where an entry of a setting's list starts in the setting's value, when the value is written
// byte for byte in the file and the entry's own text is at its span (an edit there is an edit of
// that entry); nullopt otherwise.
std::optional<size_t> entry_offset(const model::ArchSetting& s, const domain::ArchEntry& e);

// The stage and its ancestors through `FROM <stage>`, root first.
std::vector<const model::DockerStage*> stage_chain(const model::DockerBuild& build, const model::DockerStage& stage);

// Whether a compile step builds CUDA code (a .cu in the tree, FORCE_CUDA, a known CUDA package).
bool compiles_cuda(const model::ProjectModel& model, const model::CompileStep& step);

// "CUDA 12.4 comes from this base image" / "CUDA 11.8 is installed here", for a related location.
std::string toolkit_note(const model::DockerStage& stage, const model::Fact<domain::CudaVersion>& toolkit);

// "stage `build`" or "stage 2" for messages.
std::string stage_label(const model::DockerStage& stage);

}  // namespace cudalint::rules::stages
