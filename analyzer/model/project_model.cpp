#include "analyzer/model/project_model.h"

#include <algorithm>

namespace cudalint::model {

namespace {

// Textual hint that a setup.py or CMake file chooses archs itself (temporary: the real
// front-ends replace this with parsed facts).
std::optional<Span> arch_flag_mention(std::string_view text) {
  for (std::string_view needle : {"TORCH_CUDA_ARCH_LIST", "-gencode", "gencode=", "CUDA_ARCHITECTURES",
                                  "-arch=", "--gpu-architecture"}) {
    auto p = text.find(needle);
    if (p != std::string_view::npos)
      return Span{static_cast<uint32_t>(p), static_cast<uint32_t>(p + needle.size())};
  }
  return std::nullopt;
}

}  // namespace

ProjectModel build_model(const std::vector<const SourceFile*>& sources,
                         std::vector<DockerfileUnit> dockerfiles, const ModelInputs& inputs) {
  ProjectModel m;
  m.target_archs_override = inputs.target_archs_override;
  std::sort(dockerfiles.begin(), dockerfiles.end(),
            [](const DockerfileUnit& a, const DockerfileUnit& b) { return a.file->path < b.file->path; });
  m.dockerfiles = std::move(dockerfiles);
  std::vector<const SourceFile*> sorted = sources;
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->path < b->path; });
  for (const SourceFile* f : sorted) {
    if (f->kind == FileKind::CudaSource && !m.first_cuda_source) m.first_cuda_source = Origin{f->path, {0, 0}};
    if ((f->kind == FileKind::SetupPy || f->kind == FileKind::CMake) && !m.arch_flags_elsewhere)
      if (auto sp = arch_flag_mention(f->text)) m.arch_flags_elsewhere = Origin{f->path, *sp};
  }
  return m;
}

}  // namespace cudalint::model
