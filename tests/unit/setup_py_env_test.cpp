// setup.py front-end: extensions that the build's environment switches on or off.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "analyzer/frontends/python/setup_py.h"
#include "tests/unit/setup_py_helpers.h"

using namespace cudalint;
using namespace cudalint::python;
using namespace cudalint::python::test_support;

namespace {

using Cond = Extension::EnvCondition::Test;

const Extension* ext_named(const SetupPy& s, std::string_view name) {
  for (const auto& e : s.extensions)
    if (e.name && e.name->value == name) return &e;
  return nullptr;
}

// An environment given as a list of VAR=VALUE; unlisted variables are unset.
auto env_of(std::vector<std::pair<std::string, std::string>> vars) {
  return [vars = std::move(vars)](std::string_view var) -> std::optional<std::string> {
    for (const auto& [k, v] : vars)
      if (k == var) return v;
    return std::nullopt;
  };
}

TEST(SetupPyEnv, SwitchesOnExtensions) {
  std::string t = R"PY(import os
import torch
from torch.utils.cpp_extension import CUDAExtension, CppExtension
ext_modules = []
ext_modules.append(CppExtension("always", ["a.cpp"]))
if os.environ.get("X_BUILD_CUDA", "1") == "1":
    ext_modules.append(CUDAExtension("gated", ["k.cu"]))
BUILD_CUDA = os.getenv("FORCE_CUDA", "0") == "1"
if BUILD_CUDA or torch.cuda.is_available():
    ext_modules.append(CUDAExtension("maybe", ["m.cu"]))
if BUILD_CUDA:
    ext_modules.append(CUDAExtension("forced", ["f.cu"]))
if "X_NO_CUDA" not in os.environ:
    ext_modules.append(CUDAExtension("not_disabled", ["n.cu"]))
if int(os.environ.get("X_INT", 0)):
    ext_modules.append(CUDAExtension("int_gated", ["i.cu"]))
if torch.cuda.is_available():
    ext_modules.append(CUDAExtension("runtime", ["r.cu"]))
if os.getenv("MODE") == "cpu":
    ext_modules.append(CppExtension("cpu", ["c.cpp"]))
elif os.getenv("MODE") == "rocm":
    pass
else:
    ext_modules.append(CUDAExtension("default_mode", ["d.cu"]))
if os.getenv("DEBUG_BUILD") and torch.version.cuda:
    ext_modules.append(CUDAExtension("debug", ["g.cu"]))
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  ASSERT_EQ(s.extensions.size(), 10u);
  auto unset = env_of({});

  const Extension* always = ext_named(s, "always");
  ASSERT_TRUE(always);
  EXPECT_TRUE(always->env_conditions.empty()) << "outside any if";
  EXPECT_FALSE(always->unknown_condition);
  EXPECT_EQ(env_conditions_hold(*always, unset), true);

  const Extension* gated = ext_named(s, "gated");
  ASSERT_TRUE(gated);
  ASSERT_EQ(gated->env_conditions.size(), 1u);
  const auto& g = gated->env_conditions[0];
  EXPECT_EQ(g.var, "X_BUILD_CUDA");
  EXPECT_EQ(g.default_value, "1");
  EXPECT_EQ(g.test, Cond::Equals);
  EXPECT_EQ(g.value, "1");
  EXPECT_FALSE(g.numeric);
  EXPECT_EQ(at(t, g.span), "os.environ.get(\"X_BUILD_CUDA\", \"1\") == \"1\"");
  EXPECT_FALSE(gated->unknown_condition);
  EXPECT_EQ(env_conditions_hold(*gated, unset), true);
  EXPECT_EQ(env_conditions_hold(*gated, env_of({{"X_BUILD_CUDA", "0"}})), false);

  const Extension* maybe = ext_named(s, "maybe");
  ASSERT_TRUE(maybe);
  EXPECT_TRUE(maybe->env_conditions.empty()) << "`A or B` with B unknown is not an env test";
  ASSERT_TRUE(maybe->unknown_condition);
  EXPECT_EQ(at(t, *maybe->unknown_condition), "BUILD_CUDA or torch.cuda.is_available()");
  EXPECT_EQ(env_conditions_hold(*maybe, env_of({{"FORCE_CUDA", "1"}})), std::nullopt);

  const Extension* forced = ext_named(s, "forced");
  ASSERT_TRUE(forced);
  ASSERT_EQ(forced->env_conditions.size(), 1u) << "through the name bound to the test";
  EXPECT_EQ(forced->env_conditions[0].var, "FORCE_CUDA");
  EXPECT_EQ(forced->env_conditions[0].default_value, "0");
  EXPECT_EQ(forced->env_conditions[0].test, Cond::Equals);
  EXPECT_EQ(at(t, forced->env_conditions[0].span), "os.getenv(\"FORCE_CUDA\", \"0\") == \"1\"");
  EXPECT_EQ(env_conditions_hold(*forced, unset), false);
  EXPECT_EQ(env_conditions_hold(*forced, env_of({{"FORCE_CUDA", "1"}})), true);

  const Extension* nd = ext_named(s, "not_disabled");
  ASSERT_TRUE(nd);
  ASSERT_EQ(nd->env_conditions.size(), 1u);
  EXPECT_EQ(nd->env_conditions[0].var, "X_NO_CUDA");
  EXPECT_EQ(nd->env_conditions[0].test, Cond::Unset);
  EXPECT_EQ(env_conditions_hold(*nd, unset), true);
  EXPECT_EQ(env_conditions_hold(*nd, env_of({{"X_NO_CUDA", ""}})), false) << "set, even empty";

  const Extension* ig = ext_named(s, "int_gated");
  ASSERT_TRUE(ig);
  ASSERT_EQ(ig->env_conditions.size(), 1u);
  EXPECT_EQ(ig->env_conditions[0].test, Cond::Truthy);
  EXPECT_TRUE(ig->env_conditions[0].numeric);
  EXPECT_EQ(ig->env_conditions[0].default_value, "0");
  EXPECT_EQ(env_conditions_hold(*ig, unset), false);
  EXPECT_EQ(env_conditions_hold(*ig, env_of({{"X_INT", "0"}})), false) << "int('0') is falsy, '0' is not";
  EXPECT_EQ(env_conditions_hold(*ig, env_of({{"X_INT", " 2 "}})), true);
  EXPECT_EQ(env_conditions_hold(*ig, env_of({{"X_INT", "yes"}})), std::nullopt) << "int('yes') raises";

  const Extension* rt = ext_named(s, "runtime");
  ASSERT_TRUE(rt);
  EXPECT_TRUE(rt->env_conditions.empty());
  ASSERT_TRUE(rt->unknown_condition);
  EXPECT_EQ(at(t, *rt->unknown_condition), "torch.cuda.is_available()");

  const Extension* cpu = ext_named(s, "cpu");
  ASSERT_TRUE(cpu);
  ASSERT_EQ(cpu->env_conditions.size(), 1u);
  EXPECT_EQ(cpu->env_conditions[0].test, Cond::Equals);
  EXPECT_FALSE(cpu->env_conditions[0].default_value);
  const Extension* dm = ext_named(s, "default_mode");
  ASSERT_TRUE(dm);
  ASSERT_EQ(dm->env_conditions.size(), 2u) << "else: both earlier tests failed";
  EXPECT_EQ(dm->env_conditions[0].test, Cond::NotEquals);
  EXPECT_EQ(dm->env_conditions[0].value, "cpu");
  EXPECT_EQ(dm->env_conditions[1].test, Cond::NotEquals);
  EXPECT_EQ(dm->env_conditions[1].value, "rocm");
  EXPECT_EQ(env_conditions_hold(*dm, unset), true);
  EXPECT_EQ(env_conditions_hold(*dm, env_of({{"MODE", "rocm"}})), false);
  EXPECT_EQ(env_conditions_hold(*cpu, env_of({{"MODE", "cpu"}})), true);

  // A conjunction keeps its env test next to the unknown part: unset, it is certainly skipped.
  const Extension* dbg = ext_named(s, "debug");
  ASSERT_TRUE(dbg);
  ASSERT_EQ(dbg->env_conditions.size(), 1u);
  EXPECT_EQ(dbg->env_conditions[0].test, Cond::Truthy);
  EXPECT_TRUE(dbg->unknown_condition);
  EXPECT_EQ(env_conditions_hold(*dbg, unset), false);
  EXPECT_EQ(env_conditions_hold(*dbg, env_of({{"DEBUG_BUILD", "1"}})), std::nullopt);
}

TEST(SetupPyEnv, ConditionalExpressionsAndHelpers) {
  std::string t = R"PY(import os
from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension, BuildExtension

def get_extensions():
    ext_modules = []
    if not os.getenv("SKIP_CUDA"):
        ext_modules.append(CUDAExtension("helper", ["h.cu"]))
    return ext_modules

extra = os.environ.get("EXTRA") and CUDAExtension("anded", ["a.cu"])
dead = [CUDAExtension("dead", ["x.cu"])] if False else []
setup(
    name="pkg",
    ext_modules=[CUDAExtension("inline", ["i.cu"])] if os.getenv("WITH_CUDA", "0") != "0" else get_extensions(),
    cmdclass={"build_ext": BuildExtension},
)
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  EXPECT_FALSE(ext_named(s, "dead")) << "a branch that cannot be taken";
  ASSERT_EQ(s.extensions.size(), 3u);

  const Extension* helper = ext_named(s, "helper");
  ASSERT_TRUE(helper);
  ASSERT_EQ(helper->env_conditions.size(), 1u);
  EXPECT_EQ(helper->env_conditions[0].var, "SKIP_CUDA");
  EXPECT_EQ(helper->env_conditions[0].test, Cond::Falsy);
  EXPECT_FALSE(helper->unknown_condition);
  EXPECT_EQ(env_conditions_hold(*helper, env_of({})), true);
  EXPECT_EQ(env_conditions_hold(*helper, env_of({{"SKIP_CUDA", "1"}})), false);

  const Extension* anded = ext_named(s, "anded");
  ASSERT_TRUE(anded);
  ASSERT_EQ(anded->env_conditions.size(), 1u);
  EXPECT_EQ(anded->env_conditions[0].var, "EXTRA");
  EXPECT_EQ(anded->env_conditions[0].test, Cond::Truthy);

  const Extension* in = ext_named(s, "inline");
  ASSERT_TRUE(in);
  ASSERT_EQ(in->env_conditions.size(), 1u);
  EXPECT_EQ(in->env_conditions[0].var, "WITH_CUDA");
  EXPECT_EQ(in->env_conditions[0].test, Cond::NotEquals);
  EXPECT_EQ(in->env_conditions[0].value, "0");
  EXPECT_EQ(in->env_conditions[0].default_value, "0");
  EXPECT_EQ(env_conditions_hold(*in, env_of({})), false);
  EXPECT_EQ(env_conditions_hold(*in, env_of({{"WITH_CUDA", "1"}})), true);
}

TEST(SetupPyEnv, NotAnEnvTest) {
  // is None, int() compared, and the forms that are not env tests.
  std::string t = R"PY(import os, sys
from torch.utils.cpp_extension import CUDAExtension
if os.environ.get("CUDA_ROOT") is not None:
    a = CUDAExtension("root_set", ["a.cu"])
if int(os.getenv("LEVEL", "0")) == 2:
    b = CUDAExtension("level2", ["b.cu"])
if os.path.exists("csrc/k.cu"):
    c = CUDAExtension("file_check", ["c.cu"])
if "--cuda" in sys.argv:
    d = CUDAExtension("cli", ["d.cu"])
)PY";
  auto r = parse_setup_py(t);
  const SetupPy& s = r.setup;
  ASSERT_EQ(s.extensions.size(), 4u);
  const Extension* root = ext_named(s, "root_set");
  ASSERT_TRUE(root && root->env_conditions.size() == 1u);
  EXPECT_EQ(root->env_conditions[0].test, Cond::Set);
  const Extension* l2 = ext_named(s, "level2");
  ASSERT_TRUE(l2 && l2->env_conditions.size() == 1u);
  EXPECT_TRUE(l2->env_conditions[0].numeric);
  EXPECT_EQ(l2->env_conditions[0].test, Cond::Equals);
  EXPECT_EQ(l2->env_conditions[0].value, "2");
  EXPECT_EQ(env_conditions_hold(*l2, env_of({{"LEVEL", "02"}})), true);
  EXPECT_EQ(env_conditions_hold(*l2, env_of({})), false);
  for (const char* name : {"file_check", "cli"}) {
    const Extension* e = ext_named(s, name);
    ASSERT_TRUE(e) << name;
    EXPECT_TRUE(e->env_conditions.empty()) << name;
    EXPECT_TRUE(e->unknown_condition) << name;
    EXPECT_EQ(env_conditions_hold(*e, env_of({})), std::nullopt) << name;
  }
}

