"""Sofa.Simulation's init, animate, reset and unload over one simulation at a time: the facade
both main loops share (eis_in_process.py runs the engine in this process, eis_main_loop.py
beside it). A main loop gives its Session class: Session(root, first) makes the simulation of
root's graph (first: the controllers' init, else their reset), .animate(dt) steps it, .close()
ends it; .root and .closed say which graph it runs and whether it ended."""
import atexit

import Sofa.Core


class Sessions:
    def __init__(self, session_class, before_init=None):
        self.session_class = session_class
        self.before_init = before_init
        self.current = None
        atexit.register(self.end)

    def end(self):
        if self.current is not None:
            session, self.current = self.current, None
            session.close()

    def init(self, root):
        """A new simulation of the graph (one already made ends first), its controllers
        initialised."""
        if self.before_init:
            self.before_init()
        self.end()
        self.current = self.session_class(root, True)

    def session(self, root, what):
        s = self.current
        if s is None or s.closed or s.root is not root.getRoot():
            raise Sofa.Core.SceneError(
                "Sofa.Simulation.%s: Sofa.Simulation.init(root) first" % what)
        return s

    def animate(self, root, dt):
        self.session(root, "animate").animate(dt)

    def reset(self, root):
        """SOFA's reset: time 0 and the initial state, with the forces and dt written since;
        here a new simulation of the graph as it now is, the controllers' reset() called (the
        outputs restart)."""
        self.session(root, "reset")
        self.end()
        self.current = self.session_class(root, False)

    def unload(self, root):
        if self.current is not None and self.current.root is root.getRoot():
            self.end()
