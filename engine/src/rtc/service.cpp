#include "ks/rtc/service.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <set>

namespace ks::rtc {

namespace {
using Clock = std::chrono::steady_clock;
constexpr std::size_t kKeptResults = 256;
constexpr std::size_t kKeptSuperseded = 4096;

double msBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}
} // namespace

struct CompileService::Impl {
    struct Pending {
        std::uint64_t ticket;
        CompileRequest request;
        Clock::time_point submitted;
    };

    explicit Impl(CompileCache& c) : cache(c) {}

    CompileCache& cache;
    mutable std::mutex mutex;
    std::condition_variable wake;     // the worker: work arrived or stop
    std::condition_variable finished; // waiters: a build finished or was superseded
    std::deque<Pending> queue;
    std::uint64_t nextTicket = 1;
    bool stop = false;

    // The running build.
    bool running = false;
    std::uint64_t runningTicket = 0;
    std::string runningSlot;
    Clock::time_point runningSince;
    std::atomic<bool> cancelRunning{false};

    std::deque<CompletedCompile> unpolled;            // finished, not yet collected, oldest first
    std::set<std::uint64_t> supersededTickets;
    std::thread worker;

    void markSuperseded(std::uint64_t ticket)
    {
        supersededTickets.insert(ticket);
        while (supersededTickets.size() > kKeptSuperseded)
            supersededTickets.erase(supersededTickets.begin());
    }

    void run()
    {
        std::unique_lock lock(mutex);
        for (;;) {
            wake.wait(lock, [&] { return stop || !queue.empty(); });
            if (stop)
                return;
            Pending job = std::move(queue.front());
            queue.pop_front();
            running = true;
            runningTicket = job.ticket;
            runningSlot = job.request.slot;
            runningSince = Clock::now();
            cancelRunning.store(false);
            lock.unlock();

            CompletedCompile done;
            done.ticket = job.ticket;
            done.slot = job.request.slot;
            done.queuedMs = msBetween(job.submitted, runningSince);
            try {
                CachedCompile c = cache.request(job.request.source, job.request.fileName, job.request.options,
                                                job.request.nameExpressions, &cancelRunning);
                done.result = std::move(c.result);
                done.cacheSource = c.source;
            } catch (const std::exception& e) {
                // NVRTC could not even start (out of memory, broken installation): a value too.
                auto failed = std::make_shared<CompileResult>();
                failed->toolFailure = true;
                Diagnostic d;
                d.file = job.request.fileName;
                d.message = std::string("the compiler could not run: ") + e.what();
                failed->diagnostics.push_back(std::move(d));
                done.result = std::move(failed);
            }
            done.totalMs = msBetween(job.submitted, Clock::now());

            lock.lock();
            running = false;
            // Superseded while running: NVRTC may have finished (or the cache answered) before it
            // saw the cancel flag; the result is stale either way (the cache keeps it).
            if (done.result->cancelled || cancelRunning.load()) {
                markSuperseded(done.ticket);
            } else {
                unpolled.push_back(std::move(done));
                while (unpolled.size() > kKeptResults)
                    unpolled.pop_front();
            }
            finished.notify_all();
        }
    }
};

CompileService::CompileService(CompileCache& cache) : m_impl(std::make_unique<Impl>(cache))
{
    m_impl->worker = std::thread([impl = m_impl.get()] { impl->run(); });
}

CompileService::~CompileService()
{
    {
        std::lock_guard lock(m_impl->mutex);
        m_impl->stop = true;
        for (const auto& p : m_impl->queue)
            m_impl->markSuperseded(p.ticket);
        m_impl->queue.clear();
        m_impl->cancelRunning.store(true);
    }
    m_impl->wake.notify_all();
    m_impl->finished.notify_all();
    if (m_impl->worker.joinable())
        m_impl->worker.join();
}

std::uint64_t CompileService::submit(CompileRequest request)
{
    std::uint64_t ticket = 0;
    {
        std::lock_guard lock(m_impl->mutex);
        ticket = m_impl->nextTicket++;
        auto& q = m_impl->queue;
        for (auto it = q.begin(); it != q.end();) {
            if (it->request.slot == request.slot) {
                m_impl->markSuperseded(it->ticket);
                it = q.erase(it);
            } else {
                ++it;
            }
        }
        if (m_impl->running && m_impl->runningSlot == request.slot)
            m_impl->cancelRunning.store(true);
        q.push_back({ticket, std::move(request), Clock::now()});
    }
    m_impl->wake.notify_one();
    m_impl->finished.notify_all(); // superseded tickets are answered at once
    return ticket;
}

std::vector<CompletedCompile> CompileService::poll()
{
    std::lock_guard lock(m_impl->mutex);
    std::vector<CompletedCompile> out(std::make_move_iterator(m_impl->unpolled.begin()),
                                      std::make_move_iterator(m_impl->unpolled.end()));
    m_impl->unpolled.clear();
    return out;
}

std::optional<CompletedCompile> CompileService::wait(std::uint64_t ticket, std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_impl->mutex);
    std::optional<CompletedCompile> out;
    m_impl->finished.wait_for(lock, timeout, [&] {
        if (m_impl->supersededTickets.count(ticket))
            return true;
        auto& done = m_impl->unpolled;
        auto it = std::find_if(done.begin(), done.end(), [&](const CompletedCompile& c) { return c.ticket == ticket; });
        if (it == done.end())
            return m_impl->stop;
        out = std::move(*it);
        done.erase(it);
        return true;
    });
    return out;
}

bool CompileService::busy() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->running || !m_impl->queue.empty();
}

double CompileService::busySeconds() const
{
    std::lock_guard lock(m_impl->mutex);
    if (!m_impl->running)
        return 0;
    return std::chrono::duration<double>(Clock::now() - m_impl->runningSince).count();
}

bool CompileService::superseded(std::uint64_t ticket) const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->supersededTickets.count(ticket) != 0;
}

} // namespace ks::rtc