TEST(SetupPyEnv, KwargsDictsAndGlobs) {
  std::string t = R"PY(import glob, os
from pathlib import Path
from torch.utils.cpp_extension import CUDAExtension
this_dir = os.path.dirname(os.path.abspath(__file__))
ext_dir = os.path.join(this_dir, "csrc")
ext_args = dict(name="pkg._dict", sources=glob.glob(os.path.join(ext_dir, "*.cu")),
                extra_compile_args={"nvcc": ["-O3"], "cxx": ["-O2"]})
lit_args = {"name": "pkg._lit", "sources": [os.path.join(this_dir, "csrc", "main.cpp")],
            "extra_compile_args": {"nvcc": ["-G"]}}
sources = [os.path.join(ext_dir, "api.cpp")]
sources += glob.glob(os.path.join(ext_dir, "kernels", "**", "*.cu"), recursive=True)
exts = [
    CUDAExtension(**ext_args),
    CUDAExtension(**lit_args),
    CUDAExtension("pkg._mixed", sources),
    CUDAExtension("pkg._path", [str(p) for p in Path("csrc/ops").rglob("*.cu")]),
    CUDAExtension("pkg._unknown_dir", glob.glob(os.path.join(os.environ["SRC"], "*.cu"))),
]
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  ASSERT_EQ(s.extensions.size(), 5u);
  auto globs = [](const Extension& e) {
    Strings out;
    for (const auto& g : e.source_globs) out.push_back(g.value);
    return out;
  };

  const Extension* d = ext_named(s, "pkg._dict");
  ASSERT_TRUE(d);
  EXPECT_EQ(values(d->nvcc_args), (Strings{"-O3"}));
  EXPECT_EQ(values(d->cxx_args), (Strings{"-O2"}));
  EXPECT_FALSE(d->sources.complete);
  EXPECT_EQ(globs(*d), (Strings{"csrc/*.cu"}));
  ASSERT_EQ(d->source_globs.size(), 1u);
  EXPECT_EQ(at(t, d->source_globs[0].span), "glob.glob(os.path.join(ext_dir, \"*.cu\"))");

  const Extension* l = ext_named(s, "pkg._lit");
  ASSERT_TRUE(l);
  EXPECT_EQ(values(l->sources), (Strings{"csrc/main.cpp"})) << "relative to setup.py's directory";
  EXPECT_TRUE(l->sources.complete);
  EXPECT_TRUE(l->source_globs.empty());
  EXPECT_EQ(values(l->nvcc_args), (Strings{"-G"}));

  const Extension* m = ext_named(s, "pkg._mixed");
  ASSERT_TRUE(m);
  EXPECT_EQ(values(m->sources), (Strings{"csrc/api.cpp"}));
  EXPECT_FALSE(m->sources.complete);
  EXPECT_EQ(globs(*m), (Strings{"csrc/kernels/**/*.cu"}));

  const Extension* p = ext_named(s, "pkg._path");
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->sources.complete);
  EXPECT_EQ(globs(*p), (Strings{"csrc/ops/**/*.cu"}));

  const Extension* u = ext_named(s, "pkg._unknown_dir");
  ASSERT_TRUE(u);
  EXPECT_EQ(globs(*u), (Strings{"*/*.cu"})) << "an unknown part is a wildcard";
}

