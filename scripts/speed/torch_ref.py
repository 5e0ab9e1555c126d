#!/usr/bin/python3
"""torch_ref.py — PyTorch's CPU time for gpubench's conv2d and mlp_train default shapes.

usage: torch_ref.py conv2d N C H W K R S STRIDE PAD THREADS SECONDS
       torch_ref.py mlp_train BATCH IN HIDDEN OUT THREADS SECONDS
Prints "median_ms=…". Run it with Debian's system interpreter (python3-torch) and
OMP_WAIT_POLICY=PASSIVE, PyTorch's fastest setting on these machines. The mlp step matches
gpubench's: Linear → ReLU → Linear → softmax cross-entropy (mean), backward, SGD update.
"""
import statistics
import sys
import time

import torch


def time_median(fn, seconds):
    fn()
    fn()
    samples, t0 = [], time.perf_counter()
    while len(samples) < 5 or time.perf_counter() - t0 < seconds:
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1e3)
    return statistics.median(samples)


def main():
    what, args = sys.argv[1], [int(a) for a in sys.argv[2:-1]]
    seconds = float(sys.argv[-1])
    torch.set_num_threads(args[-1])
    torch.manual_seed(0)
    with torch.no_grad() if what == "conv2d" else torch.enable_grad():
        if what == "conv2d":
            n, c, h, w, k, r, s, stride, pad, _ = args
            x = torch.rand(n, c, h, w)
            f = torch.rand(k, c, r, s)
            ms = time_median(lambda: torch.nn.functional.conv2d(x, f, stride=stride, padding=pad),
                             seconds)
        elif what == "mlp_train":
            batch, nin, hidden, nout, _ = args
            model = torch.nn.Sequential(torch.nn.Linear(nin, hidden), torch.nn.ReLU(),
                                        torch.nn.Linear(hidden, nout))
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            x = torch.rand(batch, nin)
            y = torch.randint(0, nout, (batch,))
            loss_fn = torch.nn.CrossEntropyLoss()

            def step():
                opt.zero_grad(set_to_none=True)
                loss = loss_fn(model(x), y)
                loss.backward()
                opt.step()
            ms = time_median(step, seconds)
        else:
            sys.exit(f"torch_ref.py: unknown workload {what}")
    print(f"median_ms={ms:.6g} torch={torch.__version__} threads={torch.get_num_threads()}")


if __name__ == "__main__":
    main()
