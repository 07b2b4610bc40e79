"""The grader's helper inside a grading kernel.

This file is never imported by the grader: the worker runs its source, after the source of
:mod:`.plain_data`, in a fresh module of the kernel (the first cell), then calls :func:`install`.
It imports nothing from ``dimred_teach``, and it enforces nothing: what an exercise set may
not use is absent from the kernel's view of the course (:mod:`.course_view`), and the grader reads
what this helper writes as plain data only (:mod:`.plain_data`). It only hands answers over.

``install`` registers a module under a per-run random name with two functions the restored
check cells and the worker call: ``capture`` (a check cell hands over its answer) and
``call`` (the worker calls a function answer with arguments it wrote).
"""


def install(module_name, channel, max_bytes):
    """Register the module ``module_name`` writing answers into the folder ``channel``."""
    import os
    import sys
    import types

    answers = {}

    def resolve(module, qualname):
        """A course result class named in the worker's arguments (this kernel's own copy)."""
        import dataclasses
        import importlib

        if not module.startswith("dimred_teach."):
            return None
        try:
            kind = getattr(importlib.import_module(module), qualname, None)
        except ImportError:
            return None
        return kind if isinstance(kind, type) and dataclasses.is_dataclass(kind) else None

    def write(path, payload):
        try:
            data = encode(payload, max_bytes)  # noqa: F821 (defined by plain_data's source, run first)
        except Exception as error:
            data = encode(("untransferable", f"{type(error).__name__}: {str(error)[:300]}"))  # noqa: F821
        with open(path + ".part", "wb") as file:
            file.write(data)
        os.replace(path + ".part", path)

    def capture(exercise_id, answer):
        path = os.path.join(channel, exercise_id + ".answer")
        if answer is Ellipsis:  # the exercise's placeholder: no answer yet
            answer = None
        if callable(answer):
            answers[exercise_id] = answer
            write(path, ("function", str(getattr(answer, "__name__", "function"))[:100]))
        else:
            write(path, ("value", answer))

    def call(exercise_id, number):
        path = os.path.join(channel, f"call-{number}")
        with open(path + ".in", "rb") as file:
            args, kwargs = decode(file.read(), max_bytes, resolve)  # noqa: F821
        try:
            result = ("value", answers[exercise_id](*args, **kwargs))
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
