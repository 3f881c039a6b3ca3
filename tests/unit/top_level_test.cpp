// The top-level statement splitter (analyzer/frontends/python/top_level.h) and the summary that
// leaves out what compiled regions cannot reach (python::gb::summarize_lazy).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "analyzer/frontends/python/graph_breaks.h"
#include "analyzer/frontends/python/top_level.h"
#include "rules/graph_breaks.h"

namespace cudalint {
namespace {

namespace fs = std::filesystem;
namespace gb = python::gb;
using python::TopLevelStatement;
using SK = TopLevelStatement::Kind;

// "kind name@row" per statement, e.g. "def f@3 other@5".
std::string shape(std::string_view text) {
  auto st = python::top_level_statements(text);
  if (!st) return "none";
  std::string out;
  for (const auto& s : *st) {
    if (!out.empty()) out += ' ';
    out += s.kind == SK::Def ? "def " : s.kind == SK::Class ? "class " : "other";
    out += fmt::format("{}@{}", s.name, s.row);
  }
  return out;
}

TEST(TopLevel, StatementsDecoratorsAndClauses) {
  EXPECT_EQ(shape("import torch\n\n\n@torch.compile\n# note\n@other(1,\n  2)\ndef f(x):\n    return x\n"
                  "class A(B):\n  pass\nasync  def g(): pass\nx = 1\n"),
            "other@0 def f@3 class A@9 def g@11 other@12");
  // Clauses at column 0 belong to their statement; comments and blank lines start nothing.
  EXPECT_EQ(shape("try:\n    import a\nexcept ImportError:\n    a = None\nelse:\n    pass\nfinally:\n  pass\n"
                  "if x:\n  def f(): pass\nelif y:\n  pass\n# c\n\ndef h(): pass\n"),
            "other@0 other@8 def h@14");
  // The leading comment is not covered; the CRLF text splits the same.
  EXPECT_EQ(shape("# header\ndef f():\r\n    pass\r\ndef g():\r\n    pass\r\n"), "def f@1 def g@3");
  // Names must follow the keyword as words.
  EXPECT_EQ(shape("define = 1\nclassy = 2\ndef\tname(): pass\n"), "other@0 other@1 def name@2");
}

TEST(TopLevel, ColumnZeroTextInsideStringsBracketsAndContinuations) {
  EXPECT_EQ(shape("s = '''\ndef not_a_def():\n'''\nt = \"\"\"x\nclass No: \\\"\"\"\"\ndef f(): pass\n"),
            "other@0 other@3 def f@5");
  EXPECT_EQ(shape("x = foo(\n1,\ndef_ = 2)\ny = [\n]\nz = 1 + \\\n2\ndef f(): pass\n"),
            "other@0 other@3 other@5 def f@7");
  // f-strings with fields, nested quotes (Python 3.12), doubled braces and format specs.
  EXPECT_EQ(shape("a = f\"{d['k']!r:>{w}} {{x}}\"\nb = f'{f\"{1}\"}'\nc = rf\"\\{x}\"\nd = f\"{d[\"k\"]}\"\n"
                  "def f(): pass\n"),
            "other@0 other@1 other@2 other@3 def f@4");
  // A comment's quote or bracket is not code.
  EXPECT_EQ(shape("x = 1  # it's (\ndef f(): pass\n"), "other@0 def f@1");
  // Ends: the last statement ends at the text's end (row and column).
  auto st = python::top_level_statements("a = 1\ndef f():\n    pass");
  ASSERT_TRUE(st);
  ASSERT_EQ(st->size(), 2u);
  EXPECT_EQ((*st)[0].end, 6u);
  EXPECT_EQ((*st)[0].end_row, 1u);
  EXPECT_EQ((*st)[1].end, 23u);
  EXPECT_EQ((*st)[1].end_row, 2u);
  EXPECT_EQ((*st)[1].end_column, 8u);
}

TEST(TopLevel, UnsureBoundariesGiveNothing) {
  EXPECT_EQ(shape("s = '''never closed\ndef f(): pass\n"), "none");
  EXPECT_EQ(shape("s = 'open\ndef f(): pass\n"), "none");
  EXPECT_EQ(shape("x = (1,\ndef f(): pass\n"), "none");
  EXPECT_EQ(shape("x = 1)\n"), "none");
  EXPECT_EQ(shape("x = 1\n\fdef f(): pass\n"), "none");
  EXPECT_EQ(shape("x = 1\rdef f(): pass\n"), "none");
  EXPECT_EQ(shape("f'{'"), "none");
  EXPECT_EQ(shape(std::string(100, '(') + std::string(100, ')') + "\n"), "other@0");
  std::string deep = "x = ";
  for (int i = 0; i < 200; ++i) deep += "f'{";
  EXPECT_EQ(shape(deep), "none");  // bounded nesting
  EXPECT_EQ(shape(""), "");
}

// A module whose compiled function reaches some of its functions and classes.
constexpr const char* kModule = R"(import torch
from torch import nn


def helper(x):
    return x.sum().item()


def unrelated(x):
    print(x)
    return x


class Used(nn.Module):
    def forward(self, x):
        return deep(x)


def deep(x):
    print("deep")
    return x


class Unused(nn.Module):
    def forward(self, x):
        print(x)
        return x


def imports_inside():
    import json
    return json


@torch.compile
def step(x):
    m = Used()
    return helper(m(x))
)";

TEST(SummarizeLazy, LeavesOutWhatNothingKeptNames) {
  gb::Summary lazy = gb::summarize_lazy(kModule, rules::graph_break_calls());
  EXPECT_EQ(lazy.elided, (std::vector<std::string>{"Unused", "unrelated"}));
  std::vector<std::string> fns;
  for (const auto& f : lazy.functions) fns.push_back(f.qualname);
  EXPECT_EQ(fns, (std::vector<std::string>{"helper", "Used.forward", "deep", "imports_inside", "step"}));
  EXPECT_FALSE(lazy.globals.find("unrelated") != lazy.globals.end());
  EXPECT_TRUE(lazy.globals.find("deep") != lazy.globals.end());

  // Wanted names are kept, with what they name.
  gb::Summary more = gb::summarize_lazy(kModule, rules::graph_break_calls(), {"Unused"});
  EXPECT_EQ(more.elided, (std::vector<std::string>{"unrelated"}));
  // With every name wanted the summary is the whole one.
  gb::Summary all = gb::summarize_lazy(kModule, rules::graph_break_calls(), {"Unused", "unrelated"});
  EXPECT_TRUE(all.elided.empty());
  EXPECT_EQ(all.functions.size(), gb::summarize(kModule, rules::graph_break_calls()).functions.size());
}

// Every function the lazy summary keeps is the full summary's function of that name, with the
// same breaks and calls; compile sites, config and imports are the same. Checked on every
// Python file of the GB fixtures and the graph-break oracle corpus.
TEST(SummarizeLazy, KeptCodeIsSummarisedAsInTheWholeModule) {
  size_t files = 0, with_elided = 0, elided = 0;
  auto check = [&](const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    gb::Summary full = gb::summarize(text, rules::graph_break_calls()), lazy = gb::summarize_lazy(text, rules::graph_break_calls());
    ++files;
    if (!lazy.elided.empty()) ++with_elided;
    elided += lazy.elided.size();
    for (const auto& lf : lazy.functions) {
      auto it = std::find_if(full.functions.begin(), full.functions.end(),
                             [&](const gb::Function& f) { return f.qualname == lf.qualname && f.name_span.begin == lf.name_span.begin; });
      ASSERT_NE(it, full.functions.end()) << path << " " << lf.qualname;
      EXPECT_EQ(lf.breaks.size(), it->breaks.size()) << path << " " << lf.qualname;
      for (size_t i = 0; i < std::min(lf.breaks.size(), it->breaks.size()); ++i) {
        EXPECT_EQ(lf.breaks[i].span.begin, it->breaks[i].span.begin) << path << " " << lf.qualname;
        EXPECT_EQ(lf.breaks[i].rule, it->breaks[i].rule) << path << " " << lf.qualname;
        EXPECT_EQ(lf.breaks[i].what, it->breaks[i].what) << path << " " << lf.qualname;
      }
      EXPECT_EQ(lf.calls.size(), it->calls.size()) << path << " " << lf.qualname;
      EXPECT_EQ(lf.params, it->params) << path << " " << lf.qualname;
      EXPECT_EQ(lf.compiled.has_value(), it->compiled.has_value()) << path << " " << lf.qualname;
    }
    // What is left out is exactly the full summary's top-level names that are not kept.
    for (const auto& name : lazy.elided) {
      EXPECT_TRUE(full.globals.find(name) != full.globals.end()) << path << " " << name;
      EXPECT_TRUE(lazy.globals.find(name) == lazy.globals.end()) << path << " " << name;
    }
    EXPECT_EQ(lazy.globals.size() + lazy.elided.size(), full.globals.size()) << path;
    EXPECT_EQ(lazy.compile_sites.size(), full.compile_sites.size()) << path;
    EXPECT_EQ(lazy.config.size(), full.config.size()) << path;
    EXPECT_EQ(lazy.imports, full.imports) << path;
  };
  for (const char* root : {"fixtures", "tests/oracle/gb/corpus"})
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && e.path().extension() == ".py") check(e.path());
  EXPECT_GT(files, 100u);
  // The check is not vacuous: the corpus has modules with unreached definitions.
  EXPECT_GT(with_elided, 10u) << elided;
}

