#!/bin/sh
# On the GPU machine: the runtime's smoke test and every case test/gpu/prepare.sh built.
#   test/gpu/run.sh CASEDIR
# Prints each part's table; exits 1 when anything failed.
here=$(dirname "$0")
status=0
python3 "$here/check_contract.py" "$1/smoke/contract.so" "$1/smoke/contract_graphs.so" || status=1
python3 "$here/run.py" "$1" || status=1
exit $status
