#pragma once
// SofaPython3 controllers run with the simulation. Rank 0 starts python3 (from PATH) on the
// controller driver beside the scene driver (share/euler-implicit/python/eis_controllers.py),
// which builds the scene again, keeps its Sofa.Core.Controller objects, calls their init and
// bwdInit, and then, for each event the run sends, calls onAnimateBeginEvent or
// onAnimateEndEvent. What a controller reads or writes of the run comes back to rank 0 as a
// request, which rank 0 broadcasts so that every rank takes part (a gather, a new force): the
// other ranks run no Python. The protocol is in src/io/python/eis_controllers.py. With a script's
// own main loop (python3 scene.py, src/io/python/eis_main_loop.py) the script is the driver:
// rank 0 connects to it, and it also says when the run steps (idle).
#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "eis/model/gathered_force_field.hpp"

namespace eis {

// What a scene's controllers need of the import: the scene, its controllers, and per body (in
// the order of the run's bodies) the node path of its state and its ConstantForceFields' loads.
struct SofaControl {
  std::string file;
  double timeout = 0;  // scene.python-timeout: the seconds one event may take
  std::vector<std::string> controllers;
  std::vector<std::string> statePaths;
  std::vector<std::vector<SofaForceLoad>> forces;
  // scene.python-main: the socket of a Python script's main loop (Sofa.Simulation.init), which
  // rank 0 connects to instead of starting python3: the script is the driver and drives the
  // steps (idle). Empty: the run drives itself.
  std::string mainLoop;
  // The object paths of the scene's force fields written in Python (python.force-field), whose
  // addForce, addDForce and addKToMatrix the controllers' python3 computes (forceField).
  std::vector<std::string> forceFields;
  // Per body, the components whose matrices a controller may read (assembleKMatrix,
  // assembleMMatrix).
  std::vector<SofaMatrixSources> matrices;
  // Per body, its TetrahedronFEMForceFields, whose localStiffnessFactor a controller may write.
  std::vector<std::vector<SofaStiffnessFactors>> stiffnessFactors;
  // The linear systems assembled beside the solved one for what reads them (SOFA's mass-only
  // system), their bodies indices of the run's.
  std::vector<SofaReaderSystem> readerSystems;
};

// What the run lets a controller touch; each call collective, the same arguments on every rank.
class ControllerAccess {
public:
  virtual ~ControllerAccess() = default;
  // Body `body`'s positions (or velocities) in node order on rank 0 (empty elsewhere), and on
  // every rank `width`, the numbers a node: 3, or 1 and 2 for SOFA's Vec1 and Vec2 states.
  virtual std::vector<double> state(std::size_t body, bool velocity, int& width) = 0;
  // A ConstantForceField's `field` (forces, totalForce or force) set to `values` from the next
  // solve on; throws eis::Error (every rank alike) for values that do not fit its indices.
  virtual void setForce(std::size_t body, const SofaForceLoad& load, const std::string& field,
                        const std::vector<double>& values) = 0;
  // The root's dt, from the next step on (between steps, a main loop's: from the next step).
  virtual void setDt(double dt) = 0;
  // Body `body`'s positions (or velocities) set to `values`, 3 per node in node order (the same
  // on every rank; each rank takes its own nodes' rows): the next step starts from them. Throws
  // eis::Error (every rank alike) for a count that is not 3 per node.
  virtual void setState(std::size_t body, bool velocity, const std::vector<double>& values) = 0;
  // Body `body`'s TetrahedronFEMForceField `field` (of the import) given the localStiffnessFactor
  // `factors` (the same on every rank): with its updateStiffness, each cell's Young's modulus is
  // its own times factors[i M / N] (i its SOFA index, M factors, N tetrahedra) from the next
  // solve on, as SOFA computes the material stiffness again at each AnimateBeginEvent; without
  // it, nothing changes (as in SOFA). Throws eis::Error (every rank alike) for a factor that is
  // not a finite number or a body whose elastic element cannot take them.
  virtual void setStiffnessFactors(std::size_t body, const SofaStiffnessFactors& field,
                                   const std::vector<double>& factors) = 0;
  // SOFA's mass-only linear system over `bodies` (SofaReaderSystem): each body's mass matrix
  // times the mass factor of its last solve's matrix (1 + tr h rM; 1 first-order), its rows
  // and columns after those of the bodies before it; laid out as matrix() gives it. Throws
  // eis::Error (every rank alike) before the first solve, or for a body whose step is not a
  // linearized implicit Euler step, or bodies whose factors differ.
  virtual std::vector<double> massSystemMatrix(const std::vector<std::size_t>& bodies) = 0;
  // Body `body`'s stiffness df/dx (`kind` "stiffness", kFactor 1) or mass matrix ("mass"), as
  // SOFA assembles it for one component: no projective constraint applied; or ("system") the
  // matrix of its last linear solve, as a MatrixLinearSystem holds it. Rows and columns in node
  // order, dofsPerNode per node. On rank 0: its size, then (row, column, value) of each nonzero
  // in row-major order; empty elsewhere. Throws eis::Error (every rank alike) when the body has
  // none to give.
  virtual std::vector<double> matrix(std::size_t body, const std::string& kind) = 0;
  // The right-hand side (or the `solution`) of body `body`'s last linear solve, in node order,
  // on rank 0 (empty elsewhere). Throws eis::Error (every rank alike) when it has none.
  virtual std::vector<double> systemVector(std::size_t body, bool solution) = 0;
  // The last constraint problem (SofaPython3's ConstraintSolver W(), lambda_force() and
  // dfree()): "compliance", W as m and its m x m values row by row; "lambda", the m
  // multipliers; "dfree", the m free violations.
  virtual std::vector<double> constraintProblem(const std::string& kind) = 0;
  // Body `body`'s constraint matrix (SofaPython3's MechanicalObject.constraint) of the last
  // constraint problem, as app/component_matrices' constraintMatrix gives it on rank 0: its rows
  // and columns, then (row, column, value) of each stored entry. 0 x 0 where the run solves no
  // Lagrangian constraint on the body, or before the first step (SOFA's empty matrix). Throws
  // eis::Error (every rank alike) for a body of a coupled group.
  virtual std::vector<double> constraintMatrix(std::size_t body) = 0;
};

// The body whose matrix is the one component at object path `path` (of `kind`: a force field
// with a "stiffness", a "mass", or a linear "system") gives: throws eis::Error when it is none,
// or when the body's matrix also holds another's (the run sums them; SOFA's read is the
// component's alone).
std::size_t matrixBody(const SofaControl& control, const std::string& path,
                       const std::string& kind);

// What a controller reads of the component at object path `path` (collective): its body's
// "stiffness", "mass" or linear "system" matrix (ControllerAccess::matrix; a reader system's,
// massSystemMatrix), or the last solve's "rhs" or "solution" (systemVector). Throws eis::Error
// (every rank alike) where matrixBody does, or with a reader system's refusal.
std::vector<double> componentRead(const SofaControl& control, ControllerAccess& access,
                                  const std::string& path, const std::string& kind);

// The TetrahedronFEMForceField at object path `path` of a body of the run, and that body
// (`body`): throws eis::Error when no body has one there.
const SofaStiffnessFactors& stiffnessFactorsAt(const SofaControl& control, const std::string& path,
                                               std::size_t& body);

class PythonControllers {
public:
  // Collective: starts the controllers (python3 on rank 0), builds the scene and runs their
  // init and bwdInit. Throws eis::Error on every rank naming the scene line that failed.
  PythonControllers(const SofaControl& control, MPI_Comm comm);
  ~PythonControllers();
  PythonControllers(const PythonControllers&) = delete;
  PythonControllers& operator=(const PythonControllers&) = delete;

