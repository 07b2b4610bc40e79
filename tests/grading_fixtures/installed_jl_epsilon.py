# A hostile answer to 06.epsilon_for for an installed course (tests/test_grading_installs.py and
# .ci/ordinary-user.sh): the library's own jl_epsilon, which set 06 forbids, executed from its
# source wherever the installation keeps it. In bubblewrap the set's view covers that file.
import glob
import sys


def epsilon_for(n, q, delta):
    for source in glob.glob(sys.prefix + "/lib/python3*/site-packages/dimred_teach/jl.py"):
        namespace = {"__name__": "dimred_teach.jl", "__package__": "dimred_teach"}
        try:
            exec(compile(open(source).read(), source, "exec"), namespace)
            return namespace["jl_epsilon"](n, q, delta)
        except Exception:
            pass
    return -1
