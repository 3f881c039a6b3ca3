#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "analyzer/frontends/python/jit_build.h"

using namespace cudalint;
using namespace cudalint::python;

namespace {

std::string_view at(std::string_view text, Span s) {
  if (s.begin > s.end || s.end > text.size()) return "<bad span>";
  return text.substr(s.begin, s.end - s.begin);
}

using Strings = std::vector<std::string>;

Strings values(const StrList& l) {
  Strings out;
  for (const auto& s : l.items) out.push_back(s.value);
  return out;
}

const JitBuild* named(const std::vector<JitBuild>& v, std::string_view name) {
  for (const auto& j : v)
    if (j.name && j.name->value == name) return &j;
  return nullptr;
}

TEST(JitBuild, LoadAndLoadInlineInEveryImportForm) {
  std::string t = R"PY(import os
from pathlib import Path
import torch
import torch.utils.cpp_extension as cpp_ext
from torch.utils.cpp_extension import load, load_inline
from torch.utils import cpp_extension

this_dir = os.path.dirname(os.path.abspath(__file__))
cuda_src = """
__global__ void k() {}
"""
_C = load(name="fused", sources=[os.path.join(os.path.dirname(__file__), "csrc", "k.cu"), "a.cpp"],
          extra_cuda_cflags=["-O3", "--use_fast_math"], extra_cflags=["-O2"])
mod = cpp_ext.load("aliased", [f"{this_dir}/k2.cu"], verbose=True)
mod2 = cpp_extension.load(name="via_module", sources=[str(Path(__file__).parent / "csrc" / "k3.cu")])
inl = load_inline(name="inl", cpp_sources="int f();", cuda_sources=cuda_src, functions=["f"],
                  extra_cuda_cflags=["-lineinfo"])
cpu = load_inline("cpu_only", cpp_sources=["int g();"])
def lazy():
    return torch.utils.cpp_extension.load(name="in_func", sources="x.cu")
)PY";
  auto v = find_jit_builds(t);
  ASSERT_EQ(v.size(), 6u);

  const JitBuild* fused = named(v, "fused");
  ASSERT_TRUE(fused);
  EXPECT_EQ(fused->kind, "load");
  EXPECT_TRUE(at(t, fused->call_span).starts_with("load(name=\"fused\""));
  EXPECT_EQ(values(fused->sources), (Strings{"csrc/k.cu", "a.cpp"}));
  EXPECT_TRUE(fused->sources.complete);
  EXPECT_TRUE(fused->sources_relative_to_file);
  EXPECT_EQ(at(t, fused->sources.items[0].span), "os.path.join(os.path.dirname(__file__), \"csrc\", \"k.cu\")");
  EXPECT_EQ(values(fused->nvcc_args), (Strings{"-O3", "--use_fast_math"}));
  EXPECT_EQ(values(fused->cxx_args), (Strings{"-O2"}));
  EXPECT_FALSE(fused->has_inline_cuda);

  const JitBuild* aliased = named(v, "aliased");
  ASSERT_TRUE(aliased);
  EXPECT_EQ(values(aliased->sources), (Strings{"k2.cu"}));
  EXPECT_TRUE(aliased->sources_relative_to_file);
  EXPECT_TRUE(aliased->nvcc_args.complete);
  EXPECT_TRUE(aliased->nvcc_args.items.empty());

  const JitBuild* via = named(v, "via_module");
  ASSERT_TRUE(via);
  EXPECT_EQ(values(via->sources), (Strings{"csrc/k3.cu"}));
  EXPECT_TRUE(via->sources_relative_to_file);

  const JitBuild* inl = named(v, "inl");
  ASSERT_TRUE(inl);
  EXPECT_EQ(inl->kind, "load_inline");
  EXPECT_TRUE(inl->has_inline_cuda);
  EXPECT_EQ(values(inl->nvcc_args), (Strings{"-lineinfo"}));
  EXPECT_TRUE(inl->sources.items.empty());

  const JitBuild* cpu = named(v, "cpu_only");
  ASSERT_TRUE(cpu);
  EXPECT_FALSE(cpu->has_inline_cuda);

