// setup.py front-end: real-world-shaped scripts (flash-attention, apex), macro and compile-argument
// forms, environment settings and the build_ext command classes.
#include <gtest/gtest.h>

#include <string>

#include "analyzer/frontends/python/setup_py.h"
#include "tests/unit/setup_py_helpers.h"

using namespace cudalint;
using namespace cudalint::python;
using namespace cudalint::python::test_support;

namespace {

TEST(SetupPy, FlashAttentionLike) {
  std::string t = R"PY(# Copyright (c) 2023, someone.
import os
import subprocess
from pathlib import Path
from packaging.version import parse, Version

import torch
from setuptools import setup, find_packages
from torch.utils.cpp_extension import (
    BuildExtension,
    CppExtension,
    CUDAExtension,
    CUDA_HOME,
)

this_dir = os.path.dirname(os.path.abspath(__file__))
PACKAGE_NAME = "flash_attn"
SKIP_CUDA_BUILD = os.getenv("FLASH_ATTENTION_SKIP_CUDA_BUILD", "FALSE") == "TRUE"


def get_cuda_bare_metal_version(cuda_dir):
    raw_output = subprocess.check_output([cuda_dir + "/bin/nvcc", "-V"], universal_newlines=True)
    output = raw_output.split()
    return raw_output, parse(output[output.index("release") + 1].split(",")[0])


def append_nvcc_threads(nvcc_extra_args):
    nvcc_threads = os.getenv("NVCC_THREADS") or "4"
    return nvcc_extra_args + ["--threads", nvcc_threads]


cmdclass = {}
ext_modules = []

if not SKIP_CUDA_BUILD:
    _, bare_metal_version = get_cuda_bare_metal_version(CUDA_HOME)
    cc_flag = []
    cc_flag.append("-gencode")
    cc_flag.append("arch=compute_80,code=sm_80")
    if bare_metal_version >= Version("11.8"):
        cc_flag.append("-gencode")
        cc_flag.append("arch=compute_90,code=sm_90")
    for arch in os.getenv("EXTRA_ARCHS", "").split(";"):
        cc_flag += ["-gencode", f"arch=compute_{arch},code=sm_{arch}"]

    ext_modules.append(
        CUDAExtension(
            name="flash_attn_2_cuda",
            sources=[
                "csrc/flash_attn/flash_api.cpp",
                "csrc/flash_attn/src/flash_fwd_hdim64_fp16_sm80.cu",  # forward
                "csrc/flash_attn/src/flash_bwd_hdim64_fp16_sm80.cu",
            ],
            extra_compile_args={
                "cxx": ["-O3", "-std=c++17"],
                "nvcc": append_nvcc_threads(
                    [
                        "-O3",
                        "-std=c++17",
                        "-U__CUDA_NO_HALF_OPERATORS__",
                        "--expt-relaxed-constexpr",
                        "--use_fast_math",
                    ]
                    + cc_flag
                ),
            },
            include_dirs=[Path(this_dir) / "csrc" / "flash_attn"],
        )
    )


class NinjaBuildExtension(BuildExtension):
    def __init__(self, *args, **kwargs) -> None:
        if not os.environ.get("MAX_JOBS"):
            max_jobs = max(1, os.cpu_count() // 2)
            os.environ["MAX_JOBS"] = str(max_jobs)
        super().__init__(*args, **kwargs)


setup(
    name=PACKAGE_NAME,
    packages=find_packages(exclude=("build", "csrc")),
    ext_modules=ext_modules,
    cmdclass={"build_ext": NinjaBuildExtension},
    python_requires=">=3.8",
)
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  EXPECT_TRUE(s.imports_torch);
  EXPECT_TRUE(s.uses_build_extension);
  EXPECT_EQ(at(t, s.build_extension_span), "NinjaBuildExtension");
  EXPECT_FALSE(s.use_ninja);

  ASSERT_EQ(s.extensions.size(), 1u);
  const Extension& e = s.extensions[0];
  EXPECT_EQ(e.kind, "CUDAExtension");
  ASSERT_TRUE(e.name);
  EXPECT_EQ(e.name->value, "flash_attn_2_cuda");
  EXPECT_EQ(at(t, e.name->span), "\"flash_attn_2_cuda\"");
  EXPECT_TRUE(at(t, e.call_span).starts_with("CUDAExtension(\n            name="));
  EXPECT_TRUE(at(t, e.call_span).ends_with("],\n        )"));
  EXPECT_TRUE(e.sources.complete);
  EXPECT_EQ(values(e.sources), (Strings{"csrc/flash_attn/flash_api.cpp", "csrc/flash_attn/src/flash_fwd_hdim64_fp16_sm80.cu",
                                        "csrc/flash_attn/src/flash_bwd_hdim64_fp16_sm80.cu"}));
  EXPECT_TRUE(at(t, e.sources.span).starts_with("[\n"));
  EXPECT_TRUE(e.extra_compile_args_given);
  EXPECT_TRUE(e.cxx_args.complete);
  EXPECT_EQ(values(e.cxx_args), (Strings{"-O3", "-std=c++17"}));
  EXPECT_EQ(at(t, e.cxx_args.span), "[\"-O3\", \"-std=c++17\"]");

  // The helper's `--threads <runtime value>` and the loop's f-string are not static.
  EXPECT_FALSE(e.nvcc_args.complete);
  EXPECT_TRUE(at(t, e.nvcc_args.span).starts_with("append_nvcc_threads("));
  EXPECT_EQ(values(e.nvcc_args),
            (Strings{"-O3", "-std=c++17", "-U__CUDA_NO_HALF_OPERATORS__", "--expt-relaxed-constexpr", "--use_fast_math",
                     "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90", "-gencode",
                     "--threads"}));
  const Str* sm90 = item(e.nvcc_args, "arch=compute_90,code=sm_90");
  ASSERT_TRUE(sm90);
  EXPECT_EQ(at(t, sm90->span), "\"arch=compute_90,code=sm_90\"");
  EXPECT_EQ(t.rfind("\"arch=compute_90", sm90->span.begin), sm90->span.begin);
  const Str* threads = item(e.nvcc_args, "--threads");
  ASSERT_TRUE(threads);
  EXPECT_EQ(at(t, threads->span), "\"--threads\"");  // inside the helper

  // Environment: module-level read with a default, reads without one are not settings, and
  // the assignment inside the method is conditional.
  const EnvSetting* skip = env(s, "FLASH_ATTENTION_SKIP_CUDA_BUILD", EnvSetting::Kind::GetenvDefault);
  ASSERT_TRUE(skip);
  EXPECT_FALSE(skip->conditional);
  EXPECT_EQ(skip->value->value, "FALSE");
  EXPECT_EQ(at(t, skip->span), "os.getenv(\"FLASH_ATTENTION_SKIP_CUDA_BUILD\", \"FALSE\")");
  const EnvSetting* extra = env(s, "EXTRA_ARCHS", EnvSetting::Kind::GetenvDefault);
  ASSERT_TRUE(extra);
  EXPECT_TRUE(extra->conditional);
  EXPECT_EQ(extra->value->value, "");
  EXPECT_FALSE(env(s, "NVCC_THREADS", EnvSetting::Kind::GetenvDefault));
  EXPECT_FALSE(env(s, "MAX_JOBS", EnvSetting::Kind::GetenvDefault));
  const EnvSetting* jobs = env(s, "MAX_JOBS", EnvSetting::Kind::Assign);
  ASSERT_TRUE(jobs);
  EXPECT_TRUE(jobs->conditional);
  EXPECT_FALSE(jobs->value);
  EXPECT_EQ(at(t, jobs->span), "os.environ[\"MAX_JOBS\"] = str(max_jobs)");
  EXPECT_EQ(s.env.size(), 3u);
  // Reported in source order.
  for (size_t i = 1; i < s.env.size(); ++i) EXPECT_LT(s.env[i - 1].span.begin, s.env[i].span.begin);
}

TEST(SetupPy, ApexLike) {
  std::string t = R"PY(import sys
import warnings
import os
import glob

import torch
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension, CUDA_HOME
from setuptools import setup, find_packages

if not torch.cuda.is_available():
    print("warning: no GPU visible, building for a default set of archs")
    if os.environ.get("TORCH_CUDA_ARCH_LIST", None) is None:
        os.environ["TORCH_CUDA_ARCH_LIST"] = "6.0;6.1;6.2;7.0;7.5"

TORCH_MAJOR = int(torch.__version__.split(".")[0])
TORCH_MINOR = int(torch.__version__.split(".")[1])

cmdclass = {}
ext_modules = []

version_ge_1_1 = []
if (TORCH_MAJOR > 1) or (TORCH_MAJOR == 1 and TORCH_MINOR > 0):
    version_ge_1_1 = ["-DVERSION_GE_1_1"]
version_ge_1_3 = ["-DVERSION_GE_1_3"]
version_ge_1_5 = ["-DVERSION_GE_1_5"]
version_dependent_macros = version_ge_1_1 + version_ge_1_3 + version_ge_1_5

if "--cpp_ext" in sys.argv:
    sys.argv.remove("--cpp_ext")
    ext_modules.append(CppExtension("apex_C", ["csrc/flatten_unflatten.cpp"]))

ext_modules.append(
    CUDAExtension(
        name="amp_C",
        sources=[
            "csrc/amp_C_frontend.cpp",
            "csrc/multi_tensor_sgd_kernel.cu",
        ] + glob.glob("csrc/multi_tensor_*.cu"),
        extra_compile_args={
            "cxx": ["-O3"] + version_dependent_macros,
            "nvcc": [
                "-lineinfo",
                "-O3",
                # '--resource-usage',
                "--use_fast_math",
            ] + version_dependent_macros,
        },
    )
)

ext_modules.append(
    CUDAExtension(
        name="syncbn",
        sources=["csrc/syncbn.cpp", "csrc/welford.cu"],
        extra_compile_args={"cxx": ["-O3"] + version_dependent_macros, "nvcc": ["-O3"] + version_dependent_macros},
    )
)

setup(
    name="apex",
    version="0.1",
    packages=find_packages(exclude=("build", "csrc", "include", "tests")),
    ext_modules=ext_modules,
    cmdclass={"build_ext": BuildExtension} if ext_modules else {},
)
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  ASSERT_EQ(s.extensions.size(), 3u);
  EXPECT_EQ(s.extensions[0].kind, "CppExtension");
  EXPECT_EQ(s.extensions[0].name->value, "apex_C");
  EXPECT_EQ(values(s.extensions[0].sources), (Strings{"csrc/flatten_unflatten.cpp"}));
  EXPECT_TRUE(s.extensions[0].sources.complete);
  EXPECT_FALSE(s.extensions[0].extra_compile_args_given);
  EXPECT_TRUE(s.extensions[0].nvcc_args.complete);
  EXPECT_TRUE(s.extensions[0].nvcc_args.items.empty());

  const Extension& amp = s.extensions[1];
  EXPECT_EQ(amp.name->value, "amp_C");
  EXPECT_FALSE(amp.sources.complete) << "glob.glob is not static";
  EXPECT_EQ(values(amp.sources), (Strings{"csrc/amp_C_frontend.cpp", "csrc/multi_tensor_sgd_kernel.cu"}));
  // version_ge_1_1 was assigned under an `if`: its flag may or may not be there.
  EXPECT_FALSE(amp.cxx_args.complete);
  EXPECT_EQ(values(amp.cxx_args), (Strings{"-O3", "-DVERSION_GE_1_1", "-DVERSION_GE_1_3", "-DVERSION_GE_1_5"}));
  EXPECT_EQ(at(t, amp.cxx_args.span), "[\"-O3\"] + version_dependent_macros");
  EXPECT_EQ(values(amp.nvcc_args),
            (Strings{"-lineinfo", "-O3", "--use_fast_math", "-DVERSION_GE_1_1", "-DVERSION_GE_1_3", "-DVERSION_GE_1_5"}));
  const Str* m13 = item(amp.nvcc_args, "-DVERSION_GE_1_3");
  ASSERT_TRUE(m13);
  EXPECT_EQ(at(t, m13->span), "\"-DVERSION_GE_1_3\"");
  EXPECT_LT(m13->span.begin, amp.call_span.begin) << "the span is the literal in the assignment";

  EXPECT_EQ(s.extensions[2].name->value, "syncbn");
  EXPECT_EQ(values(s.extensions[2].nvcc_args).front(), "-O3");

  // The cmdclass is a conditional expression whose test is decided: ext_modules is appended to
  // unconditionally, so it is not empty.
  EXPECT_TRUE(s.uses_build_extension);
  EXPECT_EQ(at(t, s.build_extension_span), "BuildExtension");

  ASSERT_EQ(s.env.size(), 1u);
  EXPECT_EQ(s.env[0].kind, EnvSetting::Kind::Assign);
  EXPECT_EQ(s.env[0].var, "TORCH_CUDA_ARCH_LIST");
  EXPECT_TRUE(s.env[0].conditional);
  EXPECT_EQ(s.env[0].value->value, "6.0;6.1;6.2;7.0;7.5");
  EXPECT_EQ(at(t, s.env[0].value->span), "\"6.0;6.1;6.2;7.0;7.5\"");
  EXPECT_EQ(at(t, s.env[0].span), "os.environ[\"TORCH_CUDA_ARCH_LIST\"] = \"6.0;6.1;6.2;7.0;7.5\"");
}

TEST(SetupPy, DefineMacrosAndCompileArgForms) {
  std::string t = R"PY(from torch.utils.cpp_extension import CUDAExtension, CppExtension, BuildExtension
from setuptools import setup

VERSION = "1.2"
macros = [("WITH_CUDA", None), ("_GLIBCXX_USE_CXX11_ABI", "0")]
macros += [("VERSION", VERSION), ("RUNTIME", compute()), ("ONLY_NAME",)]
common = ["-O2", "-DNDEBUG"]
kwargs = {"extra_compile_args": common + ["-g"], "define_macros": macros}

setup(
    name="pkg",
    ext_modules=[
        CUDAExtension("pkg._C", ["a.cu", "b.cpp"], define_macros=macros,
                      extra_compile_args={"nvcc": ["-G", "-lineinfo"]}),
        CppExtension("pkg._cpu", sources=("x.cpp",), **kwargs),
        CUDAExtension(name="pkg._dyn", sources=srcs, extra_compile_args=flags_from_somewhere()),
        CUDAExtension("pkg._kw", ["k.cu"], **unknown_kwargs),
    ],
    cmdclass=dict(build_ext=BuildExtension),
)
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  ASSERT_EQ(s.extensions.size(), 4u);

  const Extension& c = s.extensions[0];
  EXPECT_EQ(c.name->value, "pkg._C");
  EXPECT_EQ(at(t, c.name->span), "\"pkg._C\"");
  EXPECT_EQ(values(c.sources), (Strings{"a.cu", "b.cpp"}));
  EXPECT_EQ(at(t, c.sources.span), "[\"a.cu\", \"b.cpp\"]");
  ASSERT_EQ(c.define_macros.size(), 3u);  // the unknown value and the malformed tuple are left out
  EXPECT_EQ(c.define_macros[0].first.value, "WITH_CUDA");
  EXPECT_FALSE(c.define_macros[0].second);
  EXPECT_EQ(c.define_macros[1].first.value, "_GLIBCXX_USE_CXX11_ABI");
  ASSERT_TRUE(c.define_macros[1].second);
  EXPECT_EQ(c.define_macros[1].second->value, "0");
  EXPECT_EQ(at(t, c.define_macros[1].second->span), "\"0\"");
  EXPECT_EQ(c.define_macros[2].first.value, "VERSION");
  EXPECT_EQ(at(t, c.define_macros[2].second->span), "\"1.2\"");
  // Only the nvcc key: cxx is known to be empty.
  EXPECT_TRUE(c.cxx_args.complete);
  EXPECT_TRUE(c.cxx_args.items.empty());
  EXPECT_EQ(values(c.nvcc_args), (Strings{"-G", "-lineinfo"}));
  EXPECT_EQ(at(t, c.nvcc_args.span), "[\"-G\", \"-lineinfo\"]");
  EXPECT_EQ(at(t, c.nvcc_args.items[0].span), "\"-G\"");

  // A plain list applies to both compilers; values can come through `**kwargs`.
  const Extension& cpu = s.extensions[1];
  EXPECT_EQ(cpu.kind, "CppExtension");
  EXPECT_EQ(values(cpu.sources), (Strings{"x.cpp"}));
  EXPECT_TRUE(cpu.extra_compile_args_given);
  EXPECT_EQ(values(cpu.cxx_args), (Strings{"-O2", "-DNDEBUG", "-g"}));
  EXPECT_EQ(values(cpu.nvcc_args), values(cpu.cxx_args));
  EXPECT_TRUE(cpu.nvcc_args.complete);
  EXPECT_EQ(at(t, cpu.nvcc_args.span), "**kwargs");
  EXPECT_EQ(cpu.define_macros.size(), 3u);

  const Extension& dyn = s.extensions[2];
  EXPECT_FALSE(dyn.sources.complete);
  EXPECT_EQ(at(t, dyn.sources.span), "srcs");
  EXPECT_TRUE(dyn.extra_compile_args_given);
  EXPECT_FALSE(dyn.nvcc_args.complete);
  EXPECT_FALSE(dyn.cxx_args.complete);
  EXPECT_EQ(at(t, dyn.nvcc_args.span), "flags_from_somewhere()");

  const Extension& kw = s.extensions[3];
  EXPECT_EQ(values(kw.sources), (Strings{"k.cu"}));
  EXPECT_TRUE(kw.sources.complete);
  EXPECT_FALSE(kw.extra_compile_args_given);
  EXPECT_FALSE(kw.nvcc_args.complete) << "unknown **kwargs may carry extra_compile_args";

  EXPECT_TRUE(s.uses_build_extension);
  EXPECT_EQ(at(t, s.build_extension_span), "BuildExtension");
}

TEST(SetupPy, EnvironmentSettings) {
  std::string t = R"PY(import os
from os import environ, getenv as env_get

os.environ["TORCH_CUDA_ARCH_LIST"] = "8.0 8.6+PTX"
environ["MAX_JOBS"] = JOBS = "8"
os.environ.setdefault("FORCE_CUDA", "1")
DEBUG = env_get("DEBUG", "0")
MODE = os.environ.get("BUILD_MODE", default="release")
NO_DEFAULT = os.getenv("CUDA_HOME")
NONE_DEFAULT = os.environ.get("CUDA_PATH", None)
os.environ.update({"NVCC_APPEND_FLAGS": "-lineinfo"}, CC="gcc")
os.environ["CXX"] += " -v"
ARCHS = "7.0;" "8.0"
os.environ["ARCHS_FROM_VAR"] = ARCHS
os.environ[KEY] = "unknown key"
lazy = lambda: os.environ.setdefault("LAZY", "1")
x = os.getenv("TERNARY", "a") if DEBUG else None

if "TORCH_CUDA_ARCH_LIST" not in os.environ:
    os.environ["TORCH_CUDA_ARCH_LIST"] = "9.0"
try:
    os.environ["IN_TRY"] = "1"
except KeyError:
    os.environ["IN_EXCEPT"] = "1"
finally:
    os.environ["IN_FINALLY"] = "1"
for _ in range(1):
    os.environ["IN_FOR"] = "1"
while False:
    os.environ["IN_WHILE"] = "1"
with open("x") as f:
    os.environ["IN_WITH"] = "1"


def configure():
    os.environ["IN_FUNCTION"] = "1"


class Config:
    os.environ["IN_CLASS_BODY"] = "1"


if __name__ == "__main__":
    os.environ["IN_MAIN"] = "1"
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  using Kd = EnvSetting::Kind;

  const EnvSetting* arch = env(s, "TORCH_CUDA_ARCH_LIST", Kd::Assign);
  ASSERT_TRUE(arch);
  EXPECT_FALSE(arch->conditional);
  EXPECT_EQ(arch->value->value, "8.0 8.6+PTX");
  EXPECT_EQ(at(t, arch->value->span), "\"8.0 8.6+PTX\"");
  EXPECT_EQ(at(t, arch->span), "os.environ[\"TORCH_CUDA_ARCH_LIST\"] = \"8.0 8.6+PTX\"");

  const EnvSetting* jobs = env(s, "MAX_JOBS", Kd::Assign);
  ASSERT_TRUE(jobs);
  EXPECT_EQ(jobs->value->value, "8");
  EXPECT_EQ(at(t, jobs->span), "environ[\"MAX_JOBS\"] = JOBS = \"8\"");

  const EnvSetting* force = env(s, "FORCE_CUDA", Kd::SetDefault);
  ASSERT_TRUE(force);
  EXPECT_FALSE(force->conditional);
  EXPECT_EQ(force->value->value, "1");
  EXPECT_EQ(at(t, force->span), "os.environ.setdefault(\"FORCE_CUDA\", \"1\")");

  const EnvSetting* debug = env(s, "DEBUG", Kd::GetenvDefault);
  ASSERT_TRUE(debug);
  EXPECT_EQ(debug->value->value, "0");
  EXPECT_EQ(at(t, debug->span), "env_get(\"DEBUG\", \"0\")");
  const EnvSetting* mode = env(s, "BUILD_MODE", Kd::GetenvDefault);
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode->value->value, "release");
  EXPECT_FALSE(env(s, "CUDA_HOME", Kd::GetenvDefault));
  EXPECT_FALSE(env(s, "CUDA_PATH", Kd::GetenvDefault));

  const EnvSetting* append = env(s, "NVCC_APPEND_FLAGS", Kd::Assign);
  ASSERT_TRUE(append);
  EXPECT_EQ(append->value->value, "-lineinfo");
  const EnvSetting* cc = env(s, "CC", Kd::Assign);
  ASSERT_TRUE(cc);
  EXPECT_EQ(cc->value->value, "gcc");
  const EnvSetting* cxx = env(s, "CXX", Kd::Assign);
  ASSERT_TRUE(cxx);
  EXPECT_FALSE(cxx->value) << "`+=` on the environment is not static";
  const EnvSetting* from_var = env(s, "ARCHS_FROM_VAR", Kd::Assign);
  ASSERT_TRUE(from_var);
  EXPECT_EQ(from_var->value->value, "7.0;8.0");
  EXPECT_EQ(at(t, from_var->value->span), "\"7.0;\" \"8.0\"");

  const EnvSetting* lazy = env(s, "LAZY", Kd::SetDefault);
  ASSERT_TRUE(lazy);
  EXPECT_TRUE(lazy->conditional);
  const EnvSetting* ternary = env(s, "TERNARY", Kd::GetenvDefault);
  ASSERT_TRUE(ternary);
  EXPECT_TRUE(ternary->conditional);

  int arch_assignments = 0;
  for (const auto& e : s.env)
    if (e.var == "TORCH_CUDA_ARCH_LIST" && e.kind == Kd::Assign) ++arch_assignments;
  EXPECT_EQ(arch_assignments, 2);
  EXPECT_TRUE(s.env.back().conditional);

  for (std::string_view var : {"IN_TRY", "IN_EXCEPT", "IN_FOR", "IN_WHILE", "IN_WITH", "IN_FUNCTION", "IN_MAIN"}) {
    const EnvSetting* e = env(s, var, Kd::Assign);
    ASSERT_TRUE(e) << var;
    EXPECT_TRUE(e->conditional) << var;
  }
  // A finally clause and a class body run whenever the module does.
  ASSERT_TRUE(env(s, "IN_FINALLY", Kd::Assign));
  EXPECT_FALSE(env(s, "IN_FINALLY", Kd::Assign)->conditional);
  ASSERT_TRUE(env(s, "IN_CLASS_BODY", Kd::Assign));
  EXPECT_FALSE(env(s, "IN_CLASS_BODY", Kd::Assign)->conditional);

  for (const auto& e : s.env) EXPECT_NE(e.value ? e.value->value : "", "unknown key");
}

TEST(SetupPy, BuildExtensionWithOptions) {
  std::string t = R"PY(from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="ext",
    ext_modules=[CUDAExtension("ext", ["ext.cu"])],
    cmdclass={"build_ext": BuildExtension.with_options(no_python_abi_suffix=True, use_ninja=False)},
)
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  EXPECT_TRUE(s.imports_torch);
  EXPECT_TRUE(s.uses_build_extension);
  EXPECT_EQ(at(t, s.build_extension_span),
            "BuildExtension.with_options(no_python_abi_suffix=True, use_ninja=False)");
  ASSERT_TRUE(s.use_ninja);
  EXPECT_FALSE(s.use_ninja->first);
  EXPECT_EQ(at(t, s.use_ninja->second), "use_ninja=False");

