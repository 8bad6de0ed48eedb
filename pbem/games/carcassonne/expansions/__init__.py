"""The expansions, one module each (with its tiles as data beside it in
``<name>_tiles``), or a subpackage where one module would be too long to read
(``abbey_mayor/``). Importing a module registers its expansion in
``rules.EXPANSIONS``; ``game.py`` imports them all, in the order the
``expansions`` option lists them. (This package imports nothing itself, so the
base modules may import an expansion's tile data without a cycle.)"""