  const JitBuild* lazy = named(v, "in_func");
  ASSERT_TRUE(lazy) << "inside a function";
  EXPECT_EQ(values(lazy->sources), (Strings{"x.cu"}));
  EXPECT_FALSE(lazy->sources_relative_to_file) << "relative to the working directory";
}

TEST(JitBuild, OtherLoadsAreNotJitBuilds) {
  std::string t = R"PY(import json, pickle, yaml, torch
from torch.utils.cpp_extension import CUDA_HOME
cfg = json.load(open("c.json"))
p = pickle.load(f)
y = yaml.load(s, Loader=yaml.SafeLoader)
m = torch.load("model.pt")
def load(name, sources):
    pass
load("x", ["k.cu"])
)PY";
  EXPECT_TRUE(find_jit_builds(t).empty());
  // Without cpp_extension in the text nothing is parsed at all.
  EXPECT_TRUE(find_jit_builds("from torch.utils.cpp_ext import load\nload('a', ['k.cu'])\n").empty());
  EXPECT_TRUE(find_jit_builds("").empty());
  // A `cpp_extensions` package (JAX projects have them) is not torch's module: nothing to
  // interpret. The whole word is, wherever it stands.
  EXPECT_FALSE(may_have_jit_builds("from transformer_engine.jax.cpp_extensions import load\n"));
  EXPECT_FALSE(may_have_jit_builds("import my_cpp_extension\nmy_cpp_extension.load('a')\n"));
  EXPECT_TRUE(may_have_jit_builds("import torch.utils.cpp_extension as e\ne.load('a', ['k.cu'])\n"));
  EXPECT_TRUE(may_have_jit_builds("from torch.utils import cpp_extension\ncpp_extension.load('a')"));
  EXPECT_FALSE(may_have_jit_builds("from torch.utils import cpp_extension\n"));  // no load
  // A star import makes the bare name torch's.
  auto v = find_jit_builds("from torch.utils.cpp_extension import *\nm = load('s', ['a.cu'])\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].name->value, "s");
}

TEST(JitBuild, UnresolvedSourcesAreIncomplete) {
  std::string t = R"PY(import os, sys
from torch.utils.cpp_extension import load
srcs = ["a.cu"]
srcs.append(sys.argv[1])
m = load("dyn", srcs, extra_cuda_cflags=flags())
n = load("named", sources=[os.path.join(ROOT, "k.cu")])
)PY";
  auto v = find_jit_builds(t);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(values(v[0].sources), (Strings{"a.cu"}));
  EXPECT_FALSE(v[0].sources.complete);
  EXPECT_FALSE(v[0].nvcc_args.complete);
  EXPECT_FALSE(v[1].sources.complete) << "ROOT is not known";
  EXPECT_TRUE(v[1].sources.items.empty());
}

TEST(JitBuild, HostileInputIsBounded) {
  std::string deep = "from torch.utils.cpp_extension import load\nx = " + std::string(50000, '(') + "load('a', ['k.cu'])" +
                     std::string(50000, ')') + "\n";
  (void)find_jit_builds(deep);  // no crash
  std::string block = R"PY(import os
from torch.utils.cpp_extension import load
this_dir = os.path.dirname(os.path.abspath(__file__))
m = load(name="m", sources=[os.path.join(this_dir, "csrc", "k.cu")], extra_cuda_cflags=["-O3"])
data = json.load(open("x.json"))
)PY";
  std::string t;
  while (t.size() < 1024 * 1024) t += block;
  auto start = std::chrono::steady_clock::now();
  auto small = find_jit_builds(t);
  auto elapsed_small = std::chrono::steady_clock::now() - start;
  while (t.size() < 10u * 1024 * 1024) t += block;
  start = std::chrono::steady_clock::now();
  auto v = find_jit_builds(t);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(v.size(), t.size() / block.size());
  EXPECT_EQ(values(v.back().sources), (Strings{"csrc/k.cu"}));
  EXPECT_LT(elapsed, 30 * elapsed_small + std::chrono::seconds(5));
}

}  // namespace
