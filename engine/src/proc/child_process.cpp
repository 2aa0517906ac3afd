#include "ks/proc/child_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace ks::proc {

std::string ExitStatus::describe() const
{
    if (!signaled)
        return "exited with status " + std::to_string(code);
    const char* name = ::strsignal(code);
    return "killed by signal " + std::to_string(code) + (name ? std::string(" (") + name + ")" : std::string());
}

namespace {

ExitStatus decode(int status)
{
    if (WIFSIGNALED(status))
        return {true, WTERMSIG(status)};
    return {false, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

} // namespace

ChildProcess ChildProcess::spawn(const SpawnSpec& spec)
{
    // Everything the child needs is built before fork: between fork and exec only async-signal-safe
    // calls are allowed (the parent has threads).
    std::vector<std::string> argStore;
    argStore.push_back(spec.executable.string());
    argStore.insert(argStore.end(), spec.args.begin(), spec.args.end());
    std::vector<char*> argv;
    for (std::string& a : argStore)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    std::vector<std::string> envStore;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        bool replaced = entry.rfind("KS_CHANNEL_FD=", 0) == 0;
        for (const auto& [k, v] : spec.env)
            replaced = replaced || entry.rfind(k + "=", 0) == 0;
        if (!replaced)
            envStore.push_back(entry);
    }
    for (const auto& [k, v] : spec.env)
        envStore.push_back(k + "=" + v);
    if (spec.channelFd >= 0)
        envStore.push_back("KS_CHANNEL_FD=3");
    std::vector<char*> envp;
    for (std::string& e : envStore)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    int outputFd = -1;
    if (!spec.output.empty()) {
        outputFd = ::open(spec.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (outputFd < 0)
            throw ChannelError(ChannelError::Kind::System,
                               "open " + spec.output.string() + ": " + std::strerror(errno));
    }
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int error = errno;
        if (outputFd >= 0)
            ::close(outputFd);
        throw ChannelError(ChannelError::Kind::System, std::string("fork: ") + std::strerror(error));
    }
    if (pid == 0) {
        if (!spec.outlivesParent) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) // the parent died before prctl took effect
                ::_exit(126);
        }
        if (spec.stdinFd >= 0 && spec.stdinFd != 0 && ::dup2(spec.stdinFd, 0) < 0)
            ::_exit(126);
        if (spec.channelFd >= 0) {
            if (spec.channelFd == 3)
                ::fcntl(3, F_SETFD, 0); // keep it across exec
            else if (::dup2(spec.channelFd, 3) < 0)
                ::_exit(126);
        }
        if (outputFd >= 0 && (::dup2(outputFd, 1) < 0 || ::dup2(outputFd, 2) < 0))
            ::_exit(126);
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    if (outputFd >= 0)
        ::close(outputFd);
    ChildProcess child;
    child.m_pid = pid;
    return child;
}

ChildProcess::~ChildProcess()
{
    if (started() && !m_status)
        kill();
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : m_pid(std::exchange(other.m_pid, -1)), m_status(std::exchange(other.m_status, std::nullopt))
{
}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept
{
    if (this != &other) {
        if (started() && !m_status)
            kill();
        m_pid = std::exchange(other.m_pid, -1);
        m_status = std::exchange(other.m_status, std::nullopt);
    }
    return *this;
}

std::optional<ExitStatus> ChildProcess::poll()
{
    if (m_status || !started())
        return m_status;
    int status = 0;
    pid_t r;
    do
        r = ::waitpid(m_pid, &status, WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == m_pid)
        m_status = decode(status);
    return m_status;
}

std::optional<ExitStatus> ChildProcess::wait(std::chrono::milliseconds timeout)
{
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (!poll()) {
        if (std::chrono::steady_clock::now() >= until)
            return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return m_status;
}

ExitStatus ChildProcess::kill()
{
    if (!started())
        return {};
    if (!poll()) {
        ::kill(m_pid, SIGKILL);
        int status = 0;
        pid_t r;
        do
            r = ::waitpid(m_pid, &status, 0);
        while (r < 0 && errno == EINTR);
        m_status = r == m_pid ? decode(status) : ExitStatus{true, SIGKILL};
    }
    return *m_status;
}

std::optional<Channel> inheritedChannel()
{
    const char* value = std::getenv("KS_CHANNEL_FD");
    if (!value || !*value)
        return std::nullopt;
    const int fd = std::atoi(value);
    if (fd < 0 || ::fcntl(fd, F_GETFD) < 0)
        return std::nullopt;
    ::fcntl(fd, F_SETFD, FD_CLOEXEC); // not into the worker's own children
    ::unsetenv("KS_CHANNEL_FD");
    return Channel(UniqueFd(fd));
}

} // namespace ks::proc
