// The registry is explicit and sorted; every rule has a doc with the fixed headings, a
// fixture folder with positive and negative cases, and metadata consistent with its id.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analyzer/frontends/python/gb_rule_ids.h"
#include "rules/graph_breaks.h"
#include "rules/registry.h"

namespace fs = std::filesystem;
using namespace cudalint;

namespace {

std::string snake(std::string_view kebab) {
  std::string s(kebab);
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

// Engine-reported pseudo-rules share files per family; real rules have their own .cpp.
bool engine_family(std::string_view f) { return f == "PARSE" || f == "CONF" || f == "SUP"; }

TEST(Registry, SortedUniqueAndConsistent) {
  auto reg = rules::registry();
  ASSERT_FALSE(reg.empty());
  std::set<std::string_view> names;
  for (size_t i = 0; i < reg.size(); ++i) {
    if (i > 0) EXPECT_LT(reg[i - 1].id, reg[i].id) << "registry not sorted or duplicate id";
    auto rule = reg[i].make();
    const RuleInfo& info = rule->info();
    EXPECT_EQ(info.id, reg[i].id);
    EXPECT_TRUE(info.id.starts_with(info.family)) << info.id;
    EXPECT_EQ(info.id.size(), info.family.size() + 3) << info.id << ": family + 3 digits";
    EXPECT_TRUE(names.insert(info.name).second) << "duplicate name " << info.name;
    for (char c : info.name) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << info.name;
    EXPECT_FALSE(info.summary.empty()) << info.id;
    EXPECT_FALSE(info.summary.ends_with(".")) << info.id << ": summary without trailing period";
  }
}

TEST(Registry, EveryRuleHasADocWithRequiredHeadings) {
  for (const auto& e : rules::registry()) {
    const RuleInfo& info = e.make()->info();
    std::string_view doc = rules::doc_for(info.name);
    ASSERT_FALSE(doc.empty()) << info.id << ": no doc " << snake(info.name) << ".md";
    EXPECT_TRUE(doc.starts_with(fmt::format("# {} ({})\n", info.name, info.id))) << info.id;
    for (std::string_view h : {"## What it does", "## Why is this bad?", "## Example", "## References"})
      EXPECT_NE(doc.find(h), std::string_view::npos) << info.id << " lacks " << h;
    bool has_fix_section = doc.find("## Fix safety") != std::string_view::npos;
    EXPECT_EQ(has_fix_section, info.fix != FixAvailability::None) << info.id << ": `## Fix safety` iff fixable";
  }
}

// SARIF helpUri and the LSP's codeDescription.href name `<repository>/blob/<ref>/<doc path>`:
// every rule's doc path is a file of the source tree, with its family's directory and its stem.
TEST(Registry, EveryRuleDocPathExistsInTheSourceTree) {
  for (const auto& e : rules::registry()) {
    const RuleInfo& info = e.make()->info();
    std::string_view path = rules::doc_path_for(info.name);
    ASSERT_FALSE(path.empty()) << info.id;
    EXPECT_TRUE(path.starts_with("rules/")) << info.id << ": " << path;
    EXPECT_TRUE(path.ends_with("/" + snake(info.name) + ".md")) << info.id << ": " << path;
    EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::path(CUDALINT_SOURCE_DIR) / path))
        << info.id << ": " << path << " is not in " << CUDALINT_SOURCE_DIR;
  }
}

TEST(Registry, NoOrphanDocs) {
  std::set<std::string_view> names;
  for (const auto& e : rules::registry()) names.insert(e.make()->info().name);
  for (const auto& d : rules::all_rule_docs()) EXPECT_TRUE(names.count(d.name)) << "doc without rule: " << d.name;
}

TEST(Registry, EveryRuleHasSourceAndFixtures) {
  fs::path src(CUDALINT_SOURCE_DIR);
  for (const auto& e : rules::registry()) {
    const RuleInfo& info = e.make()->info();
    if (!engine_family(info.family)) {
      std::string family(info.family);
      std::transform(family.begin(), family.end(), family.begin(), ::tolower);
      EXPECT_TRUE(fs::exists(src / "rules" / family / (snake(info.name) + ".cpp")))
          << info.id << ": expected rules/" << family << "/" << snake(info.name) << ".cpp";
    }
    fs::path dir = src / "fixtures" / std::string(info.id);
    ASSERT_TRUE(fs::is_directory(dir)) << info.id << ": no fixtures/" << info.id;
    int positive = 0, cases = 0;
    for (const auto& c : fs::directory_iterator(dir)) {
      if (!c.is_directory()) continue;
      ++cases;
      bool pos = fs::exists(c.path() / "EXPECT");
      for (const auto& f : fs::recursive_directory_iterator(c.path())) {
        if (!f.is_regular_file()) continue;
        std::ifstream in(f.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        if (ss.str().find(fmt::format("expect: {}", info.id)) != std::string::npos) pos = true;
      }
      positive += pos;
    }
    EXPECT_GE(positive, 1) << info.id << ": needs a positive fixture case";
    EXPECT_GE(cases, 2) << info.id << ": needs positive and negative cases";
  }
}

// A GB rule is found through its own call patterns or where the summarizer or model meets its
// breaks (gb_rule_ids.h); a rule with neither would never report, an id there without a rule
// would report nothing.
TEST(Registry, EveryGraphBreakRuleIsDetected) {
  std::set<std::string_view> with_rows, gb_rules;
  for (const auto& row : rules::graph_break_calls().all()) with_rows.insert(row.rule);
  for (const auto& e : rules::registry())
    if (e.id.starts_with("GB")) gb_rules.insert(e.id);
  for (std::string_view id : python::gb::rule_id::kAll) EXPECT_TRUE(gb_rules.count(id)) << id << " is not a GB rule";
  for (std::string_view id : gb_rules) {
    bool found_elsewhere = std::find(python::gb::rule_id::kAll.begin(), python::gb::rule_id::kAll.end(), id) !=
                           python::gb::rule_id::kAll.end();
    EXPECT_TRUE(with_rows.count(id) || found_elsewhere) << id << " has no call patterns and is not in gb_rule_ids.h";
  }
}

}  // namespace
