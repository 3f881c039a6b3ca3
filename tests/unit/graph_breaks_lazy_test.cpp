// The graph-break analysis summarises modules that cannot start a compiled region only when it
// needs them (model::PythonUnit), and of each module only the definitions its regions may reach
// (gb::summarize_lazy; another module asks for the rest by name). These tests check that this
// gives exactly the results of an analysis over every module's whole summary, on every GB
// fixture, the graph-break oracle corpus and projects built to need modules and definitions
// through each way the analysis reaches one (calls, base classes, attribute chains, relative and
// package imports, the Dynamo config's import scope), and that modules nothing reaches stay
// unparsed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_set>

#include <fmt/format.h>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/python/graph_breaks.h"
#include "analyzer/model/compiled_regions.h"
#include "rules/graph_breaks.h"

namespace cudalint {
namespace {

namespace fs = std::filesystem;
namespace gb = python::gb;

using Project = std::map<std::string, std::string>;  // display path -> text

std::string render(const std::vector<model::GraphBreak>& v) {
  std::string out;
  for (const auto& g : v) {
    out += fmt::format("{}:{}-{} {} {} [{}] detail={} fullgraph={} more={}", g.where.path, g.where.span.begin,
                       g.where.span.end, g.rule, g.what, g.registry, g.detail, g.fullgraph,
                       g.more_entries);
    for (const auto& e : g.entries)
      out += fmt::format(" entry({} {}:{} {} {})", e.name, e.where.path, e.where.span.begin, e.fullgraph, e.how);
    if (g.via) out += fmt::format(" via({}:{} {})", g.via->path, g.via->span.begin, g.via_callee);
    if (!g.only_when.empty()) out += fmt::format(" when({})", g.only_when);
    out += '\n';
  }
  return out;
}

struct Outcome {
  std::string results;
  size_t summarised = 0;              // units with a summary at the end
  std::set<std::string> unsummarised;  // paths of units left without one
};

// `lazy`: as the engine does it (only modules that may start regions summarised up front).
Outcome analyse(const Project& p, bool lazy, const model::GraphBreakInputs& in = {}) {
  std::vector<std::shared_ptr<const SourceFile>> files;
  std::vector<std::string> names;
  for (const auto& [path, text] : p) {
    LoadResult lr = make_source(path, text, 1 << 24);
    files.push_back(std::make_shared<const SourceFile>(std::move(*lr.file)));
    names.emplace_back(model::last_name_component(model::module_name_of(path)));
  }
  gb::WordSet module_names(names.begin(), names.end());
  std::vector<model::PythonUnit> units;
  for (const auto& f : files) {
    model::PythonUnit u;
    u.file = f.get();
    if (!lazy)
      u.summary = gb::summarize(f->text, rules::graph_break_calls());
    else if (gb::may_start_regions(f->text))
      u.summary = model::summarize_unit(u, rules::graph_break_calls());
    else
      u.words = gb::words_of(f->text, module_names);
    units.push_back(std::move(u));
  }
  size_t calls = 0;
  Outcome r;
  r.results = render(model::find_graph_breaks(units, in, [&](std::vector<model::PythonUnit>& us,
                                                             const std::vector<size_t>& which) {
    ++calls;
    for (size_t i : which) us[i].summary = model::summarize_unit(us[i], rules::graph_break_calls());
  }));
  if (!lazy) EXPECT_EQ(calls, 0u) << "every summary was given";
  for (const auto& u : units) {
    if (u.summary) ++r.summarised;
    else r.unsummarised.insert(u.file->path);
  }
  return r;
}

Project read_dir(const fs::path& dir) {
  Project p;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".py") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    p[fs::relative(e.path(), dir).generic_string()] = ss.str();
  }
  return p;
}

// The module a text could start compiled regions from has a cue word: checked on every summary
// of the corpus (the premise of skipping the others).
void expect_cues_cover(const Project& p) {
  for (const auto& [path, text] : p) {
    if (gb::may_start_regions(text)) continue;
    gb::Summary s = gb::summarize(text, rules::graph_break_calls());
    EXPECT_TRUE(s.compile_sites.empty()) << path;
    EXPECT_TRUE(s.config.empty()) << path;
    for (const auto& f : s.functions) EXPECT_FALSE(f.compiled.has_value()) << path << " " << f.qualname;
  }
}

