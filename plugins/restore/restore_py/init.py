# Python sub-plugin of the `restore` group; it loads after the JS sub-plugin (../restore_js), which
# made the `restore` object. The companion is the package beside this file (README.md there).
#
# mysqlsh runs this file as a script, not as a module of a package: PyRun_FileEx over a copy of
# __main__'s globals with __file__ set, and the plugins root first on sys.path only while it runs
# (mysqlshdk/scripting/python_context.cc Python_context::load_plugin). A relative import has no
# package here, and `import restore.restore_py` would depend on the folder's name and on no other
# `restore` module being on sys.path: the package is loaded by its path instead, under a name of
# its own, with every import done now.
import importlib as _importlib
import importlib.util as _importlib_util
import os as _os
import sys as _sys

import mysqlsh

_PACKAGE = "mysqlsh_restore_companion"


def _load_package():
    here = _os.path.dirname(_os.path.abspath(__file__))
    spec = _importlib_util.spec_from_file_location(_PACKAGE, _os.path.join(here, "__init__.py"),
                                                   submodule_search_locations=[here])
    package = _importlib_util.module_from_spec(spec)
    _sys.modules[_PACKAGE] = package  # its modules' relative imports find it there
    spec.loader.exec_module(package)
    return package


_load_package()
_importlib.import_module(_PACKAGE + ".registration").register(mysqlsh)
