"""SofaPython3's Sofa.SofaDeformable as euler-implicit reads a scene: LinearSpring, the spring a
scene may build for a SpringForceField's `springs` (a value written into the scene). Changing a
SpringForceField's springs while the simulation runs (addSpring, removeSpring) is not
supported."""


class LinearSpring:
    """One spring: the indices of its two points, stiffness, damping and rest length."""

    def __init__(self, index1, index2, springStiffness=100, dampingFactor=5, restLength=None,
                 elongationOnly=False, enabled=True):
        if restLength is None:
            raise TypeError("LinearSpring: restLength is required")
        self.index1, self.index2 = index1, index2
        self.springStiffness, self.dampingFactor = springStiffness, dampingFactor
        self.restLength = restLength
        self.elongationOnly, self.enabled = elongationOnly, enabled

    def __str__(self):
        return "%d %d %s %s %s" % (self.index1, self.index2, self.springStiffness,
                                   self.dampingFactor, self.restLength)
