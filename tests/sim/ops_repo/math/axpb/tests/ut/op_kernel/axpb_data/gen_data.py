"""Input and golden data of axpb's kernel unit test: gen_data.py SHAPE DTYPE (y = 2 * x + 1)."""
import ast
import sys

import numpy as np


def main() -> None:
    shape = ast.literal_eval(sys.argv[1])
    dtype = np.dtype(sys.argv[2])
    x = np.random.default_rng(7).uniform(-4, 4, shape).astype(dtype)
    x.tofile(f"{sys.argv[2]}_input_axpb.bin")
    (2 * x + 1).astype(dtype).tofile(f"{sys.argv[2]}_golden_axpb.bin")


if __name__ == "__main__":
    main()