  // Through a variable and a subclass; a runtime switch is not a static setting.
  std::string t2 = R"PY(import os
import torch.utils.cpp_extension as tce

class Builder(tce.BuildExtension):
    pass

class Quiet(Builder):
    pass

builder = Quiet.with_options(use_ninja=os.getenv("NINJA", "1") == "1")
cmdclass = {}
cmdclass["build_ext"] = builder
setup(cmdclass=cmdclass)
)PY";
  auto r2 = parse_setup_py(t2);
  EXPECT_TRUE(r2.setup.uses_build_extension);
  EXPECT_EQ(at(t2, r2.setup.build_extension_span), "builder");
  EXPECT_FALSE(r2.setup.use_ninja);
  EXPECT_TRUE(r2.setup.imports_torch);

  std::string t3 = R"PY(from torch.utils.cpp_extension import BuildExtension as BE
build = BE.with_options(use_ninja=True)
setup(cmdclass={"build_ext": build})
)PY";
  auto r3 = parse_setup_py(t3);
  ASSERT_TRUE(r3.setup.use_ninja);
  EXPECT_TRUE(r3.setup.use_ninja->first);
  EXPECT_EQ(at(t3, r3.setup.use_ninja->second), "use_ninja=True");
  EXPECT_EQ(at(t3, r3.setup.build_extension_span), "build");
}

