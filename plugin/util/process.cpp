#include "util/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/strings.hpp"

namespace tazuna::util {

std::string LookPath(const std::string& name, const std::string& path_env) {
  if (name.find('/') != std::string::npos) return name;
  for (const auto& dir : Split(path_env, ':')) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return "";
}

namespace {

struct Pipes {
  int in[2] = {-1, -1};
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};
};

void CloseFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// argv and envp for execve, built before fork: in the child of a multi-threaded process only
// async-signal-safe calls are allowed (an allocation there can wait forever on a lock another thread
// held at the fork, as the sanitizer build's allocator did).
struct ExecArgs {
  std::vector<std::string> args;
  std::vector<std::string> env;
  std::vector<char*> argv;
  std::vector<char*> envp;

  explicit ExecArgs(const ProcessRequest& req) : args(req.argv) {
    for (const auto& [k, v] : req.env) env.push_back(k + "=" + v);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
  }
};

[[noreturn]] void ExecChild(const ProcessRequest& req, const std::string& path, Pipes& p, ExecArgs& exec) {
  ::dup2(p.in[0], 0);
  ::dup2(p.out[1], 1);
  if (!req.pass_stderr) ::dup2(p.err[1], 2);
  for (int fd : {p.in[0], p.in[1], p.out[0], p.out[1], p.err[0], p.err[1]}) {
    if (fd > 2) ::close(fd);
  }
  if (!req.cwd.empty() && ::chdir(req.cwd.c_str()) != 0) _exit(127);
  ::execve(path.c_str(), exec.argv.data(), exec.envp.data());
  _exit(127);
}

// Pumps stdin/stdout/stderr until the child closes its ends or the deadline passes.
bool Pump(Pipes& p, const ProcessRequest& req, ProcessResult& result) {
  size_t written = 0;
  if (req.stdin_data.empty()) CloseFd(p.in[1]);
  const auto deadline = std::chrono::steady_clock::now() + req.timeout;
  char buf[65536];
  while (p.out[0] >= 0 || p.err[0] >= 0) {
    std::vector<pollfd> fds;
    if (p.out[0] >= 0) fds.push_back({p.out[0], POLLIN, 0});
    if (p.err[0] >= 0) fds.push_back({p.err[0], POLLIN, 0});
    if (p.in[1] >= 0) fds.push_back({p.in[1], POLLOUT, 0});
    int wait_ms = 200;
    if (req.timeout.count() > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      wait_ms = static_cast<int>(std::min<long long>(left.count(), 200));
    }
    if (::poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR) return true;
    for (const auto& f : fds) {
      if (f.revents == 0) continue;
      if (f.fd == p.in[1]) {
        const ssize_t n = ::write(p.in[1], req.stdin_data.data() + written, req.stdin_data.size() - written);
        if (n > 0) written += static_cast<size_t>(n);
        if (n < 0 || written == req.stdin_data.size()) CloseFd(p.in[1]);
        continue;
      }
      const ssize_t n = ::read(f.fd, buf, sizeof buf);
      std::string& sink = f.fd == p.out[0] ? result.out : result.err;
      if (n > 0) {
        sink.append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        CloseFd(f.fd == p.out[0] ? p.out[0] : p.err[0]);
      }
    }
  }
  return true;
}

}  // namespace

Result<ProcessResult> RealProcessRunner::Run(const ProcessRequest& req) {
  if (req.argv.empty()) return MakeError(ErrorKind::kInternal, "empty command");
  const auto path_it = req.env.find("PATH");
  const std::string path = LookPath(req.argv[0], path_it == req.env.end() ? "/usr/bin:/bin" : path_it->second);
  if (path.empty() || ::access(path.c_str(), X_OK) != 0) {
    return MakeError(ErrorKind::kToolMissing, StrCat("executable ", req.argv[0], " not found"));
  }
  Pipes p;
  if (::pipe2(p.in, O_CLOEXEC) != 0 || ::pipe2(p.out, O_CLOEXEC) != 0 || ::pipe2(p.err, O_CLOEXEC) != 0) {
    return MakeError(ErrorKind::kInternal, StrCat("pipe: ", std::strerror(errno)));
  }
  ExecArgs exec(req);
  const pid_t pid = ::fork();
  if (pid < 0) return MakeError(ErrorKind::kInternal, StrCat("fork: ", std::strerror(errno)));
  if (pid == 0) ExecChild(req, path, p, exec);
  CloseFd(p.in[0]);
  CloseFd(p.out[1]);
  CloseFd(p.err[1]);
  if (req.pass_stderr) CloseFd(p.err[0]);
  // A child that exits without reading stdin must not kill us with SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  ProcessResult result;
  if (!Pump(p, req, result)) {
    ::kill(pid, SIGKILL);
    result.timed_out = true;
  }
  CloseFd(p.in[1]);
  CloseFd(p.out[0]);
  CloseFd(p.err[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace tazuna::util
