"""Speed comparisons reported as ratios; run ``python -m tests.benchmarks``. They print a
table and never fail CI."""
