"""The step-by-step (Spatial-Gym) episode prompts, byte-identical to `sparc-puzzle` 0.7.0.

One system prompt per episode (`paper`: `sparc.prompts.gym_step_paper` and
`gym_step_traceback_paper`, the wording behind the published gym numbers; `corrected`:
`gym_step` and `gym_step_traceback`, the authors' later wording of the polyshape rules) and one
user observation per step, as `sparc.process_puzzle.process_puzzle_step_by_step` writes it;
with image observations (`--gym --visual`) the `gym_visual[_traceback][_paper]` system prompts
and the short text after each step's image (sparc-visualization 0.2.2). `sparc_gym` sends them;
`sparc_agent` builds its first message and tool replies on them. Pure logic: no Inspect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inspect_sparc.core.episode.stepper import ACTION_NAMES
from inspect_sparc.core.prompts.single_shot import YLOP_LOOK, check_prompt_kind, polyshapes_text

if TYPE_CHECKING:
    from inspect_sparc.core.episode.settings import EpisodeSettings

#: The system prompt of all four variants. The prompt kind changes only `shape_rules` (the
#: polyshape and negative-polyshape rules); traceback changes the other fields.
GYM_TEMPLATE = """
    You are an autonomous agent controlling a path‐finding puzzle solver.
    Your goal is to find a valid path (a continuous line) from the specified Start Node to the End Node on the provided grid, adhering to all puzzle rules.

    Core Concepts & Grid Basics:
    Grid Dimensions: You can find the puzzle grid size in the info 
    Path: The solution is a single, continuous line connecting adjacent nodes either horizontally or vertically.
{revisiting}
    Rule Cells: Cells containing rule symbols (squares, stars, etc.) have coordinates where both x and y are odd. 
    The path goes around these rule cells, never on them. They are also marked as gaps.
    Regions: The drawn path divides the grid cells into one or more distinct enclosed areas (regions). Many rules apply based on the contents of these regions.
    Valid Path Cells: The path travels along the grid lines (edges between nodes). It can only occupy positions marked `+` or `.` in the grid layout (these correspond to positions with at least one even coordinate).
    Rule Cells: Cells containing rule symbols (squares, stars, etc.) have coordinates where both `x` and `y` are odd. The path goes *around* these rule cells, never *on* them.
{regions}

    Symbol Legend (Grid Notation)
    *   `S`: **Start Node** (Path begins here)
    *   `E`: **End Node** (Path ends here)
    *   `V`: **Visited Node** (Path has passed through this cell)
    *   `L`: **Current Node** (Path is currently on this cell)
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
{blank_lines}    Detailed Solving Rules:
    The drawn path must satisfy ALL applicable constraints:

    1.  Path Constraints:
        Path connects adjacent nodes (horizontal/vertical moves only).
{node_rule}
        Path MUST pass through all Dot cells.
        Path CANNOT pass through any Gap cells.

    2.  Region-Based Rules (Apply to areas enclosed by the path):
        Squares: All squares within a single region MUST be the same color. Squares of different colors MUST be separated into different regions by the path.
        Stars: Within a single region, each star symbol MUST be paired with exactly ONE other element of the same color. Other colors within the region are irrelevant to this specific star's rule.
        
