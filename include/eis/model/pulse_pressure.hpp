#pragma once
// SOFA's cyclic pressure (SurfacePressureForceField pulseMode, computePulseModePressure in SOFA
// master's SurfacePressureForceField.inl): a pressure that starts at 0 and, once per step, moves
// by speed * dt towards a bound, where it stays for that step and turns. With P the pressure:
// the bounds are [lower, P] when P > 0 (rising first), else [P, lower] (falling first). Rising:
// p += speed dt; if p >= upper, p = upper and it turns down. Falling: p -= speed dt; if
// p <= lower bound, p = that bound and it turns up. The pressure of step n (1-based) is the value
// after n such moves: SOFA moves it in each addForce, once per step of EulerImplicitSolver.
namespace eis {

class PulsePressure {
public:
  PulsePressure(double pressure, double speed, double lowerBound);
  // The pressure of step `step` (1-based: the first step's is speed * dt, or a bound) of steps
  // dt. Cheap for the step after the last asked for; any other, or another dt, is recomputed
  // from the start (a restart).
  double atStep(long long step, double dt);

private:
  void move();
  double pressure_, speed_, lower_, dt_ = 0;
  long long step_ = 0;  // moves made
  double value_ = 0;
  bool rising_;
};

}  // namespace eis
