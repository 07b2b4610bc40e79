"""dimred_teach: the helper library of a course on dimensionality reduction.

Rows are points (X has shape (n, p)); covariances divide by n - 1 unless said otherwise;
eigenpairs are sorted descending and every vector's largest-magnitude entry is positive.
Topic modules: ``pca``, ``biplot``, ``mds``, ``lsi``, ``jl``, ``ppca``, ``kernel``,
``selection``, ``autoencoder``, ``manifold``, ``imputation``; shared: ``linalg``,
``datasets``, ``plotting``, ``display``, ``checks``; course tools: ``execution``,
``exercises``, ``grading``, ``site``, ``slides``, ``cli``.
"""

from .checks import check
from .display import rounded, setup_notebook

__all__ = ["check", "rounded", "setup_notebook"]
__version__ = "0.1.0"
