"""Feature selection: filters, incremental mutual information, wrappers and the LASSO.

Feature *selection* keeps a subset of the original columns of X; feature *extraction*
(PCA, say) builds new columns from all of them. This package implements the filter scores
of the Georgia Tech ECE 6254 notes ("Filtering"), the incremental mutual-information
criterion that penalises redundant features, the unsupervised variance filter, two
wrappers (forward selection around a nearest-centroid classifier, and recursive feature
elimination around least squares) and one embedded method (the LASSO path), as in the
WashU notes (section 1) and the "Solutions" of the Georgia Tech notes.

Conventions
-----------
* Rows are points: X has shape (n, p); y holds one label per row.
* Every score returns one number per column, shape (p,). All are "higher is better"
  except :func:`misclassification_rate` (an error rate: lower is better) and
  :func:`t_statistic` (signed: rank by its absolute value). :func:`top_k` turns scores
  into a ranking.
* The scores for two classes (:func:`misclassification_rate`, :func:`t_statistic`,
  :func:`margin`) need exactly two distinct labels; the "positive" class is the larger
  label in sorted order. Mutual information and the nearest-centroid classifier accept
  any number of classes; :func:`abs_correlation` needs numeric y (a regression target or
  0/1 labels).
* Ties are broken towards the smaller column index, so every ranking is reproducible.
* :func:`lasso_path` and :func:`recursive_feature_elimination` use X and y as given, like
  scikit-learn: standardise the columns first (``pca.standardize``) so that coefficients
  of features in different units can be compared.
"""

from __future__ import annotations

from .filters import abs_correlation, margin, misclassification_rate, t_statistic, top_k, variance_filter
from .lasso import LassoCVResult, LassoPathResult, lasso_cv, lasso_path, soft_threshold
from .mutual_information import (
    IncrementalMIResult,
    contingency_table,
    discrete_mutual_information,
    discretize,
    mutual_information,
    select_incremental_mi,
)
from .wrappers import (
    ForwardSelectionResult,
    NearestCentroid,
    RFECVResult,
    RFEResult,
    cross_val_accuracy,
    fit_nearest_centroid,
    forward_selection,
    kfold_accuracy,
    recursive_feature_elimination,
    recursive_feature_elimination_cv,
)

__all__ = [
    "misclassification_rate",
    "t_statistic",
    "margin",
    "abs_correlation",
    "discretize",
    "contingency_table",
    "mutual_information",
    "discrete_mutual_information",
    "top_k",
    "IncrementalMIResult",
    "select_incremental_mi",
    "NearestCentroid",
    "fit_nearest_centroid",
    "kfold_accuracy",
    "cross_val_accuracy",
    "ForwardSelectionResult",
    "forward_selection",
    "variance_filter",
    "soft_threshold",
    "LassoPathResult",
    "lasso_path",
    "RFEResult",
    "recursive_feature_elimination",
    "RFECVResult",
    "recursive_feature_elimination_cv",
    "LassoCVResult",
    "lasso_cv",
]
