#include "ks/teach/timeline.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <numeric>

namespace ks::teach {

unsigned long long waveCount(unsigned long long blocks, unsigned smCount, unsigned residentBlocksPerSm)
{
    const unsigned long long slots = 1ull * smCount * residentBlocksPerSm;
    if (blocks == 0 || slots == 0)
        return 0;
    return (blocks + slots - 1) / slots;
}

TimelineModel analyzeTimeline(std::span<const BlockRecord> records, unsigned smCount, unsigned residentBlocksPerSm)
{
    TimelineModel m;
    m.smCount = smCount;
    m.residentBlocksPerSm = residentBlocksPerSm;
    m.rows.resize(smCount);
    for (unsigned s = 0; s < smCount; ++s)
        m.rows[s].sm = s;

    unsigned long long first = std::numeric_limits<unsigned long long>::max();
    unsigned long long last = 0;
    std::vector<std::size_t> valid;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const BlockRecord& r = records[i];
        std::string why;
        if (r.startNs == 0 && r.endNs == 0)
            why = "has no record (the block did not run to its end)";
        else if (r.endNs < r.startNs)
            why = "ends before it starts";
        else if (r.smid >= smCount)
            why = "ran on SM " + std::to_string(r.smid) + ", not below the SM count " + std::to_string(smCount);
        if (!why.empty()) {
            m.problems.push_back("block " + std::to_string(i) + " " + why);
            continue;
        }
        valid.push_back(i);
        first = std::min(first, r.startNs);
        last = std::max(last, r.endNs);
    }
    if (valid.empty())
        return m;
    m.startNs = first;
    m.makespanUs = double(last - first) / 1000.0;

    double blockTimeUs = 0;
    for (std::size_t i : valid) {
        const BlockRecord& r = records[i];
        TimelineBlock b;
        b.block = i;
        b.sm = r.smid;
        b.order = r.order;
        b.startUs = double(r.startNs - first) / 1000.0;
        b.endUs = double(r.endNs - first) / 1000.0;
        blockTimeUs += b.durationUs();
        m.rows[b.sm].blocks.push_back(m.blocks.size());
        m.blocks.push_back(b);
    }

    // Per SM: slots by greedy interval colouring (a block takes the first slot free at its start),
    // busy time as the union of its intervals.
    for (SmRow& row : m.rows) {
        std::sort(row.blocks.begin(), row.blocks.end(), [&](std::size_t a, std::size_t b) {
            return m.blocks[a].startUs < m.blocks[b].startUs ||
                   (m.blocks[a].startUs == m.blocks[b].startUs && m.blocks[a].block < m.blocks[b].block);
        });
        std::vector<double> slotFreeAt;
        double coveredUntil = 0;
        for (std::size_t idx : row.blocks) {
            TimelineBlock& b = m.blocks[idx];
            auto slot = std::find_if(slotFreeAt.begin(), slotFreeAt.end(), [&](double t) { return t <= b.startUs; });
            if (slot == slotFreeAt.end()) {
                slotFreeAt.push_back(b.endUs);
                b.slot = unsigned(slotFreeAt.size() - 1);
            } else {
                *slot = b.endUs;
                b.slot = unsigned(slot - slotFreeAt.begin());
            }
            const double from = std::max(b.startUs, coveredUntil);
            if (b.endUs > from)
                row.busyUs += b.endUs - from;
            coveredUntil = std::max(coveredUntil, b.endUs);
            row.lastEndUs = std::max(row.lastEndUs, b.endUs);
        }
        row.slotsUsed = unsigned(slotFreeAt.size());
    }

    m.waves = waveCount(valid.size(), smCount, residentBlocksPerSm);
    if (m.waves > 0) {
        const unsigned long long slots = 1ull * smCount * residentBlocksPerSm;
        m.lastWaveFill = double(valid.size() - (m.waves - 1) * slots) / double(slots);
    }
    double busy = 0, maxBusy = 0, earliestIdle = m.makespanUs;
    m.minBlocksPerSm = std::numeric_limits<unsigned>::max();
    for (const SmRow& row : m.rows) {
        busy += row.busyUs;
        maxBusy = std::max(maxBusy, row.busyUs);
        earliestIdle = std::min(earliestIdle, row.lastEndUs);
        const unsigned n = unsigned(row.blocks.size());
        m.smsUsed += n > 0;
        m.minBlocksPerSm = std::min(m.minBlocksPerSm, n);
        m.maxBlocksPerSm = std::max(m.maxBlocksPerSm, n);
        m.maxConcurrentPerSm = std::max(m.maxConcurrentPerSm, row.slotsUsed);
    }
    if (smCount == 0)
        m.minBlocksPerSm = 0;
    if (m.makespanUs > 0 && smCount > 0) {
        if (residentBlocksPerSm > 0)
            m.utilisation = blockTimeUs / (double(smCount) * residentBlocksPerSm * m.makespanUs);
        m.busyFraction = busy / (double(smCount) * m.makespanUs);
        m.tailUs = m.makespanUs - earliestIdle;
        m.tailFraction = m.tailUs / m.makespanUs;
    }
    const double meanBusy = smCount ? busy / smCount : 0;
    m.imbalance = meanBusy > 0 ? maxBusy / meanBusy - 1.0 : 0;
    return m;
}

std::string describeTimeline(const TimelineModel& m)
{
    if (m.blocks.empty())
        return "No block was recorded.";
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%zu blocks on %u of %u SMs in %.1f us. At %u resident block%s per SM that is %llu wave%s; the last "
                  "wave fills %.0f%% of the slots. Utilisation %.0f%% (block time over slot time), SMs busy %.0f%% of "
                  "the time; the tail (after the first SM ran out of work) is %.1f us, %.0f%% of the run; imbalance "
                  "%.0f%% (busiest SM over the mean).",
                  m.blocks.size(), m.smsUsed, m.smCount, m.makespanUs, m.residentBlocksPerSm,
                  m.residentBlocksPerSm == 1 ? "" : "s", m.waves, m.waves == 1 ? "" : "s", 100.0 * m.lastWaveFill,
                  100.0 * m.utilisation, 100.0 * m.busyFraction, m.tailUs, 100.0 * m.tailFraction, 100.0 * m.imbalance);
    std::string s = buf;
    if (!m.problems.empty())
        s += " " + std::to_string(m.problems.size()) + " record(s) unusable: " + m.problems.front() +
             (m.problems.size() > 1 ? ", ..." : "");
    return s;
}

} // namespace ks::teach
