#!/bin/bash
# run.sh -r cpu|npu -v SOC: configure and build both targets with the CANN install named by ASCEND_INSTALL_PATH
# (or ASCEND_HOME_PATH), make the input, run the binary of the mode, check the output.
set -e
RUN_MODE=cpu
SOC_VERSION=Ascend910B1
while [ $# -gt 0 ]; do
    case "$1" in
        -r) RUN_MODE="$2"; shift 2;;
        -v) SOC_VERSION="$2"; shift 2;;
        *) echo "unknown option $1"; exit 1;;
    esac
done
ASCEND_INSTALL_PATH=${ASCEND_INSTALL_PATH:-$ASCEND_HOME_PATH}
source "$ASCEND_INSTALL_PATH/bin/setenv.bash"
cd "$(dirname "$0")"
rm -rf build input output && mkdir -p build input output
(cd build && cmake .. -DASCEND_PRODUCT_TYPE="$SOC_VERSION" -DASCEND_INSTALL_PATH="$ASCEND_INSTALL_PATH" && make -j2)
python3 -c "import numpy as np; np.arange(2048, dtype=np.float32).tofile('input/x.bin')"
"./scale_$RUN_MODE"
python3 -c "
import numpy as np
z = np.fromfile('output/z.bin', dtype=np.float32)
ok = np.array_equal(z, np.arange(2048, dtype=np.float32) * 3)
print('test pass' if ok else 'test failed')
raise SystemExit(0 if ok else 1)"
