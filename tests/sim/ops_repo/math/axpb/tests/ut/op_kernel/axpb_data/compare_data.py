"""Compares axpb's output with its golden data: compare_data.py DTYPE; exit status 0 when they match."""
import sys

import numpy as np


def main() -> int:
    dtype = np.dtype(sys.argv[1])
    out = np.fromfile(f"{sys.argv[1]}_output_axpb.bin", dtype)
    gold = np.fromfile(f"{sys.argv[1]}_golden_axpb.bin", dtype)
    same = out.shape == gold.shape and bool(np.allclose(out, gold, rtol=1e-4, atol=1e-4))
    print("PASSED!" if same else "FAILED!")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
