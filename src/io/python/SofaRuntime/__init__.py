"""SofaRuntime: plugins are euler-implicit's own components, so importing one does nothing."""


def importPlugin(name):
    pass


class PluginRepository:
    @staticmethod
    def addFirstPath(path):
        pass