// Many definitions of one name, each naming it, and many names wanted: linear work (a name is
// looked at once), where a scan of every definition per mention would take ~10^9 steps.
TEST(SummarizeLazy, ManyDefinitionsOfOneName) {
  std::string text = "f(1)\n";
  std::vector<std::string> want;
  for (int i = 0; i < 20000; ++i) {
    text += "def f(x): return f(x)\n";
    want.push_back(fmt::format("g{}", i));
  }
  auto st = python::top_level_statements(text);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->size(), 20001u);
  gb::Summary s = gb::summarize_lazy(text, rules::graph_break_calls(), want);
  EXPECT_TRUE(s.elided.empty());  // the module-level call names f: every definition is kept
  for (int i = 0; i < 20000; ++i) text += fmt::format("def g{}(x): return x\n", i);
  s = gb::summarize_lazy(text, rules::graph_break_calls());
  EXPECT_EQ(s.elided.size(), 20000u);
  s = gb::summarize_lazy(text, rules::graph_break_calls(), want);
  EXPECT_TRUE(s.elided.empty());
}

TEST(SummarizeLazy, FallsBackToTheWholeModule) {
  // The lexer cannot split it: the whole module is summarised.
  gb::Summary s = gb::summarize_lazy("def unused(): pass\nx = '''open\n", rules::graph_break_calls());
  EXPECT_TRUE(s.elided.empty());
  // The kept code has a syntax error: the whole module is summarised.
  s = gb::summarize_lazy("def unused():\n    pass\nx = (1 +\n  )\n", rules::graph_break_calls());
  EXPECT_TRUE(s.elided.empty());
  EXPECT_EQ(s.functions.size(), 1u);
  // Nothing but definitions nothing reaches.
  s = gb::summarize_lazy("def a():\n    pass\nclass B:\n    pass\n", rules::graph_break_calls());
  EXPECT_EQ(s.elided, (std::vector<std::string>{"B", "a"}));
  EXPECT_TRUE(s.functions.empty());
}

}  // namespace
}  // namespace cudalint
