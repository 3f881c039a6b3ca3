// The flags of nvcc command lines (compile_commands.json entries, setup.py extensions) that the
// CUDA front-end parses with, and the command torch's extension builder makes.
#include <gtest/gtest.h>

#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/domain/torch_support.h"

namespace cudalint {
namespace {

using Strings = std::vector<std::string>;

TEST(NvccFlags, LaterDefineOrUndefineOfANameWins) {
  auto f = cuda::nvcc_flags({"-DA=1", "-UA", "-UB", "-DB=2", "-D", "C", "--define-macro=D", "--undefine-macro", "D",
                             "-DE(x)=x", "-DE"},
                            "/p");
  EXPECT_EQ(f.defines, (Strings{"B=2", "C", "E"}));
  EXPECT_EQ(f.undefines, (Strings{"A", "D"}));
}

TEST(NvccFlags, OwnOptionsDefineNvccMacros) {
  auto f = cuda::nvcc_flags({"--expt-extended-lambda", "-expt-relaxed-constexpr", "-rdc=true", "-G"}, "/p");
  EXPECT_TRUE(f.extended_lambda);
  EXPECT_EQ(f.defines, (Strings{"__CUDACC_EXTENDED_LAMBDA__", "__CUDACC_RELAXED_CONSTEXPR__", "__CUDACC_RDC__",
                                "__CUDACC_DEBUG__"}));
  EXPECT_TRUE(cuda::nvcc_flags({"-extended-lambda"}, "/p").extended_lambda);
  EXPECT_TRUE(cuda::nvcc_flags({"--extended-lambda"}, "/p").extended_lambda);
  auto none = cuda::nvcc_flags({"-O3", "--use_fast_math", "-lineinfo"}, "/p");
  EXPECT_FALSE(none.extended_lambda);
  EXPECT_TRUE(none.defines.empty());
}

TEST(NvccFlags, HostCompilerMacrosCountOtherToolsDoNot) {
  // nvcc preprocesses device code with the host compiler: -Xcompiler's -D/-U/-I reach it.
  auto f = cuda::nvcc_flags({"-Xcompiler", "-fPIC,-DX=1,-Iinc", "--compiler-options=-UY", "-Xptxas", "-DZ",
                             "-Xcompiler", "-G", "-Xcompiler", "-std=c++20", "-Xlinker", "-DW"},
                            "/p");
  EXPECT_EQ(f.defines, (Strings{"X=1"}));
  EXPECT_EQ(f.undefines, (Strings{"Y"}));
  EXPECT_EQ(f.include_dirs, (Strings{"/p/inc"}));
  EXPECT_FALSE(f.std.has_value());  // the host compiler's standard, not nvcc's
}

TEST(NvccFlags, IncludeDirsAreResolvedAndStandardTaken) {
  auto f = cuda::nvcc_flags({"-I", "csrc", "-I../common", "-isystem", "/opt/x", "-std=c++20", "-Icsrc"}, "/p/ext");
  EXPECT_EQ(f.include_dirs, (Strings{"/p/ext/csrc", "/p/common", "/opt/x"}));
  EXPECT_EQ(f.std, "c++20");
}

TEST(NvccFlags, ArchOptionsGiveTheVirtualArchs) {
  auto f = cuda::nvcc_flags({"-gencode=arch=compute_75,code=sm_75", "-gencode", "arch=compute_80,code=[sm_86,compute_80]",
                             "--generate-code=arch=compute_90a,code=sm_90a", "-arch=sm_100", "--gpu-architecture",
                             "compute_120", "-gencode=arch=compute_75,code=compute_75", "-Xcompiler", "-arch=sm_50"},
                            "/p");
  EXPECT_TRUE(f.arch_options);
  std::vector<std::string> names;
  for (const auto& a : f.archs) names.push_back(a.sm_name());
  EXPECT_EQ(names, (Strings{"sm_75", "sm_80", "sm_90a", "sm_100", "sm_120"}));
  // Each arch with the option that named it, as written (a separate value joined by a space).
  EXPECT_EQ(f.arch_flags, (Strings{"-gencode=arch=compute_75,code=sm_75", "-gencode arch=compute_80,code=[sm_86,compute_80]",
                                   "--generate-code=arch=compute_90a,code=sm_90a", "-arch=sm_100",
                                   "--gpu-architecture compute_120"}));
  auto native = cuda::nvcc_flags({"-arch=native"}, "/p");
  EXPECT_TRUE(native.arch_options);
  EXPECT_TRUE(native.archs.empty());
  EXPECT_FALSE(cuda::nvcc_flags({"-O3", "-Xarchive", "-arch=sm_80"}, "/p").arch_options);
}

TEST(TorchExtensionCommand, TorchFlagsComeBetweenDefineMacrosAndTheExtensionsOwn) {
  Strings cmd = domain::torch_extension_nvcc_command("pkg.sub._C", {"USE_X=1", "__CUDA_NO_HALF_OPERATORS__=0"},
                                                    {"-U__CUDA_NO_HALF_OPERATORS__", "-DUSE_X=0"});
  EXPECT_EQ(cmd.front(), "-DUSE_X=1");
  EXPECT_EQ(cmd.back(), "-DTORCH_EXTENSION_NAME=_C");
  auto f = cuda::nvcc_flags(cmd, "/p");
  // torch's -D__CUDA_NO_HALF_OPERATORS__ overrides define_macros', the extension's -U overrides both.
  EXPECT_EQ(f.undefines, (Strings{"__CUDA_NO_HALF_OPERATORS__"}));
  EXPECT_EQ(f.defines, (Strings{"__CUDA_NO_HALF_CONVERSIONS__", "__CUDA_NO_BFLOAT16_CONVERSIONS__",
                                "__CUDA_NO_HALF2_OPERATORS__", "__CUDACC_RELAXED_CONSTEXPR__", "USE_X=0",
                                "TORCH_API_INCLUDE_EXTENSION_H", "TORCH_EXTENSION_NAME=_C"}));
  EXPECT_FALSE(f.extended_lambda);
}


TEST(NvccFlags, ClangCudaArchOptionsAreDevicePasses) {
  auto f = cuda::nvcc_flags({"clang++", "-x", "cuda", "--offload-arch=sm_75,sm_90a", "--cuda-gpu-arch=sm_80"}, "/p");
  EXPECT_TRUE(f.arch_options);
  std::vector<std::string> names;
  for (const auto& a : f.archs) names.push_back(a.sm_name());
  EXPECT_EQ(names, (Strings{"sm_75", "sm_90a", "sm_80"}));
  EXPECT_EQ(f.arch_flags, (Strings{"--offload-arch=sm_75,sm_90a", "--offload-arch=sm_75,sm_90a", "--cuda-gpu-arch=sm_80"}));
}

TEST(CompileDb, OwnEntryPointsAtItsCommand) {
  const std::string json =
      "[\n"
      "  {\"directory\": \"/b\", \"file\": \"a.cu\", \"command\": \"nvcc \\\"-DX={\\\" -arch=sm_80 -c a.cu\"},\n"
      "  {\"file\": \"/b/c.cu\", \"directory\": \"/b\", \"output\": {\"command\": 1},\n"
      "   \"arguments\": [\"nvcc\", \"-gencode\", \"arch=compute_75,code=sm_75\", \"c.cu\"]},\n"
      "  {\"file\": \"/b/d.cu\"}\n"
      "]\n";
  auto db = cuda::CompileDb::parse(json, "/b");
  ASSERT_TRUE(db);
  auto a = db->own_entry("/b/a.cu");
  ASSERT_TRUE(a);
  EXPECT_EQ(json.substr(a->begin, a->end - a->begin), "\"command\"");
  EXPECT_EQ(a->flags.arch_flags, (Strings{"-arch=sm_80"}));
  auto c = db->own_entry("/b/c.cu");
  ASSERT_TRUE(c);
  // The entry's own `arguments` key, not the nested object's `command`.
  EXPECT_EQ(json.substr(c->begin, c->end - c->begin), "\"arguments\"");
  EXPECT_EQ(c->flags.arch_flags, (Strings{"-gencode arch=compute_75,code=sm_75"}));
  auto d = db->own_entry("/b/d.cu");  // no command: the entry's `{`
  ASSERT_TRUE(d);
  EXPECT_EQ(json.substr(d->begin, 1), "{");
  EXPECT_FALSE(db->own_entry("/b/e.cu"));
}

}  // namespace
}  // namespace cudalint
