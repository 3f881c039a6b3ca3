// Unit tests for the CMake evaluator's build targets (cmake::Facts::targets) and the -D cache
// definitions of EvalOptions.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/cmake/cmake.h"

namespace cudalint::cmake {
namespace {

using V = std::vector<std::string>;

// An in-memory project rooted at /p (as in cmake_test.cpp).
struct Project {
  std::map<std::string, std::string> files;
  EvalOptions options;

  explicit Project(std::string top = "") {
    if (!top.empty()) files["/p/CMakeLists.txt"] = std::move(top);
  }
  Project& add(const std::string& rel, std::string text) {
    files["/p/" + rel] = std::move(text);
    return *this;
  }
  // A -D definition, its origin in a Dockerfile's text.
  Project& define(const std::string& name, const std::string& value, Span at = {10, 20}) {
    options.cache_definitions[name] = Value{value, Origin{"Dockerfile", at}, false};
    return *this;
  }
  EvalResult eval() const {
    FileLoader load = [this](const std::string& p) -> std::optional<std::string_view> {
      auto it = files.find(p);
      if (it == files.end()) return std::nullopt;
      return std::string_view(it->second);
    };
    DisplayPath display = [](const std::string& p) { return p.starts_with("/p/") ? p.substr(3) : p; };
    return evaluate("/p/CMakeLists.txt", load, display, options);
  }
  std::string_view text(const Origin& o) const {
    auto it = files.find("/p/" + o.path);
    EXPECT_NE(it, files.end()) << o.path;
    if (it == files.end() || o.span.end > it->second.size() || o.span.begin > o.span.end) return {};
    return std::string_view(it->second).substr(o.span.begin, o.span.end - o.span.begin);
  }
};

std::string errors_of(const EvalResult& r) {
  std::string s;
  for (const auto& e : r.errors) s += e.where.path + ": " + e.message + "\n";
  return s;
}

const Target* find(const EvalResult& r, std::string_view name) {
  for (const auto& t : r.facts.targets)
    if (t.name == name) return &t;
  return nullptr;
}

V names(const EvalResult& r) {
  V out;
  for (const auto& t : r.facts.targets) out.push_back(t.name);
  return out;
}

V paths(const Target& t) {
  V out;
  for (const auto& s : t.sources) out.push_back(s.path + (s.conditional ? "?" : ""));
  return out;
}

V values(const std::vector<Value>& v) {
  V out;
  for (const auto& x : v) out.push_back(x.value + (x.conditional ? "?" : ""));
  return out;
}

std::string archs(const Target& t) {
  if (!t.cuda_architectures) return t.cuda_architectures_unknown ? "<unknown>" : "<none>";
  return t.cuda_architectures->value + (t.cuda_architectures->conditional ? "?" : "") +
         (t.cuda_architectures_unknown ? "!" : "");
}

TEST(CMakeTargets, ArchitecturesAsOfCreation) {
  Project p(
      "set(CMAKE_CUDA_ARCHITECTURES 80)\n"
      "add_library(k STATIC k.cu)\n"
      "set(CMAKE_CUDA_ARCHITECTURES 90)\n"
      "add_executable(app main.cu)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  ASSERT_EQ(names(r), (V{"k", "app"}));
  const Target& k = r.facts.targets[0];
  EXPECT_EQ(archs(k), "80");  // a later set() does not reach a target made earlier
  EXPECT_EQ(p.text(k.cuda_architectures->origin), "80");
  EXPECT_EQ(k.command, "add_library");
  EXPECT_EQ(p.text(k.origin), "add_library");
  EXPECT_EQ(k.source_dir, "/p");
  EXPECT_EQ(paths(k), (V{"/p/k.cu"}));
  EXPECT_EQ(p.text(k.sources[0].origin), "k.cu");
  EXPECT_TRUE(k.sources_complete);
  EXPECT_EQ(archs(r.facts.targets[1]), "90");
  EXPECT_EQ(r.facts.targets[1].command, "add_executable");
}

TEST(CMakeTargets, NoArchitecturesKnownOrUnreadable) {
  auto r = Project(
               "add_library(none n.cu)\n"
               "set(CMAKE_CUDA_ARCHITECTURES $ENV{ARCHS})\n"
               "add_library(env e.cu)\n"
               "set(CMAKE_CUDA_ARCHITECTURES \"${SOME_LIST}\")\n"
               "add_library(var v.cu)\n"
               "if(USE_NEW)\n  set(CMAKE_CUDA_ARCHITECTURES 100)\nendif()\n"
               "add_library(cond c.cu)\n")
               .eval();
  EXPECT_EQ(archs(*find(r, "none")), "<none>");
  EXPECT_EQ(archs(*find(r, "env")), "?!");
  EXPECT_EQ(archs(*find(r, "var")), "?!");
  EXPECT_EQ(archs(*find(r, "cond")), "100?");  // conditional, but readable
}

TEST(CMakeTargets, TargetPropertiesOverride) {
  Project p(
      "set(CMAKE_CUDA_ARCHITECTURES 80)\n"
      "add_library(k k.cu)\n"
      "add_library(other o.cu)\n"
      "set_target_properties(k PROPERTIES CUDA_ARCHITECTURES \"90;100\" POSITION_INDEPENDENT_CODE ON)\n"
      "set_property(TARGET other APPEND PROPERTY CUDA_ARCHITECTURES 120)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  const Target* k = find(r, "k");
  ASSERT_TRUE(k);
  EXPECT_EQ(archs(*k), "90;100");
  EXPECT_EQ(p.text(k->cuda_architectures->origin), "\"90;100\"");
  EXPECT_EQ(archs(*find(r, "other")), "80;120");
  // The existing per-target fact is still recorded.
  ASSERT_EQ(r.facts.target_cuda_architectures.size(), 2u);
  EXPECT_EQ(r.facts.target_cuda_architectures[0].target, "k");
}

TEST(CMakeTargets, SubdirectoryArchitecturesStayThere) {
  Project p(
      "set(CMAKE_CUDA_ARCHITECTURES 80 90)\n"
      "add_subdirectory(tests)\n"
      "add_library(core core.cu)\n"
      "set(TORCH_CUDA_ARCH_LIST \"${FROM_TESTS}\")\n");
  p.add("tests/CMakeLists.txt",
        "set(CMAKE_CUDA_ARCHITECTURES 70)\n"
        "set(FROM_TESTS leaked)\n"
        "add_executable(t t.cu ../common/util.cu)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  const Target* core = find(r, "core");
  const Target* t = find(r, "t");
  ASSERT_TRUE(core && t);
  EXPECT_EQ(archs(*core), "80;90");
  EXPECT_EQ(core->cuda_architectures->origin.path, "CMakeLists.txt");
  EXPECT_EQ(archs(*t), "70");
  EXPECT_EQ(t->cuda_architectures->origin.path, "tests/CMakeLists.txt");
  EXPECT_EQ(t->source_dir, "/p/tests");
  EXPECT_EQ(paths(*t), (V{"/p/tests/t.cu", "/p/common/util.cu"}));
  // A variable set in the subdirectory does not reach the parent (unknown there: empty, uncertain).
  ASSERT_EQ(r.facts.torch_cuda_arch_list.size(), 1u);
  EXPECT_EQ(r.facts.torch_cuda_arch_list[0].value, "");
}

TEST(CMakeTargets, SourceCompileOptionsOnThatSourceOnly) {
  Project p(
      "add_library(k a.cu b.cu)\n"
      "set_source_files_properties(a.cu PROPERTIES COMPILE_OPTIONS \"--generate-code=arch=compute_100a,code=sm_100a\")\n"
      "set_property(SOURCE b.cu APPEND PROPERTY COMPILE_DEFINITIONS FOO=1)\n"
      "add_subdirectory(sub)\n");
  // Source properties are directory-scoped: set in sub/, they do not reach k's a.cu.
  p.add("sub/CMakeLists.txt", "set_source_files_properties(../a.cu PROPERTIES COMPILE_OPTIONS -G)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  const Target* k = find(r, "k");
  ASSERT_TRUE(k);
  ASSERT_EQ(k->sources.size(), 2u);
  const TargetSource& a = k->sources[0];
  const TargetSource& b = k->sources[1];
  EXPECT_EQ(a.path, "/p/a.cu");
  EXPECT_EQ(values(a.compile_options), (V{"--generate-code=arch=compute_100a,code=sm_100a"}));
  EXPECT_EQ(p.text(a.compile_options[0].origin), "\"--generate-code=arch=compute_100a,code=sm_100a\"");
  EXPECT_TRUE(a.compile_definitions.empty());
  EXPECT_TRUE(b.compile_options.empty());
  EXPECT_EQ(values(b.compile_definitions), (V{"FOO=1"}));
  // The target-wide flags are untouched.
  EXPECT_TRUE(k->cuda_flags.empty());
}

TEST(CMakeTargets, SourcePropertiesSetAfterTheTargetAndInItsDirectory) {
  Project p("add_subdirectory(ext)\n");
  p.add("ext/CMakeLists.txt",
        "add_library(ext k.cu)\n"
        "set_source_files_properties(k.cu PROPERTIES COMPILE_FLAGS \"-gencode arch=compute_90a,code=sm_90a\")\n");
  auto r = p.eval();
  const Target* ext = find(r, "ext");
  ASSERT_TRUE(ext);
  ASSERT_EQ(ext->sources.size(), 1u);
  EXPECT_EQ(values(ext->sources[0].compile_options), (V{"-gencode arch=compute_90a,code=sm_90a"}));
  EXPECT_EQ(ext->sources[0].compile_options[0].origin.path, "ext/CMakeLists.txt");
}

TEST(CMakeTargets, FunctionWrappingAddLibrary) {
  Project p(
      "function(add_cuda_ext name)\n"
      "  add_library(${name} SHARED ${ARGN})\n"
      "  set_target_properties(${name} PROPERTIES CUDA_ARCHITECTURES 90a)\n"
      "endfunction()\n"
      "macro(add_tool name src)\n"
      "  add_executable(${name} ${src})\n"
      "endmacro()\n"
      "add_cuda_ext(ext csrc/k.cu csrc/l.cu)\n"
      "add_tool(tool tool.cu)\n"
      "add_subdirectory(sub)\n");
  p.add("sub/CMakeLists.txt", "add_cuda_ext(subext s.cu)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  ASSERT_EQ(names(r), (V{"ext", "tool", "subext"}));
  const Target& ext = r.facts.targets[0];
  EXPECT_EQ(ext.command, "add_library");
  EXPECT_EQ(p.text(ext.origin), "add_cuda_ext");  // the call the user wrote
  EXPECT_EQ(ext.origin.span.begin, p.files.at("/p/CMakeLists.txt").find("add_cuda_ext(ext"));
  EXPECT_EQ(paths(ext), (V{"/p/csrc/k.cu", "/p/csrc/l.cu"}));
  EXPECT_EQ(p.text(ext.sources[1].origin), "csrc/l.cu");
  EXPECT_EQ(archs(ext), "90a");
  const Target& tool = r.facts.targets[1];
  EXPECT_EQ(p.text(tool.origin), "add_tool");
  EXPECT_EQ(p.text(tool.sources[0].origin), "tool.cu");
  const Target& sub = r.facts.targets[2];
  EXPECT_EQ(sub.source_dir, "/p/sub");  // the caller's directory, not the function's file
  EXPECT_EQ(paths(sub), (V{"/p/sub/s.cu"}));
  EXPECT_EQ(sub.sources[0].origin.path, "sub/CMakeLists.txt");
  EXPECT_EQ(p.text(sub.sources[0].origin), "s.cu");
}

TEST(CMakeTargets, OtherCreatorsAndWhatIsNotCompiled) {
  auto r = Project(
               "pybind11_add_module(pyext MODULE NO_EXTRAS src/bind.cpp src/k.cu)\n"
               "python_add_library(pylib MODULE WITH_SOABI USE_SABI 3.12 p.cpp)\n"
               "nanobind_add_module(nb NB_STATIC NB_DOMAIN mine n.cpp)\n"
               "add_library(core::core ALIAS core)\n"
               "add_library(imp SHARED IMPORTED)\n"
               "add_library(iface INTERFACE)\n")
               .eval();
  ASSERT_EQ(names(r), (V{"pyext", "pylib", "nb"}));
  EXPECT_EQ(r.facts.targets[0].command, "pybind11_add_module");
  EXPECT_EQ(paths(r.facts.targets[0]), (V{"/p/src/bind.cpp", "/p/src/k.cu"}));
  EXPECT_EQ(paths(r.facts.targets[1]), (V{"/p/p.cpp"}));
  EXPECT_EQ(paths(r.facts.targets[2]), (V{"/p/n.cpp"}));
}

TEST(CMakeTargets, GlobMarksSourcesIncomplete) {
  Project p(
      "file(GLOB KERNELS csrc/*.cu)\n"
      "file(GLOB_RECURSE MORE CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/ops/*.cu)\n"
      "set(SRCS main.cpp)\n"
      "list(APPEND SRCS ${KERNELS} ${MORE})\n"
      "add_library(k ${SRCS})\n"
      "add_library(plain a.cu)\n"
      "add_library(unknown ${EXTRA_SOURCES} b.cu)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  const Target* k = find(r, "k");
  ASSERT_TRUE(k);
  EXPECT_FALSE(k->sources_complete);
  ASSERT_EQ(k->sources.size(), 1u);
  EXPECT_EQ(k->sources[0].path, "/p/main.cpp");
  ASSERT_EQ(k->globs.size(), 2u);
  EXPECT_EQ(k->globs[0].pattern, "/p/csrc/*.cu");
  EXPECT_FALSE(k->globs[0].recurse);
  EXPECT_EQ(p.text(k->globs[0].origin), "csrc/*.cu");
  EXPECT_EQ(k->globs[1].pattern, "/p/ops/*.cu");
  EXPECT_TRUE(k->globs[1].recurse);
  EXPECT_TRUE(find(r, "plain")->sources_complete);
  const Target* unknown = find(r, "unknown");
  EXPECT_FALSE(unknown->sources_complete);
  EXPECT_EQ(paths(*unknown), (V{"/p/b.cu"}));
  EXPECT_TRUE(unknown->globs.empty());
}

TEST(CMakeTargets, TargetSources) {
  Project p(
      "add_library(k)\n"
      "target_sources(k PRIVATE a.cu INTERFACE i.cu PUBLIC $<BUILD_INTERFACE:b.cu> FILE_SET HEADERS FILES h.h)\n"
      "target_sources(k PRIVATE $<TARGET_OBJECTS:other>)\n"
      "target_sources(nothere PRIVATE x.cu)\n"
      "add_subdirectory(sub)\n");
  p.add("sub/CMakeLists.txt", "target_sources(k PRIVATE s.cu a.cu ../a.cu)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  ASSERT_EQ(names(r), (V{"k"}));
  const Target& k = r.facts.targets[0];
  // Relative to the directory of the target_sources call; each file once.
  EXPECT_EQ(paths(k), (V{"/p/a.cu", "/p/b.cu?", "/p/sub/s.cu", "/p/sub/a.cu"}));
  EXPECT_EQ(p.text(k.sources[0].origin), "a.cu");
  EXPECT_EQ(k.sources[2].origin.path, "sub/CMakeLists.txt");
  EXPECT_FALSE(k.sources_complete);  // $<TARGET_OBJECTS:...> cannot be read
}

TEST(CMakeTargets, CacheDefinitionsBeatDefaults) {
  const std::string top =
      "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n"
      "  set(CMAKE_CUDA_ARCHITECTURES 80 90)\n"
      "endif()\n"
      "set(TORCH_CUDA_ARCH_LIST 8.0 CACHE STRING \"archs\")\n"
      "add_library(k k.cu)\n";
  {
    Project p(top);
    p.define("CMAKE_CUDA_ARCHITECTURES", "120", {30, 33}).define("TORCH_CUDA_ARCH_LIST", "12.0");
    auto r = p.eval();
    EXPECT_TRUE(r.errors.empty()) << errors_of(r);
    const Target* k = find(r, "k");
    ASSERT_TRUE(k);
    EXPECT_EQ(archs(*k), "120");
    EXPECT_EQ(k->cuda_architectures->origin, (Origin{"Dockerfile", {30, 33}}));
    // The -D values are the only ones: neither the default nor the CACHE set replaces them.
    EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"120"}));
    EXPECT_EQ(r.facts.cmake_cuda_architectures[0].origin.path, "Dockerfile");
    EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"12.0"}));
  }
  {
    auto r = Project(top).eval();  // without -D: the default, under an undecidable condition
    EXPECT_EQ(archs(*find(r, "k")), "80;90?");
    EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"8.0"}));
  }
}

