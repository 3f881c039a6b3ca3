// ARCH001 arch-list-missing-in-gpuless-build — doc: arch_list_missing_in_gpuless_build.md
#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH001", .name = "arch-list-missing-in-gpuless-build", .family = "ARCH",
    .default_severity = Severity::Error, .fix = FixAvailability::Sometimes,
    .summary = "A CUDA extension is compiled in a Docker build, where no GPU is visible, without TORCH_CUDA_ARCH_LIST"};

// What the official torch wheels build for that toolkit (domain.md §3.2), as a starting point.
std::optional<std::string> suggested_list(const model::MaybeFact<domain::CudaVersion>& cuda) {
  if (!cuda) return std::nullopt;
  const auto& v = cuda->value;
  if (v.major >= 13 || (v.major == 12 && v.minor >= 8)) return "7.5;8.0;8.6;9.0;10.0;12.0+PTX";
  if (v.major == 12) return "7.0;7.5;8.0;8.6;9.0+PTX";
  if (v.major == 11 && v.minor >= 8) return "7.0;7.5;8.0;8.6;9.0+PTX";
  return std::nullopt;
}

// What the build graph knows of a step that builds the project from the build context: whether
// any of its builds would take the visible GPUs' archs (torch's builder with no list of its own
// and none in the environment); nullopt when the graph has no invocation for the step (a
// package built from PyPI or a URL).
std::optional<bool> needs_visible_gpu(const model::BuildGraph& g, const model::CompileStep& step) {
  for (size_t i = 0; i < g.invocations.size(); ++i) {
    if (g.invocations[i].kind != model::Invocation::Kind::Dockerfile || !(g.invocations[i].where == step.where)) continue;
    for (const auto& [path, builds] : g.sources)
      for (const auto& b : builds)
        if (b.invocation == i && b.archs_unknown && g.targets[b.target].reads_torch_arch_list &&
            !g.targets[b.target].archs_unknown)
          return true;
    // Its targets name their archs, are switched off, or compile no CUDA source.
    return false;
  }
  return std::nullopt;
}

class ArchListMissingInGpulessBuild final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      for (const auto& stage : unit.build.stages) {
        for (const auto& step : stage.compile_steps) {
          if (step.own_arch_variable) continue;
          if (auto gpu = needs_visible_gpu(model.graph, step)) {
            if (!*gpu) continue;
          } else if (model.arch_flags_elsewhere || !stages::compiles_cuda(model, step)) {
            // Unknown whether the package has CUDA code, or whether setup.py/CMake choose archs.
            continue;
          }
          if (step.arch_list && (!step.arch_list->value_known ||
                                 step.arch_list->parsed().kind != domain::ArchListKind::Empty))
            continue;  // set (ARCH002 handles `native`), or set at build time
          std::string why = step.arch_list ? "TORCH_CUDA_ARCH_LIST is empty" : "TORCH_CUDA_ARCH_LIST is not set";
          auto& d = out.report(kInfo, step.where,
                               fmt::format("`{}` compiles CUDA code during `docker build`, where no GPU is "
                                           "visible, but {}: torch's cpp_extension then fails with "
                                           "`IndexError: list index out of range`",
                                           step.command, why));
          if (step.arch_list) d.related.push_back({step.arch_list->origin, "TORCH_CUDA_ARCH_LIST is set empty here"});
          if (model.first_cuda_source) d.related.push_back({*model.first_cuda_source, "CUDA source in the build context"});
          auto list = suggested_list(stage.cuda);
          if (!list || step.arch_list) continue;
          const auto& ins = unit.ast.instructions[step.instruction];
          uint32_t line_begin = unit.file->lines.line_start(unit.file->lines.line_of(ins.span.begin));
          d.fix = Fix{fmt::format("Set TORCH_CUDA_ARCH_LIST=\"{}\" before this RUN", *list), Applicability::Unsafe,
                      {Edit{{line_begin, line_begin}, fmt::format("ENV TORCH_CUDA_ARCH_LIST=\"{}\"\n", *list)}}};
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch001() { return std::make_unique<ArchListMissingInGpulessBuild>(); }

}  // namespace cudalint::rules
