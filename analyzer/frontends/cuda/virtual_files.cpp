#include "analyzer/frontends/cuda/virtual_files.h"

#include <clang/Basic/Version.h>
#include <fmt/format.h>
#include <llvm/Support/MemoryBuffer.h>

#include "analyzer/frontends/cuda/cuda_frontend_internal.h"
#include "analyzer/frontends/cuda/resource_headers.h"

namespace cudalint::cuda {

std::string_view torch_stub_text();  // generated from torch_stub.cuh
std::string_view torch_atomic_stub_text();  // generated from torch_atomic_stub.cuh

namespace detail {

namespace {

Probe probe_of(const llvm::ErrorOr<llvm::vfs::Status>& st) {
  if (!st) return Probe::Absent;
  if (st->isDirectory()) return Probe::Dir;
  if (st->isRegularFile()) return Probe::File;
  return Probe::Other;
}

}  // namespace

void note_probe(Manifest& m, std::string path, Probe p) {
  auto [it, fresh] = m.emplace(std::move(path), p);
  if (fresh || it->second == p) return;
  auto file_like = [](Probe q) { return q == Probe::File || q == Probe::Read; };
  if (file_like(it->second) && file_like(p)) it->second = Probe::Read;
  else it->second = Probe::Other;  // changed during the parse: never valid
}

namespace {

class RecordingFileSystem : public llvm::vfs::ProxyFileSystem {
 public:
  RecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, Manifest* out)
      : ProxyFileSystem(std::move(fs)), out_(out) {}
  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine& path) override {
    auto st = ProxyFileSystem::status(path);
    note(path.str(), probe_of(st));
    return st;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override {
    auto f = ProxyFileSystem::openFileForRead(path);
    note(path.str(), f ? Probe::Read : Probe::Absent);
    return f;
  }

 private:
  void note(std::string path, Probe p) { note_probe(*out_, std::move(path), p); }
  Manifest* out_;
};

}  // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> fixed_files(const std::string& resource_dir,
                                                                    const std::string& prelude,
                                                                    const std::string_view* pch,
                                                                    const std::string* arch_text) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> mem(new llvm::vfs::InMemoryFileSystem);
  mem->addFile(kPreludePath, 0, llvm::MemoryBuffer::getMemBuffer(prelude, kPreludePath));
  // The main file a PCH is built from (a PCH names it; a parse that reads the PCH needs it too).
  mem->addFile(kPchMain, 0, llvm::MemoryBuffer::getMemBuffer(kPchMainText, kPchMain));
  if (pch) mem->addFile(kPchPath, 0, llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(pch->data(), pch->size()), kPchPath, false));
  if (arch_text) mem->addFile(kArchPath, 0, llvm::MemoryBuffer::getMemBuffer(*arch_text, kArchPath));
  for (std::string_view h : kCudaHeaders)
    mem->addFile(fmt::format("{}/{}", kStubDir, h), 0, llvm::MemoryBuffer::getMemBuffer("#pragma once\n", h));
  mem->addFile(kTorchStubPath, 0, llvm::MemoryBuffer::getMemBuffer(torch_stub_text(), kTorchStubPath));
  for (std::string_view h : kTorchHeaders)
    mem->addFile(fmt::format("{}/{}", kStubDir, h), 0, llvm::MemoryBuffer::getMemBuffer(kTorchStubInclude, h));
  mem->addFile(kTorchAtomicStubPath, 0, llvm::MemoryBuffer::getMemBuffer(torch_atomic_stub_text(), kTorchAtomicStubPath));
  for (std::string_view h : kTorchAtomicHeaders)
    mem->addFile(fmt::format("{}/{}", kStubDir, h), 0, llvm::MemoryBuffer::getMemBuffer(kTorchAtomicStubInclude, h));
  // Debian's Clang replaces a resource directory that does not exist on disk with this one
  // (its headers' package; absent where no LLVM is installed): both get the embedded headers.
  for (const std::string& dir : {resource_dir_or_virtual(resource_dir) + "/include",
                                 std::string("/usr/include/clang/" CLANG_VERSION_STRING "/include")})
    for (const EmbeddedHeader& h : clang_resource_headers()) {
      std::string path = fmt::format("{}/{}", dir, h.path);
      mem->addFile(path, 0, llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(h.text.data(), h.text.size()), path));
    }
  return mem;
}

namespace {

// A shared read-only file system as one layer of a parse's overlay: the overlay sets each
// layer's working directory, which would race between threads (its paths are absolute anyway).
class SharedLayer : public llvm::vfs::ProxyFileSystem {
 public:
  using ProxyFileSystem::ProxyFileSystem;
  std::error_code setCurrentWorkingDirectory(const llvm::Twine&) override { return {}; }
};

}  // namespace

VirtualFiles::VirtualFiles(const std::string& resource_dir, const std::string& prelude, const std::string_view* pch,
                           Manifest* record, const std::string* arch_text,
                           llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> shared) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real = llvm::vfs::getRealFileSystem();
  if (record) real = llvm::makeIntrusiveRefCnt<RecordingFileSystem>(real, record);
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> fs(new llvm::vfs::OverlayFileSystem(real));
  if (shared) fs->pushOverlay(llvm::makeIntrusiveRefCnt<SharedLayer>(shared));
  else fs->pushOverlay(fixed_files(resource_dir, prelude, pch, arch_text));
  fs->pushOverlay(mem);
  files = new clang::FileManager(clang::FileSystemOptions(), fs);
}

}  // namespace detail
}  // namespace cudalint::cuda
