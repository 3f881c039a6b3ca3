// Compiled regions, the analysis's internals: its types and the Analysis class, whose members are
// defined by concern in compiled_regions.cpp and compiled_regions_*.cpp (each section below names
// its file). Private to analyzer/model.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/model/compiled_regions.h"

namespace cudalint::model::regions {

namespace gb = python::gb;
using VK = gb::Val::Kind;

constexpr int kMaxResolveDepth = 16;
constexpr size_t kMaxEntriesShown = 3;
constexpr int64_t kWorkBudget = 20'000'000;

struct Target {
  enum class K : uint8_t {
    None, Module, Function, Class, Instance, Super, External, ExternalInstance, Extension, List, Dict, Scripted,
    Disabled, Tensor
  };
  Target() = default;
  Target(K k, int u = -1, int i = -1) : kind(k), unit(u), index(i) {}

  K kind = K::None;
  int unit = -1;
  int index = -1;    // function or class index
  std::string path;  // External/ExternalInstance/Extension
  std::vector<Target> items;
  std::vector<std::string> keys;
};
using TK = Target::K;

struct Config {
  bool capture_scalars = false;
  bool capture_dynamic = false;
  bool allow_rnn = false;
  bool trace_numpy = true;
  bool trace_autograd = false;  // trace_autograd_ops: backward() traced into the graph
};

struct Entry {
  int unit = -1;
  int fn = -1;
  bool fullgraph = false;
  std::map<std::string, bool> patch;
  std::string how;
};

struct Site {
  int unit;
  uint32_t begin;
  uint32_t end;
  std::string rule;
  bool operator<(const Site& o) const {
    return std::tie(unit, begin, end, rule) < std::tie(o.unit, o.begin, o.end, o.rule);
  }
};

struct Found {
  std::string what, registry, detail;
  std::vector<size_t> entries;  // indices into entries_
  std::optional<std::pair<int, gb::CallSite const*>> via;
  std::string via_callee;
  std::string when;  // empty once some path reaches it unconditionally
};

class Analysis {
 public:
  Analysis(const std::vector<PythonUnit>& units, const GraphBreakInputs& in);

  std::vector<GraphBreak> run();

  // The units this run needed without a summary, and the elided names it looked up (by unit):
  // the results are only valid when both are empty.
  const std::set<size_t>& missing() const { return missing_; }
  const std::map<size_t, std::set<std::string>>& wanted() const { return wanted_; }
  const std::set<size_t>& wanted_whole() const { return wanted_whole_; }
  std::vector<UnmatchedEntryPoint>& unmatched() { return unmatched_; }

 private:
  // ---- modules and resolution (compiled_regions_resolve.cpp) ----
  const gb::Summary& sum(int unit);
  void note_lookup(int unit, const std::string& name);
  bool may_import(int p, int x) const;
  int find_module(const std::string& name);
  std::string script_relative(int unit, const std::string& path) const;
  std::string absolute(int unit, const std::string& rel) const;
  bool is_extension(const std::string& name) const;
  static std::vector<std::string> split(const std::string& s);
  Target absolute_path(const std::string& path, int depth);
  Target resolve(const gb::Val& v, int unit, int self_cls, int depth = 0);
  Target global(int unit, const std::string& name, int depth);
  template <typename F>
  bool each_class(int unit, int cls, F&& f, int depth = 0);
  bool is_autograd_function(int unit, int cls);
  Target method(int unit, int cls, const std::string& name, bool skip_self = false);
  Target attr(const Target& t, const std::string& name, int depth);

  // ---- entries (compiled_regions.cpp) ----
  void add_entry(int unit, int fn, bool fullgraph, std::map<std::string, bool> patch, std::string how);
  std::string where_text(int unit, Span span) const;
  void collect_entries();

  // ---- config (compiled_regions_config.cpp) ----
  Config config_for(const Entry& e);
  static void apply(Config& c, const std::string& key, bool v);
  const std::set<int>& scope_of(int unit);
  void build_import_graph();

  // ---- the walk (compiled_regions_walk.cpp) ----
  static bool breaks(gb::Gate g, const Config& c);
  void record(size_t entry, int unit, Span span, std::string_view rule, const std::string& what,
              const std::string& registry, const std::string& detail,
              const std::optional<std::pair<int, const gb::CallSite*>>& via, const std::string& via_callee,
              const std::string& when);
  std::string function_name(int unit, int fn);

  // Which parameters the calls reaching a function pass (for sites under `if p:` on a
  // parameter that defaults to a falsy constant).
  struct Passed {
    bool all = false;
    std::set<std::string> names;
  };

  static void note_passed(Passed& p, const gb::CallSite& c, const gb::Function& callee);
  void walk(size_t e);

  // How the function holding a call was reached (for breaks found at the call).
  struct Reached {
    std::optional<std::pair<int, const gb::CallSite*>> via;
    std::string callee;
    std::string when;  // the condition of the call, or of the path to its function
  };

  template <typename Enqueue>
  void call(size_t e, const Config& cfg, int unit, const gb::CallSite& c, const Target& t, const Reached& r,
            Enqueue&& enqueue, int depth);
  std::string call_text(int unit, Span span) const;
  std::vector<GraphBreak> results();

  const std::vector<PythonUnit>& units_;
  const GraphBreakInputs& in_;
  std::vector<std::string> keys_;
  // Hashed (module keys share long prefixes: ordered look-ups were mostly memcmp). Only looked
  // up, never iterated; emplace keeps the first module of a key, as the multimap's find did.
  std::unordered_map<std::string, int> by_key_;
  // Per unit: its functions' (classes') indices sorted by qualified name, the first of equal
  // names first. 4 bytes per function where a hash map took ~70 (a 10,000-module tree has
  // ~1.3 million functions).
  std::vector<std::vector<int>> fn_by_qual_;
  std::vector<std::vector<int>> cls_by_qual_;

  template <typename Items>
  static std::vector<int> by_qualname(const Items& items) {
    std::vector<int> idx(items.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) {
      return items[static_cast<size_t>(a)].qualname < items[static_cast<size_t>(b)].qualname;
    });
    return idx;
  }
  template <typename Items>
  static int find_qualname(const std::vector<int>& idx, const Items& items, std::string_view q) {
    auto it = std::lower_bound(idx.begin(), idx.end(), q, [&](int i, std::string_view k) {
      return items[static_cast<size_t>(i)].qualname < k;
    });
    return it != idx.end() && items[static_cast<size_t>(*it)].qualname == q ? *it : -1;
  }
  std::unordered_map<std::string, int> module_cache_;
  std::vector<Entry> entries_;
  std::set<std::tuple<int, int, bool>> entry_keys_;  // (unit, fn, fullgraph) of entries_
  std::map<Site, Found> found_;
  std::map<int, std::set<int>> scopes_;
  std::unordered_map<const gb::CallSite*, Target> call_targets_;  // resolved callee per call site
  std::vector<int> config_units_;  // units whose summary sets Dynamo config, in order
  std::vector<std::vector<int>> imports_;
  std::vector<std::vector<int>> importers_;
  std::vector<int> unsummarised_;  // units without a summary when the import graph was built
  std::set<size_t> missing_;
  std::map<size_t, std::set<std::string>> wanted_;
  std::set<size_t> wanted_whole_;
  std::vector<UnmatchedEntryPoint> unmatched_;  // entry-point globs that matched no function
  const gb::Summary empty_{};
  int64_t budget_ = kWorkBudget;
};

}  // namespace cudalint::model::regions
