// What the instrumented variants of a user's kernel record, shared by the device side (compiled by
// NVRTC, see instrument.cuh) and the engine's host analysis (compiled by g++): one layout, one file.
// Plain structs of fixed-size fields in an order that needs no padding, so both compilers agree.
#pragma once

namespace ks::teach {

// Who wrote one output element ("who wrote it" overlay). One per element of the recorded output;
// an element nobody wrote has writeCount == 0 (the host clears the records before the launch).
struct WhoRecord {
    unsigned blockX, blockY, blockZ;            // blockIdx of the writer
    unsigned short threadX, threadY, threadZ;   // threadIdx of the writer
    unsigned short smid;                        // %smid of the SM that ran the writer's block
    unsigned blockOrder;                        // the writer's block was the blockOrder-th to start
    unsigned short warp;                        // linear thread index in the block / warpSize
    unsigned char lane;                         // %laneid of the writer
    unsigned char reserved;
    unsigned writeCount;                        // writes to this element (> 1: written more than once)
};

// One block of a timeline launch, written by the block's thread 0.
struct BlockRecord {
    unsigned long long startNs, endNs;          // %globaltimer after the opening / closing barrier
    unsigned long long startClock, endClock;    // clock64() on the block's SM (not comparable across SMs)
    unsigned smid;                              // %smid
    unsigned order;                             // start order among the launch's blocks
};

// The counters every variant gets (an array of kCounterCount unsigned ints, cleared by the host).
enum Counter : unsigned {
    kCounterBlockOrder = 0, // next block start order
    kCounterDropped = 1,    // recorded writes whose element lay outside the records
    kCounterCount = 2
};

} // namespace ks::teach
