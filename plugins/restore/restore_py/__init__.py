# The restore plugin's Python companion, one module per job; init.py (the file mysqlsh runs) loads
# this package by its path and registration.py puts it on the `restore` object. See README.md.