  // Collective: sends AnimateBeginEvent (`begin` true) or AnimateEndEvent of step `step` at
  // `time` with the step's `dt`, serving the controllers' requests until they return. Throws
  // eis::Error on every rank, "FILE:LINE: step N: what", when a controller raises, ends, or
  // takes longer than scene.python-timeout.
  // `again`: a restart's AnimateEndEvent of its checkpoint's step, sent again (without the
  // constraint events: their problem is not in the checkpoint).
  void event(bool begin, int step, double time, double dt, ControllerAccess& access,
             bool again = false);

  // Collective: the controllers' own state (src/io/python/eis_controller_state.py), the same
  // bytes on every rank, which a checkpoint holds. Throws eis::Error on every rank when python3
  // fails to answer.
  std::string saveState();
  // Collective, before the first event of a restart: sets the controllers' state saveState gave.
  // Throws eis::Error on every rank ("FILE: controller PATH (Class): attribute 'NAME' ...") when
  // the state names an attribute it could not hold (unless `force`: a warning), or does not fit
  // the scene's controllers.
  void restoreState(const std::string& state, bool force);

  // Collective, with a Python main loop only: tells the script that the run holds step `step`
  // at `time` with the root's `dt`, and serves its reads and writes, with no time limit, until
  // it asks for the next step (true; `stepDt` the dt it gave, 0 for the root's) or ends the
  // run (false). A script that ends without a word is eis::Error on every rank.
  bool idle(int step, double time, double dt, ControllerAccess& access, double& stepDt);

  // Collective, while the model is built: the callbacks of the force field written in Python at
  // object path `path`, each call a request to python3 carrying the gathered arrays as raw
  // doubles and answered with the result's (io/python_remote_force_field.cpp); null when the
  // scene has none at that path. The callbacks use this object: it must outlive their calls.
  std::unique_ptr<NodalForceCallbacks> forceField(const std::string& path);

  // Collective: sends `line` and `numbers` (rank 0's) and waits, within scene.python-timeout, for
  // "values COUNT" and its numbers, put in `out` on every rank; returns "" or, on every rank
  // alike, the line saying why not ("FILE:LINE: in Class.method: what" for an exception;
  // "FILE: `during`: ..." when python3 ends or takes too long).
  std::string call(const std::string& line, const std::vector<double>& numbers,
                   std::vector<double>& out, const std::string& during);

private:
  // Sends `line` and `bytes` (rank 0) and reads one answer within scene.python-timeout: its
  // kind and text (a "state"'s bytes), on every rank alike; "fail" is thrown.
  std::pair<std::string, std::string> exchange(const std::string& line, const std::string& bytes,
                                               const std::string& during);
  // Sends `line` (rank 0) and serves the driver's requests until a message that is not one;
  // returns its kind and text. `timed`: within scene.python-timeout.
  std::pair<std::string, std::string> serve(const std::string& line, bool timed,
                                            ControllerAccess& access);
  struct Process;
  std::unique_ptr<Process> process_;  // rank 0 only
  const SofaControl control_;
  MPI_Comm comm_;
};

}  // namespace eis
