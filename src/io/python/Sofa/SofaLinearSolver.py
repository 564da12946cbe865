"""SofaPython3's Sofa.SofaLinearSolver as euler-implicit reads a scene: imported by scenes, it
offers nothing more here (a linear solver's own reads are not supported)."""