TEST(CMakeTargets, CacheDefinitionsAgainstCacheSetsAndShadowing) {
  Project p(
      "set(CMAKE_CUDA_ARCHITECTURES 75 CACHE STRING \"\")\n"
      "add_library(a a.cu)\n"
      "set(CMAKE_CUDA_ARCHITECTURES 86)\n"  // a normal variable shadows the cache entry
      "add_library(b b.cu)\n"
      "unset(CMAKE_CUDA_ARCHITECTURES)\n"  // and unsetting it shows the cache entry again
      "add_library(c c.cu)\n"
      "set(CMAKE_CUDA_ARCHITECTURES 89 CACHE STRING \"\" FORCE)\n"
      "add_library(d d.cu)\n");
  p.define("CMAKE_CUDA_ARCHITECTURES", "90");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  EXPECT_EQ(archs(*find(r, "a")), "90");
  EXPECT_EQ(archs(*find(r, "b")), "86");
  EXPECT_EQ(archs(*find(r, "c")), "90");
  EXPECT_EQ(archs(*find(r, "d")), "89");
  EXPECT_EQ(p.text(find(r, "d")->cuda_architectures->origin), "89");
}

TEST(CMakeTargets, CacheDefinitionOfCudaFlags) {
  Project p("add_library(k k.cu)\n");
  p.define("CMAKE_CUDA_FLAGS", "-O2 -gencode=arch=compute_90,code=sm_90", {3, 9});
  auto r = p.eval();
  const Target* k = find(r, "k");
  ASSERT_TRUE(k);
  EXPECT_EQ(values(k->cuda_flags), (V{"-gencode=arch=compute_90,code=sm_90"}));
  EXPECT_EQ(k->cuda_flags[0].origin, (Origin{"Dockerfile", {3, 9}}));
}

