"""The dkw version, a leaf module every layer may read (re-exported as ``dkw_core.__version__``).

``__version__`` is recorded with every stored evaluation run and every shipped reference
result; runs of another version are never mixed into a chart or a table. Bump it whenever
a change can move a number the evaluation reports.
"""
__version__ = "0.3.0"

__all__ = ["__version__"]
