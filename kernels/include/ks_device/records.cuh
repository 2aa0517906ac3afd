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

// The checked variant ("find the fault", checked.cuh): what the host knows of each of the user's
// parameters, one per parameter in order. A pointer: `size` is the bytes from the pointer the kernel
// receives to the end of its allocation; a surface: `size` is its width and `height` its height, in
// elements. kExtentUnchecked in `size` (or `height`) turns that check off; value parameters are
// never read.
struct CheckedExtent {
    unsigned long long size;
    unsigned long long height;
};
constexpr unsigned long long kExtentUnchecked = ~0ull;

enum CheckedAccess : unsigned {
    kCheckedRead = 1,
    kCheckedWrite = 2,
    kCheckedUpdate = 3,  // read and written: compound assignment, ++/--, &p[i] (atomics)
    kCheckedAccessed = 4 // p->member: whether it read or wrote is not known
};
enum CheckedProblem : unsigned { kCheckedOutOfRange = 1, kCheckedMisaligned = 2 }; // bits
enum CheckedResource : unsigned { kCheckedPointer = 0, kCheckedSurface = 1 };

// One refused access.
struct CheckedFault {
    long long element;            // pointer: element index from the base (floor of byteOffset / elementSize)
                                  // surface: x in elements (floor of x in bytes / elementSize)
    long long byteOffset;         // pointer: bytes from the base; surface: x in bytes
    long long y;                  // surface: the row; pointer: 0
    unsigned long long extent;    // the parameter's CheckedExtent::size
    unsigned long long height;    // surface: the parameter's CheckedExtent::height
    unsigned long long address;   // pointer: the address accessed; surface: 0
    unsigned access;              // CheckedAccess
    unsigned problem;             // CheckedProblem bits
    unsigned resource;            // CheckedResource
    unsigned param;               // index of the parameter in the kernel's parameter list
    unsigned elementSize;         // sizeof the element accessed
    unsigned alignment;           // alignof the element accessed (pointers)
    unsigned line;                // the user's source line; 0 when not known
    unsigned reserved;
    unsigned blockX, blockY, blockZ;
    unsigned threadX, threadY, threadZ;
};

// The record of a checked launch, cleared to zero by the host before it.
struct CheckedRecord {
    unsigned long long sink[8]; // where &p[i] of a refused element points (so atomics on it are harmless)
    CheckedFault first;         // the first refused access of the launch, valid when claimed != 0
    unsigned claimed;           // set by atomicCAS by the thread that recorded `first`
    unsigned failures;          // every refused access of the launch, the first included
};
static_assert(sizeof(CheckedFault) == 104 && sizeof(CheckedRecord) == 176, "one layout for NVRTC and the host");

// The counters every variant gets (an array of kCounterCount unsigned ints, cleared by the host).
enum Counter : unsigned {
    kCounterBlockOrder = 0, // next block start order
    kCounterDropped = 1,    // recorded writes whose element lay outside the records
    kCounterCount = 2
};

} // namespace ks::teach
