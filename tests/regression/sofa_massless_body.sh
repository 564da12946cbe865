#!/usr/bin/env bash
# A body with cells and force fields but no mass component (--scene FILE.scn): SOFA's
# EulerImplicitSolver steps it with M = 0 (a quasi-static step; gravity, which SOFA applies
# through the masses, pulls on nothing), our mass.type = none:
#  - the massless body under gravity, at rest, stays where it is, velocity 0, bit for bit, after
#    2 steps on 1 and 2 ranks (our default density of 1 would let it fall);
#  - the same body with a UniformMass runs;
#  - a mass's own rayleighMass and separateGravity, which change SOFA's step and are not
#    simulated, are each one error line naming the field, whichever kind of mass has them.
# Usage: sofa_massless_body.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "$1")
HERE=$(realpath "$(dirname "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$HERE/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$HERE/../common/checks.sh"

# scene MASS: two tetrahedra, one face fixed, under gravity.
scene() {
  cat <<XML
<Node name="root" dt="0.01" gravity="0 0 -9.81">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="200" tolerance="1e-20" threshold="1e-20"/>
  <TetrahedronSetTopologyContainer name="topo" tetrahedra="0 1 2 3  1 2 3 4"/>
  <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1"/>
  $1
  <TetrahedronFEMForceField youngModulus="1000" poissonRatio="0.3"/>
  <FixedProjectiveConstraint indices="0 1 2"/>
</Node>
XML
}
scene "" > massless.scn
scene '<UniformMass totalMass="2"/>' > massive.scn

status=0
for ranks in 1 2; do
  mpi_command "$ranks" "$EXE"
  rm -f still.csv
  if ! timeout 60 "${MPI_COMMAND[@]}" --scene massless.scn --solver.steps=2 --quiet \
    --output.final-state=still.csv > run.out 2> run.err; then
    echo "FAIL: the massless body did not run on $ranks ranks"
    cat run.err
    status=1
  fi
  want=$'id,x,y,z,vx,vy,vz\n0,0,0,0,0,0,0\n1,1,0,0,0,0,0\n2,0,1,0,0,0,0\n3,0,0,1,0,0,0\n4,1,1,1,0,0,0'
  if [ "$(cat still.csv 2> /dev/null)" != "$want" ]; then
    echo "FAIL: the massless body on $ranks ranks moved (gravity acts through the mass only):"
    sed 's/^/  got: /' still.csv
    status=1
  fi
  if ! timeout 60 "${MPI_COMMAND[@]}" --scene massive.scn --solver.steps=2 --quiet \
    > run.out 2> run.err; then
    echo "FAIL: the body with a UniformMass did not run on $ranks ranks"
    cat run.err
    status=1
  fi
done
scene '<UniformMass totalMass="2" rayleighMass="0.3"/>' > rayleigh.scn
check "a UniformMass's own rayleighMass is refused, naming the field" \
  refused "rayleigh.scn:7: UniformMass: rayleighMass = '0.3': a mass's own Rayleigh factor" \
  2 "$EXE" --scene rayleigh.scn --solver.steps=1
scene '<MeshMatrixMass totalMass="2" separateGravity="true"/>' > separate.scn
check "a MeshMatrixMass's separateGravity is refused, naming the field" \
  refused "separate.scn:7: MeshMatrixMass: separateGravity = 'true': .*gravity added to the velocities" \
  1 "$EXE" --scene separate.scn --solver.steps=1
scene '<DiagonalMass totalMass="2" rayleighMass="0" separateGravity="false"/>' > defaults.scn
runs() {  # runs SCENE: one step on 1 rank succeeds
  mpi_command 1 "$EXE"
  timeout 60 "${MPI_COMMAND[@]}" --scene "$1" --solver.steps=1 --quiet > run.out 2> run.err
}
check "a mass's rayleighMass 0 and separateGravity false, SOFA's defaults, run" runs defaults.scn
((failures == 0)) || status=1
[ "$status" = 0 ] && echo "PASS: sofa_massless_body"
exit "$status"
