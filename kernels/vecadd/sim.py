"""What the simulated CUDA device's tests (tests/sim/sim_check.py) expect of this workload's GPU
rows. The interface every kernels/<w>/sim.py has (sim_check.py's `Card` gives the card's side):
  TINY                a --shape value that makes the same calls as the quick shape, on less
                      emulation (the fault sweep's runs)
  QUICK_EXTRA         more shapes for the --quick test (may be empty)
  expect(card, impl)  (status, a phrase the note must hold) for a float32 row of `impl` on
                      `card` (an implementation without float32: for its rows before their tier
                      is looked at; sim_check.py refuses a tier it has no version of first)
  check_row(card, row, shape, check)   optional: more checks of an ok row
  expect_tier(card, impl, dtype)       optional: (status, phrase) of a row of another tier than
                      float32 ("float64", "float16", …) where the float32 row is ok, or None for
                      the default (ok, or unsupported with the tier's reason)
  sweep_need(impl, shape)              optional: device bytes a --sweep row needs (the 512 MiB
                      card's sweep test runs the workloads that define it)
  check_events(card, rows, events, check)   optional: checks of the --quick run's events
                      (tests/sim/fault.c, GPUBENCH_SIM_EVENTS: [TAG, WORD, …] per line, TAG
                      `main` or a child process's WORKLOAD/IMPL) against this workload's rows
  TRACED              optional, default True: False for a workload whose rows start processes
                      of their own, left out of the call-trace runs (multi-GPU, faults)
`shape` is the row's shape as a dict of ints."""
TINY = "n=5000"
QUICK_EXTRA = []


def expect(card, impl):
    return card.own_kernels() if impl == "cuda" else card.cublas()


def sweep_need(impl, shape):
    n = shape["n"]
    # a, b, c; cuBLAS's y = x + y needs two vectors and its 4 MiB workspace before Hopper
    return 12 * n if impl == "cuda" else 8 * n + 4 * 2**20
