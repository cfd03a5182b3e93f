"""Build hook for the optional compiled build only (scripts/build-compiled.sh sets TOYBATTLE_COMPILE=1):
mypyc then compiles the modules listed in pyproject.toml's [tool.toybattle.compiled]. Without it this is
the plain pure-Python build that every other install (editable ones included) gets."""
import os
import tomllib

from setuptools import setup

ext_modules = []
if os.environ.get("TOYBATTLE_COMPILE") == "1":
    from mypyc.build import mypycify

    with open("pyproject.toml", "rb") as f:
        modules = tomllib.load(f)["tool"]["toybattle"]["compiled"]["modules"]
    ext_modules = mypycify(modules, opt_level="3")
setup(ext_modules=ext_modules)
