"""Test-wide settings: BLAS pinned to one thread (also for the nbval kernels, which
inherit this environment) and a derandomised hypothesis profile so CI runs the same
examples every time. MPLBACKEND is deliberately left alone: the kernels must keep their
inline backend so figures appear in the outputs nbval compares."""

import os

from dimred_teach.execution import PINNED_THREADS

os.environ.update(PINNED_THREADS)

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("course", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("course")
