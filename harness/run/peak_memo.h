/* peak_memo.h — the CPU's memory peak remembered per machine, so that a row's peak % does not
 * move with one start-up measurement.
 *
 * A STREAM-style Add at start-up (harness/run/backend_cpu.c) is a best of a few passes within a
 * few milliseconds: another process on a core in that moment lowers it, and a 2-core VM beside
 * a test run gave 21 to 78 GB/s from one start-up to the next (issue 45). Every start-up
 * measurement is kept in $XDG_CACHE_HOME/gpubench/mem-peak (else ~/.cache/gpubench/mem-peak),
 * one line per machine ("KEY\tGB/s GB/s …", the newest last), and the peak a run divides by is
 * the best of the machine's last PEAK_MEMO_KEEP measurements, this run's among them. A load
 * only ever lowers a measurement, so the best of several runs is the machine's; and each figure
 * is proved again by the runs after it: one no later run came near ages out after
 * PEAK_MEMO_KEEP runs (a fluke, or memory that became slower). The file is locked (flock) while
 * it is read and rewritten, so runs started together each add their line's value; it holds at
 * most PEAK_MEMO_MACHINES lines (the oldest dropped). docs/measurement.md, "Peaks". */
#ifndef GPUBENCH_PEAK_MEMO_H
#define GPUBENCH_PEAK_MEMO_H

#include <stddef.h>

enum { PEAK_MEMO_KEEP = 8, PEAK_MEMO_MACHINES = 32 };

/* Add `gbps` (> 0, this run's measurement) to machine `key`'s list and return the best of its
 * last PEAK_MEMO_KEEP values, with how many that is in *n. Where the file cannot be used (no
 * cache folder, not writable, no lock) returns gbps with *n = 0 and the reason in why. */
double peak_memo(const char *key, double gbps, int *n, char *why, size_t whylen);

#endif
