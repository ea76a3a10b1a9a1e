"""The SPaRC single-shot prompts, byte-identical to `sparc-puzzle` 0.7.0.

`paper` is `sparc.prompts.single_shot_paper`, the wording behind the paper's numbers; `corrected`
is `sparc.prompts.single_shot`, the authors' later wording that states the star, polyshape and
negative-polyshape rules the way the puzzles were built. Pure logic: no Inspect imports.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal, get_args

from inspect_sparc.core.suggest import did_you_mean

PromptKind = Literal["paper", "corrected"]
PROMPT_KINDS: tuple[str, ...] = get_args(PromptKind)
SYSTEM_PROMPT = "You are an expert at solving puzzles games."

TEMPLATE = """
    ## Objective
    You are a specialized AI proficient in spatial reasoning and solving puzzles from the game 'The Witness'. Your goal is to find a valid path (a continuous line) from the specified Start Node to the End Node on the provided grid, adhering to all puzzle rules.

    ## Core Concepts & Grid Basics
    *   **Grid Dimensions:** The puzzle grid has {width} columns and {height} rows.
    *   **Coordinate System:** Nodes are identified by `(x, y)` coordinates. `(0,0)` is the top-left node. `x` increases to the right, `y` increases downwards.
    *   **Path:** The solution is a single, continuous line connecting adjacent nodes either horizontally or vertically.
    *   **No Revisits:** The path **CANNOT** visit the same node more than once.
    *   **Valid Path Cells:** The path travels along the grid lines (edges between nodes). It can only occupy positions marked `+` or `.` in the grid layout (these correspond to positions with at least one even coordinate).
    *   **Rule Cells:** Cells containing rule symbols (squares, stars, etc.) have coordinates where both `x` and `y` are odd. The path goes *around* these rule cells, never *on* them.
    *   **Regions:** The drawn path divides the grid cells into one or more distinct enclosed areas (regions). Many rules apply based on the contents of these regions.

    ## Symbol Legend (Grid Notation)
    *   `S`: **Start Node** (Path begins here)
    *   `E`: **End Node** (Path ends here)
    *   `+`: Valid cell for the path to occupy
    *   `N`: Empty rule cell (no rule)
    *   `G`: **Gap** (Path **CANNOT** cross this cell)
    *   `.`: **Dot** (Path **MUST** pass through this cell)
    *   `o-X`: **Square** of color X
    *   `*-X`: **Star** of color X
    *   `A-X`: **Triangle** (touch 1 edge)
    *   `B-X`: **Triangle** (touch 2 edges)
    *   `C-X`: **Triangle** (touch 3 edges)
    *   `D-X`: **Triangle** (touch 4 edges)
    *   `P-X-Y`: **Polyshape** (positive) of color X and shape ID Y
    *   `Y-X-Y`: **Negative Polyshape** (ylop) of color X and shape ID Y

    **Color Codes:** R=Red, B=Blue, G=Green, Y=Yellow, W=White, O=Orange, P=Purple, K=Black

    ## Detailed Solving Rules
    The drawn path must satisfy **ALL** applicable constraints:

    1.  **Path Constraints:**
        *   Path **MUST** start at `S` and end at `E`.
        *   Path connects adjacent nodes (horizontal/vertical moves only).
        *   Nodes **CANNOT** be revisited.
        *   Path **MUST** pass through all Dot (`.`) cells.
        *   Path **CANNOT** pass through any Gap (`G`) cells.

    2.  **Region-Based Rules** (Apply to areas enclosed by the path):
        *   **Squares (`o-X`):** All squares within a single region **MUST** be the same color. Squares of different colors **MUST** be separated into different regions by the path.
{region_rules}

    3.  **Path-Based Rules (Edge Touching):**
        *   **Triangles (`A-X`, `B-X`, `C-X`, `D-X`):** The path **MUST** touch a specific number of edges of the cell containing the triangle symbol.
            *   `A-X` (1): Path touches **EXACTLY 1** edge of the triangle's cell.
            *   `B-X` (2): Path touches **EXACTLY 2** edges of the triangle's cell.
            *   `C-X` (3): Path touches **EXACTLY 3** edges of the triangle's cell.
            *   `D-X` (4): Path touches **EXACTLY 4** edges (fully surrounds) the triangle's cell.

    ## EXAMPLE PUZZLE GRID:

    ["+",".","+","+","+","E","+"]
    ["+","C-R","+","o-K","+","o-K","+"]
    ["S","+","+","+","+","+","+"]
    ["+","P-G-112","+","*-G","+","P-B-624","+"]
    ["+","+","+","+","+","+","+"]
    ["+","*-G","+","*-G","+","o-K","+"]
    ["+","+","+",".","+","+","+"]

    EXAMPLE POLYSHAPE DEFINITIONS:
    Shape 112:
    [0,1,0,0]
    [0,1,0,0]
    [0,1,0,0]
    [0,0,0,0]

    Shape 624:
    [0,1,0,0]
    [0,1,1,0]
    [0,1,0,0]
    [0,0,0,0]

    EXAMPLE SOLUTION:

    We start at (0,2) and draw a line to (0,0).
    We then draw a line to (2,0) to reach the dot at (1,0) and surround the 3 count triangle.
    We then draw a line to (2,2) here we go down to touch the third side of the triangle cell and therefore validate the 3 count triangle.
    We continue down to (2,6) to validate the polyshape 112 and also the green star with the green polyshape
    After this we draw a line to (4,6) to start validating the polyshape 624 by surrounding it.
    Therefore we have to draw a line to (6,4) over (4,4) which creates a region for the stone at (5,5) which validates the stone.
    We continue up to (6,2) for the polyshape 624 and then go to (4,2) and after this to (4,0) to finaly validate the polyshape 624.
    This also validates the two green stars at (3,3) and (3,5) with each other and the black stone at (3,1) because its the only stone in its region.
    This line also creates a region for the black stone at (5,1) because its the only stone in its region.
    Now we can draw a line to (5,0) to reach the end node.

    #### (0,2),(0,1),(0,0),(1,0),(2,0),(2,1),(2,2),(2,3),(2,4),(2,5),(2,6),(3,6),(4,6),(4,5),(4,4),(5,4),(6,4),(6,3),(6,2),(5,2),(4,2),(4,1),(4,0),(5,0)

    ## Puzzle Input Data
    *   **Start Node:** {start}
    *   **End Node:** {end}
    *   **Grid Layout:**
        ```
        {grid}
        ```
    *   **Polyshape Definitions (if applicable):**
        *   Shapes are defined by 2D arrays where '1' indicates an occupied cell and '0' indicates an empty cell.
        ```
        {polyshapes}
        ```

    ## Task & Output Format
    1.  **Solve the Puzzle:** Determine the valid path from the Start Node to the End Node that satisfies all rules.
    2.  **Explain Reasoning:** Provide a step-by-step explanation of your thought process. Detail key deductions, how constraints were applied, and any backtracking or choices made.
    3.  **Provide Solution Path:** After the reasoning, output the exact marker string `####` followed immediately by the solution path as a list of node coordinates `(x, y)`. Include all intermediate nodes from start to end.

    **Example Solution Path Format:**
    ####
    (0,0), (1,0), (2,0), (2,1), ...
    """

#: Prompt kind -> the text of the star, polyshape and negative-polyshape rules: the only lines
#: where the prompts differ (the template's `{region_rules}`).
RULE_TEXT_BY_PROMPT = {
    "paper": """        *   **Stars (`*-X`):** Within a single region, each star symbol **MUST** be paired with exactly **ONE** other element (star or square) *of the same color*. Other colors within the region are irrelevant to this specific star's rule.
        *   **Polyshapes (`P-X-Y`):** The region containing this symbol **MUST** be able to contain the specified shape (defined in Polyshape Definitions). The shape must fit entirely within the region's boundaries. If multiple positive polyshapes are in one region, the region must accommodate their combined, non-overlapping forms. Rotation of polyshapes is NOT allowed. They must fit within the provided space in their given orientation.
        *   **Negative Polyshapes (`Y-X-Y`):** These "subtract" shape requirements, typically within the same region as corresponding positive polyshapes. A negative polyshape cancels out a positive polyshape of the exact same shape and color within that region. If all positive shapes are canceled, the region has no shape constraint. A negative shape is only considered 'used' if it cancels a positive one. Negative shapes can sometimes rationalize apparent overlaps or boundary violations of positive shapes if interpreted as cancellations.""",
    "corrected": """        *   **Stars (`*-X`):** Within a single region, each star symbol **MUST** be paired with exactly **ONE** other symbol *of the same color*. Any rule symbol can be the partner: a star, square, triangle, polyshape or negative polyshape. Other colors within the region are irrelevant to this specific star's rule.
        *   **Polyshapes (`P-X-Y`):** The region containing this symbol **MUST** have exactly the specified shape (defined in Polyshape Definitions): the shape fills the whole region, with no cells left over. If multiple positive polyshapes are in one region, their shapes together must fill the region exactly, without overlapping. Rotation of polyshapes is NOT allowed. They must fit in their given orientation. The color of a polyshape does not matter for this rule.
        *   **Negative Polyshapes (`Y-X-Y`):** These subtract area from the positive polyshapes in the same region. The positive shapes, minus the cells covered by the negative shapes, must fill the region exactly, so the region's size is the total size of the positive shapes minus the total size of the negative shapes. A negative shape does not have to match the shape or color of any positive shape. If the negative shapes cancel the positive shapes completely, the region has no shape constraint.""",
}


