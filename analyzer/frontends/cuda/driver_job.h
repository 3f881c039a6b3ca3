// CUDA front-end: the flags every parse gives Clang, and Clang's driver run once per set of
// flags, whose cc1 command line every parse with those flags reuses (PreludeCache::driver_job).
// Private to analyzer/frontends/cuda.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/frontends/cuda/virtual_files.h"

namespace cudalint::cuda {

namespace detail {

// Counts errors: a PCH is only kept when building it and reading it back give none, a driver job
// when the driver and the cc1 flags give none.
class ErrorCounter : public clang::DiagnosticConsumer {
 public:
  bool any = false;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level >= clang::DiagnosticsEngine::Error) any = true;
  }
};

// Where the analysed file goes in a driver job's command line.
constexpr std::string_view kDriverInput = "/cudalint/driver-input.cu";

}  // namespace detail

// The cc1 command line Clang's driver makes of a parse's flags.
struct DriverJob {
  std::vector<std::string> cc1;       // the arguments after `-cc1`, kDriverInput for the file
  size_t input_at = 0;                // the index of kDriverInput in cc1
  size_t main_file_name_at = 0;       // the value of -main-file-name (the input's base name)
  detail::Manifest probes;            // what the driver looked up on the real file system
  // The cc1 line parsed once: each parse copies it and sets its file (ToolInvocation would parse
  // the cc1 flags twice per parse). Null: parse `cc1`.
  std::shared_ptr<const clang::CompilerInvocation> invocation;
  // The in-memory files of these flags (fixed_files), read by every parse of the job, and what
  // they point into. The PCH is owned by the PreludeCache that keeps the job (a view, not a
  // shared_ptr copy: UBSan's vptr check flags copies of control blocks made without RTTI).
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> files;
  std::string prelude, arch_text;
  std::string_view pch;
};

namespace detail {

// Runs Clang's driver as ToolInvocation does, on `args` ending with kDriverInput, over the
// parse's in-memory files; keeps the one cc1 command line it makes. nullptr when the driver
// reports an error or makes anything else: each parse then runs the driver itself, which
// reports the error as before.
std::shared_ptr<const DriverJob> make_driver_job(const std::vector<std::string>& args, const std::string& prelude,
                                                 const std::string_view* pch, const std::string& arch_text,
                                                 const std::string& resource_dir);

// The flags every arch shares: the prelude is precompiled with these.
std::vector<std::string> common_args(const Options& opts);

// A copy of the job's parsed cc1 invocation (`job.invocation`, not null) with `file` as its input.
std::shared_ptr<clang::CompilerInvocation> invocation_for(const DriverJob& job, const std::string& file);

// Hands ToolInvocation's runner one action (as ToolInvocation does with its own).
class OneAction : public clang::tooling::FrontendActionFactory {
 public:
  explicit OneAction(std::unique_ptr<clang::FrontendAction> a) : a_(std::move(a)) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::move(a_); }

 private:
  std::unique_ptr<clang::FrontendAction> a_;
};

}  // namespace detail
}  // namespace cudalint::cuda
