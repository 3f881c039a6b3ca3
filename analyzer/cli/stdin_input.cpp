#include "analyzer/cli/stdin_input.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace cudalint {

bool read_stdin_text(int fd, uint64_t max_bytes, std::string& text, bool& complete, std::string& err) {
  text.clear();
  complete = false;
  const uint64_t keep = max_bytes == UINT64_MAX ? max_bytes : max_bytes + 1;
  char buf[65536];
  while (text.size() < keep) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(sizeof buf, keep - text.size()));
    ssize_t n = ::read(fd, buf, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = std::strerror(errno);
      return false;
    }
    if (n == 0) {
      complete = true;
      return true;
    }
    text.append(buf, static_cast<size_t>(n));
  }
  return true;  // over the limit: the rest stays unread
}

bool copy_rest(int fd, std::ostream& out) {
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) return true;
    out.write(buf, n);
  }
}

}  // namespace cudalint
