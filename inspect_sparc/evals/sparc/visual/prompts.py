"""The visual SPaRC prompts, byte-identical to `sparc-puzzle` 0.7.0 (and sparc-visualization 0.2.2).

Single shot: `paper` is `sparc.prompts.single_shot_visual_paper` (the wording behind the
published numbers), `corrected` is `single_shot_visual` (negative polyshapes stated the way the
puzzles were built), `prompt_engineering` is `single_shot_visual_prompt_engineering` (the
renderer package's image-only prompt, no text grid). The step-by-step visual prompts (`--gym
--visual`) are the episode's, in `core/prompts/episode.py`. Pure logic: no Inspect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from inspect_sparc.core.prompts.single_shot import YLOP_LOOK, check_prompt_kind, polyshapes_text

VisualPromptKind = Literal["paper", "corrected", "prompt_engineering"]
VISUAL_PROMPT_KINDS: tuple[str, ...] = get_args(VisualPromptKind)
#: The system message of the single-shot visual prompts (the gym's are whole system prompts).
VISUAL_SYSTEM_PROMPT = "You are an expert at solving visual puzzles from 'The Witness' game."

#: The single-shot visual prompt; `paper` and `corrected` differ only in the negative polyshapes.
SINGLE_SHOT_TEMPLATE = """You are an expert spatial reasoning AI specializing in solving puzzles from the game 'The Witness'. 
Your task is to solve the puzzle by finding a valid line from the Start Node to the End Node.

## Input Format
You receive TWO representations of the same puzzle:
1. **An image** showing the visual puzzle grid
2. **A text description** (below) providing the same puzzle in symbolic notation

Use both representations together — the image helps with spatial reasoning and visual pattern recognition, while the text description provides precise cell contents and coordinates.

## Visual Appearance of the Puzzle Image
The image shows a Witness puzzle grid of size {grid_width}x{grid_height} with a dark teal/green background. Here is how elements appear visually:

- **Grid structure**: The board has teal/green cells separated by dark gray grid lines (the path network)
- **Start Node**: A large filled circle on the grid edge — this is where the path begins
- **End Node**: A small rounded nub/extension protruding outward from the grid edge — this is where the path must end
- **Dots**: Small black hexagons located on the grid lines — the path MUST pass through these
- **Gaps**: Broken/missing segments on the grid lines — the path CANNOT cross these
- **Colored Squares**: Colored rounded rectangles inside cells (e.g., black, red, blue squares)
- **Colored Stars**: 8-pointed star shapes in their respective color inside cells
- **Triangles**: Small colored upward-pointing triangles inside cells — the count (1-4 triangles) indicates how many edges of that cell the path must touch
- **Polyshapes (positive)**: Tetromino-like colored filled block patterns inside cells, showing the shape the region must match
- **Polyshapes (negative/ylop)**: Same block patterns but drawn as hollow/outlined squares instead of filled — {ylop_look}

## Grid & Coordinate System
- Nodes are indexed (x, y) where (0,0) is the top-left node
- x increases to the right, y increases downward
- The grid cells have rule symbols located at cells where both x and y are odd
- The line goes AROUND cells containing rules, forming boundaries
- Both line and rule cells are on the same grid. Therefore each intersection has a distance of 2 to the next intersection.

## Solving Rules
1. Draw a continuous line from the START NODE (big circle on the line) to the END NODE (rounded nub) without visiting the same node twice.
2. The line can only be placed on valid path cells.
3. The line can only travel 1 cell per step (no diagonal moves).
4. The line acts as a boundary, potentially dividing the grid cells into one or more distinct regions.
5. All rules associated with symbols on the grid must be satisfied:
   - **Dots** (black hexagons on grid lines): The line MUST pass through each dot.
   - **Colored squares** (filled rounded rectangles in cells): All squares within a single region must be the same color. Different colored squares MUST be separated into different regions.
   - **Colored stars** (8-pointed stars in cells): Each star must be paired with EXACTLY one other element of the same color in its region. Other colors are ignored.
   - **Triangles** (small triangles in cells): The line must touch EXACTLY the number of edges specified by the count of triangles in that cell (edges are top, right, bottom, left of the cell).
   - **Polyshapes** (filled block patterns in cells): The region containing this symbol must be shaped EXACTLY like the defined polyshape.
   - **Negative polyshapes** (hollow block patterns in cells): {ylop_rule}

{polyshapes}

