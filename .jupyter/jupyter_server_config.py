"""The course's own JupyterLab settings.

``python3 course.py lab`` (and the browser tests) point JUPYTER_CONFIG_DIR at this folder,
so neither the user's global Jupyter configuration nor anything written here touches the
other. JupyterLab's own state (user settings, workspaces) lands in ``.jupyter/lab/``,
which git ignores; ``labconfig/default_setting_overrides.json`` holds the course's
defaults (no news or update pop-up; Markdown opens rendered, so the start page is a map).

Two modes, chosen by ``DIMRED_TEACH_LAB`` (course.py sets it):

* ``student`` (default): everything outside ``my-work/`` is read-only. Course notebooks
  open read-only (run and change cells freely; "Save as..." keeps a copy in my-work), so
  no git operation ever meets a modified course file. Saving one whose cells are unchanged
  (as RISE does before it shows the slides) writes nothing and succeeds. The ``.py`` sources, the generated
  ``exercises/`` (the student works on the copies in ``my-work/``) and the package's
  internals are left out of the file browser.
* ``lecturer`` (``python3 course.py lab --lecturer``): every file is visible and writable,
  and jupytext opens a ``.py`` source as a notebook ("Open With > Jupytext Notebook").
"""

import os

from jupyter_server.files.handlers import FilesHandler
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado.web import HTTPError

c = get_config()  # noqa: F821 (defined by the config loader)

WORK_FOLDER = "my-work"
LECTURER = os.environ.get("DIMRED_TEACH_LAB", "student") == "lecturer"
STUDENT_HIDDEN = ["*.py", "*.egg-info", "exercises", "dimred_teach", "tests", "test-artifacts",
                  "build", "dist", "constraints.txt", "pyproject.toml"]
"""Left out of a student's file browser; ``grading-out/`` stays visible: ``course.py grade``
writes the student's own reports there."""


class CourseContentsManager(AsyncLargeFileManager):
    """Files with the course's write rules, and without the trust warning on every open."""

    # /files/ is served through this manager (jupyter_server's generic handler) rather than straight
    # from the disk, so that RISE's optional stylesheets can be answered (get, below)
    files_handler_class = FilesHandler

    @property
    def files_handler_params(self):
        return {"path": self.root_dir}

    def _writable(self, path: str) -> bool:
        return LECTURER or path.strip("/").split("/")[0] == WORK_FOLDER

    def _refuse(self, path: str) -> None:
        if not self._writable(path):
            stem, dot, suffix = path.strip("/").split("/")[-1].rpartition(".")
            # not my-work/NN_topic.ipynb: that name is the student's own exercise notebook
            keep = f"{WORK_FOLDER}/{stem}-lecture.{suffix}" if dot else f"{WORK_FOLDER}/{suffix}"
            raise HTTPError(403, f"{path} belongs to the course and stays read-only. To keep your own copy, "
                                 f"save it under a new name in {WORK_FOLDER}/: type {keep} as the file name.")

    async def _missing_slide_stylesheet(self, path: str) -> bool:
        """Whether ``path`` is one of the two optional stylesheets RISE asks for beside the notebook
        it shows (``rise.css``, ``NN_topic.css``) and the course has none there."""
        folder, _, name = path.strip("/").rpartition("/")
        if not name.endswith(".css") or await self.file_exists(path):
            return False
        return name == "rise.css" or await self.file_exists(f"{folder}/{name[:-4]}.ipynb".lstrip("/"))

    async def get(self, path, content=True, type=None, format=None, **kwargs):
        if type == "file" and await self._missing_slide_stylesheet(path):
            # an empty stylesheet rather than a 404 in the slideshow's console; a lecturer who
            # writes one gets it served as it is
            name = path.strip("/").rpartition("/")[2]
            return {"name": name, "path": path.strip("/"), "type": "file", "format": "text", "mimetype": "text/css",
                    "content": "" if content else None, "writable": False, "created": None, "last_modified": None,
                    "size": 0}
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if not self._writable(path):
            model["writable"] = False
        return model

    async def save(self, model, path=""):
        if not self._writable(path) and await self._same_cells(model, path):
            # Saving a course notebook whose cells are as published writes nothing: this is the
            # save that RISE (live slides) makes before it renders the notebook from the disk.
            # Outputs and metadata (a kernel start, cells run) are not the course's to keep.
            return await super().get(path, content=False)
        self._refuse(path)
        return await super().save(model, path)

    async def _same_cells(self, model, path) -> bool:
        """Whether a notebook model holds the same cells (types and sources) as the file at ``path``."""
        if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
            return False
        try:
            stored = (await super().get(path, content=True, type="notebook"))["content"]
        except HTTPError:
            return False

        def cells(notebook):
            return [(cell.get("cell_type"), "".join(cell.get("source", ""))) for cell in notebook.get("cells", [])]

        return cells(model["content"]) == cells(stored)

    async def delete_file(self, path):
        self._refuse(path)
        return await super().delete_file(path)

    async def rename_file(self, old_path, new_path):
        self._refuse(old_path)
        self._refuse(new_path)
        return await super().rename_file(old_path, new_path)

    def mark_trusted_cells(self, nb, path=""):
        # Same as the base class without its "Notebook ... is not trusted" warning on every
        # open: untrusted notebooks still show text and figures; only HTML/JS is held back.
        self.notary.mark_cells(nb, self.notary.check_signature(nb))

    def check_and_sign(self, nb, path="", **kwargs):
        if self.notary.check_cells(nb):
            self.notary.sign(nb)


