// The lean cuRAND header NVRTC pre-includes (compiler.cpp says why): include guards of the table
// headers set, their constants defined, every table routed to a function that is never defined.
// Compiled into the engine as text (cmake/KsEmbed.cmake).

#pragma once
#define CURAND_XORWOW_PRECALCULATED_H_
#define CURAND_MRG32K3A_MATRICES_H_
#define PRECALC_NUM_MATRICES (32)
#define PRECALC_BLOCK_SIZE (2)
#define PRECALC_BLOCK_MASK ((1 << PRECALC_BLOCK_SIZE) - 1)
#define XORWOW_SEQUENCE_SPACING (67)
__device__ unsigned int (*ks_curand_xorwow_tables_left_out())[800];
__device__ unsigned int (*ks_curand_mrg32k3a_tables_left_out())[3][3];
#define precalc_xorwow_matrix ks_curand_xorwow_tables_left_out()
#define precalc_xorwow_offset_matrix ks_curand_xorwow_tables_left_out()
#define mrg32k3aM1 ks_curand_mrg32k3a_tables_left_out()
#define mrg32k3aM2 ks_curand_mrg32k3a_tables_left_out()
#define mrg32k3aM1SubSeq ks_curand_mrg32k3a_tables_left_out()
#define mrg32k3aM2SubSeq ks_curand_mrg32k3a_tables_left_out()
#define mrg32k3aM1Seq ks_curand_mrg32k3a_tables_left_out()
#define mrg32k3aM2Seq ks_curand_mrg32k3a_tables_left_out()