## Text Description of the Puzzle
The text below uses symbolic notation where: `S`=Start, `E`=End, `+`=walkable path cell, `N`=empty rule cell, `G`=gap, `.`=dot, `o-X`=square of color X, `*-X`=star of color X, `A/B/C/D-X`=triangle (1-4 edges), `P-X-Y`=polyshape, `Y-X-Y`=negative polyshape. Color codes: R=Red, B=Blue, G=Green, Y=Yellow, W=White, O=Orange, P=Purple, K=Black.

{text_visualization}

## Task
Analyze both the puzzle image and the text description carefully and determine the solution path.
First, explain your reasoning step-by-step, including key deductions and constraint checks made along the way.
Then, provide the final solution as a sequence of node coordinates in (x, y) format, starting with the start node and ending with the end node, after this string: "####". DON'T SKIP ANY intermediate nodes (the distance between each node must be 1).
Example coordinate list: [(0,0), (1,0), (2,0), (2,1), ...]
"""

SINGLE_SHOT_YLOP_RULE = {
    "paper": "These cancel out regular polyshapes if they overlap.",
    "corrected": (
        "These subtract area from the regular polyshapes in the same region. The region must have the area of the regular polyshapes minus the area of the negative ones. Their shapes and colors do not have to match."
    ),
}

#: `sparc_visualization.prompts.prompt_engineering` as the reference calls it: always with the
#: `original` board type (its `start_end_marked` sentences never appear), no text grid.
PROMPT_ENGINEERING_TEMPLATE = """## Objective
You are a specialized AI proficient in spatial reasoning and solving puzzles from the game ’The Witness’. Your goal is to find a valid path (a continuous line) from the specified Start Node to the End Node on the provided image, adhering to all puzzle rules.

## Core Concepts & Grid Basics
* **Grid Dimensions:** The puzzle grid has {columns} columns and {rows} rows.
* **Coordinate System:** Nodes are identified by ‘(x, y)‘ coordinates. ‘(0,0)‘ is the top-left node. ‘({last_x},{last_y})‘ is the bottom-right node. ‘x‘ increases to the right, ‘y‘ increases downwards. Nodes can either be path cells or rule cells.
* **Path Cells:** Path cells are dark grey and are at all positions where at least one of ‘x‘ or ‘y‘ is even.
* **Path:** The solution is a single, continuous line connecting adjacent path cells either horizontally or vertically. Each step has a distance 1.
* **No Revisits:** The path **CANNOT** visit the same node more than once.
* **Valid Path Cells:** The path travels along the grid lines (edges between nodes). It can only occupy positions on the path (these correspond to positions with at least one even coordinate and no gap).
* **Rule Cells:** Light green cells are rule cells and have coordinates where both ‘x‘ and ‘y‘ are odd. The path goes *around* these rule cells, never *on* them. Rule cells can contain rule symbols (square, star, triangles, polyshapes) but can also be empty (no constraint).
* **Regions:** The drawn path (in combination with the grid border) divides the rule cells into one or more distinct enclosed areas (regions). Many rules apply based on the contents of these regions.

## Detailed Solving Rules
The drawn path must satisfy **ALL** applicable constraints:
1. **Path Constraints:**
* Path **MUST** start at ‘Start Node‘ (big circle on the line in the same color as the grey path) and end at ‘End Node‘ (node from which you can escape the grid to the rounded path outside). Both these nodes are guaranteed to be on valid path cells on the edge of the board (at least one of ‘x‘ and ‘y‘ has to be an even number).
* Path connects adjacent nodes (horizontal/vertical moves only).
* Nodes **CANNOT** be revisited.
* Path **MUST** pass through all Dots (black hexagons) that lay on the path cells.
* Path **CANNOT** pass through any Gap in the path cells (a Gap is the absence of a path at a cell which would normally be a path cell).

