#include "rules/graph_breaks.h"

#include <fmt/format.h>

#include "rules/registry.h"

namespace cudalint::rules {

namespace {

class GraphBreakRule final : public Rule {
 public:
  GraphBreakRule(const RuleInfo& info, GraphBreakMessage message, std::span<const python::gb::CallPattern> calls)
      : info_(info), message_(message), calls_(calls) {}

  const RuleInfo& info() const override { return info_; }
  std::span<const python::gb::CallPattern> calls() const { return calls_; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& g : model.graph_breaks) {
      if (g.rule != info_.id) continue;
      std::string msg = message_(g);
      bool conditional = !g.only_when.empty();
      if (conditional) msg += fmt::format("; only when `{}` holds as Dynamo traces it", g.only_when);
      if (g.fullgraph)
        msg += conditional ? "; a region reaching it is compiled with fullgraph=True, so torch.compile raises then"
                           : "; a region reaching it is compiled with fullgraph=True, so torch.compile raises here";
      if (g.more_entries) msg += fmt::format(" (reached from {} more compiled regions)", g.more_entries);
      Diagnostic& d = out.report(info_, g.where, std::move(msg));
      // A break under a condition on a Python value happens only for some inputs or settings.
      if (conditional) d.severity = Severity::Info;
      else if (g.fullgraph) d.severity = Severity::Error;
      for (const auto& e : g.entries)
        d.related.push_back({e.where, fmt::format("compiled region `{}` starts here ({})", e.name, e.how)});
      if (g.via) d.related.push_back({*g.via, fmt::format("`{}` is called from compiled code here", g.via_callee)});
    }
  }

 private:
  const RuleInfo& info_;
  GraphBreakMessage message_;
  std::span<const python::gb::CallPattern> calls_;
};

python::gb::CallPatterns gather_calls() {
  python::gb::CallPatterns table;
  for (const auto& e : registry()) {
    std::unique_ptr<Rule> rule = e.make();
    if (const auto* gb = dynamic_cast<const GraphBreakRule*>(rule.get())) table.add(e.id, gb->calls());
  }
  return table;
}

}  // namespace

std::unique_ptr<Rule> make_graph_break_rule(const RuleInfo& info, GraphBreakMessage message,
                                            std::span<const python::gb::CallPattern> calls) {
  return std::make_unique<GraphBreakRule>(info, message, calls);
}

const python::gb::CallPatterns& graph_break_calls() {
  static const python::gb::CallPatterns table = gather_calls();
  return table;
}

}  // namespace cudalint::rules
