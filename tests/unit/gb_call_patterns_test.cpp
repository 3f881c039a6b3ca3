// The call-pattern table of the graph-break summary (analyzer/frontends/python/gb_call_patterns.h):
// every row can be reached, module rows follow the exact ones, and a summary records a row's
// kind, gate, Dynamo id and detail.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "analyzer/frontends/python/gb_call_patterns.h"
#include "analyzer/frontends/python/graph_breaks.h"

namespace cudalint {
namespace {

namespace gb = python::gb;
using gb::detail::Callee;
using gb::detail::CallPattern;

TEST(GbCallPatterns, EveryRowIsReachableByItsName) {
  std::set<std::pair<Callee, std::string_view>> seen_any;
  for (const CallPattern& row : gb::detail::all_call_patterns()) {
    ASSERT_FALSE(row.name.empty());
    std::string_view name = row.name;
    if (name.ends_with(".*")) {
      ASSERT_EQ(row.callee, Callee::Function) << row.name;
      name = name.substr(0, name.size() - 1);
      std::string call = std::string(name) + "some_function";
      EXPECT_EQ(gb::detail::first_call_pattern(row.callee, call, [&](const CallPattern& r) { return &r == &row; }),
                &row)
          << row.name;
      continue;
    }
    EXPECT_EQ(gb::detail::first_call_pattern(row.callee, name, [&](const CallPattern& r) { return &r == &row; }), &row)
        << row.name;
    // A row after an unconditional one of the same name would never be met.
    EXPECT_FALSE(seen_any.count({row.callee, name})) << row.name << " is shadowed";
    if (row.args == gb::detail::ArgTest::Any) seen_any.insert({row.callee, name});
  }
}

TEST(GbCallPatterns, ExactRowsComeBeforeTheirModulesRows) {
  auto all = [](const CallPattern&) { return true; };
  const CallPattern* r = gb::detail::first_call_pattern(Callee::Function, "torch.distributed.all_reduce", all);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->registry, "GB0172");
  r = gb::detail::first_call_pattern(Callee::Function, "torch.distributed.all_gather", all);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->name, "torch.distributed.*");
  EXPECT_EQ(gb::detail::first_call_pattern(Callee::Function, "torch.distributed.c10d.all_gather", all), nullptr);
  EXPECT_EQ(gb::detail::first_call_pattern(Callee::Function, "not.a.pattern", all), nullptr);
  EXPECT_EQ(gb::detail::first_call_pattern(Callee::TensorMethod, "print", all), nullptr);
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
      "    return x.sum().item()\n");
  ASSERT_EQ(s.functions.size(), 1u);
  const auto& b = s.functions[0].breaks;
  ASSERT_EQ(b.size(), 5u);
  EXPECT_EQ(b[0].kind, gb::BreakKind::WallClock);
  EXPECT_EQ(b[0].detail, "time.time");
  EXPECT_EQ(b[0].registry, "GB0007");
  EXPECT_EQ(b[1].kind, gb::BreakKind::AsyncCollective);
  EXPECT_EQ(b[1].detail, "torch.distributed.all_gather");
  EXPECT_EQ(b[1].registry, "");
  EXPECT_EQ(b[2].kind, gb::BreakKind::Item);
  EXPECT_EQ(b[2].gate, gb::Gate::UnlessScalarsCaptured);
  EXPECT_EQ(b[2].detail, "int()");
  EXPECT_EQ(b[3].kind, gb::BreakKind::Logging);
  EXPECT_EQ(b[3].detail, "logging.Logger.info");
  EXPECT_EQ(b[3].registry, "GB0291");
  EXPECT_EQ(b[4].kind, gb::BreakKind::Item);
  EXPECT_EQ(b[4].detail, "item");
}

}  // namespace
}  // namespace cudalint
