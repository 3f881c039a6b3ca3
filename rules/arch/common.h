// Helpers shared by the ARCH rules.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/project_model.h"

namespace cudalint::rules::arch {

// Every TORCH_CUDA_ARCH_LIST setting a stage defines or its compile steps see, each once.
std::vector<const model::ArchSetting*> arch_settings_of(const model::DockerStage& stage);

// "stage `build`" or "stage 2" for messages.
std::string stage_label(const model::DockerStage& stage);

}  // namespace cudalint::rules::arch
