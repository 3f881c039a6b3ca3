// BLD005 build-requires-torch-unpinned — doc: build_requires_torch_unpinned.md
#include <fmt/format.h>

#include "rules/python_project.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD005", .name = "build-requires-torch-unpinned", .family = "BLD",
    .default_severity = Severity::Warning,
    .summary = "torch in build-system.requires is not pinned to the torch the extension runs with"};

bool same_release(const domain::TorchVersion& a, const domain::TorchVersion& b) {
  return a.major == b.major && a.minor == b.minor && (a.patch < 0 || b.patch < 0 || a.patch == b.patch);
}

class BuildRequiresTorchUnpinned final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& pp : model.pyprojects) {
      // Only projects that compile extensions against the build environment's torch.
      const model::SetupPyUnit* setup = nullptr;
      for (const auto& s : model.setup_pys)
        if (project::dir_of(s.file->path) == project::dir_of(pp.file->path) && !s.setup.extensions.empty()) setup = &s;
      if (!setup) continue;
      for (const auto& r : pp.project.build_requires) {
        if (r.name != "torch") continue;
        Origin at{pp.file->path, r.span};
        if (!r.exact) {
          auto& d = out.report(kInfo, at,
                               fmt::format("build-system.requires has `{}`: an isolated build compiles the extensions "
                                           "against the newest matching torch, not the one installed at runtime, and "
                                           "a different torch release fails to import them (undefined symbol); pin "
                                           "the runtime torch (`torch==X.Y.Z`) or build with --no-build-isolation",
                                           r.text));
          d.related.push_back({{setup->file->path, setup->setup.extensions.front().call_span},
                               "extension compiled against the build environment's torch"});
          continue;
        }
        auto built = domain::parse_torch_version(*r.exact);
        if (!built) continue;
        for (const auto& pin : model.torch_pins) {
          if (same_release(*built, pin.version)) continue;
          auto& d = out.report(kInfo, at,
                               fmt::format("build-system.requires builds against torch {} but {} pins torch {}: "
                                           "extensions built for one torch release fail to import in another "
                                           "(undefined symbol)",
                                           built->str(), pin.origin.path, pin.version.str()));
          d.related.push_back({pin.origin, "the runtime torch pin"});
          break;
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld005() { return std::make_unique<BuildRequiresTorchUnpinned>(); }

}  // namespace cudalint::rules
