"""Reading logs into frames: finding and opening logs (`logs`), the run frame (`runs`), the
sample frame (`samples`) and what each SPaRC puzzle contributes to it (`puzzles`); `rescore`
scores logged answers again when asked. Nothing here computes a table or draws."""
