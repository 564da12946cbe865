// A soft pneumatic finger (a PneuNet), in metres: a 100 x 20 x 6 mm base, its bottom 2 mm a stiff
// (strain-limiting) layer, carrying six hollow chambers 12 mm long and 14 mm tall with 2.5 mm
// walls, 3 mm apart, joined by a channel in the base. Inflated, the chambers push each other
// apart, the top lengthens, and the finger bends towards its stiff layer. The channel's
// triangles are reversed to face the solid, so that a positive load.pressure inflates it.
// Run in this folder: gmsh -3 -format msh22 soft-finger.geo -o soft-finger.msh
SetFactory("OpenCASCADE");
Mesh.CharacteristicLengthMax = 0.25;
Mesh.ScalingFactor = 0.01;
n = 6; pitch = 1.5; wall = 0.25; x0 = 0.5;
Box(1) = {0, 0, 0, 10, 2, 0.6};
Box(2) = {0, 0, 0.6, x0, 2, 1.4};
s() = {1, 2};
For i In {0 : n - 1}
  Box(10 + i) = {x0 + i * pitch, 0, 0.6, pitch - 0.3, 2, 1.4};
  s() += {10 + i};
EndFor
outer() = BooleanUnion{ Volume{s(0)}; Delete; }{ Volume{s({1 : #s() - 1})}; Delete; };
For i In {0 : n - 1}
  Box(30 + i) = {x0 + i * pitch + wall, wall, 0.6, pitch - 0.3 - 2 * wall, 2 - 2 * wall, 1.4 - wall};
EndFor
Box(40) = {x0 + wall, 0.7, 0.35, (n - 1) * pitch + pitch - 0.3 - 2 * wall, 0.6, 0.5};
cav() = BooleanUnion{ Volume{40}; Delete; }{ Volume{30 : 30 + n - 1}; Delete; };
finger() = BooleanDifference{ Volume{outer()}; Delete; }{ Volume{cav()}; Delete; };
Box(50) = {0, 0, 0, 10, 2, 0.2};
parts() = BooleanFragments{ Volume{finger()}; Delete; }{ Volume{50}; Delete; };
eps = 1e-6;
base() = Surface In BoundingBox{-eps, -eps, -eps, eps, 2 + eps, 2 + eps};
inner() = Surface In BoundingBox{x0 + wall - eps, wall - eps, 0.35 - eps, x0 + n * pitch - 0.3 - wall + eps, 2 - wall + eps, 2 - wall + eps};
layer() = Volume In BoundingBox{-eps, -eps, -eps, 10 + eps, 2 + eps, 0.2 + eps};
body() = Volume In BoundingBox{-eps, -eps, 0.2 - eps, 10 + eps, 2 + eps, 2 + eps};
Physical Surface("base") = {base()};
Physical Surface("cavity") = {inner()};
Physical Volume("body") = {body()};
Physical Volume("layer") = {layer()};
ReverseMesh Surface{inner()};