TEST(GraphBreaksLazy, SameResultsOnEveryGraphBreakFixture) {
  size_t dirs = 0, with_results = 0;
  for (const auto& fam : fs::directory_iterator("fixtures")) {
    if (!fam.path().filename().string().starts_with("GB")) continue;
    for (const auto& c : fs::directory_iterator(fam.path())) {
      if (!c.is_directory()) continue;
      Project p = read_dir(c.path());
      if (p.empty()) continue;
      ++dirs;
      expect_cues_cover(p);
      Outcome full = analyse(p, false), lazy = analyse(p, true);
      EXPECT_EQ(lazy.results, full.results) << c.path();
      if (!full.results.empty()) ++with_results;
    }
  }
  EXPECT_GE(dirs, 50u);
  EXPECT_GT(with_results, 30u);
}

TEST(GraphBreaksLazy, SameResultsOnTheOracleCorpus) {
  Project p = read_dir("tests/oracle/gb/corpus");
  ASSERT_GT(p.size(), 10u);
  expect_cues_cover(p);
  Outcome full = analyse(p, false), lazy = analyse(p, true);
  EXPECT_FALSE(full.results.empty());
  EXPECT_EQ(lazy.results, full.results);
}

// A package where the compiled code reaches modules without a cue word through every kind of
// reference, plus modules nothing reaches.
Project layered_project() {
  Project p;
  p["train.py"] = R"(import torch
from pkg.models import Net
import tools.setter

model = torch.compile(Net())
)";
  p["pkg/__init__.py"] = "from .models import Net\n";
  p["pkg/models/__init__.py"] = "from .net import Net\n";
  p["pkg/models/net.py"] = R"(import torch
from torch import nn
from ..layers.block import Block
from . import helpers
import pkg.layers.deep.leaf as leaf
from pkg.layers import base


class Net(base.Base):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        x = self.block(x)
        x = helpers.scale(x)
        x = leaf.twist(x)
        return self.shared(x)
)";
  p["pkg/models/helpers.py"] = R"(def scale(x):
    return x * x.sum().item()


def unused(x):
    print(x)
)";
  p["pkg/layers/__init__.py"] = "";
  p["pkg/layers/block.py"] = R"(import torch
from torch import nn


class Block(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x
)";
  p["pkg/layers/base.py"] = R"(from torch import nn
import logging

log = logging.getLogger(__name__)


class Base(nn.Module):
    def shared(self, x):
        log.info("shape %s", x.shape)
        return x
)";
  p["pkg/layers/deep/__init__.py"] = "";
  p["pkg/layers/deep/leaf.py"] = R"(import time


def twist(x):
    t = time.time()
    return x * 2
)";
  // Sets config for everything imported with it: train.py imports it, so the region of Net
  // captures scalars (the .item() above does not break).
  p["tools/__init__.py"] = "";
  p["tools/setter.py"] = "import torch._dynamo\ntorch._dynamo.config.capture_scalar_outputs = True\n";
  // Nothing reaches these.
  p["pkg/unrelated.py"] = "def f(x):\n    print(x)\n    return x.item()\n";
  p["scripts/report.py"] = "import json\n\ndef main():\n    print(json.dumps({}))\n";
  p["scripts/also_imports_models.py"] = "from pkg.models import helpers\n\nhelpers.unused(1)\n";
  return p;
}

