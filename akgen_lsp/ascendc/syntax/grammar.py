"""The tree-sitter C++ grammar the syntax layer parses with, and the ids of the fields it reads
(`child_by_field_id` is several times cheaper than `child_by_field_name`)."""

from __future__ import annotations

import tree_sitter_cpp
from tree_sitter import Language

CPP = Language(tree_sitter_cpp.language())

# field ids of the grammar: `child_by_field_id` is several times cheaper than `child_by_field_name`
F_ALTERNATIVE: int = CPP.field_id_for_name("alternative")  # type: ignore[assignment]
F_ARGUMENT: int = CPP.field_id_for_name("argument")  # type: ignore[assignment]
F_ARGUMENTS: int = CPP.field_id_for_name("arguments")  # type: ignore[assignment]
F_BODY: int = CPP.field_id_for_name("body")  # type: ignore[assignment]
F_CONDITION: int = CPP.field_id_for_name("condition")  # type: ignore[assignment]
F_CONSEQUENCE: int = CPP.field_id_for_name("consequence")  # type: ignore[assignment]
F_DECLARATOR: int = CPP.field_id_for_name("declarator")  # type: ignore[assignment]
F_DEFAULT_VALUE: int = CPP.field_id_for_name("default_value")  # type: ignore[assignment]
F_FIELD: int = CPP.field_id_for_name("field")  # type: ignore[assignment]
F_FUNCTION: int = CPP.field_id_for_name("function")  # type: ignore[assignment]
F_LEFT: int = CPP.field_id_for_name("left")  # type: ignore[assignment]
F_NAME: int = CPP.field_id_for_name("name")  # type: ignore[assignment]
F_OPERATOR: int = CPP.field_id_for_name("operator")  # type: ignore[assignment]
F_PARAMETERS: int = CPP.field_id_for_name("parameters")  # type: ignore[assignment]
F_PLACEMENT: int = CPP.field_id_for_name("placement")  # type: ignore[assignment]
F_RIGHT: int = CPP.field_id_for_name("right")  # type: ignore[assignment]
F_SCOPE: int = CPP.field_id_for_name("scope")  # type: ignore[assignment]
F_SIZE: int = CPP.field_id_for_name("size")  # type: ignore[assignment]
F_TYPE: int = CPP.field_id_for_name("type")  # type: ignore[assignment]
F_VALUE: int = CPP.field_id_for_name("value")  # type: ignore[assignment]
