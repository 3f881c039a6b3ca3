// Graph breaks Dynamo meets only under a condition on a Python value (issue 36): the model names
// the condition (GraphBreak::only_when), a path that reaches the break unconditionally wins, and
// the GB rules report such a break as info saying "only when". A helper that returns
// torch.compiler.is_compiling() decides a guard as the torch function itself does.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/python/graph_breaks.h"
#include "analyzer/model/compiled_regions.h"
#include "analyzer/model/project_model.h"
#include "rules/registry.h"
#include "rules/graph_breaks.h"

namespace cudalint {
namespace {

namespace gb = python::gb;

std::vector<model::GraphBreak> breaks_of(const std::map<std::string, std::string>& project) {
  std::vector<std::shared_ptr<const SourceFile>> files;
  std::vector<model::PythonUnit> units;
  for (const auto& [path, text] : project) {
    LoadResult lr = make_source(path, text, 1 << 24);
    files.push_back(std::make_shared<const SourceFile>(std::move(*lr.file)));
    model::PythonUnit u;
    u.file = files.back().get();
    u.summary = gb::summarize(u.file->text, rules::graph_break_calls());
    units.push_back(std::move(u));
  }
  return model::find_graph_breaks(units, {}, [](std::vector<model::PythonUnit>&, const std::vector<size_t>&) {});
}

const model::GraphBreak* at(const std::vector<model::GraphBreak>& v, std::string_view what) {
  for (const auto& g : v)
    if (g.what == what) return &g;
  return nullptr;
}

TEST(GraphBreakConditions, AnIfOnAFlagIsNamed) {
  auto v = breaks_of({{"m.py",
                       "import torch\n"
                       "@torch.compile\n"
                       "def f(x, normalise: bool):\n"
                       "    if normalise:\n"
                       "        x = x / x.norm().item()\n"
                       "    return x.max().item()\n"}});
  ASSERT_EQ(v.size(), 2u);
  const auto* cond = at(v, "x.norm().item()");
  const auto* always = at(v, "x.max().item()");
  ASSERT_TRUE(cond && always);
  EXPECT_EQ(cond->only_when, "normalise");
  EXPECT_EQ(always->only_when, "");
}

TEST(GraphBreakConditions, ElifElseAndCaseNameWhatTheyNeed) {
  auto v = breaks_of({{"m.py",
                       "import torch\n"
                       "@torch.compile\n"
                       "def f(x, mode):\n"
                       "    if mode == 'a':\n"
                       "        return x\n"
                       "    elif mode == 'b':\n"
                       "        print(x)\n"
                       "    else:\n"
                       "        x = x.sum().item()\n"
                       "    match mode:\n"
                       "        case 'c':\n"
                       "            x.max().item()\n"
                       "        case _:\n"
                       "            x.cpu().item()\n"
                       "    return x\n"}});
  const auto* elif_ = at(v, "print(x)");
  const auto* else_ = at(v, "x.sum().item()");
  const auto* case_ = at(v, "x.max().item()");
  const auto* wildcard = at(v, "x.cpu().item()");
  ASSERT_TRUE(elif_ && else_ && case_ && wildcard);
  EXPECT_EQ(elif_->only_when, "not (mode == 'a') and mode == 'b'");
  EXPECT_EQ(else_->only_when, "not (mode == 'a') and not (mode == 'b')");
  EXPECT_EQ(case_->only_when, "mode matches 'c'");
  EXPECT_EQ(wildcard->only_when, "");
}

TEST(GraphBreakConditions, ALongConditionIsShortenedWithoutCuttingACharacter) {
  // 56 ASCII bytes, then two-byte characters: the cut at 57 bytes falls inside the first.
  std::string name(51, 'a');
  auto v = breaks_of({{"m.py", "import torch\n"
                               "@torch.compile\n"
                               "def f(x, " + name + "):\n"
                               "    if " + name + " == '\u00e9\u00e9\u00e9\u00e9\u00e9':\n"
                               "        x = x.sum().item()\n"
                               "    return x\n"}});
  ASSERT_EQ(v.size(), 1u);
  const std::string& w = v[0].only_when;
  ASSERT_GE(w.size(), 3u);
  EXPECT_EQ(w.substr(w.size() - 3), "...");
  EXPECT_LE(w.size(), 60u);
  for (size_t i = 0; i + 3 < w.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(w[i]);
    if (c >= 0x80) EXPECT_EQ(c & 0xE0, 0xC0u) << "a lone continuation or cut lead byte at " << i;
    if (c >= 0x80) ++i;  // its continuation byte
  }
}

TEST(GraphBreakConditions, AnUnconditionalPathWins) {
  // `helper` is reached first under `if debug:` and then unconditionally.
  auto v = breaks_of({{"m.py",
                       "import torch\n"
                       "def helper(x):\n"
                       "    return x.sum().item()\n"
                       "def maybe(x, debug):\n"
                       "    if debug:\n"
                       "        return helper(x)\n"
                       "    return x\n"
                       "@torch.compile\n"
                       "def f(x, debug):\n"
                       "    y = maybe(x, debug)\n"
                       "    return helper(y)\n"
                       "@torch.compile\n"
                       "def g(x, debug):\n"
                       "    return maybe(x, debug)\n"}});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].only_when, "");
  // Only through the condition: named.
  auto w = breaks_of({{"m.py",
                       "import torch\n"
                       "def helper(x):\n"
                       "    return x.sum().item()\n"
                       "@torch.compile\n"
                       "def g(x, debug):\n"
                       "    if debug:\n"
                       "        return helper(x)\n"
                       "    return x\n"}});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].only_when, "debug");
}