TEST(GraphBreaksLazy, ReachesModulesWithoutCuesAndLeavesTheRestUnparsed) {
  Project p = layered_project();
  expect_cues_cover(p);
  Outcome full = analyse(p, false), lazy = analyse(p, true);
  EXPECT_EQ(lazy.results, full.results);
  // The breaks are in modules without cue words, reached through the class's base, an
  // attribute chain of a package import, a relative import and a `self` attribute.
  EXPECT_NE(full.results.find("pkg/layers/block.py"), std::string::npos) << full.results;
  EXPECT_NE(full.results.find("pkg/layers/base.py"), std::string::npos) << full.results;
  EXPECT_NE(full.results.find("pkg/layers/deep/leaf.py"), std::string::npos) << full.results;
  // With capture_scalar_outputs (set by a module train.py imports) .item() does not break.
  EXPECT_EQ(full.results.find("helpers.py"), std::string::npos) << full.results;
  EXPECT_TRUE(lazy.unsummarised.count("pkg/unrelated.py"));
  EXPECT_TRUE(lazy.unsummarised.count("scripts/report.py"));
  EXPECT_LT(lazy.summarised, p.size());
}

TEST(GraphBreaksLazy, ConfigScopeNeedsTheModulesThatMayImportTheEntry) {
  // The setter is imported only by a module without cue words that imports the entry's module:
  // the config applies, which the analysis can only know by summarising that module.
  Project p;
  p["app/model.py"] = R"(import torch


@torch.compile
def step(x):
    return x * x.sum().item()
)";
  p["app/main.py"] = "import app.model\nimport app.settings\n\ndef run(x):\n    return app.model.step(x)\n";
  p["app/settings.py"] = "import torch._dynamo\ntorch._dynamo.config.capture_scalar_outputs = True\n";
  p["app/other.py"] = "def g():\n    return 1\n";
  Outcome full = analyse(p, false), lazy = analyse(p, true);
  EXPECT_EQ(lazy.results, full.results);
  EXPECT_TRUE(full.results.empty()) << "the config from app/settings.py applies: " << full.results;
  EXPECT_FALSE(lazy.unsummarised.count("app/main.py"));
  EXPECT_TRUE(lazy.unsummarised.count("app/other.py"));

  // The same through the package: app/__init__.py imports the setter, and main.py reaches the
  // package by a relative import that never writes its name.
  p["app/__init__.py"] = "from . import settings\n";
  p["app/main.py"] = "from . import model\nfrom . import VERSION\n\ndef run(x):\n    return model.step(x)\n";
  full = analyse(p, false);
  lazy = analyse(p, true);
  EXPECT_EQ(lazy.results, full.results);
  EXPECT_TRUE(full.results.empty()) << full.results;
  p.erase("app/__init__.py");

  // Without that import the .item() breaks.
  p["app/main.py"] = "import app.model\n\ndef run(x):\n    return app.model.step(x)\n";
  full = analyse(p, false);
  lazy = analyse(p, true);
  EXPECT_EQ(lazy.results, full.results);
  EXPECT_NE(full.results.find("app/model.py"), std::string::npos);
}

// Modules summarised up front leave out the definitions their own code does not name
// (gb::summarize_lazy); another module reaching one of those asks for it.
TEST(GraphBreaksLazy, ElidedDefinitionsAreSummarisedWhenAnotherModuleReachesThem) {
  Project p;
  p["lib/ops.py"] = R"(import logging

import torch


@torch.compile
def own(x):
    return x + 1


def fused(x):
    print("fused")
    return x


def by_attribute(x):
    return x.tolist()


class Base(torch.nn.Module):
    def log(self, x):
        logging.info("x")
        return x


def untouched(x):
    print(x)
)";
  p["app.py"] = R"(import torch
from lib.ops import fused, Base
import lib.ops as ops


class Net(Base):
    def forward(self, x):
        return self.log(x)


@torch.compile
def step(x):
    y = fused(x)
    return ops.by_attribute(y)


model = torch.compile(Net())
)";
  Outcome full = analyse(p, false), lazy = analyse(p, true);
  EXPECT_EQ(lazy.results, full.results);
  // Through a from-import, a module attribute and a base class.
  EXPECT_NE(full.results.find("fused"), std::string::npos) << full.results;
  EXPECT_NE(full.results.find("tolist"), std::string::npos) << full.results;
  EXPECT_NE(full.results.find("logging.info"), std::string::npos) << full.results;
  // ops.py's own compiled code names none of them: its first summary leaves them out.
  gb::Summary first = gb::summarize_lazy(p["lib/ops.py"], rules::graph_break_calls());
  EXPECT_EQ(first.elided, (std::vector<std::string>{"Base", "by_attribute", "fused", "untouched"}));
}

