// Cantilever beam, 10 x 1 x 1, the shipped test meshes come from it (see README.md).
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 10, 1, 1};

// About two tetrahedra across the section: a few hundred nodes, small enough for unit tests.
Mesh.CharacteristicLengthMin = 0.5;
Mesh.CharacteristicLengthMax = 0.5;

eps = 1e-6;
Physical Surface("clamp", 1) = Surface In BoundingBox {-eps, -eps, -eps, eps, 1 + eps, 1 + eps};
Physical Surface("tip", 2) = Surface In BoundingBox {10 - eps, -eps, -eps, 10 + eps, 1 + eps, 1 + eps};
Physical Volume("beam", 3) = {1};
