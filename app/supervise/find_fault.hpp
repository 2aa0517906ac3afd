#pragma once
// "Find the fault" (issue 15; docs/teaching/instrumentation.md): the frame that faulted is run
// again in a throwaway process, `kernelscope --headless --project P --checked-frame F
// --checked-stage S --checked-report R.json`, which runs frames 0..F-1 as they ran (the project is
// deterministic) and at frame F runs the checked variant of stage S in place of its kernel
// (teach::StageProbe, VariantKind::Checked). It writes what it found to R.json (CheckedReport) and
// exits. A CUDA fault poisons the process that has it, so this never runs in the process that
// faulted: the headless runner (--find-faults) spawns it after its own CUDA context is gone, the
// app from a background thread (FaultSearch).
//
// The child's side is runCheckedFrame in platform/headless_project.cpp; this file is the contract
// between the two and the parent's side.

#include "cli/options.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ks::app {

// What the child writes to --checked-report, as JSON.
struct CheckedReport {
    int version = 1;
    bool ran = false;     // the checked variant ran at the frame and its record came back
    bool found = false;   // it refused an access (then `sentence` says which)
    bool faulted = false; // the frame faulted anyway (a fault the checks do not cover: __trap, assert, ...)
    std::int64_t frame = -1;
    std::string stage, kernel;
    std::string file;     // the kernel's file, resolved (absolute)
    std::string sentence; // teach::describeCheckedRun's
    int line = 0;         // the user's line of the access; 0 when not known
    std::string access;   // "read", "write", "update" or "access"
    std::string param;    // the kernel parameter it went through
    std::string resource; // the project resource bound to that parameter ("" when none)
    long long element = 0;
    unsigned failures = 0; // refused accesses of the launch
    std::string error;     // when !ran: why (no such stage, the variant did not build, the fault's text)
    std::string variant = "checked"; // --checked-variant: checked, who or timeline
    bool applicable = true; // false: the variant does not apply to the stage (who: no output bound to a resource)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CheckedReport, version, ran, found, faulted, frame, stage, kernel,
                                                file, sentence, line, access, param, resource, element, failures,
                                                error, variant, applicable)

// Reads a report the child wrote; nullopt with `error` set when the file is missing or malformed.
std::optional<CheckedReport> readCheckedReport(const std::filesystem::path& file, std::string& error);
// Writes it (the child's side). Returns false when the file cannot be written.
bool writeCheckedReport(const std::filesystem::path& file, const CheckedReport& report);

struct FindFaultRequest {
    std::filesystem::path executable; // kernelscope; the app and the headless runner pass themselves
    std::filesystem::path project;    // the project file to run (saved, or a copy the app wrote)
    std::int64_t frame = 0;           // the frame that faulted
    std::string stage;                // the stage that faulted (by name)
    std::filesystem::path source;     // the text the stage's kernel file is built from; empty: the file
    std::vector<std::string> extraArgs; // passed on (--seed, --device, --size, --frame-limit, ...)
    std::filesystem::path workDir;    // where the report and the child's output go (must exist)
    std::string faultText;            // the original fault, for "the fault was something else: ..."
    std::chrono::milliseconds limit{60000}; // the child is killed after this
};

// The kernelscope to start the checked re-run with: $KS_KERNELSCOPE when set (tests point it at
// the app binary, or at a stand-in), else this executable (/proc/self/exe).
std::filesystem::path kernelscopeExecutable();
// What of this run's options the checked re-run must share to run the same frames: the seed, the
// device, the size views follow, the data folder and the frame limit.
std::vector<std::string> checkedRunOptions(const AppOptions& options);

// The child's arguments (argv[1..]) for `request`, the report going to `report`.
std::vector<std::string> checkedRunArgs(const FindFaultRequest& request, const std::filesystem::path& report);

struct FindFaultResult {
    enum class Outcome {
        Found,        // the checked run refused an access: report.sentence, report.file:report.line
        NothingFound, // it ran (or faulted anyway) and refused nothing: the fault was something else
        NotRun,       // the child could not run the checked variant (report.error says why)
        ChildFailed,  // the child ended without a report (crash, bad exit, unreadable report)
        TimedOut,     // the child was killed after the limit
        Cancelled,    // the caller asked to stop (the app closing)
    };
    Outcome outcome = Outcome::ChildFailed;
    CheckedReport report;
    std::string message;  // one paragraph for the user
    std::string logTail;  // ChildFailed, TimedOut, NotRun: the last lines the child printed
    double seconds = 0;   // how long the child ran
};

// Runs the child and waits for it, at most request.limit (polling `cancel` when given). Never
// throws for anything the child does; a child that cannot be started is ChildFailed.
FindFaultResult findFault(const FindFaultRequest& request, const std::atomic<bool>* cancel = nullptr);

// The finding for a terminal or an editor's error list: "FILE:LINE: error: sentence" when the
// fault was found at a known line; empty otherwise.
std::string compilerStyleLine(const FindFaultResult& result);

// Runs findFault on a thread of its own, so that the UI never waits for it. Thread: start(),
// running() and take() from one thread (the UI's); the destructor stops the child and joins.
class FaultSearch {
public:
    FaultSearch() = default;
    ~FaultSearch();
    FaultSearch(const FaultSearch&) = delete;
    FaultSearch& operator=(const FaultSearch&) = delete;

    // Starts a search; false when one is already running.
    bool start(FindFaultRequest request);
    bool running() const noexcept { return m_thread.joinable() && !m_done; }
    // The finished search's result, once; nullopt while it runs or when none was started.
    std::optional<FindFaultResult> take();

private:
    std::atomic<bool> m_cancel{false};
    std::optional<FindFaultResult> m_result; // set on the search's thread before m_done
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

} // namespace ks::app