TEST(GraphBreakConditions, AHelperReturningIsCompilingDecidesTheGuard) {
  const char* helper =
      "import torch\n"
      "def _is_compiling():\n"
      "    if hasattr(torch, 'compiler') and hasattr(torch.compiler, 'is_compiling'):\n"
      "        return torch.compiler.is_compiling()\n"
      "    return False\n";
  auto v = breaks_of({{"m.py", std::string(helper) +
                                   "def value(x):\n"
                                   "    if _is_compiling():\n"
                                   "        return x\n"
                                   "    return x.item()\n"
                                   "@torch.compile\n"
                                   "def f(x):\n"
                                   "    return value(x)\n"}});
  EXPECT_TRUE(v.empty());
  // A helper that may return something else decides nothing.
  auto w = breaks_of({{"m.py",
                       "import torch\n"
                       "import os\n"
                       "def _fast():\n"
                       "    if os.environ.get('FAST'):\n"
                       "        return torch.compiler.is_compiling()\n"
                       "    return True\n"
                       "def value(x):\n"
                       "    if _fast():\n"
                       "        return x\n"
                       "    return x.item()\n"
                       "@torch.compile\n"
                       "def f(x):\n"
                       "    return value(x)\n"}});
  ASSERT_EQ(w.size(), 1u);
}

TEST(GraphBreakConditions, TheRuleSaysOnlyWhenAndIsInfo) {
  model::ProjectModel m;
  model::GraphBreak g;
  g.rule = "GB001";
  g.where = {"m.py", {10, 20}};
  g.what = "x.item()";
  g.registry = "GB0124";
  g.fullgraph = true;
  g.only_when = "normalise";
  m.graph_breaks.push_back(g);
  g.where = {"m.py", {30, 40}};
  g.only_when.clear();
  m.graph_breaks.push_back(g);
  std::unique_ptr<rules::Rule> rule;
  for (const auto& e : rules::registry())
    if (e.id == "GB001") rule = e.make();
  ASSERT_TRUE(rule);
  DiagnosticSink sink;
  rule->check(m, sink);
  ASSERT_EQ(sink.items().size(), 2u);
  EXPECT_EQ(sink.items()[0].severity, Severity::Info);
  EXPECT_NE(sink.items()[0].message.find("only when `normalise` holds"), std::string::npos);
  EXPECT_NE(sink.items()[0].message.find("torch.compile raises then"), std::string::npos);
  EXPECT_EQ(sink.items()[1].severity, Severity::Error);
  EXPECT_EQ(sink.items()[1].message.find("only when"), std::string::npos);
}

}  // namespace
}  // namespace cudalint
