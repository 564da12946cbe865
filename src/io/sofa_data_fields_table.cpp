// The data fields of SOFA master's components the importer maps or accepts, class by class as
// SOFA declares them (io/sofa_data_fields.hpp). Read from the sources of sofa-framework/sofa
// (master): each class's constructor initData names (the name is the argument before the help
// text), initLink names and addAlias names, and the attributes its parse() reads itself
// (MechanicalObject's scale, sx .. dz2 and size; GridTopology's nx ny nz; RegularGridTopology's
// xmin .. zmax and scale; MeshLoader's scale; TopologicalMapping's input and output;
// PairInteractionForceField's object1 and object2); BaseComponent::parse takes src. Left out:
// the attributes a parse() reads only to say they are gone (DiagonalMass's mass,
// SparseLDLSolver's savingMatrixToFile), which SOFA does not set. PCGLinearSolver's update_step
// is a DeprecatedData: SOFA still knows the name. A class is followed by its bases in the order
// SOFA's class declaration lists them; a template base taken as a parameter (TBase) is
// MatrixLinearSolver, the one SOFA instantiates. The direct solvers SparseCholeskySolver and
// SparseLUSolver moved to the CSparseSolvers plugin and are not here.
#include "sofa_data_fields.hpp"

namespace eis::sofa {

const std::vector<SofaClassFields>& sofaClassFields() {
  static const std::vector<SofaClassFields> table = {
    {"MechanicalObject", {"MechanicalState"}, {
         "position", "velocity", "force", "rest_position", "externalForce", "derivX",
         "free_position", "free_velocity", "constraint", "mappingJacobian", "reset_position",
         "reset_velocity", "restScale", "useTopology", "showObject", "showObjectScale",
         "showIndices", "showIndicesScale", "showVectors", "showVectorsScale", "drawMode",
         "showColor", "translation", "rotation", "scale3d", "translation2", "rotation2", "size",
         "reserve", "topology", "scale", "sx", "sy", "sz", "rx", "ry", "rz", "dx", "dy", "dz",
         "rx2", "ry2", "rz2", "dx2", "dy2", "dz2"}},
    {"MechanicalState", {"BaseMechanicalState", "State"}, {}},
    {"BaseMechanicalState", {"BaseState"}, {}},
    {"BaseState", {"BaseComponent"}, {}},
    {"BaseComponent", {"Base"}, {"listening", "context", "slaves", "master", "src"}},
    {"Base", {}, {"name", "printLog", "tags", "bbox", "componentState"}},
    {"State", {"BaseState"}, {}},
    {"MeshGmshLoader", {"MeshLoader"}, {}},
    {"MeshLoader", {"BaseLoader"}, {
         "position", "polylines", "edges", "triangles", "quads", "polygons",
         "highOrderEdgePositions", "highOrderTrianglePositions", "highOrderQuadPositions",
         "tetrahedra", "hexahedra", "prisms", "highOrderTetrahedronPositions",
         "highOrderHexahedronPositions", "pyramids", "normals", "edgesGroups", "trianglesGroups",
         "quadsGroups", "polygonsGroups", "tetrahedraGroups", "hexahedraGroups", "prismsGroups",
         "pyramidsGroups", "flipNormals", "triangulate", "createSubelements", "onlyAttachedPoints",
         "translation", "rotation", "scale3d", "transformation", "tetras", "hexas", "pentas",
         "pentahedra", "pentahedraGroups", "scale"}},
    {"BaseLoader", {"BaseComponent"}, {"filename"}},
    {"MeshVTKLoader", {"MeshLoader"}, {}},
    {"MeshOBJLoader", {"MeshLoader"}, {
         "handleSeams", "loadMaterial", "defaultMaterial", "materials", "faceList",
         "texcoordsIndex", "positionsDefinition", "texcoordsDefinition", "normalsIndex",
         "normalsDefinition", "texcoords", "computeMaterialFaces", "vertPosIdx", "vertNormIdx",
         "material"}},
    {"MeshSTLLoader", {"MeshLoader"}, {"headerSize", "forceBinary", "mergePositionUsingMap"}},
    {"MeshOffLoader", {"MeshLoader"}, {}},
    {"MeshTrianLoader", {"MeshLoader"}, {
         "trian2", "neighborTable", "edgesOnBorder", "trianglesOnBorderList"}},
    {"SphereLoader", {"BaseLoader"}, {
         "position", "listRadius", "scale", "rotation", "translation", "sphere_centers",
         "scale3d"}},
    {"TetrahedronSetTopologyContainer", {"TriangleSetTopologyContainer"}, {
         "createTriangleArray", "tetrahedra", "tetras"}},
    {"TriangleSetTopologyContainer", {"EdgeSetTopologyContainer"}, {"triangles"}},
    {"EdgeSetTopologyContainer", {"PointSetTopologyContainer"}, {"edges", "checkConnexity"}},
    {"PointSetTopologyContainer", {"TopologyContainer"}, {
         "position", "checkTopology", "nbPoints", "points"}},
    {"TopologyContainer", {"BaseTopologyObject", "BaseMeshTopology"}, {}},
    {"BaseTopologyObject", {"BaseComponent"}, {}},
    {"BaseMeshTopology", {"Topology"}, {"filename", "fileTopology"}},
    {"Topology", {"BaseComponent"}, {}},
    {"TetrahedronSetTopologyModifier", {"TriangleSetTopologyModifier"}, {"removeIsolated"}},
    {"TriangleSetTopologyModifier", {"EdgeSetTopologyModifier"}, {"list_Out"}},
    {"EdgeSetTopologyModifier", {"PointSetTopologyModifier"}, {}},
    {"PointSetTopologyModifier", {"TopologyModifier"}, {"propagateToDOF"}},
    {"TopologyModifier", {"BaseTopologyObject"}, {}},
    {"TetrahedronSetGeometryAlgorithms", {"TriangleSetGeometryAlgorithms"}, {
         "showTetrahedraIndices", "drawTetrahedra", "drawScaleTetrahedra", "drawColorTetrahedra",
         "showTetrasIndices", "drawTetra", "drawTetrahedron"}},
    {"TriangleSetGeometryAlgorithms", {"EdgeSetGeometryAlgorithms"}, {
         "showTriangleIndices", "drawTriangles", "drawColorTriangles", "drawNormals",
         "drawNormalLength", "recomputeTrianglesOrientation", "flipNormals"}},
    {"EdgeSetGeometryAlgorithms", {"PointSetGeometryAlgorithms"}, {
         "showEdgeIndices", "drawEdges", "drawColorEdges"}},
    {"PointSetGeometryAlgorithms", {"GeometryAlgorithms"}, {
         "showIndicesScale", "showPointIndices", "tagMechanics", "topology"}},
    {"GeometryAlgorithms", {"BaseTopologyObject"}, {}},
    {"HexahedronSetTopologyContainer", {"QuadSetTopologyContainer"}, {
         "createQuadArray", "hexahedra", "hexas"}},
    {"QuadSetTopologyContainer", {"EdgeSetTopologyContainer"}, {"quads"}},
    {"HexahedronSetTopologyModifier", {"QuadSetTopologyModifier"}, {"removeIsolated"}},
    {"QuadSetTopologyModifier", {"EdgeSetTopologyModifier"}, {}},
    {"HexahedronSetGeometryAlgorithms", {"QuadSetGeometryAlgorithms"}, {
         "showHexaIndices", "drawHexahedra", "drawScaleHexahedra", "drawColorHexahedra", "drawHexa",
         "drawHexahedron"}},
    {"QuadSetGeometryAlgorithms", {"EdgeSetGeometryAlgorithms"}, {
         "showQuadIndices", "drawQuads", "drawColorQuads"}},
    {"MeshTopology", {"BaseMeshTopology"}, {
         "position", "edges", "triangles", "quads", "tetrahedra", "hexahedra", "prisms", "pyramids",
         "uv", "computeAllBuffers", "drawEdges", "drawTriangles", "drawQuads", "drawTetrahedra",
         "drawHexahedra", "points", "lines", "tetras", "hexas", "texcoords"}},
    {"RegularGridTopology", {"GridTopology"}, {
         "min", "max", "p0", "cellWidth", "scale", "xmin", "ymin", "zmin", "xmax", "ymax", "zmax"}},
    {"GridTopology", {"MeshTopology"}, {
         "n", "computeHexaList", "computeQuadList", "computeTriangleList", "computeEdgeList",
         "computePointList", "createTexCoords", "nx", "ny", "nz"}},
    {"Hexa2TetraTopologicalMapping", {"TopologicalMapping"}, {"swapping"}},
    {"TopologicalMapping", {"BaseComponent"}, {"input", "output"}},
    {"Tetra2TriangleTopologicalMapping", {"TopologicalMapping"}, {
         "flipNormals", "noNewTriangles", "noInitialTriangles", "modifier"}},
    {"EulerImplicitSolver", {"OdeSolver", "LinearSolverAccessor"}, {
         "rayleighStiffness", "rayleighMass", "vdamping", "firstOrder", "trapezoidalScheme",
         "solveConstraint", "threadSafeVisitor", "computeResidual", "residual"}},
    {"OdeSolver", {"BaseComponent"}, {}},
    {"LinearSolverAccessor", {"BaseComponent"}, {"linearSolver"}},
    {"NewtonRaphsonSolver", {"BaseComponent"}, {
         "maxNbIterationsNewton", "relativeSuccessiveStoppingThreshold",
         "relativeInitialStoppingThreshold", "absoluteResidualStoppingThreshold",
         "relativeEstimateDifferenceThreshold", "absoluteEstimateDifferenceThreshold",
         "maxNbIterationsLineSearch", "lineSearchCoefficient", "updateStateWhenDiverged",
         "residualGraph", "warnWhenLineSearchFails", "warnWhenDiverge", "status"}},
    {"StaticSolver", {"OdeSolver", "LinearSolverAccessor"}, {"newtonSolver"}},
    {"CGLinearSolver", {"MatrixLinearSolver"}, {
         "iterations", "tolerance", "threshold", "warmStart", "graph"}},
    {"MatrixLinearSolver", {"BaseMatrixLinearSolver", "TaskSchedulerUser"}, {
         "parallelInverseProduct", "factorizationInvalidation", "linearSystem"}},
    {"BaseMatrixLinearSolver", {"LinearSolver"}, {}},
    {"LinearSolver", {"BaseLinearSolver"}, {}},
    {"BaseLinearSolver", {"BaseComponent"}, {}},
    {"TaskSchedulerUser", {"Base"}, {"nbThreads", "taskSchedulerType"}},
    {"PCGLinearSolver", {"MatrixLinearSolver"}, {
         "iterations", "tolerance", "use_precond", "graph", "preconditioner", "update_step"}},
    {"SparseLDLSolver", {"SparseLDLSolverImpl"}, {}},
    {"SparseLDLSolverImpl", {"OrderingMethodAccessor"}, {
         "precomputeSymbolicDecomposition", "L_nnz"}},
    {"OrderingMethodAccessor", {"MatrixLinearSolver"}, {"orderingMethod"}},
    {"EigenSimplicialLDLT", {"EigenDirectSparseSolver"}, {}},
    {"EigenDirectSparseSolver", {"OrderingMethodAccessor"}, {}},
    {"AsyncSparseLDLSolver", {"SparseLDLSolver"}, {"enableAssembly"}},
    {"EigenSparseLU", {"EigenDirectSparseSolver"}, {}},
    {"DiagonalMass", {"Mass", "TopologyAccessor"}, {
         "vertexMass", "massDensity", "totalMass", "computeMassOnRest", "showGravityCenter",
         "showAxisSizeFactor", "filename", "geometryState", "fileMass"}},
    {"Mass", {"ForceField", "BaseMass"}, {}},
    {"ForceField", {"BaseForceField", "SingleStateAccessor"}, {}},
    {"BaseForceField", {"StateAccessor"}, {"rayleighStiffness"}},
    {"StateAccessor", {"BaseComponent"}, {"mechanicalStates"}},
    {"SingleStateAccessor", {"StateAccessor"}, {"mstate"}},
    {"BaseMass", {"StateAccessor"}, {"separateGravity", "rayleighMass"}},
    {"TopologyAccessor", {"BaseComponent"}, {"topology"}},
    {"MeshMatrixMass", {"Mass", "TopologyAccessor"}, {
         "massDensity", "totalMass", "vertexMass", "edgeMass", "computeMassOnRest",
         "showGravityCenter", "showAxisSizeFactor", "lumping", "printMass", "graph",
         "geometryState"}},
    {"UniformMass", {"Mass", "TopologyAccessor"}, {
         "vertexMass", "totalMass", "filename", "showGravityCenter", "showAxisSizeFactor",
         "compute_mapping_inertia", "showInitialCenterOfGravity", "showX0", "localRange", "indices",
         "preserveTotalMass"}},
    {"TetrahedronFEMForceField", {"BaseLinearElasticityFEMForceField", "RotationFinder"}, {
         "initialPoints", "method", "localStiffnessFactor", "updateStiffnessMatrix",
         "computeGlobalMatrix", "plasticMaxThreshold", "plasticYieldThreshold", "plasticCreep",
         "gatherPt", "gatherBsize", "drawHeterogeneousTetra", "computeVonMisesStress",
         "vonMisesPerElement", "vonMisesPerNode", "vonMisesStressColors", "showStressColorMap",
         "showStressAlpha", "showVonMisesStressPerNode", "showVonMisesStressPerNodeColorMap",
         "showVonMisesStressPerElement", "showElementGapScale", "updateStiffness", "assembling"}},
    {"HexahedronFEMForceField", {"BaseLinearElasticityFEMForceField", "BaseRotationFinder"}, {
         "method", "updateStiffnessMatrix", "gatherPt", "gatherBsize", "drawing",
         "drawPercentageOffset", "stiffnessMatrices", "initialPoints"}},
    {"BaseLinearElasticityFEMForceField", {"ForceField", "TopologyAccessor"}, {
         "poissonRatio", "youngModulus"}},
    {"RotationFinder", {"BaseRotationFinder"}, {}},
    {"BaseRotationFinder", {"BaseComponent"}, {}},
    {"TetrahedralCorotationalFEMForceField", {"BaseLinearElasticityFEMForceField"}, {
         "tetrahedronInfo", "method", "localStiffnessFactor", "updateStiffnessMatrix",
         "computeGlobalMatrix", "drawing", "drawColor1", "drawColor2", "drawColor3", "drawColor4",
         "computeVonMisesStress", "vonMisesPerElement", "vonMisesPerNode", "assembling"}},
    {"TetrahedronHyperelasticityFEMForceField", {"ForceField"}, {
         "matrixRegularization", "materialName", "ParameterSet", "AnisotropyDirections",
         "tetrahedronInfo", "edgeInfo", "topology"}},
    {"MeshSpringForceField", {"SpringForceField"}, {
         "linesStiffness", "linesDamping", "trianglesStiffness", "trianglesDamping",
         "quadsStiffness", "quadsDamping", "tetrahedraStiffness", "tetrahedraDamping",
         "cubesStiffness", "cubesDamping", "noCompression", "drawMinElongationRange",
         "drawMaxElongationRange", "drawSpringSize", "localRange", "topology", "stiffness",
         "damping", "tetrasStiffness", "tetrasDamping"}},
    {"SpringForceField", {"PairInteractionForceField"}, {
         "springsIndices1", "springsIndices2", "showArrowSize", "drawMode", "stiffness", "damping",
         "spring", "lengths", "fileSprings", "length", "indices1", "indices2", "elongationOnly",
         "enabled"}},
    {"PairInteractionForceField", {"BaseInteractionForceField", "PairStateAccessor"}, {
         "object1", "object2"}},
    {"BaseInteractionForceField", {"BaseForceField"}, {}},
    {"PairStateAccessor", {"StateAccessor"}, {"object1", "object2"}},
    {"RestShapeSpringsForceField", {"ForceField"}, {
         "points", "stiffness", "angularStiffness", "pivot_points", "external_points",
         "recompute_indices", "drawSpring", "springColor", "external_rest_shape", "topology",
         "activeDirections"}},
    {"ConstantForceField", {"ForceField"}, {
         "indices", "indexFromEnd", "forces", "totalForce", "showArrowSize", "showColor",
         "topology"}},
    {"SurfacePressureForceField", {"ForceField"}, {
         "pressure", "min", "max", "triangleIndices", "quadIndices", "pulseMode",
         "pressureLowerBound", "pressureSpeed", "volumeConservationMode", "useTangentStiffness",
         "defaultVolume", "mainDirection", "drawForceScale", "topology"}},
    {"TrianglePressureForceField", {"ForceField"}, {
         "pressure", "cauchyStress", "triangleList", "showForces", "useConstantForce",
         "trianglePressureMap", "topology"}},
    {"FixedProjectiveConstraint", {"ProjectiveConstraintSet"}, {
         "indices", "fixAll", "showObject", "drawSize", "activate_projectVelocity", "topology"}},
    {"ProjectiveConstraintSet", {"BaseProjectiveConstraintSet", "SingleStateAccessor"}, {
         "endTime"}},
    {"BaseProjectiveConstraintSet", {"StateAccessor"}, {"group"}},
    {"PartialFixedProjectiveConstraint", {"FixedProjectiveConstraint"}, {
         "fixedDirections", "projectVelocity"}},
    {"LinearMovementProjectiveConstraint", {"ProjectiveConstraintSet"}, {
         "indices", "keyTimes", "movements", "relativeMovements", "showMovement", "topology"}},
    {"BoxROI", {"BaseROI"}, {
         "box", "orientedBox", "drawBoxes", "quad", "computeQuad", "quadInROI"}},
    {"BaseROI", {"DataEngine"}, {
         "position", "edges", "triangles", "quads", "tetrahedra", "hexahedra", "computeEdges",
         "computeTriangles", "computeQuads", "computeTetrahedra", "computeHexahedra", "strict",
         "indices", "edgeIndices", "triangleIndices", "quadIndices", "tetrahedronIndices",
         "hexahedronIndices", "pointsInROI", "edgesInROI", "trianglesInROI", "quadsInROI",
         "tetrahedraInROI", "hexahedraInROI", "nbIndices", "pointsOutROI", "edgesOutROI",
         "trianglesOutROI", "tetrahedraOutROI", "indicesOut", "edgeOutIndices",
         "triangleOutIndices", "tetrahedronOutIndices", "drawROI", "drawPoints", "drawEdges",
         "drawTriangles", "drawQuads", "drawTetrahedra", "drawHexahedra", "drawSize", "doUpdate"}},
    {"DataEngine", {"DataTrackerDDGNode", "BaseComponent"}, {}},
    {"DataTrackerDDGNode", {}, {}},
    {"SphereROI", {"BaseROI"}, {
         "centers", "radii", "direction", "normal", "edgeAngle", "triAngle", "isVisible", "angle",
         "pointIndices", "rest_position", "drawSphere"}},
    {"RequiredPlugin", {"BaseComponent"}, {
         "pluginName", "suffixMap", "stopAfterFirstNameFound", "stopAfterFirstSuffixFound",
         "requireOne", "requireAll", "loadedPlugins"}},
    {"DefaultAnimationLoop", {"BaseAnimationLoop"}, {"parallelODESolving"}},
    {"BaseAnimationLoop", {"BaseComponent"}, {"computeBoundingBox", "targetNode"}},
    {"DefaultVisualManagerLoop", {"VisualLoop"}, {"targetNode"}},
    {"VisualLoop", {"VisualModel"}, {}},
    {"VisualModel", {"BaseComponent"}, {"enable"}},
    {"AddPluginRepository", {"BaseAddResourceRepository"}, {}},
    {"BaseAddResourceRepository", {"BaseComponent"}, {"path"}},
  };
  return table;
}

}  // namespace eis::sofa
