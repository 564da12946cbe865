#pragma once
// Springs from the points a RigidMapping drives from a body's frames (rigid.mapped-points) to
// the nodes of a mesh body (rigid.mapped-springs; SOFA's SpringForceField with object1 a
// RigidMapping child and object2 a body of points), stepped with it as one system
// (model/joint_system.hpp).
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"
#include "eis/model/interaction_springs.hpp"

namespace eis {

const ComponentDeclaration& rigidMappedSpringsComponent();

// Every rigid.mapped-springs value of a scene: its target (a mesh body's node path) and its
// springs, node1 a mapped point's 0-based index, node2 a node id of the target.
std::vector<InteractionSpringSet> rigidMappedSpringsOf(const Parameters& scene);

}  // namespace eis