TEST(SetupPy, CmdclassClassification) {
  auto uses = [](const std::string& t) { return parse_setup_py(t).setup.uses_build_extension; };
  // setuptools' own build_ext, also through a subclass, is not BuildExtension.
  EXPECT_FALSE(uses("from setuptools.command.build_ext import build_ext\n"
                    "class B(build_ext):\n    pass\n"
                    "setup(cmdclass={'build_ext': B})\n"));
  EXPECT_FALSE(uses("from setuptools.command.build_ext import build_ext as _b\n"
                    "setup(cmdclass={'build_ext': _b, 'x': BuildExtension})\n"));
  EXPECT_FALSE(uses("setup(cmdclass={'bdist_wheel': BuildExtension})\n"));
  EXPECT_FALSE(uses("setup(name='x')\n"));
  EXPECT_FALSE(uses("class BuildExtension(object):\n    pass\nsetup(cmdclass={'build_ext': BuildExtension})\n"))
      << "a local class that merely has the name";
  // Values the file cannot resolve are not held against it.
  EXPECT_TRUE(uses("import versioneer\nsetup(cmdclass=versioneer.get_cmdclass())\n"));
  EXPECT_TRUE(uses("from helpers import CustomBuild\nsetup(cmdclass={'build_ext': CustomBuild})\n"));
  EXPECT_TRUE(uses("setup(cmdclass={'build_ext': BuildExtension})\n")) << "star import";
  EXPECT_TRUE(uses("from torch.utils import cpp_extension\n"
                   "setup(**{'cmdclass': {'build_ext': cpp_extension.BuildExtension}})\n"));
  EXPECT_TRUE(uses("import torch\nsetup(cmdclass={'build_ext': torch.utils.cpp_extension.BuildExtension})\n"));
  // Imports that may fail: a `None` fallback keeps the import, another class makes it unknown.
  EXPECT_TRUE(uses("try:\n    from torch.utils.cpp_extension import BuildExtension\n"
                   "except ImportError:\n    BuildExtension = None\n"
                   "setup(cmdclass={'build_ext': BuildExtension})\n"));
  EXPECT_TRUE(uses("try:\n    from torch.utils.cpp_extension import BuildExtension\n"
                   "except ImportError:\n    from setuptools.command.build_ext import build_ext as BuildExtension\n"
                   "setup(cmdclass={'build_ext': BuildExtension})\n"));
  auto fallback = parse_setup_py("try:\n    from torch.utils.cpp_extension import CUDAExtension\n"
                                 "except ImportError:\n    CUDAExtension = None\n"
                                 "CUDAExtension('x', [])\n");
  EXPECT_EQ(fallback.setup.extensions.size(), 1u);
  // A definite match wins over an earlier guess.
  std::string t = "setup(cmdclass=get())\nsetup(cmdclass={'build_ext': BuildExtension})\n";
  auto r = parse_setup_py(t);
  EXPECT_EQ(at(t, r.setup.build_extension_span), "BuildExtension");
}

}  // namespace
