#include "analyzer/frontends/cuda/cuda_frontend.h"

#include <algorithm>
#include <set>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>

#include "analyzer/frontends/cuda/ptx.h"

namespace cudalint::cuda {

std::string_view prelude_base();  // generated from prelude.cuh

namespace {

// Clang 19 knows CUDA arches up to sm_90a; newer targets are parsed as sm_90 with
// __CUDA_ARCH__ and the feature macros of the real target defined by hand, which is all the
// preprocessor and cudalint's checks look at.
constexpr int kClangMaxSm = 90;

// Functions kernels commonly call that have no arch constraint: declared so that calls resolve.
constexpr std::string_view kCommon[] = {
    "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__syncwarp", "__threadfence",
    "__threadfence_block", "__threadfence_system", "atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax",
    "atomicCAS", "atomicAnd", "atomicOr", "atomicXor", "atomicInc", "atomicDec", "__shfl_sync", "__shfl_up_sync",
    "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__all_sync", "__activemask", "__popc",
    "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev", "__ldg", "__ldcg", "__ldca", "__ldcs", "__stcg",
    "__stcs", "__float2half", "__half2float", "__float2half_rn", "__floats2half2_rn", "__half22float2",
    "__float2bfloat16", "__bfloat162float", "__fdividef", "__expf", "__logf", "__sinf", "__cosf", "__powf", "expf",
    "exp2f", "logf", "log2f", "sqrtf", "rsqrtf", "fmaxf", "fminf", "fabsf", "tanhf", "erff", "powf", "floorf",
    "ceilf", "roundf", "max", "min", "abs", "__fmaf_rn", "__fadd_rn", "__fmul_rn", "__int_as_float", "__float_as_int",
    "__uint_as_float", "__float_as_uint", "__cvta_generic_to_shared", "__nanosleep", "clock", "clock64", "printf",
    "__trap", "__brkpt", "__umulhi", "__mulhi", "__sad", "__byte_perm", "__funnelshift_l", "__funnelshift_r",
    "__hadd", "__hsub", "__hmul", "__hdiv", "__hfma", "__hadd2", "__hmul2", "__hfma2", "__half2half2",
    "__low2float", "__high2float", "__lows2half2", "__highs2half2", "__hneg", "__habs", "__heq", "__hlt", "__hgt",
    "__shfl_sync", "__reduce_add_sync", "isnan", "isinf", "__isnanf", "__isinff", "__saturatef", "__float2int_rn",
    "__int2float_rn", "__double2float_rn", "rintf", "truncf", "fmaf", "sinf", "cosf", "__expf", "exp", "log", "sqrt",
    "fabs", "fmax", "fmin", "tanh", "floor", "ceil"};

bool plain_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string arch_suffix_name(const model::Arch& a) {
  return fmt::format("{}{}", a.sm(), a.suffix ? std::string(1, a.suffix) : std::string());
}

struct Collector {
  const FeatureTable& table;
  const std::optional<model::CudaVersion>& cuda;
  clang::SourceManager* sm = nullptr;
  clang::LangOptions lang;
  clang::FileID main;
  std::vector<FeatureUse> uses;
  std::set<std::pair<const Feature*, uint32_t>> seen;

  bool in_main(clang::SourceLocation loc, uint32_t& off) const {
    if (loc.isInvalid()) return false;
    clang::SourceLocation f = sm->getFileLoc(loc);
    if (sm->getFileID(f) != main) return false;
    off = sm->getFileOffset(f);
    return true;
  }

  void add(const Feature* f, uint32_t b, uint32_t e, std::string spelled) {
    if (!f || !seen.emplace(f, b).second) return;
    uses.push_back({f, b, std::max(b, e), std::move(spelled)});
  }
};

class DeviceBodyVisitor : public clang::RecursiveASTVisitor<DeviceBodyVisitor> {
 public:
  explicit DeviceBodyVisitor(Collector& c) : c_(c) {}

  bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
    auto* fd = llvm::dyn_cast_or_null<clang::FunctionDecl>(e->getDecl());
    if (!fd) return true;
    std::string q = fd->getQualifiedNameAsString();
    const Feature* f = c_.table.find(q, c_.cuda);
    if (!f && q.starts_with("nvcuda::wmma::")) f = c_.table.find(fd->getNameAsString(), c_.cuda);
    if (!f || f->kind == FeatureKind::Ptx) return true;
    uint32_t off = 0;
    if (!c_.in_main(e->getLocation(), off)) return true;
    c_.add(f, off, off + static_cast<uint32_t>(fd->getNameAsString().size()), fd->getNameAsString());
    return true;
  }