#: How negative polyshapes look in the rendered image, per wording (the visual prompts of both
#: `sparc_visual` and the gym's image observation say it).
YLOP_LOOK = {
    "paper": "these cancel out positive polyshapes",
    "corrected": "these subtract area from the positive polyshapes in their region",
}


def polyshapes_text(record: Mapping[str, Any]) -> str:
    """The `POLYSHAPES DEFINITIONS:` block, one `[0, 1, 0, 0]` row per line, or empty.

    Args:
        record: a SPaRC record.

    Returns:
        The block, or "" when the puzzle has no polyshapes."""
    raw = record.get("polyshapes")
    if not raw:
        return ""
    shapes = json.loads(raw) if isinstance(raw, str) else raw
    text = "POLYSHAPES DEFINITIONS:\n"
    for shape_id, matrix in shapes.items():
        rows = "\n".join(map(str, matrix))
        text += f"Shape {shape_id}:\n{rows}\n\n"
    return text


def prompt_fields(record: Mapping[str, Any]) -> dict[str, str]:
    """The puzzle values a template fills in: size, start and end nodes, grid rows, shapes.

    Args:
        record: a SPaRC record.

    Returns:
        Template field -> its text."""
    size = record.get("grid_size", {"width": 0, "height": 0})
    grid = record.get("puzzle_array", [])
    start = end = None
    for y, row in enumerate(grid):
        for x, value in enumerate(row):
            if value == "S":
                start = f"({x}, {y})"
            elif value == "E":
                end = f"({x}, {y})"
    return {
        "width": str(size["width"]),
        "height": str(size["height"]),
        "start": str(start),
        "end": str(end),
        "grid": "\n".join(map(str, grid)),
        "polyshapes": polyshapes_text(record),
    }


def check_prompt_kind(kind: object, kinds: tuple[str, ...] = PROMPT_KINDS) -> str:
    """`kind` itself if it is one of `kinds`, else a ValueError listing them.

    Args:
        kind: the prompt kind as given.
        kinds: the valid kinds.

    Returns:
        The kind."""
    if not isinstance(kind, str) or kind not in kinds:
        raise ValueError(
            f"prompt must be one of {', '.join(kinds)}; got {kind!r}{did_you_mean(kind, kinds)}"
        )
    return kind


def user_prompt(record: Mapping[str, Any], kind: str = "paper") -> str:
    """The user message for one puzzle record.

    Args:
        record: a SPaRC record.
        kind: the prompt wording, `paper` or `corrected`.

    Returns:
        The prompt text, byte-identical to sparc-puzzle 0.7.0's."""
    check_prompt_kind(kind)
    return TEMPLATE.format(**prompt_fields(record), region_rules=RULE_TEXT_BY_PROMPT[kind])
