"""SofaPython3's Sofa.SofaLinearSystem as euler-implicit reads a scene: a MatrixLinearSystem's
reads (get_system_matrix, get_rhs_vector, get_solution_vector) are methods of the object
addObject returns (Sofa.Core.LinearSystem), which a controller calls while the run goes on."""
