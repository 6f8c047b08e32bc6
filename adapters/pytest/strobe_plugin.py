"""strobe's pytest plugin, loaded with -p strobe_plugin: its hooks are in
strobe_pytest. pytest compiles a module named by -p itself (to rewrite its
asserts) and caches it only where Python may write bytecode; a module it
imports goes through Python's own cache, which strobe_events.keep_bytecode
fills even under PYTHONDONTWRITEBYTECODE.
"""

from strobe_pytest import *  # noqa: F401,F403