{shape_rules}

    3.  Path-Based Rules (Edge Touching):
        Triangles: The path MUST touch a specific number of edges of the cell containing the triangle symbol.
            (1): Path touches EXACTLY 1 edge of the triangle's cell.
            (2): Path touches EXACTLY 2 edges of the triangle's cell.
            (3): Path touches EXACTLY 3 edges of the triangle's cell.
            (4): Path touches EXACTLY 4 edges (fully surrounds) the triangle's cell.

    Polyshape Definitions: Shapes are defined by 2D arrays where 1 indicates an occupied cell and 0 indicates an empty cell. 
    {polyshapes}

    At each turn you'll receive the current state:
    - Step: The current step number
    - Current Position: Your current (x, y) location
    - Legal Actions: Available moves with format [digit=DIRECTION, ...]
    - Grid State: The current grid showing your path progress
    """

#: Traceback (False, True) -> the revisiting rule of the core concepts.
REVISITING = {
    False: "    Revisiting: You can not traceback your path. you can not visit a cell twice.",
    True: (
        "    Revisiting: You can traceback your path, but you MUST do so in the same way you came, without crossing over your own path. \n"
        "    When tracing back, you can only move to the last cell you occupied, and then continue from there. Also when you trace back, the nodes you no longer use in your path are free to be used again."
    ),
}
#: Without traceback the reference states the regions concept a second time, after the rule cells.
REGIONS_AGAIN = {
    False: "    Regions: The drawn path divides the grid cells into one or more distinct enclosed areas (regions). Many rules apply based on the contents of these regions.\n",
    True: "",
}
#: The two blank lines after the color codes: indented without traceback, empty with it.
BLANK_LINES = {False: "    \n        \n", True: "\n\n"}
#: The revisit rule of the path constraints.
NODE_RULE = {
    False: "        Nodes CAN NOT be revisited. You cannot visit a cell twice.",
    True: (
        "        Nodes CAN be revisited. But only if you trace back to the last cell you occupied (and from there again and again ...).\n"
        "        Otherwise you CANNOT cross your own path."
    ),
}
#: The polyshape and negative-polyshape rules, per prompt kind: the only lines where they differ.
#: The paper wording's rotation sentence also changes with traceback (`{rotation}`).
SHAPE_RULES = {
    "paper": """        Polyshapes(poly): The region containing this symbol MUST be able to contain the specified shape (defined in Polyshape Definitions). The shape must fit entirely within the region's boundaries.
        If multiple positive polyshapes are in one region, the region must accommodate their combined, non-overlapping forms. {rotation}
        
        Negative Polyshapes(ylop): These subtract shape requirements, typically within the same region as corresponding positive polyshapes.
        A negative polyshape cancels out a positive polyshape of the exact same shape and color within that region.
        If all positive shapes are canceled, the region has no shape constraint. A negative shape is only considered 'used' if it cancels a positive one.
        Negative shapes can sometimes rationalize apparent overlaps or boundary violations of positive shapes if interpreted as cancellations.""",
    "corrected": """        Polyshapes(poly): The region containing this symbol MUST have exactly the specified shape (defined in Polyshape Definitions): the shape fills the whole region, with no cells left over.
        If multiple positive polyshapes are in one region, their shapes together must fill the region exactly, without overlapping. Rotation of polyshapes is NOT allowed. They must fit in their given orientation. The color of a polyshape does not matter for this rule.
        
        Negative Polyshapes(ylop): These subtract area from the positive polyshapes in the same region.
        The positive shapes, minus the cells covered by the negative shapes, must fill the region exactly, so the region's size is the total size of the positive shapes minus the total size of the negative shapes.
        A negative shape does not have to match the shape or color of any positive shape. If the negative shapes cancel the positive shapes completely, the region has no shape constraint.""",
}
PAPER_ROTATION = {
    False: "Rotation of polyshapes is NOT allowed. They must fit within the provided space in their given orientation.",
    True: "Rotation of polyshapes is generally allowed unless context implies otherwise.",
}

#: The reply instruction that closes every observation.
INSTRUCTION = """You MAY think step-by-step, but you MUST end your response with:
Final: <action>
Where <action> is one of 0=RIGHT, 1=UP, 2=LEFT, 3=DOWN (you may also write the direction name, e.g. Final: right)."""


def gym_system_prompt(
    record: Mapping[str, Any], kind: str = "paper", traceback: bool = False
) -> str:
    """The system prompt for one puzzle record (its polyshape definitions filled in).

    Args:
        record: the published-schema record; only its `polyshapes` are read.
        kind: the prompt kind, "paper" (the reference's wording) or "corrected";
            ValueError for others.
        traceback: whether stepping back is allowed (the rules text says so).

    Returns:
        The system prompt text."""
    check_prompt_kind(kind)
    traceback = bool(traceback)
    return GYM_TEMPLATE.format(
        revisiting=REVISITING[traceback],
        regions=REGIONS_AGAIN[traceback],
        blank_lines=BLANK_LINES[traceback],
        node_rule=NODE_RULE[traceback],
        shape_rules=SHAPE_RULES[kind].format(rotation=PAPER_ROTATION[traceback]),
        polyshapes=polyshapes_text(record),
    )


def legal_actions_text(legal: Sequence[int]) -> str:
    """`1=UP, 2=LEFT`: the legal actions as the reference lists them.

    Args:
        legal: action numbers (0-3), in the order to list them.

    Returns:
        The actions as `number=NAME`, comma-separated; empty for none."""
    return ", ".join(f"{action}={ACTION_NAMES[action]}" for action in legal)


def observation_text(step: int, position: str, legal: Sequence[int], grid: str) -> str:
    """The user message of step `step` (1-based): position, legal actions, grid, instruction.

    Args:
        step: the step number, from 1.
        position: the agent's position as `Stepper.position_text` writes it (`[4 10]`).
        legal: the legal action numbers (0-3).
        grid: the text grid as `Stepper.grid_text` writes it.

    Returns:
        The message text, ending with the reply instruction."""
    return f"""Step: {step}
Current Position: {position}
Legal Actions: [{legal_actions_text(legal)}]

Grid State:
{grid}

{INSTRUCTION}"""


#: The visual step-by-step system prompt (`--gym --visual`, sparc-visualization 0.2.2's wording);
#: without and with traceback it differs in three places.
VISUAL_TEMPLATE = """You are an expert spatial reasoning AI controlling a step-by-step puzzle solver for 'The Witness' game.

## Input Format
At each step you receive TWO inputs:
1. **An image** of the puzzle showing the current state, including your path progress
2. **A text message** with your current position coordinates and available legal moves

Use both together — the image helps with spatial reasoning and visual pattern recognition, while the text provides precise position and action information.

## Visual Appearance of the Puzzle Image

The image shows a Witness puzzle grid with a dark teal/green background. Here is how elements appear visually:

**Board structure:**
- Teal/green cells separated by dark gray grid lines (the path network)

**Navigation markers:**
- **Start Node**: A large filled circle on the grid edge — this is where the path begins
- **End Node**: A small rounded nub/extension protruding outward from the grid edge — this is where you must reach
- **Visited Path**: Marked with a WHITE LINE showing where you have already traveled
- **Current Position**: Located at the END of the white line (where the line stops)

**Rule symbols in cells** (located in cells where both x and y are odd — the path goes AROUND these cells, not through them):
- **Colored Squares**: Colored rounded rectangles inside cells (e.g., black, red, blue)
- **Colored Stars**: 8-pointed star shapes in their respective color inside cells
- **Triangles**: Small colored upward-pointing triangles inside cells — the count (1-4 triangles) indicates how many edges of that cell the path must touch
- **Polyshapes (positive)**: Tetromino-like colored filled block patterns inside cells, showing the shape the region must match
- **Polyshapes (negative/ylop)**: Same block patterns but drawn as hollow/outlined squares instead of filled — {ylop_look}

**Path elements** (located on grid lines):
- **Dots**: Small black hexagons on the grid lines — the path MUST pass through these
- **Gaps**: Broken/missing segments on the grid lines — the path CANNOT cross these

## Coordinate System
- Nodes are indexed (x, y) where (0,0) is the top-left node
- x increases to the right, y increases downward
- The path travels along grid edges, connecting adjacent nodes horizontally or vertically

## Solving Rules
{line_rule}2. The line can only be placed on valid path cells (not on rule cells)
3. The line acts as a boundary, dividing the grid into regions
4. All rule symbols must be satisfied:
   - **Dots** (black hexagons on grid lines): The line MUST pass through each dot
   - **Colored Squares** (filled rounded rectangles in cells): All squares in a single region must be the same color. Different colors MUST be separated into different regions
   - **Colored Stars** (8-pointed stars in cells): Each star must be paired with EXACTLY one other element of the same color in its region
   - **Triangles** (small triangles in cells): The line must touch EXACTLY the number of edges specified by the triangle count (1-4 edges)
   - **Polyshapes** (filled block patterns in cells): The region must be shaped exactly like the defined polyshape
   - **Negative Polyshapes** (hollow block patterns in cells): {ylop_rule}

{polyshapes}

## Actions
You can move in 4 directions:
- **0**: Move UP
- **1**: Move RIGHT  
- **2**: Move DOWN
- **3**: Move LEFT

{moves}
## How to Respond
Analyze the puzzle image showing your current position and path progress, together with the text information about your coordinates and legal moves. Determine which direction leads toward the exit while {closing}"""

VISUAL_YLOP_RULE = {
    "paper": "Cancel out regular polyshapes if they overlap",
    "corrected": (
        "Subtract area from the regular polyshapes in the same region. The region must have the area of the regular polyshapes minus the area of the negative ones; their shapes and colors do not have to match"
    ),
}
#: Traceback (False, True) -> rule 1, the moves section and the closing sentence.
VISUAL_LINE_RULE = {
    False: "1. Draw a continuous line from START to END without visiting the same node twice\n",
    True: "1. Draw a continuous line from START to END\n",
}
VISUAL_MOVES = {
    False: (
        "## Important\n- You CANNOT revisit cells you have already visited\n- You CANNOT cross your own path\n- Plan ahead to satisfy all constraints\n"
    ),
    True: (
        '## Traceback Rules\n- You CAN trace back along your existing path to undo moves\n- When tracing back, move onto the previous cell in your path to "erase" your last step\n- You CANNOT cross your path at a new point (only retrace backwards)\n- After tracing back, the freed cells become available again\n'
    ),
}
VISUAL_CLOSING = {
    False: "satisfying all puzzle rules.\n",
    True: "satisfying all puzzle rules. You can backtrack if you reach a dead end.\n",
}


def gym_visual_system_prompt(
    record: Mapping[str, Any], kind: str = "paper", traceback: bool = False
) -> str:
    """The step-by-step visual system prompt (`gym_visual[_traceback][_paper]`).

    Args:
        record: the published-schema record; only its `polyshapes` are read.
        kind: the prompt kind, "paper" or "corrected"; ValueError for others.
        traceback: whether stepping back is allowed (rule 1, the moves section and the
            closing sentence say so).

    Returns:
        The system prompt text."""
    check_prompt_kind(kind)
    return VISUAL_TEMPLATE.format(
        ylop_look=YLOP_LOOK[kind],
        ylop_rule=VISUAL_YLOP_RULE[kind],
        polyshapes=polyshapes_text(record),
        line_rule=VISUAL_LINE_RULE[traceback],
        moves=VISUAL_MOVES[traceback],
        closing=VISUAL_CLOSING[traceback],
    )


def gym_visual_step_text(step: int, position: str, legal: Sequence[int]) -> str:
    """The text after each step's image (`process_puzzle_step_by_step_visual`), step from 1.

    Args:
        step: the step number, from 1.
        position: the agent's position as `Stepper.position_text` writes it (`[4 10]`).
        legal: the legal action numbers (0-3).

    Returns:
        One line of step, position and legal moves, then the reply instruction."""
    return (
        f"Step {step} | Position: {position} | Legal moves: [{legal_actions_text(legal)}]"
        f"\n\n{INSTRUCTION}"
    )


def episode_system_prompt(record: Mapping[str, Any], settings: EpisodeSettings) -> str:
    """The system prompt of an episode with these settings: the visual one for image
    observations, else the text one (`sparc_gym`'s system message, `sparc_agent`'s rules).

    Args:
        record: the published-schema record; only its `polyshapes` are read.
        settings: the episode's settings; the observation, prompt kind and traceback are read.

    Returns:
        The system prompt text."""
    prompt = gym_visual_system_prompt if settings.image else gym_system_prompt
    return prompt(record, settings.prompt, settings.traceback)
