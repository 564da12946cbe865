#include "eis/model/pulse_pressure.hpp"

namespace eis {

PulsePressure::PulsePressure(double pressure, double speed, double lowerBound)
    : pressure_(pressure), speed_(speed), lower_(lowerBound), rising_(pressure > 0) {}

void PulsePressure::move() {
  if (rising_) {
    const double upper = pressure_ > 0 ? pressure_ : lower_;
    value_ += speed_ * dt_;
    if (value_ >= upper) value_ = upper, rising_ = false;
  } else {
    const double lower = pressure_ > 0 ? lower_ : pressure_;
    value_ -= speed_ * dt_;
    if (value_ <= lower) value_ = lower, rising_ = true;
  }
  ++step_;
}

double PulsePressure::atStep(long long step, double dt) {
  if (step < step_ || dt != dt_) {
    dt_ = dt;
    step_ = 0;
    value_ = 0;
    rising_ = pressure_ > 0;
  }
  while (step_ < step) move();
  return value_;
}

}  // namespace eis
