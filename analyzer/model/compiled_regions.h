// torch.compile regions across a project, and the graph breaks reachable in them.
//
// Entry points are functions decorated with @torch.compile / @torch._dynamo.optimize, the
// targets of torch.compile(x) / torch._dynamo.optimize(...)(x) / module.compile() calls (a
// module instance means its class's forward), and the functions matched by the config's
// `[graph-breaks] entry-points` globs. From each entry the calls are followed through the
// project's own Python files: functions, methods (including through `self` attributes set in
// any method, nn.ModuleList/Sequential/ModuleDict containers, base classes and super()),
// constructors and imports (absolute, relative, re-exported by __init__.py). A function
// disabled with torch.compiler.disable ends the region (the call itself breaks the graph);
// custom ops, allow_in_graph functions and triton kernels are not entered.
//
// The Dynamo config a region runs with: torch 2.11 defaults, `ENV TORCHDYNAMO_*` in any
// Dockerfile, `torch._dynamo.config.X = ...` in a module that is imported together with the
// entry's module (any module importing the setter, directly or not, and everything they import),
// @torch._dynamo.config.patch on the entry, and fullgraph=True (which captures scalar outputs
// and dynamic-shape operators rather than breaking).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/source_file.h"
#include "analyzer/frontends/python/graph_breaks.h"

namespace cudalint::model {

// One analysed .py file.
struct PythonUnit {
  const SourceFile* file = nullptr;
  // Absent until the analysis needs it: a module that cannot start a compiled region or set
  // Dynamo config (python::gb::may_start_regions) is summarised only when a region reaches it or
  // an import question involves it, so a tree where few modules use torch.compile is mostly
  // not parsed. A summary leaves out the top-level definitions nothing in its module names
  // (python::gb::summarize_lazy) until another module looks one up. The results are the same as
  // with every module summarised whole.
  std::optional<python::gb::Summary> summary;
  // For a unit without a summary: its identifiers that are the last component of some module's
  // dotted name (python::gb::words_of), so the analysis can tell which modules it may import.
  std::vector<std::string> words;
  // How the summary is made (summarize_unit): the top-level names the analysis asked for, and
  // whether every definition is needed (entry-point globs, or after many rounds).
  std::vector<std::string> want;
  bool full = false;
};

// The unit's summary as the analysis asks for it: python::gb::summarize_lazy with `want`, or
// python::gb::summarize when `full`; `calls` are the GB rules' call patterns.
python::gb::Summary summarize_unit(const PythonUnit& u, const python::gb::CallPatterns& calls);

// A compiled region that reaches a graph break.
struct RegionEntry {
  std::string name;   // "Block.forward"
  Origin where;       // the entry function's name
  bool fullgraph = false;
  std::string how;    // "@torch.compile(fullgraph=True)", "torch.compile() at train.py:40", "entry-points \"pkg.*\""
};

struct GraphBreak {
  std::string rule;       // the id of the GB rule that reports it ("GB004")
  Origin where;
  std::string what;       // the source at `where`, shortened
  std::string registry;   // Dynamo graph-break registry id: "GB0124"
  std::string detail;     // kind-specific ("time.time", "torch.nn.LSTM", "my_ext._C.fused")
  bool fullgraph = false; // some region reaching it has fullgraph=True: torch.compile raises
  std::vector<RegionEntry> entries;  // the first few regions, in path/line order
  size_t more_entries = 0;
  // When the break is not in the entry function itself: the call that reached its function.
  std::optional<Origin> via;
  std::string via_callee;
  // A condition Dynamo meets the break only under (`flag`, `not (x is None)`, `mode matches
  // "a"`), on every path found to it; empty when some path reaches it unconditionally.
  std::string only_when;
};

// An `[graph-breaks] entry-points` glob that names no function of the tree, with the names
// closest to it (a bare `name` where `module.name` is needed, a typo).
struct UnmatchedEntryPoint {
  std::string glob;
  Origin origin;
  std::vector<std::string> nearest;  // at most 3, closest first
};

// What the analysis needs besides the Python files.
struct GraphBreakInputs {
  // The GB rules' call patterns (rules::graph_break_calls()), for the units the analysis
  // summarises itself; none when null.
  const python::gb::CallPatterns* calls = nullptr;
  std::vector<std::pair<std::string, Origin>> entry_points;  // config globs
  std::vector<std::string> extension_modules;                // setup.py extension names
  // Dockerfile ENV settings of TORCHDYNAMO_* variables: name -> value.
  std::vector<std::pair<std::string, std::string>> env;
};

// Fills units[i].summary for each i of `which` with summarize_unit(units[i]) (the engine does it
// in parallel, through its cache).
using SummarizeUnits = std::function<void(std::vector<PythonUnit>& units, const std::vector<size_t>& which)>;

// Deterministic (sorted by path and offset); bounded work for any input. Units without a
// summary are summarised through `summarize` (python::gb::summarize, one by one, when empty)
// as the analysis finds it needs them.
// `unmatched`, when given, receives the entry-point globs that matched no function.
std::vector<GraphBreak> find_graph_breaks(std::vector<PythonUnit>& units, const GraphBreakInputs& in,
                                          const SummarizeUnits& summarize = {},
                                          std::vector<UnmatchedEntryPoint>* unmatched = nullptr);

// Dotted module name for a display path: "pkg/sub/mod.py" -> "pkg.sub.mod", "pkg/__init__.py" -> "pkg".
std::string module_name_of(std::string_view path);

// The last component of a dotted module name: "pkg.sub.mod" -> "mod" (a view of `name`).
inline std::string_view last_name_component(std::string_view name) { return name.substr(name.rfind('.') + 1); }

// fnmatch-style glob (`*`, `?`, `[...]`); `*` also matches dots.
bool entry_glob_matches(std::string_view pattern, std::string_view name);

}  // namespace cudalint::model
