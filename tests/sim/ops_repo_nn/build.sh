#!/bin/sh
# The repositories' build entry; not used by the tests (it marks the repository root, as in ops-math / ops-nn).
echo "build.sh: use akgen sim op-test <operator folder>" >&2
exit 1