TEST(CMakeTargets, ParseCacheDefinition) {
  using P = std::optional<std::pair<std::string, std::string>>;
  EXPECT_EQ(parse_cache_definition("-DCMAKE_CUDA_ARCHITECTURES=80;90"), (P{{"CMAKE_CUDA_ARCHITECTURES", "80;90"}}));
  EXPECT_EQ(parse_cache_definition("-DX:STRING=a=b"), (P{{"X", "a=b"}}));
  EXPECT_EQ(parse_cache_definition("Y:BOOL=ON"), (P{{"Y", "ON"}}));
  EXPECT_EQ(parse_cache_definition("-DZ="), (P{{"Z", ""}}));
  EXPECT_EQ(parse_cache_definition("-D"), std::nullopt);
  EXPECT_EQ(parse_cache_definition("-DNOVALUE"), std::nullopt);
  EXPECT_EQ(parse_cache_definition("-D=1"), std::nullopt);
}

TEST(CMakeTargets, GeneratorExpressionsInTargetCompileOptions) {
  Project p(
      "add_library(k k.cu)\n"
      "target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-gencode=arch=compute_90a,code=sm_90a> -O3\n"
      "  INTERFACE -arch=sm_80)\n"
      "target_compile_options(k PUBLIC \"$<$<COMPILE_LANGUAGE:CUDA>:SHELL:--generate-code arch=compute_100a,code=sm_100a>\")\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  const Target* k = find(r, "k");
  ASSERT_TRUE(k);
  // INTERFACE options reach k's users, not k.
  EXPECT_EQ(values(k->cuda_flags),
            (V{"-gencode=arch=compute_90a,code=sm_90a", "--generate-code arch=compute_100a,code=sm_100a"}));
  EXPECT_EQ(p.text(k->cuda_flags[0].origin), "$<$<COMPILE_LANGUAGE:CUDA>:-gencode=arch=compute_90a,code=sm_90a>");
}

TEST(CMakeTargets, CudaFlagsByDirectoryAndCompileOptionsAtCreation) {
  Project p(
      "set(CMAKE_CUDA_FLAGS \"-gencode=arch=compute_80,code=sm_80\")\n"
      "add_library(k k.cu)\n"
      "add_compile_options(-arch=sm_70)\n"
      "add_library(l l.cu)\n"
      "add_subdirectory(sub)\n"
      "string(APPEND CMAKE_CUDA_FLAGS \" -gencode=arch=compute_90,code=sm_90\")\n");
  p.add("sub/CMakeLists.txt",
        "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -gencode=arch=compute_75,code=sm_75\")\n"
        "add_library(s s.cu)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  // CMAKE_CUDA_FLAGS as it stands at the end of the directory; add_compile_options as at creation.
  EXPECT_EQ(values(find(r, "k")->cuda_flags),
            (V{"-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=sm_90"}));
  EXPECT_EQ(values(find(r, "l")->cuda_flags),
            (V{"-arch=sm_70", "-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=sm_90"}));
  const Target* s = find(r, "s");
  EXPECT_EQ(values(s->cuda_flags),
            (V{"-arch=sm_70", "-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_75,code=sm_75"}));
  EXPECT_EQ(p.text(find(r, "k")->cuda_flags[1].origin), "\" -gencode=arch=compute_90,code=sm_90\"");
  EXPECT_EQ(s->cuda_flags[2].origin.path, "sub/CMakeLists.txt");
}

TEST(CMakeTargets, CompileDefinitions) {
  Project p(
      "add_definitions(-DA=1 -O2)\n"
      "add_library(k k.cu)\n"
      "add_compile_definitions(B)\n"
      "target_compile_definitions(k PRIVATE C=$<IF:1,x,y> INTERFACE D)\n"
      "add_subdirectory(sub)\n"
      "add_definitions(-DLATE)\n");
  p.add("sub/CMakeLists.txt", "add_library(s s.cu)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  // The directory's definitions reach all its targets, made before or after; a subdirectory
  // gets its parent's as of add_subdirectory.
  EXPECT_EQ(values(find(r, "k")->compile_definitions), (V{"A=1", "B", "LATE", "C=?"}));
  EXPECT_EQ(values(find(r, "s")->compile_definitions), (V{"A=1", "B"}));
}

// One add_* run again under a name the evaluator cannot tell apart (a function called per
// variant) makes several targets of that name: a later command means the one its call made last.
// Branches that each make the target keep getting it.
TEST(CMakeTargets, RepeatedTargetNameMeansTheLatestOfEachCall) {
  Project p(
      "function(variant tag)\n"
      "  add_library(feats OBJECT ${tag}.cu)\n"
      "  target_compile_definitions(feats PRIVATE ${ARGN})\n"
      "  target_sources(feats PRIVATE ${tag}_extra.cu)\n"
      "endfunction()\n"
      "variant(a A)\n"
      "variant(b B)\n"
      "variant(c C)\n"
      "if(USE_NEW)\n  add_library(x new.cu)\nelse()\n  add_library(x old.cu)\nendif()\n"
      "target_compile_definitions(x PRIVATE D)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  std::vector<const Target*> feats, x;
  for (const auto& t : r.facts.targets) {
    if (t.name == "feats") feats.push_back(&t);
    if (t.name == "x") x.push_back(&t);
  }
  ASSERT_EQ(feats.size(), 3u);
  EXPECT_EQ(values(feats[0]->compile_definitions), (V{"A"}));
  EXPECT_EQ(values(feats[1]->compile_definitions), (V{"B"}));
  EXPECT_EQ(values(feats[2]->compile_definitions), (V{"C"}));
  EXPECT_EQ(paths(*feats[0]), (V{"/p/a.cu", "/p/a_extra.cu"}));
  EXPECT_EQ(paths(*feats[2]), (V{"/p/c.cu", "/p/c_extra.cu"}));
  ASSERT_EQ(x.size(), 2u);
  EXPECT_EQ(values(x[0]->compile_definitions).size(), 1u);
  EXPECT_EQ(values(x[1]->compile_definitions).size(), 1u);
}

TEST(CMakeTargets, LegacyCudaAddLibrary) {
  Project p(
      "find_package(CUDA)\n"
      "set(CMAKE_CUDA_ARCHITECTURES 90)\n"
      "list(APPEND CUDA_NVCC_FLAGS -gencode arch=compute_70,code=sm_70)\n"
      "cuda_add_library(k k.cu SHARED OPTIONS -arch=sm_60 DEBUG -G -arch=sm_50)\n");
  auto r = p.eval();
  const Target* k = find(r, "k");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->command, "cuda_add_library");
  EXPECT_EQ(paths(*k), (V{"/p/k.cu"}));
  EXPECT_EQ(archs(*k), "<none>");  // FindCUDA's own nvcc commands ignore CUDA_ARCHITECTURES
  EXPECT_EQ(values(k->cuda_flags), (V{"-gencode arch=compute_70,code=sm_70", "-arch=sm_60", "-arch=sm_50?"}));
  EXPECT_EQ(p.text(k->cuda_flags[1].origin), "-arch=sm_60");
}

TEST(CMakeTargets, ConditionalTargets) {
  auto r = Project("if(BUILD_EXT)\n  add_library(ext e.cu)\nendif()\nadd_library(always a.cu)\n").eval();
  EXPECT_TRUE(find(r, "ext")->conditional);
  EXPECT_EQ(paths(*find(r, "ext")), (V{"/p/e.cu?"}));
  EXPECT_FALSE(find(r, "always")->conditional);
}

// Hostile input: many targets over long lists, wrappers calling themselves, properties on
// everything. Work stays bounded and nothing throws.
TEST(CMakeTargets, BoundedWork) {
  std::string big = "set(L a.cu)\n";
  for (int i = 0; i < 14; ++i) big += "list(APPEND L ${L})\n";  // 16,384 items
  auto start = std::chrono::steady_clock::now();
  auto r = Project(big +
                   "add_compile_options(${L})\n"
                   "add_definitions(${L})\n"
                   "function(w n)\n  add_library(${n} ${ARGN})\n  w(${n}x ${ARGN})\nendfunction()\n"
                   "foreach(i RANGE 2000)\n"
                   "  w(t${i} ${L})\n"
                   "  set_source_files_properties(${L} PROPERTIES COMPILE_OPTIONS \"${L}\")\n"
                   "  add_subdirectory(sub)\n"
                   "endforeach()\n")
               .add("sub/CMakeLists.txt", "file(GLOB G *.cu)\nadd_library(s${i} ${G} ${L})\ntarget_sources(s${i} PRIVATE ${L})\n")
               .eval();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 20.0);
  EXPECT_FALSE(r.errors.empty());  // it stopped at a limit
  EXPECT_FALSE(r.facts.targets.empty());
}

}  // namespace
}  // namespace cudalint::cmake
