#pragma once
// The (b, x) pairs of PETSc's projection start (solver.initial-guess = projected: KSPGuess,
// Fischer's method 3 over the last 10 solves), kept so that a checkpoint carries them and a
// restart hands them back: PETSc offers no way to read them out of its KSPGuess.
#include <petscksp.h>

#include <functional>
#include <string>
#include <vector>

namespace eis {

class ProjectionHistory {
public:
  using SaveVector = std::function<void(const std::string& name, Vec vector)>;
  using LoadVector = std::function<bool(const std::string& name, Vec vector)>;

  explicit ProjectionHistory(int capacity);
  ~ProjectionHistory();
  ProjectionHistory(const ProjectionHistory&) = delete;
  ProjectionHistory& operator=(const ProjectionHistory&) = delete;

  // After a KSPSolve of ksp (b, x its right-hand side and solution): the pair its guess stored.
  // The guess forgets its pairs when its matrix changes (KSPGuessSetUp), and so does this.
  void record(KSP ksp, Vec b, Vec x);
  // Before the first KSPSolve after load, once KSPSetUp has set the guess up: its pairs, oldest
  // first, through KSPGuessFormGuess and KSPGuessUpdate as the solves gave them.
  void replay(KSP ksp);
  // "PREFIX.b.I" and "PREFIX.x.I", I = 0 oldest.
  void save(const std::string& prefix, const SaveVector& save) const;
  // Those of save, as many pairs as the checkpoint has; `like` gives their layout.
  void load(const std::string& prefix, const LoadVector& load, Vec like);

private:
  void clear();

  int capacity_;
  std::vector<Vec> b_, x_;  // oldest first
  PetscObjectId matrixId_ = 0;
  PetscObjectState matrixState_ = -1;
  bool pending_ = false;  // loaded, not yet replayed
};

}  // namespace eis
