__version__ = "0.1.0"

from .run_settings import route_products_when_torch_loads as _route_products
_route_products()   # pinned kernels: torch's products by OpenBLAS from its import on (03_run_settings)
del _route_products
