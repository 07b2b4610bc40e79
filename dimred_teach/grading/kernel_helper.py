"""The grader's helper inside a grading kernel.

This file is never imported by the grader: its source is the first cell the worker runs
in each kernel, followed by a call of :func:`install`. It must therefore import nothing
from ``dimred_teach`` (which the student's code could have patched by then, and whose
forbidden parts must stay unimported) and only the standard library.

``install`` makes the exercise set's forbidden modules unimportable (an import hook placed
before the student's code runs), guards the functions it may not call (each replaced,
when its module loads, by a function that refuses calls from outside ``dimred_teach``)
and registers a module under a per-run random name with
two functions the restored check cells and the worker call: ``capture`` (a check cell
hands over its answer) and ``call`` (the worker calls a function answer).
"""


def install(module_name, channel, blocked, functions=None):
    """Set up the kernel for grading.

    Parameters
    ----------
    module_name : str, the random name the restored check cells import
    channel : str, the folder answers and function results are written to
    blocked : dict, module name -> the message its ImportError carries
    functions : dict, ``module.function`` or ``module.Class.method`` -> the message of the
        error a call from outside ``dimred_teach`` raises
    """
    import importlib.abc
    import importlib.machinery
    import os
    import pickle
    import sys
    import types

    class ForbiddenModules(importlib.abc.MetaPathFinder):
        """Refuses the modules this exercise set may not use, and their submodules."""

        def find_spec(self, name, path=None, target=None):
            for module, reason in blocked.items():
                if name == module or name.startswith(module + "."):
                    raise ImportError(reason, name=name)
            return None

    for name in list(sys.modules):
        if any(name == module or name.startswith(module + ".") for module in blocked):
            del sys.modules[name]
    sys.meta_path.insert(0, ForbiddenModules())
    functions = dict(functions or {})

    class ForbiddenFunction(RuntimeError):
        """A call of a function the exercise set may not use."""

    def guarded(original, reason):
        def refuse(*args, **kwargs):
            # library code only: the caller's globals must BE a dimred_teach module's namespace
            # (a notebook can name itself "dimred_teach.x" but cannot become that module)
            caller = sys._getframe(1).f_globals
            name = str(caller.get("__name__", ""))
            library = name == "dimred_teach" or name.startswith("dimred_teach.")
            if not library or getattr(sys.modules.get(name), "__dict__", None) is not caller:
                raise ForbiddenFunction(reason)
            return original(*args, **kwargs)
        refuse.__name__, refuse.__doc__ = getattr(original, "__name__", "refuse"), reason
        return refuse

    def guard(module):
        for name, reason in functions.items():
            parts = name.split(".")
            if ".".join(parts[:2]) == module.__name__:
                owner = module
                for attribute in parts[2:-1]:
                    owner = getattr(owner, attribute)
                setattr(owner, parts[-1], guarded(getattr(owner, parts[-1]), reason))

    class GuardedFunctions(importlib.abc.MetaPathFinder):
        """Loads the modules holding forbidden functions, then guards those functions."""

        def find_spec(self, name, path=None, target=None):
            if not any(".".join(entry.split(".")[:2]) == name for entry in functions):
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path, target)
            if spec is None or spec.loader is None:
                return spec
            load = spec.loader.exec_module

            def exec_module(module):
                load(module)
                guard(module)
            spec.loader.exec_module = exec_module
            return spec

    for name in {".".join(entry.split(".")[:2]) for entry in functions}:
        if name in sys.modules:
            guard(sys.modules[name])
    sys.meta_path.insert(1, GuardedFunctions())
    answers = {}

    def portable(value, depth=0):
        if depth > 20:
            return value
        if isinstance(value, tuple):
            return tuple(portable(item, depth + 1) for item in value)
        if isinstance(value, list):
            return [portable(item, depth + 1) for item in value]
        if type(value) is dict:
            return {key: portable(item, depth + 1) for key, item in value.items()}
        if type(value).__module__.split(".")[0] == "pandas" and hasattr(value, "to_numpy"):
            return value.to_numpy()
        return value

    def write(path, payload):
        try:
            data = pickle.dumps(payload, protocol=4)
        except Exception as error:
            data = pickle.dumps(("untransferable", "%s: %s" % (type(error).__name__, str(error)[:300])), protocol=4)
        with open(path + ".part", "wb") as file:
            file.write(data)
        os.replace(path + ".part", path)

    def capture(exercise_id, answer):
        path = os.path.join(channel, exercise_id + ".answer")
        if callable(answer):
            answers[exercise_id] = answer
            write(path, ("function", str(getattr(answer, "__name__", "function"))[:100]))
        else:
            write(path, ("value", portable(answer)))

    def call(exercise_id, number):
        path = os.path.join(channel, "call-%d" % number)
        with open(path + ".in", "rb") as file:
            args, kwargs = pickle.load(file)
        try:
            result = ("value", portable(answers[exercise_id](*args, **kwargs)))
        except (Exception, SystemExit) as error:
            try:
                message = str(error)[:2000]
            except Exception:
                message = "(its message could not be printed)"
            result = ("raised", type(error).__name__[:100], message)
        write(path + ".out", result)

    module = types.ModuleType(module_name)
    module.capture, module.call = capture, call
    sys.modules[module_name] = module
