# A hostile answer to 06.epsilon_for for an installed course (tests/test_grading_installs.py and
# .ci/ordinary-user.sh): the library's own jl_epsilon, which set 06 forbids, executed from its
# source wherever the installation keeps it or points to: the installed package, and what the
# install's direct_url.json names (an editable checkout, or the wheel and the source tree it was
# built in, with pip's build/lib). In bubblewrap the set's view covers the installed file, and the
# course's source folders are empty; in user mode they are private or hidden.
import glob
import json
import os
import sys
import urllib.parse
import zipfile


def _sources():
    """(file name, source text) of every jl.py the installation could lead to."""
    places = glob.glob(sys.prefix + "/lib/python3*/site-packages/dimred_teach/jl.py")
    for record in glob.glob(sys.prefix + "/lib/python3*/site-packages/dimred_teach-*.dist-info/direct_url.json"):
        try:
            place = urllib.parse.unquote(urllib.parse.urlparse(json.load(open(record))["url"]).path)
            if place.endswith(".whl"):
                with zipfile.ZipFile(place) as wheel:
                    yield place, wheel.read("dimred_teach/jl.py").decode()
        except Exception:
            continue
        tree = place if os.path.isdir(place) else os.path.dirname(os.path.dirname(place))
        places += [tree + "/dimred_teach/jl.py", tree + "/build/lib/dimred_teach/jl.py"]
    for source in places:
        try:
            yield source, open(source).read()
        except OSError:
            pass


def epsilon_for(n, q, delta):
    for source, text in _sources():
        namespace = {"__name__": "dimred_teach.jl", "__package__": "dimred_teach"}
        try:
            exec(compile(text, source, "exec"), namespace)
            return namespace["jl_epsilon"](n, q, delta)
        except Exception:
            pass
    return -1