TEST(SetupPyEnv, HostileConditionsAreBounded) {
  // Deeply nested ifs, a long elif chain, deep `not`s and parentheses: no crash, no hang.
  std::string t = "import os\nfrom torch.utils.cpp_extension import CUDAExtension\n";
  std::string indent;
  // 500 levels, as DeepNestingIsBounded: a few thousand levels of indentation crash the parser
  // itself (tree-sitter-python's indent stack), before any of this front-end runs.
  for (int i = 0; i < 500; ++i) {
    t += indent + "if os.getenv(\"V" + std::to_string(i) + "\") == \"1\":\n";
    indent += " ";
  }
  t += indent + "CUDAExtension(\"deep\", [\"d.cu\"])\n";
  t += "if os.getenv('E') == '0':\n    pass\n";
  for (int i = 0; i < 5000; ++i) t += "elif os.getenv('E') == '" + std::to_string(i) + "':\n    pass\n";
  t += "else:\n    CUDAExtension('chain', ['c.cu'])\n";
  std::string nots;
  for (int i = 0; i < 20000; ++i) nots += "not (";
  t += "if " + nots + "os.getenv('N')" + std::string(20000, ')') + ":\n    CUDAExtension('nots', ['n.cu'])\n";
  auto start = std::chrono::steady_clock::now();
  auto r = parse_setup_py(t);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  const Extension* chain = ext_named(r.setup, "chain");
  ASSERT_TRUE(chain);
  EXPECT_LE(chain->env_conditions.size(), 32u) << "a fixed number of tests, the rest unknown";
  EXPECT_TRUE(chain->unknown_condition);
  EXPECT_EQ(env_conditions_hold(*chain, env_of({{"E", "0"}})), false);
}

}  // namespace

