// The GB rules' call-pattern table (analyzer/frontends/python/gb_call_patterns.h, gathered by
// rules::graph_break_calls()):
// every row can be reached, module rows follow the exact ones, and a summary records a row's
// rule, gate, Dynamo id and detail.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "analyzer/frontends/python/gb_call_patterns.h"
#include "analyzer/frontends/python/graph_breaks.h"
#include "rules/registry.h"
#include "rules/graph_breaks.h"

namespace cudalint {
namespace {

namespace gb = python::gb;
using gb::Callee;
using gb::CallPattern;
using gb::CallRow;

TEST(GbCallPatterns, EveryRowIsReachableByItsName) {
  const gb::CallPatterns& calls = rules::graph_break_calls();
  ASSERT_FALSE(calls.all().empty());
  std::set<std::pair<Callee, std::string_view>> seen_any;
  for (const CallRow& row : calls.all()) {
    const CallPattern& p = *row.pattern;
    ASSERT_FALSE(p.name.empty());
    auto only = [&](const CallPattern& r) { return &r == &p; };
    std::string_view name = p.name;
    if (name.ends_with(".*")) {
      ASSERT_EQ(p.callee, Callee::Function) << p.name;
      name = name.substr(0, name.size() - 1);
      std::string call = std::string(name) + "some_function";
      const CallRow* found = calls.first(p.callee, call, only);
      ASSERT_NE(found, nullptr) << p.name;
      EXPECT_EQ(found->pattern, &p) << p.name;
      continue;
    }
    const CallRow* found = calls.first(p.callee, name, only);
    ASSERT_NE(found, nullptr) << p.name;
    EXPECT_EQ(found->pattern, &p) << p.name;
    EXPECT_EQ(found->rule, row.rule) << p.name;
    // A row after an unconditional one of the same name would never be met.
    EXPECT_FALSE(seen_any.count({p.callee, name})) << p.name << " is shadowed";
    if (p.args == gb::ArgTest::Any) seen_any.insert({p.callee, name});
  }
}

// Each row's rule is a registered GB rule, and the rows come in registry order.
TEST(GbCallPatterns, RowsBelongToGbRulesInRegistryOrder) {
  std::string_view last;
  for (const CallRow& row : rules::graph_break_calls().all()) {
    EXPECT_TRUE(row.rule.starts_with("GB")) << row.rule;
    EXPECT_LE(last, row.rule);
    last = row.rule;
    bool registered = false;
    for (const auto& e : rules::registry()) registered = registered || e.id == row.rule;
    EXPECT_TRUE(registered) << row.rule;
  }
}

TEST(GbCallPatterns, ExactRowsComeBeforeTheirModulesRows) {
  const gb::CallPatterns& calls = rules::graph_break_calls();
  auto all = [](const CallPattern&) { return true; };
  const CallRow* r = calls.first(Callee::Function, "torch.distributed.all_reduce", all);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->pattern->registry, "GB0172");
  r = calls.first(Callee::Function, "torch.distributed.all_gather", all);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->pattern->name, "torch.distributed.*");
  EXPECT_EQ(calls.first(Callee::Function, "torch.distributed.c10d.all_gather", all), nullptr);
  EXPECT_EQ(calls.first(Callee::Function, "not.a.pattern", all), nullptr);
  EXPECT_EQ(calls.first(Callee::TensorMethod, "print", all), nullptr);
}

// Without the rules' rows a summary finds no call-pattern breaks: the rows are the only source.
TEST(GbCallPatterns, NoRowsNoCallBreaks) {
  gb::Summary s = gb::summarize("import time\ndef f(x):\n    t = time.time()\n    print(x)\n", gb::CallPatterns{});
  ASSERT_EQ(s.functions.size(), 1u);
  EXPECT_TRUE(s.functions[0].breaks.empty());
}

TEST(GbCallPatterns, SummaryRecordsTheRow) {
  gb::Summary s = gb::summarize(
      "import time, torch, logging\n"
      "import torch.distributed as dist\n"
      "log = logging.getLogger(__name__)\n"
      "def f(x: torch.Tensor):\n"
      "    t = time.time()\n"
      "    dist.all_gather(xs, x, async_op=True)\n"
      "    dist.all_gather(xs, x)\n"
      "    n = int(x)\n"
      "    k = int(3)\n"
      "    log.info('hi')\n"
      "    y = x.nonzero(as_tuple=True)\n"
      "    return x.sum().item()\n", rules::graph_break_calls());
  ASSERT_EQ(s.functions.size(), 1u);
  const auto& b = s.functions[0].breaks;
  ASSERT_EQ(b.size(), 5u);
  EXPECT_EQ(b[0].rule, "GB012");
  EXPECT_EQ(b[0].detail, "time.time");
  EXPECT_EQ(b[0].registry, "GB0007");
  EXPECT_EQ(b[1].rule, "GB025");
  EXPECT_EQ(b[1].detail, "torch.distributed.all_gather");
  EXPECT_EQ(b[1].registry, "");
  EXPECT_EQ(b[2].rule, "GB001");
  EXPECT_EQ(b[2].gate, gb::Gate::UnlessScalarsCaptured);
  EXPECT_EQ(b[2].detail, "int()");
  EXPECT_EQ(b[3].rule, "GB005");
  EXPECT_EQ(b[3].detail, "logging.Logger.info");
  EXPECT_EQ(b[3].registry, "GB0291");
  EXPECT_EQ(b[4].rule, "GB001");
  EXPECT_EQ(b[4].detail, "item");
}

}  // namespace
}  // namespace cudalint