2. **Region-Based Rules** (Apply to areas enclosed by the path):
* **Squares:** All squares within a single region **MUST** be the same color. Squares of different colors **MUST** be separated into different regions by the path.
* **Stars:** Within a single region, each star symbol **MUST** be paired with exactly **ONE** other element (star or square) *of the same color*. Other colors within the region are irrelevant to this specific star’s rule.
* **Polyshapes (one or multiple filled squares in a specific arrangement):** The region containing this symbol **MUST** be in the specified shape (defined by the specific Polyshape arrangement). The shape must fit entirely within the region’s boundaries. If multiple positive polyshapes are in one region, the region must accommodate their combined, non-overlapping forms.
* **Negative Polyshapes (one or multiple unfilled squares in a specific arrangement):** These "subtract" shape requirements, typically within the same region as corresponding positive polyshapes. A negative polyshape cancels out a positive polyshape of the exact same shape and color within that region. If all positive shapes are canceled, the region has no shape constraint. A negative shape is only considered ’used’ if it cancels a positive one. Negative shapes can sometimes rationalize apparent overlaps or boundary violations of positive shapes if interpreted as cancellations.
* **Simple Example Region:** If the a path goes through (2,0), (2,1), (2,2), (1,2), (0,2), then the rule cell (1,1) is enclosed into a region containing only itself since the grid border does the rest of the enclosure. To double check: There exist no nonvisited path cells (legal or non legal) that connect (1,1) to any other rule cell.
* **Complex Example Region:** Suppose the grid is 7x7 with rule cells at (1,1), (1,3), (1,5), (3,1), (3,3), (3,5), (5,1), (5,3), (5,5) and suppose one would want to form a region in an L-shape containing (1,1), (1,3), (3,3), then a path to separate them from the rest of the rule cells would for example be (4,0), (4,1), (4,2), (3,2), (2,2), (2,3), (2,4), (1,4), (0,4). The rest of the path cells around them at the edge don't have to be visited since they are only on the outside (x is (0 or width - 1) OR (y is (0 or height - 1)) and therefore not needed to seperate regions.

3. **Path-Based Rules (Edge Touching):**
* **Triangles (one, two, three or four):** The path **MUST** touch a specific number of edges of the cell containing the triangle symbol.
* One Triangle: Path touches **EXACTLY 1** edge of the triangle’s cell.
* Two Triangle: Path touches **EXACTLY 2** edges of the triangle’s cell.
* Three Triangle: Path touches **EXACTLY 3** edges of the triangle’s cell.
* Four Triangle: Path touches **EXACTLY 4** edges (fully surrounds) the triangle’s cell.
* Example: If a cell at (3, 3) has two triangles, the path has to go through **EXACTLY** two places of top (3, 2), right (4, 3), bottom (3, 4), or left (2, 3) to touch the rule cell.

## Task & Output Format
1. **Identifying Objects:** Analyze the grid to identify the coordinates of the Start Node, End Node, and all objects (dots and gaps on path cells; squares, stars, triangles, polyshapes on rule cells - not all types must be present in the puzzle). Keep in mind that rule cells are guaranteed to be located at coordinates where both ‘x‘ and ‘y‘ are odd. The path MUST NOT pass through these cells.
2. **Solve the Puzzle:** Determine the valid path from the Start Node to the End Node that satisfies all rules. Double check that the path doesn't go through any rule cells (where both coordinates are odd). This is the most common beginner mistake.
3. **Explain Reasoning:** Provide a step-by-step explanation of your thought process. Detail key deductions, how constraints were applied, and any backtracking or choices made.
4. **Provide Solution Path:** After the reasoning, output the exact marker string ‘####‘ followed immediately by the solution path as a list of node coordinates ‘(x, y)‘. Include all intermediate nodes from start to end (the distance between each node must be 1). 
**Example Solution Path Format:**
####
[(0, 0), (1, 0), (2, 0), (2, 1), ...]
"""


def check_visual_prompt_kind(kind: str) -> str:
    """`kind` if it names a single-shot visual prompt, else a ValueError listing them.

    Args:
        kind: the `prompt` argument as given.

    Returns:
        `kind`: `paper`, `corrected` or `prompt_engineering`."""
    return check_prompt_kind(kind, VISUAL_PROMPT_KINDS)


def visual_user_prompt(record: Mapping[str, Any], kind: str = "paper") -> str:
    """The text that follows the image in the single-shot user message.

    Args:
        record: a SPaRC record (its grid size, polyshapes and text grid are read).
        kind: `paper` (the paper's visual prompt) or `corrected` (negative polyshapes worded as
            the puzzles were built), both with the text grid; or `prompt_engineering` (the
            renderer package's image-only prompt: the grid's size, no text grid).

    Returns:
        The prompt text, byte-identical to the reference's."""
    check_visual_prompt_kind(kind)
    size = record.get("grid_size", {"width": 0, "height": 0})
    if kind == "prompt_engineering":
        return PROMPT_ENGINEERING_TEMPLATE.format(
            columns=size["width"] * 2 + 1,
            rows=size["height"] * 2 + 1,
            last_x=size["width"] * 2,
            last_y=size["height"] * 2,
        )
    return SINGLE_SHOT_TEMPLATE.format(
        grid_width=size["width"] * 2,
        grid_height=size["height"] * 2,
        ylop_look=YLOP_LOOK[kind],
        ylop_rule=SINGLE_SHOT_YLOP_RULE[kind],
        polyshapes=polyshapes_text(record),
        text_visualization=record.get("text_visualization", ""),
    )