c.ServerApp.contents_manager_class = CourseContentsManager
if not LECTURER:
    # Students open only .ipynb files (the .py sources are hidden), and jupytext's wrapper of the
    # contents manager would turn the read-only refusal (403, with what to do) into a 500 error.
    c.ServerApp.jpserver_extensions = {"jupyterlab_jupytext": False}
c.ContentsManager.hide_globs = ["__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~",
                                *([] if LECTURER else STUDENT_HIDDEN)]
# jupyter_server's default pong timeout (3 pings) is longer than Tornado now allows, which
# logs a warning for every kernel connection; one ping interval (30 s) is Tornado's limit.
c.ServerApp.tornado_settings = {"ws_ping_timeout": 30_000}
c.LabApp.default_url = "/lab/tree/START_HERE.md"
# The course's own lab extension (labextensions/, plain JavaScript): figures get their written
# descriptions as alt text, in the lab and in RISE's slideshows.
COURSE_EXTENSIONS = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "labextensions")]
c.LabApp.extra_labextensions_path = COURSE_EXTENSIONS
c.RiseApp.extra_labextensions_path = COURSE_EXTENSIONS
c.LabApp.news_url = None  # no announcements feed
c.LabApp.check_for_updates_class = "jupyterlab.handlers.announcements.NeverCheckForUpdate"
if os.name != "nt":
    # IPC sockets instead of TCP: nothing listens on the network, and ipykernel has no
    # reason to print "Kernel is running over TCP without encryption" for every kernel.
    c.KernelManager.transport = "ipc"


def _slides_without_widget_manager() -> None:
    """RISE's slideshow page loads every lab extension, and ipywidgets' manager needs JupyterLab's
    console there, which that page does not have: it fails with console errors and a cascade of
    stack overflows, and draws no widget either way. The slideshow page leaves it out; the lab
    keeps it."""
    try:
        from jupyterlab_rise.app import RiseHandler
    except ImportError:  # RISE not installed: nothing to adjust
        return
    page_config = RiseHandler.get_page_config

    def without_widget_manager(self, notebook_path=None):
        config = page_config(self, notebook_path)
        config["federated_extensions"] = [extension for extension in config.get("federated_extensions", [])
                                          if extension.get("name") != "@jupyter-widgets/jupyterlab-manager"]
        return config

    RiseHandler.get_page_config = without_widget_manager


_slides_without_widget_manager()