  bool VisitGCCAsmStmt(clang::GCCAsmStmt* s) {
    const clang::StringLiteral* lit = s->getAsmString();
    if (!lit || lit->getCharByteWidth() != 1) return true;
    uint32_t off = 0;
    if (!c_.in_main(s->getAsmLoc(), off)) return true;
    for (const PtxInstruction& ins : parse_ptx(lit->getString())) {
      const Feature* f = c_.table.find_ptx(ins.mnemonic, c_.cuda);
      if (!f) continue;
      // The asm string may be split into several literals: point at the asm statement's string.
      uint32_t b = off, e = off + 3;
      if (c_.in_main(lit->getBeginLoc(), b)) {
        // The whole literal (all its string tokens), so the caret covers the instruction text.
        uint32_t last = b;
        c_.in_main(lit->getEndLoc(), last);
        unsigned len = clang::Lexer::MeasureTokenLength(c_.sm->getFileLoc(lit->getEndLoc()), *c_.sm, c_.lang);
        e = std::max(last + len, b + 1);
      }
      c_.add(f, b, e, ins.mnemonic);
    }
    return true;
  }

 private:
  Collector& c_;
};

class TopVisitor : public clang::RecursiveASTVisitor<TopVisitor> {
 public:
  explicit TopVisitor(Collector& c) : c_(c) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(clang::FunctionDecl* fd) {
    // Device code for this arch: kernels and __device__ functions with a body, templates only
    // as instantiated (an uninstantiated pattern is never compiled).
    if (!fd->doesThisDeclarationHaveABody() || fd->isDependentContext()) return true;
    if (!fd->hasAttr<clang::CUDAGlobalAttr>() && !fd->hasAttr<clang::CUDADeviceAttr>()) return true;
    if (fd->isInvalidDecl()) return true;
    DeviceBodyVisitor v(c_);
    v.TraverseStmt(fd->getBody());
    return true;
  }

 private:
  Collector& c_;
};

class Consumer : public clang::ASTConsumer {
 public:
  explicit Consumer(Collector& c) : c_(c) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    c_.sm = &ctx.getSourceManager();
    c_.lang = ctx.getLangOpts();
    c_.main = c_.sm->getMainFileID();
    TopVisitor v(c_);
    v.TraverseDecl(ctx.getTranslationUnitDecl());
  }

 private:
  Collector& c_;
};

class Action : public clang::ASTFrontendAction {
 public:
  explicit Action(Collector& c) : c_(c) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    return std::make_unique<Consumer>(c_);
  }
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    // A missing torch or project header must not stop the analysis of the kernels.
    ci.getPreprocessor().SetSuppressIncludeNotFoundError(true);
    ci.getDiagnostics().setSuppressAllDiagnostics(true);
    return true;
  }

 private:
  Collector& c_;
};

// Keeps Clang's own diagnostics out of the output: errors from absent headers are expected.
class Quiet : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level, const clang::Diagnostic&) override {}
};

// Whether the text names anything the table knows (or has inline asm). Uses are only reported
// in the analysed file itself, so a file that names none of them cannot have a finding (except
// through a macro from a header that expands to a feature: a known blind spot) and Clang is skipped.
bool names_a_feature(std::string_view text, const FeatureTable& table) {
  static const auto build = [](const FeatureTable& t) {
    std::set<std::string, std::less<>> names = {"asm", "__asm__", "__asm"};
    for (const Feature& f : t.rows()) {
      if (f.kind == FeatureKind::Ptx) continue;
      std::string_view n = f.name;
      if (auto c = n.rfind("::"); c != std::string_view::npos) n = n.substr(c + 2);
      names.emplace(n);
    }
    return names;
  };
  const auto names = build(table);
  size_t i = 0, n = text.size();
  auto ident = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  while (i < n) {
    if (!ident(text[i])) {
      ++i;
      continue;
    }
    size_t b = i;
    while (i < n && ident(text[i])) ++i;
    if (names.count(text.substr(b, i - b))) return true;
  }
  return false;
}

}  // namespace