namespace {

TEST(SetupPyEnv, GuardsInHelpers) {
  std::string t = R"PY(import os
import torch
from torch.utils.cpp_extension import CUDAExtension, CUDA_HOME
if CUDA_HOME is None:
    raise RuntimeError("CUDA is needed")
def get_extensions():
    if os.getenv("NO_EXT") == "1":
        return []
    exts = [CUDAExtension("guarded", ["g.cu"])]
    return exts
def other():
    for k in ["a", "b"]:
        if os.getenv(k):
            continue
        inner = CUDAExtension("in_loop", ["l.cu"])
    return [CUDAExtension("after_loop", ["x.cu"])]
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  ASSERT_EQ(s.extensions.size(), 3u);
  const Extension* g = ext_named(s, "guarded");
  ASSERT_TRUE(g);
  ASSERT_EQ(g->env_conditions.size(), 1u) << "a raise does not condition what follows; the return does";
  EXPECT_EQ(g->env_conditions[0].var, "NO_EXT");
  EXPECT_EQ(g->env_conditions[0].test, Extension::EnvCondition::Test::NotEquals);
  EXPECT_FALSE(g->unknown_condition);
  const Extension* in_loop = ext_named(s, "in_loop");
  ASSERT_TRUE(in_loop);
  EXPECT_TRUE(in_loop->unknown_condition) << "os.getenv(k) with k unknown";
  const Extension* after = ext_named(s, "after_loop");
  ASSERT_TRUE(after);
  EXPECT_TRUE(after->env_conditions.empty()) << "the guard's block ended with the loop";
  EXPECT_FALSE(after->unknown_condition);
}

TEST(SetupPyEnv, NamesAssignedInSeveralBranches) {
  std::string t = R"PY(import os
from torch.utils.cpp_extension import CUDAExtension, IS_HIP_EXTENSION
if os.getenv("TARGET") == "rocm":
    IS_ROCM = True
else:
    IS_ROCM = False
if not IS_ROCM:
    cuda = CUDAExtension("cuda_ext", ["a.cu"])
else:
    hip = CUDAExtension("hip_ext", ["a_hip.cu"])
if IS_HIP_EXTENSION:
    never = CUDAExtension("hip_only", ["h.cu"])
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  // IS_ROCM holds True or False: the test is not the first assignment's `True`.
  const Extension* cuda = ext_named(r.setup, "cuda_ext");
  ASSERT_TRUE(cuda) << "`not IS_ROCM` is not statically false";
  EXPECT_TRUE(ext_named(r.setup, "hip_ext"));
  // A CUDA torch's IS_HIP_EXTENSION is False.
  EXPECT_FALSE(ext_named(r.setup, "hip_only"));
}

}  // namespace
