"""Column names of the report's frames: the identity columns of the run and sample frames (which
the analysis tables keep under the same names) and the sample frame's columns named after score
metadata. `report/read/` writes them (the report alone uses them: the tasks write
score names, `contract`); `report/analysis/` and the sections read them."""

from __future__ import annotations

from inspect_sparc.contract import scores

#: The log file a row comes from: what tables and figures group runs by.
LOG = "log"
#: A run's display label (unique per log; never grouped by).
RUN = "run"
#: The task's registry name without the package prefix.
TASK = "task"
MODEL = "model"
#: The paper protocol a run follows (`single_shot`, `gym`, ..., `algopuzzlevqa`).
PROTOCOL = "protocol"
#: The epochs reducer whose metrics a run's row shows, decided once by `read.reducer`.
REDUCER = "metrics_reducer"
#: How the report applies that reducer to per-epoch values (mean, max, min, median; missing:
#: a reducer it cannot apply).
REDUCTION = "reduction"
#: A sample's id and epoch.
ID = "id"
EPOCH = "epoch"
LEVEL = "level"
#: AlgoPuzzleVQA: a sample's puzzle type, and its ontology categories joined by commas.
PUZZLE = "puzzle"
CATEGORIES = "categories"
#: How an episode ended (the sample frame's copy of the score metadata `scores.ENDED`).
ENDED = scores.ENDED
#: Points in the answered path (score metadata, or counted from the answer).
PATH_LENGTH = scores.PATH_LENGTH
