// tests/sim/test_program_sources.py edits SCALE in a copy of this header: the program must be rebuilt.
#pragma once
constexpr int SCALE = 3;
