#pragma once
// The block timeline of one launch: which SM ran each block and when, from the records of the
// ks_timeline_ variant (ks/teach/instrument.hpp), turned into what a timeline panel draws (a row
// per SM, blocks stacked in the slots of their SM) and the numbers that explain it (waves,
// utilisation, tail, imbalance). Pure host code: no device needed.

#include <ks_device/records.cuh>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace ks::teach {

struct TimelineBlock {
    unsigned long long block = 0; // linear block index
    unsigned sm = 0;
    unsigned slot = 0;            // lane within the SM's row: blocks that overlap in time get different slots
    unsigned order = 0;           // start order from the device's counter
    double startUs = 0, endUs = 0; // relative to the launch's first block start
    double durationUs() const { return endUs - startUs; }
};

struct SmRow {
    unsigned sm = 0;
    std::vector<std::size_t> blocks; // indices into TimelineModel::blocks, by start time
    unsigned slotsUsed = 0;          // the most blocks this SM held at once
    double busyUs = 0;               // time with at least one block running (union of intervals)
    double lastEndUs = 0;            // when its last block ended (0 when it ran none)
};

struct TimelineModel {
    std::vector<TimelineBlock> blocks; // one per valid record, in block index order
    std::vector<SmRow> rows;           // one per SM of the device, idle ones included
    unsigned smCount = 0;
    unsigned residentBlocksPerSm = 0;  // the theoretical occupancy in blocks, as given
    double makespanUs = 0;             // first block start to last block end
    unsigned long long startNs = 0;    // %globaltimer of the first block start

    // Waves the occupancy implies: ceil(blocks / (SMs * resident blocks per SM)).
    unsigned long long waves = 0;
    // Blocks in the last wave over the slots of one wave (1: the last wave is full; a small value
    // means a tail of a few blocks running while most SMs idle).
    double lastWaveFill = 0;
    // Block time over slot time: sum of block durations / (SMs * resident * makespan), in [0, 1]
    // for valid records. With one resident block per SM this is sum / (SMs * makespan).
    double utilisation = 0;
    // Mean fraction of the makespan an SM had at least one block: sum busyUs / (SMs * makespan).
    double busyFraction = 0;
    // Time from the moment the first SM ran out of work (its last block ended, or the start for an
    // SM that got none) to the end, and that over the makespan.
    double tailUs = 0;
    double tailFraction = 0;
    // Load imbalance across SMs: max busy time / mean busy time - 1 (0 = perfectly even).
    double imbalance = 0;
    unsigned smsUsed = 0;
    unsigned minBlocksPerSm = 0, maxBlocksPerSm = 0;
    unsigned maxConcurrentPerSm = 0; // observed: the most slots any SM used

    // Records that could not be used, each with the reason: a block that did not write its record,
    // end before start, an SM id not below the SM count. Empty for a good run.
    std::vector<std::string> problems;
};

// ceil(blocks / (smCount * residentBlocksPerSm)); 0 when there is nothing to run or no slot.
unsigned long long waveCount(unsigned long long blocks, unsigned smCount, unsigned residentBlocksPerSm);

// `records` are indexed by linear block index (as the variant writes them). `smCount` is the
// device's SM count, `residentBlocksPerSm` the theoretical occupancy of the variant in blocks.
TimelineModel analyzeTimeline(std::span<const BlockRecord> records, unsigned smCount, unsigned residentBlocksPerSm);

// A one-paragraph reading of the model for the panel and the teaching text ("3 waves on 132 SMs;
// the last wave fills 12% of the slots, ...").
std::string describeTimeline(const TimelineModel& model);

} // namespace ks::teach
