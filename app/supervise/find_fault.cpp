#include "supervise/find_fault.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/proc/child_process.hpp"

#include <cstdlib>
#include <deque>
#include <fstream>
#include <sstream>

namespace ks::app {

namespace {

// The last `count` lines of a text file ("" when it cannot be read).
std::string lastLines(const std::filesystem::path& file, std::size_t count)
{
    std::ifstream in(file);
    std::deque<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(std::move(line));
        if (lines.size() > count)
            lines.pop_front();
    }
    std::string text;
    for (const std::string& l : lines)
        text += l + "\n";
    return text;
}

std::string seconds(std::chrono::milliseconds ms)
{
    std::ostringstream s;
    s << double(ms.count()) / 1000.0 << " s";
    return s.str();
}

// The result of a child that ended with `status` and left `reportFile` (or not).
FindFaultResult judge(const FindFaultRequest& request, const proc::ExitStatus& status,
                      const std::filesystem::path& reportFile)
{
    FindFaultResult r;
    std::string error;
    const std::optional<CheckedReport> report = readCheckedReport(reportFile, error);
    if (!report) {
        r.outcome = FindFaultResult::Outcome::ChildFailed;
        r.message = "the checked re-run failed: kernelscope " + status.describe() + " (" + error + ")";
        return r;
    }
    r.report = *report;
    if (report->found) {
        r.outcome = FindFaultResult::Outcome::Found;
        r.message = "found the fault: " + report->sentence;
    } else if (report->ran || report->faulted) {
        r.outcome = FindFaultResult::Outcome::NothingFound;
        const std::string what = report->faulted ? report->error : request.faultText;
        r.message = "the checked re-run found no out-of-bounds or misaligned access through pointer parameters or "
                    "surfaces; the fault was something else: " +
                    (what.empty() ? std::string("not an access the checks cover") : what);
        if (!report->faulted)
            r.message += " (frame " + std::to_string(report->frame) + " ran without a fault this time)";
    } else {
        r.outcome = FindFaultResult::Outcome::NotRun;
        r.message = "the checked re-run could not check the kernel: " +
                    (report->error.empty() ? "kernelscope " + status.describe() : report->error);
    }
    return r;
}

} // namespace

std::optional<CheckedReport> readCheckedReport(const std::filesystem::path& file, std::string& error)
{
    std::ifstream in(file);
    if (!in) {
        error = "it wrote no report";
        return std::nullopt;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
        return nlohmann::json::parse(text).get<CheckedReport>();
    } catch (const nlohmann::json::exception& e) {
        error = std::string("its report is malformed: ") + e.what();
        return std::nullopt;
    }
}

bool writeCheckedReport(const std::filesystem::path& file, const CheckedReport& report)
{
    try {
        paths::writeFileAtomically(file, nlohmann::json(report).dump(2) + "\n");
        return true;
    } catch (const Error&) {
        return false;
    }
}

std::filesystem::path kernelscopeExecutable()
{
    if (const char* e = std::getenv("KS_KERNELSCOPE"); e && *e)
        return e;
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path("/proc/self/exe") : self;
}

std::vector<std::string> checkedRunOptions(const AppOptions& options)
{
    std::vector<std::string> args{"--device", std::to_string(options.device), "--size",
                                  std::to_string(options.width) + "x" + std::to_string(options.height),
                                  "--frame-limit", std::to_string(options.frameLimit)};
    if (options.seed)
        args.insert(args.end(), {"--seed", std::to_string(*options.seed)});
    if (!options.dataDir.empty())
        args.insert(args.end(), {"--data-dir", options.dataDir.string()});
    return args;
}

std::vector<std::string> checkedRunArgs(const FindFaultRequest& request, const std::filesystem::path& report)
{
    std::vector<std::string> args{"--headless",        "--project", request.project.string(),
                                  "--checked-frame",   std::to_string(request.frame),
                                  "--checked-stage",   request.stage,
                                  "--checked-report",  report.string()};
    if (!request.source.empty())
        args.insert(args.end(), {"--checked-source", request.source.string()});
    args.insert(args.end(), request.extraArgs.begin(), request.extraArgs.end());
    return args;
}

FindFaultResult findFault(const FindFaultRequest& request, const std::atomic<bool>* cancel)
{
    const std::filesystem::path report = request.workDir / "checked-report.json";
    const std::filesystem::path log = request.workDir / "checked-run.log";
    std::error_code ignored;
    std::filesystem::remove(report, ignored); // a stale report must not pass for this run's
    const auto began = std::chrono::steady_clock::now();
    auto finish = [&](FindFaultResult r) {
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        if (r.outcome != FindFaultResult::Outcome::Found && r.outcome != FindFaultResult::Outcome::NothingFound)
            r.logTail = lastLines(log, 12);
        return r;
    };

    proc::ChildProcess child;
    try {
        proc::SpawnSpec spec;
        spec.executable = request.executable;
        spec.args = checkedRunArgs(request, report);
        spec.output = log;
        child = proc::ChildProcess::spawn(spec);
    } catch (const std::exception& e) {
        FindFaultResult r;
        r.message = std::string("the checked re-run could not be started: ") + e.what();
        return finish(r);
    }
    const auto deadline = began + request.limit;
    std::optional<proc::ExitStatus> status;
    while (!(status = child.wait(std::chrono::milliseconds(50)))) {
        if (cancel && cancel->load()) {
            child.kill();
            FindFaultResult r;
            r.outcome = FindFaultResult::Outcome::Cancelled;
            r.message = "the checked re-run was cancelled";
            return finish(r);
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            child.kill();
            FindFaultResult r;
            r.outcome = FindFaultResult::Outcome::TimedOut;
            r.message = "the checked re-run did not finish within " + seconds(request.limit) + "; it was stopped";
            return finish(r);
        }
    }
    return finish(judge(request, *status, report));
}

std::string compilerStyleLine(const FindFaultResult& result)
{
    const CheckedReport& r = result.report;
    if (result.outcome != FindFaultResult::Outcome::Found || r.file.empty() || r.line <= 0)
        return {};
    return r.file + ":" + std::to_string(r.line) + ": error: " + r.sentence;
}

FaultSearch::~FaultSearch()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

bool FaultSearch::start(FindFaultRequest request)
{
    if (running())
        return false;
    if (m_thread.joinable())
        m_thread.join();
    m_result.reset();
    m_done = false;
    m_cancel = false;
    m_thread = std::thread([this, request = std::move(request)] {
        m_result = findFault(request, &m_cancel);
        m_done = true;
    });
    return true;
}

std::optional<FindFaultResult> FaultSearch::take()
{
    if (!m_thread.joinable() || !m_done)
        return std::nullopt;
    m_thread.join();
    std::optional<FindFaultResult> r = std::move(m_result);
    m_result.reset();
    m_done = false;
    return r;
}

} // namespace ks::app
