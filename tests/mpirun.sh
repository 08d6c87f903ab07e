#!/usr/bin/env bash
# mpirun.sh ARGS...: Open MPI's mpirun ARGS with the settings that make it
# run on a CI machine or in a container: the one place the tests, `make
# bench` and the README take them from.
#   OMPI_ALLOW_RUN_AS_ROOT, ..._CONFIRM   mpirun refuses root without both
#                                         (CI and containers run as root)
#   rmaps_base_oversubscribe=1            more ranks than cores (8 ranks on
#                                         2 cores); Open MPI then also yields
#                                         the core while it waits
#   --mca btl self,vader                  shared memory and loopback only:
#                                         one machine, no probing of network
#                                         interfaces a container may not have
#   btl_vader_single_copy_mechanism       set OMPI_MCA_btl_vader_single_copy_mechanism=none
#                                         where process_vm_readv is denied
#                                         (docker without CAP_SYS_PTRACE);
#                                         left to the environment here
# For several machines, run mpirun yourself with a hostfile (README).
set -euo pipefail
command -v mpirun > /dev/null || { echo "mpirun.sh: mpirun not found (tools/deps.sh installs Open MPI)" >&2; exit 127; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
exec mpirun --mca btl self,vader "$@"
