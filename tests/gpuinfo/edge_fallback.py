"""edge_fallback.py — a forced kernel's run at two shapes, judged as the edge scripts judge theirs
(scripts/lib/edge_rows.py), for first_card_sim.sh and edges_sim_a100.sh: the first shape one the
kernel takes, the second one it cannot (the row then runs another kernel and still verifies).
Exit 1 when the check failed a row (it must: the second), 0 when it passed them all.

usage: PYTHONPATH=scripts/lib python3 edge_fallback.py GPUBENCH OUTDIR KERNEL SHAPE SHAPE
  KERNEL  a scripts/lib/wgmma_edges.py kernel: W128, W256, M32, M64
"""
import os
import sys

import edge_rows
import wgmma_edges

gb, out, kernel, shapes = sys.argv[1], sys.argv[2], getattr(wgmma_edges, sys.argv[3]), sys.argv[4:]
os.makedirs(out, exist_ok=True)
res = edge_rows.Result()
edge_rows.batch(gb, kernel, shapes, os.path.join(out, "fallback"), "fallback", (600, 600), res)
sys.exit(1 if res.failed else 0)