std::string prelude_for(const model::Arch& arch, const FeatureTable& table) {
  std::string p(prelude_base());
  int sm = arch.sm();
  p += fmt::format("\n// ---- sm_{} ----\n#define __CL_NV_NV_IS_DEVICE 1\n#define __CL_NV_NV_IS_HOST 0\n"
                   "#define __CL_NV_NV_ANY_TARGET 1\n#define __CL_NV_NV_NO_TARGET 0\n",
                   arch_suffix_name(arch));
  for (int s : {35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121}) {
    p += fmt::format("#define __CL_NV_NV_PROVIDES_SM_{} {}\n#define __CL_NV_NV_IS_EXACTLY_SM_{} {}\n", s,
                     sm >= s ? 1 : 0, s, sm == s ? 1 : 0);
  }
  for (int s : {90, 100, 101, 103, 110, 120, 121})
    p += fmt::format("#define __CL_NV_NV_HAS_FEATURE_SM_{}a {}\n", s, arch.suffix == 'a' && sm == s ? 1 : 0);
  // Declarations: every table function and the common unconstrained ones.
  std::set<std::string> plain, ptxns;
  for (std::string_view n : kCommon) plain.emplace(n);
  for (const Feature& f : table.rows()) {
    if (f.kind == FeatureKind::Ptx) continue;
    if (plain_identifier(f.name)) plain.insert(f.name);
    else if (f.name.starts_with("cuda::ptx::") && plain_identifier(f.name.substr(11))) ptxns.insert(f.name.substr(11));
    else if (f.kind == FeatureKind::Type && plain_identifier(f.name)) plain.insert(f.name);
  }
  for (const auto& n : plain) {
    if (n == "fill_fragment" || n == "load_matrix_sync" || n == "store_matrix_sync" || n == "mma_sync" ||
        n == "bmma_sync")
      continue;  // wmma functions live in their namespace
    p += fmt::format("template <class... A> __host__ __device__ __cl_any {}(A&&...);\n", n);
  }
  p += "namespace nvcuda { namespace wmma {\n";
  for (std::string_view n : {"fill_fragment", "load_matrix_sync", "store_matrix_sync", "mma_sync", "bmma_sync"})
    p += fmt::format("template <class... A> __host__ __device__ void {}(A&&...);\n", n);
  p += "} }\nnamespace cuda { namespace ptx {\n";
  for (const auto& n : ptxns) p += fmt::format("template <class... A> __device__ __cl_any {}(A&&...);\n", n);
  p += "struct space_global_t {}; struct space_shared_t {}; struct space_cluster_t {};\n"
       "inline constexpr space_global_t space_global{}; inline constexpr space_shared_t space_shared{};\n"
       "inline constexpr space_cluster_t space_cluster{};\n} }\n";
  return p;
}

Result analyze(std::string_view path, std::string_view text, const Options& opts, const FeatureTable& table) {
  Result res;
  std::string file(path);
  if (!names_a_feature(text, table)) {
    for (const model::Arch& arch : opts.archs) res.per_arch.push_back({arch, {}, true});
    return res;
  }
  for (const model::Arch& arch : opts.archs) {
    ArchResult ar;
    ar.arch = arch;
    int sm = arch.sm();
    std::vector<std::string> args = {"-xcuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "-std=c++17",
                                     "-fsyntax-only", "-w", "-ferror-limit=0", "-Wno-unknown-cuda-version",
                                     "-fno-spell-checking", "-include", "/cudalint/prelude.cuh"};
    if (sm <= kClangMaxSm) {
      args.push_back(fmt::format("--cuda-gpu-arch=sm_{}{}", sm, arch.suffix == 'a' ? "a" : ""));
    } else {
      args.push_back("--cuda-gpu-arch=sm_90");
      args.push_back("-U__CUDA_ARCH__");
      args.push_back(fmt::format("-D__CUDA_ARCH__={}", sm * 10));
    }
    if (arch.suffix == 'a') {
      args.push_back(fmt::format("-D__CUDA_ARCH_FEAT_SM{}_ALL=1", sm));
      args.push_back(fmt::format("-D__CUDA_ARCH_SPECIFIC__={}", sm * 10));
    }
    for (const auto& d : opts.include_dirs) args.push_back("-I" + d);
    for (const auto& d : opts.defines) args.push_back("-D" + d);
    Collector c{table, opts.cuda};
    try {
      std::string prelude = prelude_for(arch, table);
      clang::tooling::FileContentMappings mapped = {{"/cudalint/prelude.cuh", prelude}};
      auto pch = std::make_shared<clang::PCHContainerOperations>();
      ar.parsed = clang::tooling::runToolOnCodeWithArgs(std::make_unique<Action>(c), llvm::StringRef(text.data(), text.size()),
                                                        args, file, "cudalint", pch, mapped) ||
                  true;  // errors in user code (missing declarations) still leave a usable AST
    } catch (const std::exception& e) {
      res.errors.push_back(fmt::format("the CUDA front-end failed for sm_{}: {}", sm, e.what()));
      continue;
    }
    std::sort(c.uses.begin(), c.uses.end(), [](const FeatureUse& a, const FeatureUse& b) {
      return std::tie(a.begin, a.feature) < std::tie(b.begin, b.feature);
    });
    ar.uses = std::move(c.uses);
    res.per_arch.push_back(std::move(ar));
  }
  return res;
}

}  // namespace cudalint::cuda
