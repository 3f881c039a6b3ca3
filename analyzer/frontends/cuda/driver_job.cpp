// CUDA front-end: the flags every parse shares, and driver jobs (driver_job.h).
#include "analyzer/frontends/cuda/driver_job.h"

#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Driver/Tool.h>
#include <fmt/format.h>
#include <llvm/Support/Path.h>
#include <llvm/TargetParser/Host.h>

#include "analyzer/frontends/cuda/cuda_frontend_internal.h"

namespace cudalint::cuda::detail {

namespace {

// The one target every parse gives Clang, whatever the arch (sm_90, the newest Clang 19 knows):
// the arch is in `__CUDA_ARCH__` and the feature macros, defined by hand, and the preprocessor
// and cudalint's checks look at nothing else (no code is generated; the prelude calls no NVPTX
// builtins). One target lets every arch use one precompiled prelude.
constexpr std::string_view kClangTarget = "--cuda-gpu-arch=sm_90";

}  // namespace

std::shared_ptr<const DriverJob> make_driver_job(const std::vector<std::string>& args, const std::string& prelude,
                                                 const std::string_view* pch, const std::string& arch_text,
                                                 const std::string& resource_dir) {
  auto job = std::make_shared<DriverJob>();
  job->prelude = prelude;
  job->arch_text = arch_text;
  if (pch) job->pch = *pch;
  job->files = fixed_files(resource_dir, job->prelude, pch ? &job->pch : nullptr, &job->arch_text);
  VirtualFiles vf(resource_dir, prelude, pch, &job->probes, &arch_text);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  ErrorCounter errs;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> dopts(new clang::DiagnosticOptions());
  clang::DiagnosticsEngine diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), &*dopts, &errs, false);
  clang::driver::Driver driver(argv[0], llvm::sys::getDefaultTargetTriple(), diags, "clang LLVM compiler",
                               &vf.files->getVirtualFileSystem());
  driver.setTitle("clang_based_tool");
  driver.setCheckInputsExist(false);  // the input is a placeholder
  std::unique_ptr<clang::driver::Compilation> comp(driver.BuildCompilation(argv));
  if (!comp || comp->containsError() || errs.any) return nullptr;
  const clang::driver::Command* cc1 = nullptr;
  for (const clang::driver::Command& c : comp->getJobs()) {
    if (llvm::StringRef(c.getCreator().getName()) != "clang") return nullptr;
    if (cc1) return nullptr;
    cc1 = &c;
  }
  if (!cc1) return nullptr;
  const std::string base(llvm::sys::path::filename(kDriverInput));
  bool input = false, name = false;
  for (const char* a : cc1->getArguments()) {
    std::string_view arg(a);
    if (arg == kDriverInput && !input) {
      job->input_at = job->cc1.size();
      input = true;
    } else if (arg == base && !name && !job->cc1.empty() && job->cc1.back() == "-main-file-name") {
      job->main_file_name_at = job->cc1.size();
      name = true;
    } else if (arg.find(base) != std::string_view::npos) {
      return nullptr;  // the file named some other way: not a plain substitution
    }
    job->cc1.emplace_back(arg);
  }
  if (!input || !name) return nullptr;
  {
    std::vector<const char*> cc1_argv;
    for (const auto& a : job->cc1) cc1_argv.push_back(a.c_str());
    ErrorCounter cc1_errs;
    clang::DiagnosticsEngine cc1_diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), &*dopts, &cc1_errs, false);
    auto inv = std::make_shared<clang::CompilerInvocation>();
    // As ToolInvocation makes it (tooling's newInvocation).
    if (clang::CompilerInvocation::CreateFromArgs(*inv, cc1_argv, cc1_diags, argv[0]) && !cc1_errs.any &&
        inv->getFrontendOpts().Inputs.size() == 1) {
      inv->getFrontendOpts().DisableFree = false;
      inv->getCodeGenOpts().DisableFree = false;
      job->invocation = std::move(inv);
    }
  }
  return job;
}

std::shared_ptr<clang::CompilerInvocation> invocation_for(const DriverJob& job, const std::string& file) {
  auto ci = std::make_shared<clang::CompilerInvocation>(*job.invocation);
  clang::FrontendInputFile& input = ci->getFrontendOpts().Inputs[0];
  input = clang::FrontendInputFile(file, input.getKind(), input.isSystem());
  ci->getCodeGenOpts().MainFileName = llvm::sys::path::filename(file).str();
  return ci;
}

std::vector<std::string> common_args(const Options& opts) {
  std::vector<std::string> args = {"clang", "-xcuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                                   "-fsyntax-only", "-w", "-ferror-limit=0", "-fno-spell-checking",
                                   "-Wno-unknown-cuda-version", "-fconstexpr-steps=200000", "-ftemplate-depth=256",
                                   // CUDA's headers declare the math functions __host__ __device__; the
                                   // prelude's are, but <cmath>'s (read later) are host-only, and an exact
                                   // host match would win in a __host__ __device__ caller (an error, and a
                                   // template whose body has one is never instantiated).
                                   "-fgpu-exclude-wrong-side-overloads", std::string(kClangTarget)};
  args.push_back("-std=" + (opts.std.empty() ? std::string("c++17") : opts.std));
  args.push_back(fmt::format("-resource-dir={}", resource_dir_or_virtual(opts.clang_resource_dir)));
  args.push_back(std::string("-I") + std::string(kStubDir));  // before the project's: see kCudaHeaders
  // Without carets Clang does not print "N errors generated ..." on stderr: errors reach the
  // user only as cudalint diagnostics.
  args.push_back("-fno-caret-diagnostics");
  return args;
}

}  // namespace cudalint::cuda::detail