// A chain of calls through more modules than the analysis runs rounds for, each module also
// holding definitions nothing reaches: the same results, whichever round the rest is summarised in.
TEST(GraphBreaksLazy, LongChainsOfModulesAndNames) {
  for (int n : {3, 11, 13, 20}) {
    Project p;
    p["m0.py"] = "import torch\nfrom m1 import f1\n\n\n@torch.compile\ndef f0(x):\n    return f1(x)\n";
    for (int i = 1; i < n; ++i)
      p[fmt::format("m{}.py", i)] =
          fmt::format("from m{0} import f{0}\n\n\ndef f{1}(x):\n    return f{0}(x)\n\n\n"
                      "def spare{1}(x):\n    print(x)\n",
                      i + 1, i);
    p[fmt::format("m{}.py", n)] = fmt::format("def f{}(x):\n    print(x)\n    return x\n\n\ndef g(x):\n    print(x)\n", n);
    p["unrelated.py"] = "def h(x):\n    print(x)\n";
    Outcome full = analyse(p, false), lazy = analyse(p, true);
    EXPECT_EQ(lazy.results, full.results) << n;
    EXPECT_NE(full.results.find(fmt::format("m{}.py", n)), std::string::npos) << n << full.results;
    if (n < 12) EXPECT_TRUE(lazy.unsummarised.count("unrelated.py")) << n;
  }
}

TEST(GraphBreaksLazy, EntryPointGlobsNeedEveryModule) {
  Project p;
  p["lib/ops.py"] = "def fused(x):\n    print(x)\n    return x\n";
  p["lib/more.py"] = "def other(x):\n    return x\n";
  model::GraphBreakInputs in;
  in.entry_points.emplace_back("lib.ops.fused", Origin{"cudalint.toml", {0, 0}});
  Outcome full = analyse(p, false, in), lazy = analyse(p, true, in);
  EXPECT_EQ(lazy.results, full.results);
  EXPECT_NE(full.results.find("lib/ops.py"), std::string::npos);
  EXPECT_TRUE(lazy.unsummarised.empty());
}

TEST(GraphBreaksLazy, WordsAreWholeIdentifiers) {
  const std::vector<std::string> all = {"Net", "_n2", "as", "from", "héllo", "import", "net", "x", "unused"};
  gb::WordSet keep_all(all.begin(), all.end());
  EXPECT_EQ(gb::words_of("from .net import Net as _n2\n# héllo x", keep_all),
            (std::vector<std::string>{"Net", "_n2", "as", "from", "héllo", "import", "net", "x"}));
  const std::vector<std::string> net = {"net"};
  gb::WordSet only_net(net.begin(), net.end());
  EXPECT_EQ(gb::words_of("network net_ nets net", only_net), (std::vector<std::string>{"net"}));
  EXPECT_TRUE(gb::words_of("", keep_all).empty());
  EXPECT_FALSE(only_net.contains("ne"));
  EXPECT_FALSE(only_net.contains("nut"));
  EXPECT_FALSE(only_net.contains(""));
  const std::string long_name(80, 'm'), longer(81, 'm');
  gb::WordSet long_set(&long_name, &long_name + 1);
  EXPECT_TRUE(long_set.contains(long_name));
  EXPECT_FALSE(long_set.contains(longer));  // same first byte and length bucket: the set decides
  EXPECT_TRUE(gb::may_start_regions("x = torch.compile(f)"));
  EXPECT_TRUE(gb::may_start_regions("import torch._dynamo as d"));
  EXPECT_TRUE(gb::may_start_regions("d.optimize('eager')(f)"));
  EXPECT_FALSE(gb::may_start_regions("import torch\nprint(torch.ones(1).item())\n"));
}

}  // namespace
}  // namespace cudalint
